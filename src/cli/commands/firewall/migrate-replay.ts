/**
 * `edgectl firewall migrate --replay FILE` (`-` for stdin; pipes and FIFOs too): the traffic through
 * the zone now and the zone as the migration leaves it, both whole (src/services/migration-replay-
 * service.ts), changing nothing. It prints what it compared and the file, the counts, each request
 * decided differently with the rules responsible on both sides, and the lines it could not read as
 * `warning:` lines. Exit 1 when a request is decided differently or nothing was compared (a file of
 * no request, or a zone already migrated with no journal of its "before"), like diff(1).
 */
import * as Effect from "effect/Effect"
import {
  decidedText,
  explainedByText,
  explainedText,
  replayCounts,
  verdictText,
  type ZoneRulesState
} from "../../../firewall/custom-rules-replay.js"
import { notReadLines } from "../../../rules/traffic-line.js"
import type { FirewallMigrationPlan } from "../../../firewall/custom-rules-plan.js"
import { replayHeading, replayMigration, type MigrationReplay } from "../../../services/migration-replay-service.js"
import { replayFailures } from "../../migration-runner.js"
import { clip, printJson, printLine, printTable } from "../../output.js"
import { CliFailure } from "../../run.js"
import { writeErr } from "../../stdio.js"
import type { ClientEnv } from "../../../api/client.js"
import type { V4Error } from "../../../domain/errors.js"

/** A legacy migration's replay adds, per difference, the plan notes that explain it, and its derived readings. */
export type AnyReplay = Omit<MigrationReplay, "disagreements"> & {
  readonly explained?: number
  readonly assumptions?: ReadonlyArray<string>
  readonly disagreements: ReadonlyArray<
    MigrationReplay["disagreements"][number] & {
      readonly explainedBy?: ReadonlyArray<{ readonly code: string }>
    }
  >
}

const print = (zone: string, r: AnyReplay) => {
  printLine(replayHeading(r))
  printLine(replayCounts(r))
  printLine(`decided: ${decidedText(r)}`)
  const explained = explainedText(r)
  const legacy = explained !== undefined
  if (legacy) printLine(explained)
  if (r.disagreements.length > 0) {
    printLine("")
    printTable(
      ["LINE", "REQUEST", "DIFFERS IN", "BEFORE", "AFTER", ...(legacy ? ["EXPLAINED BY"] : [])],
      r.disagreements.map((d) => [
        d.line,
        clip(d.id ? `${d.id}: ${d.summary}` : d.summary, 60),
        d.differences.join(", "),
        verdictText(d.before),
        verdictText(d.after),
        ...(legacy ? [explainedByText(d)] : [])
      ])
    )
    const differ = r.requests - r.agreed
    if (r.disagreements.length < differ)
      printLine(`... ${differ - r.disagreements.length} more decided differently on zone ${zone} (not kept)`)
  }
  if (r.assumptions !== undefined && r.assumptions.length > 0) {
    printLine("")
    for (const a of r.assumptions) printLine(`note: ${a}`)
  }
}

/**
 * Prints a migration's replay (`--json`: the report) and its unread lines as warnings; fails (exit 1)
 * when a request was decided differently. Every migration's `--replay` ends here.
 */
export const reportReplay = (what: string, o: { readonly json: boolean }, zone: string, report: AnyReplay) =>
  Effect.gen(function* () {
    if (o.json) printJson({ zone, ...report })
    else print(zone, report)
    for (const l of notReadLines(report.problems)) writeErr(`warning: ${l}\n`)
    const differ = report.requests - report.agreed
    if (differ > 0)
      return yield* Effect.fail(
        new CliFailure({
          text: `${what} --replay: ${differ} request(s) of ${report.file} decided differently${report.explained !== undefined ? ` (${report.explained} explained by the plan's notes)` : ""}`,
          exitCode: 1
        })
      )
  })

/**
 * The replay of `firewall migrate`'s plan. `journalBefore`: the zone's rules as the migration's
 * journal recorded them before its first write; after an apply it is the only "before" there is.
 */
export const replayFirewallPlan = (
  plan: FirewallMigrationPlan,
  file: string,
  journalBefore: ZoneRulesState | undefined
): Effect.Effect<MigrationReplay, V4Error | CliFailure, ClientEnv> =>
  replayFailures("firewall migrate", replayMigration(plan, file, journalBefore))
