/**
 * `edgectl migrate --zone Z --replay FILE`: each part of the umbrella's plan
 * (./zone-migration-service.ts) through its own replay, summed. Before an apply, each part's
 * "before" against the end state it plans. After an apply (nothing planned, a finished migration in
 * the journal), as the standalone replays do (./legacy-replay-service.ts): the umbrella is planned
 * again on the journal's "before", each part replayed on that plan exactly as before the apply, and
 * the zone now must be that plan's end state, else the replay would not stand for the zone.
 */
import * as Effect from "effect/Effect"
import type { ClientEnv } from "../api/client.js"
import { InvalidInput, type V4Error } from "../domain/errors.js"
import type { WafConfig } from "../domain/waf.js"
import type { MigrationReplayReport } from "../firewall/custom-rules-replay.js"
import { planWafMigration } from "../waf/migration-plan.js"
import type { MigrationMode } from "../waf/state.js"
import { lockdownUaReplayer, rateLimitsReplayer } from "./legacy-replay-service.js"
import { journalStatus } from "./migration-journal.js"
import {
  migrationStatesReplayer,
  replayFileIntoAll,
  type LineReplayer,
  type MigrationReplay
} from "./migration-replay-service.js"
import { partDifferences, PartTitles, type PartName, type ZoneLegacyState } from "./zone-migration-parts.js"
import {
  planZoneLegacyOn,
  type WafPart,
  type ZoneLegacyJournal,
  type ZoneLegacyPlan,
  type ZoneRef
} from "./zone-migration-service.js"

/**
 * A part's replayer on the umbrella's plan: the traffic through its "before" and its "after". The
 * umbrella reads the file once and feeds each line to every part's (stdin, a pipe or a FIFO can be
 * read only once).
 */
type PartReplay = (plan: ZoneLegacyPlan) => Effect.Effect<LineReplayer<MigrationReplayReport>, V4Error, ClientEnv>

/**
 * Each part's replayer (its own service's, with the same report shape), or why it has none here.
 * Each part is replayed on its own plan: the part's "before" and the end state it plans.
 */
const replays: Readonly<
  Record<PartName, PartReplay | { readonly elsewhere: (zone: string, target: string) => string }>
> = {
  "firewall-rules": (p) =>
    Effect.succeed(
      migrationStatesReplayer(
        p.parts["firewall-rules"].before,
        p.parts["firewall-rules"].expected,
        p.parts["firewall-rules"].notes
      )
    ),
  "lockdowns-ua": (p) => lockdownUaReplayer(p.parts["lockdowns-ua"]),
  "rate-limits": (p) => rateLimitsReplayer(p.parts["rate-limits"]),
  // Another kind of traffic report (src/waf/replay.ts): the WAF's own command replays it.
  waf: {
    elsewhere: (zone, target) =>
      `the previous WAF has its own replay: edgectl waf replay --zone ${zone}${target} --traffic FILE`
  }
}

interface ZoneLegacyReplay {
  readonly file: string
  /** `planned`: the zone now against the plan's end state; `journal`: the journal's "before" against the zone now. */
  readonly compared: MigrationReplay["compared"]
  /** The journal whose "before" was replayed (`compared: "journal"`). */
  readonly journal?: string | undefined
  /** Each part replayed, with its report; and those not replayed, with why. */
  readonly parts: ReadonlyArray<
    | { readonly part: PartName; readonly report: MigrationReplayReport }
    | { readonly part: PartName; readonly skipped: string }
  >
  readonly requests: number
  readonly agreed: number
}

/**
 * The previous WAF's part planned again from the journal: its request was checked by the platform
 * when it was planned and cannot be asked again once sent, so the journal's request and end state stand.
 */
const journalWaf =
  (j: ZoneLegacyJournal) =>
  (w3: ZoneLegacyState): Effect.Effect<WafPart> => {
    // The last run's: a run after validation mode finishes the WAF, and `waf_mode` is that run's.
    const step = [...j.plan.migration.steps].reverse().find((s) => s.part === "waf")
    const mode = j.plan.options.waf_mode as MigrationMode | null | undefined
    const end = j.plan.migration.expected.waf
    if (step === undefined || mode === null || mode === undefined)
      return Effect.succeed({ nothing: "nothing planned for the previous WAF in the journal" })
    const zone = j.plan.zone
    const plan = planWafMigration({
      zone,
      before: w3.waf,
      mode,
      body: step.body as WafConfig,
      next: end.migration_state
    })
    return Effect.succeed({ mode, plan })
  }

/** The plan the journal's "before" had, once its migration finished and no part with a replay is left; else undefined. */
const journalPlan = (z: ZoneRef, plan: ZoneLegacyPlan, journal: ZoneLegacyJournal | undefined) => {
  // The previous WAF may still have a step left (validation mode, then the finish): it has no replay here.
  const replayable = plan.summary.some((s) => s.status === "planned" && typeof replays[s.part] === "function")
  if (journal === undefined || replayable) return Effect.succeed(undefined)
  const status = journalStatus(journal)
  if (status.operation !== "migrate" || !status.finished) return Effect.succeed(undefined)
  return planZoneLegacyOn(z, journal.plan.before, journal.plan.options.delete_old === true, journalWaf(journal))
}

const nothingToCompare = (zone: string) =>
  new InvalidInput({
    message: `nothing to compare: no part of the migration of zone ${zone} that has something planned has a replay`,
    clientSide: true
  })

/**
 * Runs each part that has something planned through its replay and sums them. A part with nothing
 * to do is skipped (said so); nothing replayed at all fails: a replay of nothing proves nothing.
 * `journal`: the zone's umbrella journal, whose "before" is replayed once the migration finished.
 */
/**
 * `target`: the options a suggested command needs to reach the same platform (` --remote`,
 * ` --persist-to DIR`: domain/target-flags.ts), for the WAF's pointer to its own replay.
 */
export const replayZoneLegacy = (
  z: ZoneRef,
  plan: ZoneLegacyPlan,
  file: string,
  journal: ZoneLegacyJournal | undefined,
  target: string
) =>
  Effect.gen(function* () {
    const replanned = yield* journalPlan(z, plan, journal)
    const replayed = replanned ?? plan
    if (replanned !== undefined) {
      // The replay's "after" is the plan's end state: it stands for the zone only if the zone is that.
      const differs = partDifferences(replanned.expected, plan.before)
      const first = differs[0]
      if (first !== undefined)
        return yield* Effect.fail(
          new InvalidInput({
            message: `zone ${plan.zone.name} is no longer what the migration in its journal (${journal?.base ?? ""}.json) left, so a replay of the journal's "before" would not stand for it: ${differs.length === 1 ? "part" : "parts"} ${differs.map((d) => PartTitles[d.part]).join("; ")} ${differs.length === 1 ? "differs" : "differ"}: ${first.differences[0] ?? ""}`,
            clientSide: true
          })
        )
    }
    // Each part: why it is not replayed, or its replayer; then one read of the file feeds them all.
    const planned: Array<
      | { readonly part: PartName; readonly skipped: string }
      | { readonly part: PartName; readonly replayer: LineReplayer<MigrationReplayReport> }
    > = []
    for (const s of replayed.summary) {
      const replay = replays[s.part]
      if (s.status !== "planned") planned.push({ part: s.part, skipped: `nothing planned (${s.status})` })
      else if (typeof replay !== "function")
        planned.push({ part: s.part, skipped: replay.elsewhere(plan.zone.name, target) })
      else planned.push({ part: s.part, replayer: yield* replay(replayed) })
    }
    const replayers = planned.flatMap((p) => ("replayer" in p ? [p.replayer] : []))
    if (replayers.length === 0) return yield* Effect.fail(nothingToCompare(plan.zone.name))
    const reports = yield* replayFileIntoAll(file, replayers)
    const parts: Array<ZoneLegacyReplay["parts"][number]> = planned.map((p) =>
      "replayer" in p ? { part: p.part, report: reports[replayers.indexOf(p.replayer)]! } : p
    )
    const sum = (f: (r: MigrationReplayReport) => number) => reports.reduce((n, r) => n + f(r), 0)
    return {
      file,
      compared: replanned !== undefined ? "journal" : "planned",
      ...(replanned !== undefined && journal !== undefined ? { journal: `${journal.base}.json` } : {}),
      parts,
      requests: sum((r) => r.requests),
      agreed: sum((r) => r.agreed)
    } satisfies ZoneLegacyReplay
  })
