/**
 * The replay that proves a migration of firewall rules to custom rules (docs: ARCHITECTURE.md,
 * "Replay proves"): a traffic file runs through the zone's rules "before" and "after", both states
 * whole (active firewall rules, then every custom rule, kept ones included), with one evaluator
 * (src/firewall/custom-rules-replay.ts). The CLI (`firewall migrate --replay`) and the TUI call it.
 *
 * Before an apply, "before" is the zone now and "after" the end state the migration plans. After an
 * apply (nothing is left to migrate, and rules were migrated) the zone now is the "after": the
 * "before" must come from the migration's journal, and without one there is nothing to compare,
 * which fails rather than report an empty agreement.
 */
import * as Effect from "effect/Effect"
import { InvalidInput } from "../domain/errors.js"
import {
  makeMigrationReplayer,
  type ExplainDifference,
  type MigrationReplayReport,
  type ZoneRulesState
} from "../firewall/custom-rules-replay.js"
import { readTrafficFile } from "../rules/replay-file.js"
import { noRequestProblem } from "../rules/traffic-line.js"
import { planFirewallMigration, type FirewallMigrationPlan } from "../firewall/custom-rules-plan.js"
import { explain } from "../firewall/legacy-replay.js"
import { PlacementDifferenceCodes } from "../firewall/lockdown-ua-placement.js"
import type { PlanNote } from "../domain/migration.js"

/** A replay's report, the file it read (as given: a path, or `-` for stdin) and what it compared. */
export interface MigrationReplay extends MigrationReplayReport {
  readonly file: string
  /** `planned`: the zone now against the migration's end state; `journal`: the journal's "before" against the zone now. */
  readonly compared: "planned" | "journal"
}

/**
 * How a replay of the firewall rules migration names the note behind a difference: only the notes
 * of the Zone Lockdown rules it places (./lockdown-ua-placement.ts) explain one; a plan without
 * them explains nothing, and its report has no explanations at all.
 */
const explainerOf = (notes: ReadonlyArray<PlanNote>): ExplainDifference | undefined => {
  const placement = notes.filter((n) => PlacementDifferenceCodes.includes(n.code))
  return placement.length === 0 ? undefined : (b, a) => explain(placement, ["skip-current-covers-migrated"], {}, b, a)
}

const NOTHING_TO_COMPARE = `nothing to compare: the zone's firewall rules were migrated and no journal of the migration's "before" is kept`

/** The two states a replay compares, or why there are none. `journalBefore`: the state the migration's journal recorded before its first write. */
export const statesToCompare = (
  p: FirewallMigrationPlan,
  journalBefore?: ZoneRulesState
):
  | {
      readonly before: ZoneRulesState
      readonly after: ZoneRulesState
      readonly compared: MigrationReplay["compared"]
      /** The notes of the plan that made "after": they explain a difference made by design. */
      readonly notes: ReadonlyArray<PlanNote>
    }
  | { readonly nothing: string } => {
  // Applied: rules were migrated and none is left to migrate, so the plan is the zone as it is.
  const applied = p.steps.length === 0 && p.migrated_before.length > 0
  if (!applied) return { before: p.before, after: p.expected, compared: "planned", notes: p.notes }
  if (journalBefore === undefined) return { nothing: NOTHING_TO_COMPARE }
  // The notes the applied plan had: planned again on the journal's "before".
  const replanned = planFirewallMigration({
    zone: p.zone,
    plan: undefined,
    before: journalBefore,
    deleteOld: p.delete_old
  })
  return { before: journalBefore, after: p.before, compared: "journal", notes: replanned.notes }
}

/** A replay: fed lines, it reports what it read and compared. */
export interface LineReplayer<R> {
  line(text: string, line: number): void
  report(): R
}

/**
 * Reads `file` once through the one traffic reader (src/rules/replay-file.ts), each line into every
 * one of `replayers`, then their reports: `migrate --zone` replays all its parts on one read of
 * the file (stdin, a pipe or a FIFO can be read only once). Fails when the file cannot be read or
 * holds no request: a replay of nothing proves nothing.
 */
export const replayFileIntoAll = <R extends Parameters<typeof noRequestProblem>[1]>(
  file: string,
  replayers: ReadonlyArray<LineReplayer<R>>
): Effect.Effect<ReadonlyArray<R & { readonly file: string }>, InvalidInput> =>
  Effect.flatMap(
    Effect.tryPromise({
      try: () => readTrafficFile(file, { line: (text, n) => replayers.forEach((r) => r.line(text, n)) }),
      catch: (e) => new InvalidInput({ message: (e as Error).message, clientSide: true })
    }),
    () =>
      Effect.forEach(replayers, (replayer) => {
        const r = replayer.report()
        const nothing = noRequestProblem(file, r)
        return nothing === undefined
          ? Effect.succeed({ ...r, file })
          : Effect.fail(new InvalidInput({ message: nothing, clientSide: true }))
      })
  )

/** `replayFileIntoAll` with one replay: every standalone replay of a migration reads its file so. */
export const replayFileInto = <R extends Parameters<typeof noRequestProblem>[1]>(
  file: string,
  replayer: LineReplayer<R>
): Effect.Effect<R & { readonly file: string }, InvalidInput> =>
  Effect.map(replayFileIntoAll(file, [replayer]), ([r]) => r!)

/**
 * The replayer of `before` against `after` (a file read through `replayFileInto`: a path, `-` for
 * stdin, pipes and FIFOs as they come), naming the plan note behind a difference when one explains it.
 */
export const migrationStatesReplayer = (
  before: ZoneRulesState,
  after: ZoneRulesState,
  notes: ReadonlyArray<PlanNote> = []
) => {
  const explainer = explainerOf(notes)
  return makeMigrationReplayer(before, after, explainer !== undefined ? { explain: explainer } : {})
}

/** The replay of a migration's plan: the states `statesToCompare` gives, else InvalidInput saying there is nothing to compare. */
export const replayMigration = (
  p: FirewallMigrationPlan,
  file: string,
  journalBefore?: ZoneRulesState
): Effect.Effect<MigrationReplay, InvalidInput> => {
  const states = statesToCompare(p, journalBefore)
  return "nothing" in states
    ? Effect.fail(new InvalidInput({ message: states.nothing, clientSide: true }))
    : Effect.map(replayFileInto(file, migrationStatesReplayer(states.before, states.after, states.notes)), (r) => ({
        ...r,
        compared: states.compared
      }))
}

/** What a replay compared, named with its file (`name`: the TUI's base name): the first line of every report of it. */
export const replayHeading = (r: MigrationReplay, name = r.file) =>
  `Replay of ${name}: ${r.compared === "planned" ? "the zone now (before) against the zone as the migration leaves it (after)" : "the zone before the migration (its journal) against the zone now (after)"}`
