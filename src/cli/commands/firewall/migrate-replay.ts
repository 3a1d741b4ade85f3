/**
 * `edgectl firewall migrate --replay FILE` (`-` for stdin; pipes and FIFOs too): the traffic through
 * the zone now and the zone as the migration leaves it, both whole (src/services/migration-replay-
 * service.ts), changing nothing. It prints what it compared and the file, the counts, each request
 * decided differently with the rules responsible on both sides, and the lines it could not read as
 * `warning:` lines. Exit 1 when a request is decided differently or nothing was compared (a file of
 * no request, or a zone already migrated with no journal of its "before"), like diff(1).
 */
import * as Effect from "effect/Effect"
import { decidedText, replayCounts, verdictText, type ZoneRulesState } from "../../../firewall/custom-rules-replay.js"
import { notReadLines } from "../../../rules/traffic-line.js"
import type { FirewallMigrationPlan } from "../../../firewall/custom-rules-plan.js"
import {
  replayHeading,
  replayMigrationStates,
  statesToCompare,
  type MigrationReplay
} from "../../../services/migration-replay-service.js"
import { clip, printJson, printLine, printTable } from "../../output.js"
import { CliFailure } from "../../run.js"
import { writeErr } from "../../stdio.js"

const print = (zone: string, r: MigrationReplay) => {
  printLine(replayHeading(r))
  printLine(replayCounts(r))
  printLine(`decided: ${decidedText(r)}`)
  if (r.disagreements.length === 0) return
  printLine("")
  printTable(
    ["LINE", "REQUEST", "DIFFERS IN", "BEFORE", "AFTER"],
    r.disagreements.map((d) => [
      d.line,
      clip(d.id ? `${d.id}: ${d.summary}` : d.summary, 60),
      d.differences.join(", "),
      verdictText(d.before),
      verdictText(d.after)
    ])
  )
  const differ = r.requests - r.agreed
  if (r.disagreements.length < differ)
    printLine(`... ${differ - r.disagreements.length} more decided differently on zone ${zone} (not kept)`)
}

/**
 * The whole `--replay` branch of `firewall migrate`, on the migration's plan. `journalBefore`: the
 * zone's rules as the migration's journal recorded them before its first write; after an apply it
 * is the only "before" there is.
 */
export const replayPlan = (
  o: { readonly json: boolean },
  zone: string,
  plan: FirewallMigrationPlan,
  file: string,
  journalBefore: ZoneRulesState | undefined
) =>
  Effect.gen(function* () {
    const states = statesToCompare(plan, journalBefore)
    if ("nothing" in states)
      return yield* Effect.fail(
        new CliFailure({ text: `error: firewall migrate --replay: ${states.nothing}`, exitCode: 1 })
      )
    const report: MigrationReplay = yield* Effect.map(
      Effect.mapError(
        replayMigrationStates(states.before, states.after, file),
        (e) => new CliFailure({ text: `error: --replay: ${e.message}`, exitCode: 1 })
      ),
      (r) => ({ ...r, compared: states.compared })
    )
    if (o.json) printJson({ zone, ...report })
    else print(zone, report)
    for (const l of notReadLines(report.problems)) writeErr(`warning: ${l}\n`)
    const differ = report.requests - report.agreed
    if (differ > 0)
      return yield* Effect.fail(
        new CliFailure({
          text: `firewall migrate --replay: ${differ} request(s) of ${file} decided differently`,
          exitCode: 1
        })
      )
  })
