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
import {
  applyRateLimits,
  checkRateLimits,
  rateLimitDriver,
  rateLimitJournal,
  planRateLimits,
  resumeRateLimits,
  rollbackRateLimits,
  type RateLimitJournal,
  type RateLimitPlan
} from "../../../services/rate-limit-migration-service.js"
import { rateLimitJournalBefore, replayRateLimits } from "../../../services/legacy-replay-service.js"
import { outcomeText, sentOfKinds } from "../../migration-cli.js"
import { previewRequestsEnd, replayFailures, type MigrationFlow } from "../../migration-runner.js"
import { rateLimitRows } from "../../../firewall/legacy-migration-rows.js"
import { clip, printLine, printTable } from "../../output.js"
import { migrationCommand } from "./migration-command.js"
import type { Parsed } from "./options.js"

const what = "firewall rate-limits migrate"

/** The rate limit -> rule table and the notes. */
export const printRateLimitPreview = (p: RateLimitPlan) => {
  printLine(
    `Migration of zone ${p.zone.name}: ${p.before.rateLimits.length} rate limit(s) (previous version) -> rate limiting rules`
  )
  if (p.mapping.length > 0) {
    printLine("")
    printTable(
      ["SOURCE", "WAS", "BECOMES (#: place in the rate limiting rules)"],
      rateLimitRows(p, clip).map((r) => [r.source, r.was, r.becomes])
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

export const rateLimitFlow: MigrationFlow<RateLimitPlan, RateLimitJournal> = {
  command: { what, kind: rateLimitDriver.kind, commands: rateLimitDriver.commands },
  title: "rate limit migration",
  rollbackQuestion: (zone) =>
    `Roll back the rate limit migration of zone ${zone}: restore its rate limiting rules and re-enable its rate limits?`,
  finishing: (zone) => `finishing zone ${zone}`,
  journal: rateLimitJournal,
  rollback: rollbackRateLimits,
  resume: resumeRateLimits,
  plan: planRateLimits,
  nothing: (plan, zone) =>
    plan.before.rateLimits.length === 0
      ? `Nothing to migrate: zone ${zone} has no rate limits (previous version).`
      : undefined,
  check: checkRateLimits,
  printDryRun: previewRequestsEnd(printRateLimitPreview, endText),
  printPreview: printRateLimitPreview,
  endText,
  question: (plan, zone, deleteOld) =>
    `Write ${plan.expected.rules.length} rate limiting rule(s) on zone ${zone} and ${deleteOld ? "delete" : "disable"} ${plan.steps.filter((s) => s.key !== "entrypoint").length} rate limit(s)?`,
  apply: applyRateLimits,
  done: (plan, zone, done) => [
    `Migrated zone ${zone}: ${plan.expected.rules.length} rate limiting rule(s); ${sentOfKinds(done, ["disable", "delete"])} rate limit(s) ${plan.delete_old ? "deleted" : "disabled"}; ${outcomeText(done)}.`
  ]
}

export const rateLimitsMigrate = (o: Parsed<"rateLimitsMigrate">) =>
  migrationCommand(
    what,
    o,
    rateLimitFlow,
    (z, file) =>
      Effect.gen(function* () {
        const plan = yield* planRateLimits(z, false)
        const before = yield* rateLimitJournalBefore(z)
        return yield* replayFailures(what, replayRateLimits(plan, file, before, z.plan?.legacy_id))
      }),
    { zone: o.zone }
  )
