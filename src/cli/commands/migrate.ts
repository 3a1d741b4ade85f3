/**
 * `edgectl migrate --zone Z`: everything legacy on a zone (firewall rules, Zone Lockdown and User
 * Agent Blocking, rate limits of the previous version, the previous WAF) in one plan, one apply and
 * one journal. The tree is declared here, loaded at every start; what it does is ./migrate-run.ts.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { lazyHandlers } from "../lazy.js"
import { choiceOption, fileOption, target } from "../options.js"

const handler = lazyHandlers(() => import("./migrate-run.js"))

/** The options, declared once: the handler's input is derived from them (`MigrateOptions`). */
const options = {
  ...target,
  zone: Options.text("zone").pipe(Options.withDescription("the zone, by id or name")),
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

export type MigrateOptions = Command.Command.ParseConfig<typeof options>

export const migrate = Command.make(
  "migrate",
  options,
  handler((m) => m.migrateZone)
).pipe(
  Command.withDescription(
    "move everything legacy on a zone in one plan: firewall rules, Zone Lockdown and UA rules, rate limits, then the previous WAF (journaled: a re-run finishes a stopped migration, --rollback undoes it until the WAF step)"
  )
)
