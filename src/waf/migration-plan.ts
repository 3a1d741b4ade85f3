/**
 * The WAF migration (previous WAF managed rules -> WAF Managed Rules) as a plan of the one engine
 * (src/domain/migration.ts, src/services/migration-engine.ts): one step, the PUT of the managed
 * phase's entry point with `waf_migration=validation|pending`. Its state is the zone's migration
 * state and the entry point's rules; the step is in effect once the zone is in the state the PUT
 * leads to and the entry point holds the rules sent. It has no inverse: the platform cannot undo a
 * finished migration (area D: "A finished migration cannot be reversed") and documents no way out
 * of validation mode, so a rollback of a WAF journal is refused with that reason.
 */
import type { MigrationPlan, MigrationStep } from "../domain/migration.js"
import type { MigrationState, RulesetRule, WafConfig } from "../domain/waf.js"
import { MANAGED_PHASE } from "./ruleset.js"
import type { MigrationMode } from "./state.js"

export const WafMigrationKind = "waf-managed-rules"

/** The zone as the WAF migration sees it: its state and its managed entry point's rules (null: none). */
export interface WafMigrationState {
  readonly migration_state: MigrationState
  readonly rules: ReadonlyArray<RulesetRule> | null
}

/** Its one step: the PUT of the managed entry point, whose body is the contract's (`WafConfig`). */
export type WafMigrationStep = MigrationStep<WafMigrationState> & { readonly body: WafConfig }

export type WafMigrationPlan = MigrationPlan<WafMigrationStep, WafMigrationState>

export const irreversibleReason = (mode: MigrationMode) =>
  mode === "pending"
    ? "a finished WAF migration cannot be reversed: the platform turns the previous WAF off for good"
    : "the platform has no documented way back from validation mode: only finishing the migration (--mode pending) leaves it"

export interface WafPlanInput {
  readonly zone: { readonly id: string; readonly name: string }
  readonly before: WafMigrationState
  readonly mode: MigrationMode
  /** The entry point's body as sent (see `bodyFor` in src/services/waf-migration-service.ts). */
  readonly body: WafConfig
  /** The state the platform leaves the zone in once it accepts the PUT (`checkEntrypointPut`). */
  readonly next: MigrationState
}

export const planWafMigration = (i: WafPlanInput): WafMigrationPlan => {
  const expected: WafMigrationState = { migration_state: i.next, rules: i.body.rules }
  const step: WafMigrationStep = {
    key: `entrypoint-${i.mode}`,
    method: "PUT",
    path: `/zones/${i.zone.id}/rulesets/phases/${MANAGED_PHASE}/entrypoint?waf_migration=${i.mode}&phase_two=1`,
    body: i.body,
    description:
      i.mode === "pending"
        ? `finish the WAF migration (entry point of ${MANAGED_PHASE}, ${i.body.rules.length} rule(s))`
        : `deploy validation mode (entry point of ${MANAGED_PHASE}, ${i.body.rules.length} rule(s))`,
    check: expected,
    inverse: { irreversible: irreversibleReason(i.mode) }
  }
  return { kind: WafMigrationKind, zone: i.zone, steps: [step], before: i.before, expected, notes: [] }
}

/** What a rule is compared by: what was sent, without what the platform assigns (id, version, ref, time). */
const comparable = (r: RulesetRule) => {
  const { id: _i, version: _v, ref: _r, last_updated: _l, ...rest } = r
  return sorted({ ...rest, enabled: rest.enabled !== false })
}

const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : typeof v === "object" && v !== null
      ? Object.fromEntries(
          Object.keys(v)
            .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])])
        )
      : v

const ruleDifferences = (expected: ReadonlyArray<RulesetRule>, live: ReadonlyArray<RulesetRule> | null) => {
  if (live === null) return [`the managed entry point is missing, the plan has ${expected.length} rule(s)`]
  if (live.length !== expected.length)
    return [`the managed entry point holds ${live.length} rule(s), the plan has ${expected.length}`]
  return expected.flatMap((e, i) =>
    JSON.stringify(comparable(e)) === JSON.stringify(comparable(live[i]!))
      ? []
      : [`managed rule #${i + 1} (${e.expression}) differs from the plan's`]
  )
}

/** What differs between the expected and the live state, one line each (empty: equal). */
export const wafStateDifferences = (expected: WafMigrationState, live: WafMigrationState): ReadonlyArray<string> => [
  ...(expected.migration_state === live.migration_state
    ? []
    : [`the migration state is ${live.migration_state}, the plan has ${expected.migration_state}`]),
  ...(expected.rules === null ? [] : ruleDifferences(expected.rules, live.rules))
]

/** The step is in effect once the zone shows the state it leads to and the entry point holds its rules. */
export const wafStepInEffect = (step: WafMigrationStep, live: WafMigrationState) =>
  wafStateDifferences(step.check, live).length === 0
