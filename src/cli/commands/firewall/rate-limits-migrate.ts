/**
 * What `edgectl firewall rate-limits migrate` does: a zone's rate limits (previous version) -> rate
 * limiting rules in the `http_ratelimit` entry point (src/firewall/rate-limit-plan.ts), on the one
 * migration engine through src/services/rate-limit-migration-service.ts: this file owns no step.
 * The same flow as `firewall lockdowns migrate`: the plan is computed once; `--dry-run` prints it
 * (`--json`: the plan object), the apply sends exactly it, journaled; a re-run finishes an unfinished
 * journal; `--rollback` restores the journal's "before" (refused after --delete-old).
 * `--replay FILE` counts a traffic file with times through the rate limits now and the planned rules
 * (after an apply: the journal's "before" and the zone now), through
 * src/services/legacy-replay-service.ts, printed as `firewall migrate --replay` does.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  applyRateLimits,
  checkRateLimits,
  rateLimitDriver,
  rateLimitJournal,
  planRateLimits,
  resumeRateLimits,
  rollbackRateLimits,
  type RateLimitPlan
} from "../../../services/rate-limit-migration-service.js"
import { rateLimitJournalBefore, replayRateLimits } from "../../../services/legacy-replay-service.js"
import { resolveZone } from "../../../services/zones-service.js"
import { migrationTargetLayer } from "../../environment.js"
import {
  journaled,
  type MigrationCommand,
  outcomeText,
  printRequests,
  progressOf,
  sentOfKinds
} from "../../migration-cli.js"
import { inputFile, opt } from "../../options.js"
import { clip, printJson, printLine, printTable } from "../../output.js"
import { confirmOrRefuse } from "../../prompt.js"
import { CliFailure, usage } from "../../run.js"
import { runFw } from "./common.js"
import type { Parsed } from "./inputs.js"
import { reportReplay } from "./migrate-replay.js"

const what = "firewall rate-limits migrate"
const command: MigrationCommand = { what, kind: rateLimitDriver.kind, commands: rateLimitDriver.commands }

const cancelled = () =>
  Effect.fail(new CliFailure({ text: `error: ${what}: cancelled; nothing was changed`, exitCode: 1 }))

/** The rate limit -> rule table and the notes. */
const printPreview = (p: RateLimitPlan) => {
  const byRef = new Map(p.expected.rules.map((r, i) => [r.ref, { r, i }]))
  printLine(
    `Migration of zone ${p.zone.name}: ${p.before.rateLimits.length} rate limit(s) (previous version) -> rate limiting rules`
  )
  if (p.mapping.length > 0) {
    printLine("")
    printTable(
      ["SOURCE", "WAS", "BECOMES (#: place in the rate limiting rules)"],
      p.mapping.map((m) => {
        const rl = p.before.rateLimits.find((r) => r.id === m.rule)
        const e = byRef.get(m.ref)
        return [
          m.rule,
          rl === undefined
            ? ""
            : `${rl.action.mode} ${rl.threshold}/${rl.period}s: ${clip(rl.match.request.url, 28)}${rl.disabled ? ", disabled" : ""}`,
          e === undefined
            ? m.ref
            : `#${e.i + 1} ${e.r.action} ${e.r.ratelimit.requests_per_period ?? ""}/${e.r.ratelimit.period}s${e.r.enabled === false ? " (disabled)" : ""}`
        ]
      })
    )
  }
  if (p.notes.length > 0) {
    printLine("")
    for (const n of p.notes) printLine(`${n.severity}: ${n.message}`)
  }
}

const endText = (p: RateLimitPlan) => {
  const changed = p.steps.filter((s) => s.key.startsWith("disable:") || s.key.startsWith("delete:")).length
  return `zone ${p.zone.name} would have ${p.expected.rules.length} rate limiting rule(s); ${changed} rate limit(s) ${p.delete_old ? "deleted" : "disabled"}.`
}

export const rateLimitsMigrate = (o: Parsed<"rateLimitsMigrate">) =>
  Effect.gen(function* () {
    if (o.zone.trim() === "") return yield* Effect.fail(usage("--zone needs a value, got an empty string"))
    if (o.rollback && (o.dryRun || o.deleteOld))
      return yield* Effect.fail(
        usage("--rollback restores the journal's before; it cannot be used with --dry-run or --delete-old")
      )
    const replayFile = opt(o.replay)
    if (replayFile !== undefined && (o.dryRun || o.deleteOld || o.yes || o.rollback))
      return yield* Effect.fail(
        usage("--replay only compares; it cannot be used with --dry-run, --delete-old, --rollback or --yes")
      )
    if (replayFile !== undefined && replayFile !== "-") yield* inputFile("replay", replayFile)
    const journals = migrationTargetLayer({ remote: o.remote, persistTo: Option.getOrUndefined(o.persistTo) })
    const work = Effect.gen(function* () {
      const z = yield* resolveZone(o.zone)
      if (replayFile !== undefined) {
        const report = yield* Effect.catchTag(
          replayRateLimits(
            yield* planRateLimits(z, false),
            replayFile,
            yield* rateLimitJournalBefore(z),
            z.plan?.legacy_id
          ),
          "InvalidInput",
          (e) => Effect.fail(new CliFailure({ text: `error: ${what} --replay: ${e.message}`, exitCode: 1 }))
        )
        return yield* reportReplay(what, o, z.name, report)
      }
      const progress = progressOf(o.json)
      if (o.rollback) {
        if ((yield* rateLimitJournal(z)) !== undefined) {
          const yes = yield* confirmOrRefuse(
            `Roll back the rate limit migration of zone ${z.name}: restore its rate limiting rules and re-enable its rate limits?`,
            { yes: o.yes },
            { what, doing: `rolling back zone ${z.name}`, hint: "pass --yes to roll back" }
          )
          if (!yes) return yield* cancelled()
        }
        const done = yield* journaled(command, z, rollbackRateLimits(z, progress))
        if (o.json) return printJson({ zone: z.name, rollback: done })
        return printLine(`Rolled back the rate limit migration of zone ${z.name}: ${outcomeText(done)}.`)
      }
      const found = yield* rateLimitJournal(z)
      if (found !== undefined && !found.status.finished) {
        const { journal, status } = found
        const steps = journal.plan.migration.steps
        const undoing = status.operation === "rollback"
        const of = undoing ? (journal.plan.rollback?.steps.length ?? 0) : steps.length
        const text = `Found an unfinished ${undoing ? "rollback" : "migration"} of zone ${z.name} (journal ${journal.base}.json): ${status.written.length} of ${of} step(s) written${status.unanswered !== undefined ? ", 1 sent with no answer (it may have been applied)" : ""}${status.failed !== undefined ? `; it stopped on: ${status.failed.error}` : ""}.`
        if (o.dryRun) {
          if (o.json)
            return printJson({ dry_run: true, unfinished: true, journal: `${journal.base}.json`, steps, status })
          printLine(text)
          return printRequests(steps)
        }
        if (!o.json)
          printLine(`${text} ${undoing ? "Applying the journal's migration again." : "Finishing the migration."}`)
        const yes = yield* confirmOrRefuse(
          `Finish the rate limit migration of zone ${z.name}?`,
          { yes: o.yes },
          { what, doing: `finishing zone ${z.name}`, hint: "pass --yes to finish it, or --rollback --yes to undo it" }
        )
        if (!yes) return yield* cancelled()
        const done = yield* journaled(
          command,
          z,
          resumeRateLimits(journal, { ...status, operation: "migrate" }, progress)
        )
        if (o.json) return printJson({ zone: z.name, resumed: done })
        return printLine(`Finished the rate limit migration of zone ${z.name}: ${outcomeText(done)}.`)
      }
      const plan = yield* planRateLimits(z, o.deleteOld)
      if (plan.before.rateLimits.length === 0) {
        if (o.json) return printJson({ plan, outcome: null })
        return printLine(`Nothing to migrate: zone ${z.name} has no rate limits (previous version).`)
      }
      const checked = plan.refused === undefined
      if (checked) yield* checkRateLimits(plan)
      if (o.dryRun) {
        if (o.json) printJson(plan)
        else {
          printPreview(plan)
          printLine("")
          if (plan.refused === undefined) {
            printRequests(plan.steps)
            printLine("")
            printLine(`and ${endText(plan)}`)
          }
        }
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
      const changed = plan.steps.filter((s) => s.key !== "entrypoint").length
      const yes = yield* confirmOrRefuse(
        `Write ${plan.expected.rules.length} rate limiting rule(s) on zone ${z.name} and ${o.deleteOld ? "delete" : "disable"} ${changed} rate limit(s)?`,
        { yes: o.yes },
        { what, doing: `migrating zone ${z.name}`, hint: "pass --yes to migrate, or --dry-run to see the requests" }
      )
      if (!yes) return yield* cancelled()
      const done = yield* journaled(command, z, applyRateLimits(plan, progress, { checked }))
      if (o.json) return printJson({ plan, outcome: done })
      const sentChanged = sentOfKinds(done, ["disable", "delete"])
      printLine(
        `Migrated zone ${z.name}: ${plan.expected.rules.length} rate limiting rule(s); ${sentChanged} rate limit(s) ${o.deleteOld ? "deleted" : "disabled"}; ${outcomeText(done)}.`
      )
    })
    return yield* runFw(what, o, { zone: o.zone }, Effect.provide(work, journals))
  })
