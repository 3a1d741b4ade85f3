/**
 * The two legacy-product migrations the Firewall tab offers (`l`, `R`), as the TUI's migration
 * view (./legacy-migration.tsx) drives them: each is its service's functions (the same the CLI's
 * `firewall lockdowns migrate` and `firewall rate-limits migrate` call, on the one engine), the rows
 * of its preview (src/firewall/legacy-migration-rows.ts, the CLI's table) and its words.
 */
import type * as Effect from "effect/Effect"
import type { MigrationPlan, MigrationStep } from "../../src/domain/migration.js"
import { lockdownUaRows, rateLimitRows, type MappingRow } from "../../src/firewall/legacy-migration-rows.js"
import type { ZoneRef } from "../../src/services/custom-rules-migration-service.js"
import type { LockdownUaState } from "../../src/firewall/lockdown-ua-plan.js"
import type { RateLimitState } from "../../src/firewall/rate-limit-plan.js"
import {
  applyLockdownUa,
  lockdownUaJournal,
  planLockdownUa,
  resumeLockdownUa,
  rollbackLockdownUa,
  type LockdownUaPlan
} from "../../src/services/lockdown-ua-migration-service.js"
import { replayLockdownUa, replayRateLimits } from "../../src/services/legacy-replay-service.js"
import type { StepProgress } from "../../src/services/migration-engine.js"
import type { MigrationReplay } from "../../src/services/migration-replay-service.js"
import type { Journal, JournalStatus, MigrationTarget } from "../../src/services/migration-journal.js"
import {
  applyRateLimits,
  rateLimitJournal,
  planRateLimits,
  resumeRateLimits,
  rollbackRateLimits,
  type RateLimitPlan
} from "../../src/services/rate-limit-migration-service.js"
import type { Services } from "../runtime.js"

type Plan = MigrationPlan<MigrationStep, unknown>
type Found = { readonly journal: Journal<MigrationStep, unknown>; readonly status: JournalStatus } | undefined
type Work<A> = Effect.Effect<A, unknown, Services | MigrationTarget>
type Progress = (p: StepProgress) => void

export interface LegacyMigration {
  /** The heading: what moves where. */
  readonly title: string
  /** The session log's and the notices' name of it. */
  readonly what: string
  readonly nothing: string
  /** How many old rules the zone has (0: nothing to migrate). */
  readonly sources: (p: Plan) => number
  readonly rows: (p: Plan) => ReadonlyArray<MappingRow>
  /** The apply's confirmation: its question and what it writes. */
  readonly confirm: (p: Plan) => { readonly title: string; readonly lines: ReadonlyArray<string> }
  readonly applied: (p: Plan) => string
  /** What an undo restores, for its confirmation. */
  readonly undo: ReadonlyArray<string>
  readonly plan: (zone: ZoneRef) => Work<Plan>
  readonly journal: (zone: ZoneRef) => Work<Found>
  readonly apply: (p: Plan, progress: Progress) => Work<unknown>
  readonly resume: (journal: NonNullable<Found>["journal"], status: JournalStatus, progress: Progress) => Work<unknown>
  readonly rollback: (zone: ZoneRef, progress: Progress) => Work<unknown>
  /**
   * The traffic of `file` through the zone now and the plan's end state, the CLI's `--replay`
   * (after an apply: the journal's "before", `journalBefore`, and the zone now).
   */
  readonly replay: (
    zone: ZoneRef,
    p: Plan,
    file: string,
    journalBefore: unknown
  ) => Effect.Effect<MigrationReplay, unknown, Services>
}

const changed = (p: Plan, kinds: ReadonlyArray<string>) =>
  p.steps.filter((s) => kinds.some((k) => s.key.startsWith(`${k}:`))).length

// The services' plans and journals are of their own step and state types; the view handles any.
const asPlan = <P>(p: Plan) => p as unknown as P

export const LockdownUaMigration: LegacyMigration = {
  title: "Zone Lockdown and UA rules → custom rules",
  what: "Zone Lockdown / UA → custom rules",
  nothing: "No Zone Lockdown or User Agent Blocking rules on this zone: nothing to migrate.",
  sources: (p) => {
    const b = asPlan<LockdownUaPlan>(p).before
    return b.lockdowns.length + b.uaRules.length
  },
  rows: (p) => lockdownUaRows(asPlan<LockdownUaPlan>(p)),
  confirm: (p) => {
    const plan = asPlan<LockdownUaPlan>(p)
    const n = changed(p, ["pause", "delete"])
    return {
      title: `Migrate the Zone Lockdown and UA rules of ${p.zone.name}?`,
      lines: [
        `Writes ${plan.expected.customRules.length} custom rule(s) (the zone's own kept first),`,
        `then pauses ${n} Zone Lockdown / UA rule(s); ${p.steps.length} request(s), journaled (v shows them).`
      ]
    }
  },
  applied: (p) =>
    `Wrote ${asPlan<LockdownUaPlan>(p).expected.customRules.length} custom rules on ${p.zone.name}; paused ${changed(p, ["pause"])} Zone Lockdown / UA rules`,
  undo: [
    "Restores the custom rules entry point as the migration found it,",
    "and resumes each Zone Lockdown and UA rule it paused."
  ],
  plan: (zone) => planLockdownUa(zone, false) as Work<Plan>,
  journal: (zone) => lockdownUaJournal(zone) as Work<Found>,
  apply: (p, progress) => applyLockdownUa(asPlan<LockdownUaPlan>(p), progress),
  resume: (journal, status, progress) => resumeLockdownUa(journal as never, status, progress),
  rollback: (zone, progress) => rollbackLockdownUa(zone, progress),
  replay: (zone, p, file, before) =>
    replayLockdownUa(asPlan<LockdownUaPlan>(p), file, before as LockdownUaState | undefined, zone.plan?.legacy_id)
}

export const RateLimitMigration: LegacyMigration = {
  title: "Rate limits (previous version) → rate limiting rules",
  what: "rate limits → rate limiting rules",
  nothing: "No rate limits (previous version) on this zone: nothing to migrate.",
  sources: (p) => asPlan<RateLimitPlan>(p).before.rateLimits.length,
  rows: (p) => rateLimitRows(asPlan<RateLimitPlan>(p)),
  confirm: (p) => {
    const plan = asPlan<RateLimitPlan>(p)
    return {
      title: `Migrate the rate limits of ${p.zone.name}?`,
      lines: [
        `Writes ${plan.expected.rules.length} rate limiting rule(s) (the zone's own kept first),`,
        `then disables ${changed(p, ["disable", "delete"])} rate limit(s); ${p.steps.length} request(s), journaled (v shows them).`
      ]
    }
  },
  applied: (p) =>
    `Wrote ${asPlan<RateLimitPlan>(p).expected.rules.length} rate limiting rules on ${p.zone.name}; disabled ${changed(p, ["disable"])} rate limits`,
  undo: [
    "Restores the http_ratelimit entry point as the migration found it,",
    "and enables again each rate limit it disabled."
  ],
  plan: (zone) => planRateLimits(zone, false) as Work<Plan>,
  journal: (zone) => rateLimitJournal(zone) as Work<Found>,
  apply: (p, progress) => applyRateLimits(asPlan<RateLimitPlan>(p), progress),
  resume: (journal, status, progress) => resumeRateLimits(journal as never, status, progress),
  rollback: (zone, progress) => rollbackRateLimits(zone, progress),
  replay: (zone, p, file, before) =>
    replayRateLimits(asPlan<RateLimitPlan>(p), file, before as RateLimitState | undefined, zone.plan?.legacy_id)
}
