/**
 * What `edgectl firewall migrate` does: firewall rules -> WAF custom rules, on the one migration
 * engine (src/services/migration-engine.ts) through the service the TUI uses too
 * (src/services/custom-rules-migration-service.ts): this file owns no step. The plan is computed
 * once; `--dry-run` prints it (`--json`: the plan object), the apply sends exactly it, journaled.
 * A re-run finishes an unfinished journal (or pauses migrated rules found active); `--rollback`
 * restores the journal's "before". A stop (a refusal, a lost connection, SIGINT/SIGTERM/SIGHUP)
 * says what was written and prints the commands that finish and undo it. `--replay` runs a traffic file
 * through the zone before and after the plan (./migrate-replay.ts).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MigrationStopped, V4Error } from "../../../domain/errors.js"
import {
  applyZoneMigration,
  checkZoneMigration,
  firewallMigrationDriver,
  journalBefore,
  planZoneMigration,
  resumeZoneMigration,
  rollbackZoneMigration,
  unfinishedZoneMigration,
  zoneMigrationJournal
} from "../../../services/custom-rules-migration-service.js"
import type { RunOutcome } from "../../../services/migration-engine.js"
import { resolveZone } from "../../../services/zones-service.js"
import { migrationTargetLayer } from "../../environment.js"
import { inputFile, opt } from "../../options.js"
import {
  journaled as journaledRun,
  type MigrationCommand,
  outcomeText,
  progressOf,
  sentOfKinds
} from "../../migration-cli.js"
import { printJson, printLine } from "../../output.js"
import { confirmOrRefuse } from "../../prompt.js"
import { CliFailure, isRemote, usage } from "../../run.js"
import { runFw } from "./common.js"
import type { Parsed } from "./inputs.js"
import { endText, printDryRun, printPreview } from "./migrate-print.js"
import { replayPlan } from "./migrate-replay.js"

const what = "firewall migrate"

const migration: MigrationCommand = {
  what,
  kind: firewallMigrationDriver.kind,
  commands: firewallMigrationDriver.commands
}
const journaled = <R>(
  zone: { readonly id: string; readonly name: string; readonly account: { readonly id: string } },
  work: Effect.Effect<RunOutcome, MigrationStopped | V4Error, R>
) => journaledRun(migration, zone, work)

export const migrate = (o: Parsed<"migrate">) =>
  Effect.gen(function* () {
    if (o.zone.trim() === "") return yield* Effect.fail(usage("--zone needs a value, got an empty string"))
    const replayFile = opt(o.replay)
    if (replayFile !== undefined && (o.dryRun || o.deleteOld || o.yes || o.rollback))
      return yield* Effect.fail(
        usage("--replay only compares; it cannot be used with --dry-run, --delete-old, --rollback or --yes")
      )
    if (o.rollback && (o.dryRun || o.deleteOld))
      return yield* Effect.fail(
        usage("--rollback restores the journal's before; it cannot be used with --dry-run or --delete-old")
      )
    if (replayFile !== undefined && replayFile !== "-") yield* inputFile("replay", replayFile)
    const journals = migrationTargetLayer({ remote: isRemote(o), persistTo: Option.getOrUndefined(o.persistTo) })
    const work = Effect.gen(function* () {
      const z = yield* resolveZone(o.zone)
      if (replayFile !== undefined) {
        const p = yield* planZoneMigration(z, false)
        return yield* replayPlan(o, z.name, p, replayFile, yield* journalBefore(z))
      }
      const progress = progressOf(o.json)
      if (o.rollback) {
        const j = yield* zoneMigrationJournal(z)
        if (j !== undefined) {
          const yes = yield* confirmOrRefuse(
            `Roll back the migration of zone ${z.name}: restore its custom rules and its firewall rules' paused flags as they were before it?`,
            { yes: o.yes },
            { what, doing: `rolling back zone ${z.name}`, hint: "pass --yes to roll back" }
          )
          if (!yes)
            return yield* Effect.fail(
              new CliFailure({ text: `error: ${what}: cancelled; nothing was changed`, exitCode: 1 })
            )
        }
        const done = yield* journaled(z, rollbackZoneMigration(z, progress))
        if (o.json) return printJson({ zone: z.name, rollback: done })
        return printLine(`Rolled back the migration of zone ${z.name}: ${outcomeText(done)}.`)
      }
      const unfinished = yield* unfinishedZoneMigration(z)
      if (unfinished !== undefined) {
        const { journal, status } = unfinished
        const steps = journal.plan.migration.steps
        // A rollback stopped half way is undone by applying the journal's migration again.
        const undoing = status.operation === "rollback"
        const of = undoing ? (journal.plan.rollback?.steps.length ?? 0) : steps.length
        const found = `Found an unfinished ${undoing ? "rollback" : "migration"} of zone ${z.name} (journal ${journal.base}.json): ${status.written.length} of ${of} step(s) written${status.unanswered !== undefined ? `, 1 sent with no answer (it may have been applied)` : ""}${status.failed !== undefined ? `; it stopped on: ${status.failed.error}` : ""}.`
        if (o.dryRun) {
          if (o.json)
            return printJson({ dry_run: true, unfinished: true, journal: `${journal.base}.json`, steps, status })
          printLine(found)
          printLine(
            `Dry run: nothing was changed. Finishing it re-reads the zone and sends the steps not in effect among:`
          )
          for (const s of steps) printLine(`  ${s.method} ${s.path}  (${s.description})`)
          return
        }
        if (!o.json)
          printLine(`${found} ${undoing ? "Applying the journal's migration again." : "Finishing the migration."}`)
        const yes = yield* confirmOrRefuse(
          `Finish the migration of zone ${z.name}?`,
          { yes: o.yes },
          {
            what,
            doing: `finishing the migration of zone ${z.name}`,
            hint: "pass --yes to finish it, or --rollback --yes to undo it"
          }
        )
        if (!yes)
          return yield* Effect.fail(
            new CliFailure({ text: `error: ${what}: cancelled; nothing was changed`, exitCode: 1 })
          )
        const done = yield* journaled(z, resumeZoneMigration(journal, { ...status, operation: "migrate" }, progress))
        if (o.json) return printJson({ zone: z.name, resumed: done })
        return printLine(`Finished the migration of zone ${z.name}: ${outcomeText(done)}.`)
      }
      const plan = yield* planZoneMigration(z, o.deleteOld)
      if (plan.before.firewallRules.length === 0) {
        if (o.json) return printJson({ plan, outcome: null })
        return printLine(`Nothing to migrate: zone ${z.name} has no firewall rules.`)
      }
      // The platform checks the entry point before the dry run prints and before the apply asks.
      const checked = plan.refused === undefined
      if (checked) yield* checkZoneMigration(plan)
      if (o.dryRun) {
        if (o.json) printJson(plan)
        else printDryRun(plan)
        if (plan.refused !== undefined)
          return yield* Effect.fail(new CliFailure({ text: `error: ${what}: refused: ${plan.refused}`, exitCode: 1 }))
        return
      }
      if (!o.json) {
        printPreview(plan)
        printLine("")
      }
      if (plan.refused !== undefined)
        return yield* Effect.fail(
          new CliFailure({ text: `error: ${what}: refused, nothing was changed: ${plan.refused}`, exitCode: 1 })
        )
      if (plan.steps.length === 0) {
        if (o.json) return printJson({ plan, outcome: null })
        return printLine(`Nothing to do: ${endText(plan).replace(" would have ", " has ")}`)
      }
      const changed = plan.steps.length - (plan.steps[0]?.key === "entrypoint" ? 1 : 0)
      const yes = yield* confirmOrRefuse(
        `Write ${plan.expected.customRules.length} custom rule(s) on zone ${z.name} and ${o.deleteOld ? "delete" : "pause"} ${changed} firewall rule(s)?`,
        { yes: o.yes },
        { what, doing: `migrating zone ${z.name}`, hint: "pass --yes to migrate, or --dry-run to see the requests" }
      )
      if (!yes)
        return yield* Effect.fail(
          new CliFailure({ text: `error: ${what}: cancelled; nothing was changed`, exitCode: 1 })
        )
      const done = yield* journaled(z, applyZoneMigration(plan, progress, { checked }))
      if (o.json) return printJson({ plan, outcome: done })
      // What this run sent: another run may have written some of the steps meanwhile (outcomeText counts them).
      const sentChanged = sentOfKinds(done, ["pause", "delete"])
      printLine(
        `Migrated zone ${z.name}: ${plan.expected.customRules.length} custom rule(s); ${sentChanged} firewall rule(s) ${o.deleteOld ? "deleted" : "paused"}; ${outcomeText(done)}.`
      )
      const left = plan.migration.entries.filter((e) => e.custom_rule === null).map((e) => e.firewall_rule)
      if (left.length > 0) printLine(`Not migrated, left as they are: ${left.join(", ")} (see the notes above).`)
    })
    return yield* runFw(what, o, { zone: o.zone, customRules: true }, Effect.provide(work, journals))
  })
