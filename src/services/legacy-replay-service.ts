/**
 * The replays that prove the legacy-product migrations (ARCHITECTURE.md, "Replay proves"): Zone
 * Lockdown + UA Blocking -> custom rules (src/firewall/lockdown-ua-replay.ts) and rate limits
 * (previous version) -> rate limiting rules, with time (src/firewall/rate-limit-replay.ts). One
 * function per kind, each returning the report `firewall migrate --replay` gives (MigrationReplay:
 * file, what was compared, counts, differences) plus which plan note explains a difference, so the
 * CLI and the `migrate --zone` umbrella run them alike and sum them.
 *
 * As for the firewall rules migration (./migration-replay-service.ts): before an apply, "before" is
 * the zone now and "after" the plan's end state; after an apply (nothing left to do, migrated rules
 * live) the zone now is the "after" and the "before" comes from the migration's journal; without
 * one there is nothing to compare, which fails. A refused plan has no "after" to compare either.
 */
import * as Effect from "effect/Effect"
import { InvalidInput } from "../domain/errors.js"
import type { CustomRule } from "../domain/custom-rule.js"
import type { PlanNote } from "../domain/migration.js"
import type { ZoneRulesState } from "../firewall/custom-rules-replay.js"
import type { LegacyReplayReport } from "../firewall/legacy-replay.js"
import { planLockdownUaMigration, type LockdownUaPlan, type LockdownUaState } from "../firewall/lockdown-ua-plan.js"
import { makeLockdownUaReplayer } from "../firewall/lockdown-ua-replay.js"
import { planRateLimitMigration, type RateLimitPlan, type RateLimitState } from "../firewall/rate-limit-plan.js"
import { makeRateLimitReplayer } from "../firewall/rate-limit-replay.js"
import type { ZoneRef } from "./custom-rules-migration-service.js"
import { allRules } from "./firewall-service.js"
import { getCustomRules } from "./rulesets-service.js"
import { lockdownUaJournal } from "./lockdown-ua-migration-service.js"
import { replayFileInto, type LineReplayer, type MigrationReplay } from "./migration-replay-service.js"
import { rateLimitJournal } from "./rate-limit-migration-service.js"

/** A legacy migration's replay: MigrationReplay's shape, with the explanations and the derived readings. */
export interface LegacyMigrationReplay extends LegacyReplayReport {
  readonly file: MigrationReplay["file"]
  readonly compared: MigrationReplay["compared"]
  readonly kind: "lockdown-ua" | "rate-limits"
}

const nothingText = (product: string) =>
  `nothing to compare: the zone's ${product} were migrated and no journal of the migration's "before" is kept`

interface Compare<S> {
  readonly before: S
  readonly after: S
  readonly compared: MigrationReplay["compared"]
  readonly notes: ReadonlyArray<PlanNote>
}

/** The two states a replay compares (and the notes that explain a difference), or why there are none. */
const states = <S>(
  plan: {
    readonly steps: ReadonlyArray<unknown>
    readonly before: S
    readonly expected: S
    readonly notes: ReadonlyArray<PlanNote>
    readonly refused?: string | undefined
  },
  migrated: boolean,
  product: string,
  journalBefore: S | undefined,
  replan: (before: S) => ReadonlyArray<PlanNote>
): Compare<S> | { readonly nothing: string } => {
  if (plan.refused !== undefined) return { nothing: `nothing to compare: the migration is refused: ${plan.refused}` }
  if (!(plan.steps.length === 0 && migrated))
    return { before: plan.before, after: plan.expected, compared: "planned", notes: plan.notes }
  return journalBefore === undefined
    ? { nothing: nothingText(product) }
    : { before: journalBefore, after: plan.before, compared: "journal", notes: replan(journalBefore) }
}

/** The replayer of the states `s` names, its report saying what it compared; or why there is nothing to compare. */
const replayerOf = <S>(
  kind: LegacyMigrationReplay["kind"],
  s: Compare<S> | { readonly nothing: string },
  replayer: (c: Compare<S>) => ReturnType<typeof makeLockdownUaReplayer>
): Effect.Effect<LineReplayer<Omit<LegacyMigrationReplay, "file">>, InvalidInput> => {
  if ("nothing" in s) return Effect.fail(new InvalidInput({ message: s.nothing, clientSide: true }))
  const r = replayer(s)
  return Effect.succeed({
    line: (text, n) => r.line(text, n),
    report: () => ({ ...r.report(), compared: s.compared, kind })
  })
}

/**
 * The Zone Lockdown + UA Blocking migration's replayer. `journalBefore`: the state the migration's
 * journal recorded before its first write; `zonePlan`: the zone's plan (`legacy_id`), to explain
 * differences after an apply as the plan did before it.
 */
export const lockdownUaReplayer = (plan: LockdownUaPlan, journalBefore?: LockdownUaState, zonePlan?: string) =>
  replayerOf(
    "lockdown-ua",
    states(
      plan,
      plan.before.customRules.some((r) => r.ref?.startsWith("lockdown:") === true || r.ref?.startsWith("ua:") === true),
      "Zone Lockdown and User Agent Blocking rules",
      journalBefore,
      (before) => planLockdownUaMigration({ zone: plan.zone, plan: zonePlan, before, deleteOld: plan.delete_old }).notes
    ),
    (c) => makeLockdownUaReplayer(c.before, c.after, c.notes)
  )

/** The Zone Lockdown + UA Blocking migration's replay of `file` (a path, `-` for stdin): `lockdownUaReplayer`'s arguments. */
export const replayLockdownUa = (
  plan: LockdownUaPlan,
  file: string,
  journalBefore?: LockdownUaState,
  zonePlan?: string
): Effect.Effect<LegacyMigrationReplay, InvalidInput> =>
  Effect.flatMap(lockdownUaReplayer(plan, journalBefore, zonePlan), (r) => replayFileInto(file, r))

/**
 * The rate limiting migration's replayer, with time: `lockdownUaReplayer`'s arguments. The zone's
 * firewall and custom rules, read now, run before rate limiting on both sides (their skips of
 * `rateLimit` and of the `http_ratelimit` phase exempt requests; the migration changes neither).
 */
export const rateLimitsReplayer = (plan: RateLimitPlan, journalBefore?: RateLimitState, zonePlan?: string) =>
  Effect.flatMap(Effect.all([allRules(plan.zone.id), getCustomRules(plan.zone.id)]), ([firewallRules, custom]) => {
    const zone: ZoneRulesState = {
      firewallRules,
      customRules: (custom?.rules ?? []) as unknown as ReadonlyArray<CustomRule>
    }
    return replayerOf(
      "rate-limits",
      states(
        plan,
        plan.before.rules.some((r) => r.ref?.startsWith("rate_limit:") === true),
        "rate limits",
        journalBefore,
        (before) =>
          planRateLimitMigration({ zone: plan.zone, plan: zonePlan, before, deleteOld: plan.delete_old }).notes
      ),
      (c) => makeRateLimitReplayer(c.before, c.after, c.notes, { zone })
    )
  })

/** The rate limiting migration's replay of `file`, with time: `lockdownUaReplayer`'s arguments. */
export const replayRateLimits = (
  plan: RateLimitPlan,
  file: string,
  journalBefore?: RateLimitState,
  zonePlan?: string
) => Effect.flatMap(rateLimitsReplayer(plan, journalBefore, zonePlan), (r) => replayFileInto(file, r))

/** The "before" each migration's journal recorded on this target, or undefined without a journal. */
export const lockdownUaJournalBefore = (zone: ZoneRef) =>
  Effect.map(lockdownUaJournal(zone), (j) => j?.journal.plan.before)

export const rateLimitJournalBefore = (zone: ZoneRef) =>
  Effect.map(rateLimitJournal(zone), (j) => j?.journal.plan.before)
