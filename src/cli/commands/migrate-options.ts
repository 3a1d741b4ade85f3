/**
 * The options of `edgectl migrate --zone Z`, declared once: the command (./migrate.ts) takes them
 * and its handler's input (./migrate-run.ts) is derived from them, apart so neither imports the other.
 */
import type * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { choiceOption, fileOption, target, zoneOption } from "../options.js"

/** The options, declared once: the handler's input is derived from them (`MigrateOptions`). */
export const migrateOptions = {
  ...target,
  zone: zoneOption(),
  yes: Options.boolean("yes").pipe(Options.withAlias("y"), Options.withDescription("do not ask for confirmation")),
  dryRun: Options.boolean("dry-run").pipe(
    Options.withDescription(
      "print the exact requests of every part and the state the zone would end in; change nothing"
    )
  ),
  deleteOld: Options.boolean("delete-old").pipe(
    Options.withDescription(
      "delete the migrated firewall rules, Zone Lockdown, UA rules and rate limits instead of pausing or disabling them (cannot be rolled back)"
    )
  ),
  rollback: Options.boolean("rollback").pipe(
    Options.withDescription(
      "restore what the zone's last `migrate --zone` found (from the journal); refused once the previous WAF was moved"
    )
  ),
  wafMode: choiceOption("waf-mode", ["validation", "pending"]).pipe(
    Options.withDescription(
      "the previous WAF's step: validation (enterprise: both WAFs run) or pending (finish the move); default: the dashboard's Deploy"
    ),
    Options.optional
  ),
  replay: fileOption("replay").pipe(
    Options.withDescription(
      "JSONL traffic (- for stdin): each part's replay of it, summed (exit 1 if a request is decided differently or nothing was compared); changes nothing"
    ),
    Options.optional
  )
}

export type MigrateOptions = Command.Command.ParseConfig<typeof migrateOptions>
