/**
 * A zone's custom rules (the `http_request_firewall_custom` phase) over the v4 client: the calls the
 * custom-rules commands and the firewall migration make. Failures are the contract's tagged errors
 * (`NotFound` for a missing entry point or rule, `InvalidInput` naming the field, `InvalidExpression`
 * with the checker's diagnostics, `QuotaExceeded` at the plan's limit); every write answers the
 * whole ruleset, or null with `dryRun` (the platform checks it and saves nothing).
 */
import * as Effect from "effect/Effect"
import { call } from "../api/client.js"
import { RulesetsEndpoints as E } from "../api/contract-rulesets.js"
import { CustomRulesPhase } from "../domain/custom-rule.js"
import type { RuleBody, RulePosition, ZoneRule } from "../domain/ruleset.js"

/** A rule as written: what the platform assigns (id, version, time) left out; `ref` keeps an id across PUTs. */
export type CustomRuleInput = Omit<ZoneRule, "id" | "version" | "last_updated" | "ref" | "enabled"> & {
  readonly ref?: string | undefined
  readonly enabled?: boolean | undefined
}

export type { RulePosition }

const dry = (dryRun: boolean | undefined) => ({ dry_run: dryRun === true ? "true" : undefined })

/** The zone's rulesets, without their rules. */
export const listRulesets = (zoneId: string) => call(E.listRulesets, { path: { zone_id: zoneId } })

export const getRuleset = (zoneId: string, rulesetId: string) =>
  call(E.getRuleset, { path: { zone_id: zoneId, ruleset_id: rulesetId } })

/** The custom phase's entry point, or null when the zone has none yet (the platform answers 404). */
export const getCustomRules = (zoneId: string) =>
  call(E.getCustomEntrypoint, { path: { zone_id: zoneId } }).pipe(
    Effect.catchTag("NotFound", () => Effect.succeed(null))
  )

/** Replaces the whole rule list (creating the entry point if missing). */
export const putCustomRules = (
  zoneId: string,
  body: { readonly name?: string; readonly description?: string; readonly rules: ReadonlyArray<CustomRuleInput> },
  dryRun?: boolean
) => call(E.putCustomEntrypoint, { path: { zone_id: zoneId }, urlParams: dry(dryRun), payload: body })

/** The rate limiting rules' entry point (`http_ratelimit`), or null when the zone has none yet. */
export const getRateLimitRules = (zoneId: string) =>
  call(E.getPhaseEntrypoint, { path: { zone_id: zoneId, ruleset_phase: "http_ratelimit" } }).pipe(
    Effect.catchTag("NotFound", () => Effect.succeed(null))
  )

/** Replaces the rate limiting rules' whole list (creating the entry point if missing). */
export const putRateLimitRules = (
  zoneId: string,
  body: { readonly rules: ReadonlyArray<RuleBody> },
  dryRun?: boolean
) =>
  call(E.putPhaseEntrypoint, {
    path: { zone_id: zoneId, ruleset_phase: "http_ratelimit" },
    urlParams: dry(dryRun),
    payload: body
  })

/**
 * Creates the custom phase's entry point with `rules` (named `default`, as the platform names it);
 * a Conflict (20217) when the zone has one already, so rules written meanwhile are never replaced.
 */
export const createCustomRules = (zoneId: string, rules: ReadonlyArray<CustomRuleInput>, dryRun?: boolean) =>
  call(E.createRuleset, {
    path: { zone_id: zoneId },
    urlParams: dry(dryRun),
    payload: { name: "default", kind: "zone", phase: CustomRulesPhase, rules }
  })

export const addCustomRule = (
  zoneId: string,
  rulesetId: string,
  rule: CustomRuleInput,
  position?: RulePosition,
  dryRun?: boolean
) =>
  call(E.createRule, {
    path: { zone_id: zoneId, ruleset_id: rulesetId },
    urlParams: dry(dryRun),
    payload: position === undefined ? rule : { ...rule, position }
  })

/** Redefines a rule whole (fields left out are dropped, as on the platform), and moves it with `position`. */
export const updateCustomRule = (
  zoneId: string,
  rulesetId: string,
  ruleId: string,
  rule: CustomRuleInput,
  position?: RulePosition,
  dryRun?: boolean
) =>
  call(E.updateRule, {
    path: { zone_id: zoneId, ruleset_id: rulesetId, rule_id: ruleId },
    urlParams: dry(dryRun),
    payload: position === undefined ? rule : { ...rule, position }
  })

/** Moves a rule without changing it (its version stays). */
export const moveCustomRule = (
  zoneId: string,
  rulesetId: string,
  ruleId: string,
  position: RulePosition,
  dryRun?: boolean
) =>
  call(E.updateRule, {
    path: { zone_id: zoneId, ruleset_id: rulesetId, rule_id: ruleId },
    urlParams: dry(dryRun),
    payload: { position }
  })

export const deleteCustomRule = (zoneId: string, rulesetId: string, ruleId: string, dryRun?: boolean) =>
  call(E.deleteRule, { path: { zone_id: zoneId, ruleset_id: rulesetId, rule_id: ruleId }, urlParams: dry(dryRun) })
