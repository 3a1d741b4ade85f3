/**
 * What `edgectl waf migrate` does: the entry point PUT of the WAF migration, on the one migration
 * engine through the service the TUI's Deploy uses (src/services/waf-migration-service.ts): the
 * dry run prints the exact request, the apply sends it journaled and reads the zone back. A stop (a
 * refusal, a lost answer, SIGINT/SIGTERM/SIGHUP) says what was written and the command that finishes
 * it; a re-run finds the journal, re-reads the zone and skips the step if it is in effect. Nothing
 * undoes it: `--rollback` is refused with the reason (src/waf/migration-plan.ts).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MigrationStopped, V4Error } from "../../../domain/errors.js"
import { requestLines } from "../../../domain/request-text.js"
import { journalOf, stoppedFrom, type RunOutcome } from "../../../services/migration-engine.js"
import { MigrationTarget, readJournal, type JournalStatus } from "../../../services/migration-journal.js"
import * as Waf from "../../../services/waf-migration-service.js"
import * as WafRun from "../../../services/waf-migration-run.js"
import { irreversibleReason } from "../../../waf/migration-plan.js"
import { migrationTargetLayer } from "../../environment.js"
import { quote } from "../../hints.js"
import { printJson, printLine } from "../../output.js"
import { confirmOrRefuse } from "../../prompt.js"
import { CliFailure, isRemote, targetOn, usage } from "../../run.js"
import { stoppable, type StopSignal } from "../../signals.js"
import type { Parsed } from "./options.js"
import { readConfig, STATE_TEXT, withZone } from "./run.js"

const what = "waf migrate"

/** A stop: what the journal says was written, and the command that finishes it; nothing undoes it. */
const stopHint = (finish: string) => `finish it: ${finish} (it cannot be undone: the WAF migration is irreversible)`

/** Runs a journaled operation until it ends or a signal arrives; a stop is exit 1 (or 128 + the signal). */
const journaled = <A, R>(z: Waf.WafZone, work: Effect.Effect<A, MigrationStopped | V4Error, R>) =>
  Effect.gen(function* () {
    const base = yield* journalOf(WafRun.wafMigrationDriver.kind, z, undefined)
    const target = yield* MigrationTarget
    const commands = WafRun.wafMigrationDriver.commands(z.name)
    const onSignal = (signal: StopSignal) => {
      const journal = readJournal(base)
      if (journal === undefined) return { error: `${what}: stopped by ${signal}; nothing was written` }
      const e = stoppedFrom(journal, commands, target.flags, `interrupted by ${signal}`)
      return { error: `${what}: ${e.message}`, hint: stopHint(e.finish) }
    }
    return yield* stoppable(
      Effect.catchTag(work, "MigrationStopped", (e) =>
        Effect.fail(new CliFailure({ text: `error: ${what}: ${e.message}\nhint: ${stopHint(e.finish)}`, exitCode: 1 }))
      ),
      onSignal
    )
  })

const outcomeText = (o: RunOutcome) =>
  `${o.sent.length} request(s) sent${o.skipped.length > 0 ? `, ${o.skipped.length} step(s) already in effect` : ""}; the zone was read back and matches the plan (journal ${o.journal})`

/** A migration a stop left unfinished: said, then finished from its journal (the dry run only says it). */
const resume = (
  o: Parsed<"migrate">,
  z: Waf.WafZone,
  unfinished: { journal: WafRun.WafJournal; status: JournalStatus }
) =>
  Effect.gen(function* () {
    const { journal, status } = unfinished
    const steps = journal.plan.migration.steps
    const found = `Found an unfinished WAF migration of zone ${z.name} (journal ${journal.base}.json): ${status.written.length} of ${steps.length} step(s) written${status.unanswered !== undefined ? ", 1 sent with no answer (it may have been applied)" : ""}${status.failed !== undefined ? `; it stopped on: ${status.failed.error}` : ""}.`
    if (o.dryRun) {
      if (o.json) return printJson({ dry_run: true, unfinished: true, journal: `${journal.base}.json`, steps, status })
      printLine(found)
      printLine("Dry run: nothing was changed. Finishing it re-reads the zone and sends the step if not in effect:")
      for (const s of steps) printLine(`  ${s.method} ${s.path}  (${s.description})`)
      return
    }
    if (!o.json) printLine(`${found} Finishing it: it re-reads the zone and sends the step only if not in effect.`)
    const yes = yield* confirmOrRefuse(
      `Finish the WAF migration of zone ${z.name}? It cannot be undone.`,
      { yes: o.yes },
      { what, doing: `finishing the migration of ${z.name}`, hint: "pass --yes to finish it (irreversible)" }
    )
    if (!yes)
      return yield* Effect.fail(new CliFailure({ text: `error: ${what}: cancelled; nothing was changed`, exitCode: 1 }))
    const done = yield* journaled(z, WafRun.resumeWafMigration(journal, status))
    const after = yield* Waf.status(z)
    if (o.json) return printJson({ zone: z, resumed: done, to: after.migration_state })
    printLine(
      `Finished the WAF migration of zone ${z.name} (now ${STATE_TEXT[after.migration_state] ?? after.migration_state}): ${outcomeText(done)}.`
    )
  })

export const migrate = (o: Parsed<"migrate">) =>
  o.rollback && (o.dryRun || Option.isSome(o.mode) || Option.isSome(o.config))
    ? Effect.fail(usage("--rollback cannot be used with --dry-run, --mode or --config"))
    : withZone(what, o, (z) =>
        Effect.provide(
          Effect.gen(function* () {
            if (o.rollback)
              return yield* Effect.fail(
                new CliFailure({ text: `error: ${what}: ${yield* WafRun.wafRollbackRefusal(z)}`, exitCode: 1 })
              )
            const unfinished = yield* WafRun.unfinishedWafMigration(z)
            if (unfinished !== undefined) return yield* resume(o, z, unfinished)
            return yield* fresh(o, z)
          }),
          migrationTargetLayer({ remote: isRemote(o), persistTo: Option.getOrUndefined(o.persistTo) })
        )
      )

const fresh = (o: Parsed<"migrate">, z: Waf.WafZone) =>
  Effect.gen(function* () {
    const cfg = Option.isSome(o.config) ? yield* readConfig(o.config.value) : undefined
    const step = yield* Waf.prepare(z, { mode: Option.getOrUndefined(o.mode), config: cfg })
    const q = step.request.query
    if (o.dryRun) {
      if (o.json)
        return printJson({
          dry_run: true,
          zone: z,
          request: step.request,
          from: step.from,
          to: step.to,
          irreversible: step.to === "finished",
          checked_by: step.checkedBy
        })
      printLine(`Dry run: nothing was changed. The migration would send:`)
      printLine("")
      for (const line of requestLines(Waf.plannedRequest(step.request))) printLine(line)
      printLine("")
      printLine(`and zone ${z.name} would go from ${step.from} to ${STATE_TEXT[step.to] ?? step.to}.`)
      printLine(
        step.checkedBy === "platform"
          ? "The platform checked this request (dry_run=true) and would accept it."
          : "edgectl checked this request as the platform does (the platform has no dry run for it); the ids of managed rulesets, their rules and categories are the platform's to check."
      )
      printLine(`It is journaled and cannot be rolled back: ${irreversibleReason(q.waf_migration)}.`)
      return
    }
    if (step.to === "finished") {
      const yes = yield* confirmOrRefuse(
        `Finish the WAF migration of zone ${z.name}? The previous WAF is turned off for good: this is irreversible.`,
        { yes: o.yes },
        {
          what,
          doing: `finishing the migration of ${z.name}`,
          hint: "pass --yes to confirm (irreversible), or --dry-run to see the request"
        }
      )
      if (!yes)
        return yield* Effect.fail(
          new CliFailure({ text: "error: waf migrate: cancelled; nothing was changed", exitCode: 1 })
        )
    }
    const done = yield* journaled(z, Waf.apply(z, step))
    if (o.json)
      return printJson({
        dry_run: false,
        zone: z,
        request: done.request,
        from: done.from,
        to: done.to,
        ruleset: done.ruleset
      })
    printLine(
      done.to === "finished"
        ? `Migration finished: zone ${z.name} now runs WAF Managed Rules (entry point version ${done.ruleset?.version}); the previous WAF is off.`
        : `Validation mode: zone ${z.name} runs both versions, the new one first (entry point version ${done.ruleset?.version}). Finish with \`edgectl waf migrate --zone ${quote(z.name)} --mode pending${targetOn(o)}\`.`
    )
  })
