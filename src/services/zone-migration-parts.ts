/**
 * The parts of `edgectl migrate --zone` (./zone-migration-service.ts) on the one engine: the zone's
 * legacy state as one record (`ZoneLegacyState`, every part's state side by side, each field read
 * once), each part's own driver seen through it (`project`: the part's state out of the record,
 * `merge`: the part's end state into it), and the one driver that sends, checks and compares the
 * steps of all the parts in one journal. A step names its part (`part`) and carries its part's own
 * step whole, so each part's driver sends and checks it as its own command does.
 */
import * as Effect from "effect/Effect"
import type { CustomRule } from "../domain/custom-rule.js"
import type { Rule } from "../domain/firewall.js"
import type { Lockdown, RateLimit, UaRule } from "../domain/legacy-security.js"
import type { MigrationStep } from "../domain/migration.js"
import { shellWord as quote } from "../domain/shell-word.js"
import type { RateLimitingRule } from "../firewall/rate-limit-plan.js"
import type { WafMigrationState } from "../waf/migration-plan.js"
import { firewallMigrationDriver, readZoneRules } from "./custom-rules-migration-service.js"
import { allLockdowns, allRateLimits, allUaRules } from "./legacy-service.js"
import { lockdownUaDriver } from "./lockdown-ua-migration-service.js"
import type { MigrationDriver } from "./migration-engine.js"
import { rateLimitDriver } from "./rate-limit-migration-service.js"
import { getRateLimitRules } from "./rulesets-service.js"
import { readWafState, wafMigrationDriver } from "./waf-migration-run.js"

export const ZoneLegacyKind = "zone-legacy"

/** Every part's state side by side: what the umbrella's journal keeps as its "before". */
export interface ZoneLegacyState {
  readonly firewallRules: ReadonlyArray<Rule>
  readonly customRules: ReadonlyArray<CustomRule>
  readonly lockdowns: ReadonlyArray<Lockdown>
  readonly uaRules: ReadonlyArray<UaRule>
  readonly rateLimits: ReadonlyArray<RateLimit>
  /** The `http_ratelimit` entry point's rules. */
  readonly rateLimitRules: ReadonlyArray<RateLimitingRule>
  readonly waf: WafMigrationState
}

/** The parts, in the order they run: the previous WAF last, since it cannot be undone. */
const PartNames = ["firewall-rules", "lockdowns-ua", "rate-limits", "waf"] as const
export type PartName = (typeof PartNames)[number]

export const PartTitles: Readonly<Record<PartName, string>> = {
  "firewall-rules": "firewall rules -> custom rules",
  "lockdowns-ua": "Zone Lockdown and User Agent Blocking -> custom rules",
  "rate-limits": "rate limits (previous version) -> rate limiting rules",
  waf: "previous WAF -> WAF Managed Rules"
}

/** A step of the umbrella's plan: its part's step, with its key prefixed by the part (`waf/entrypoint-pending`). */
export type ZoneLegacyStep = MigrationStep & { readonly part: PartName }

/** A part's driver seen through the whole record, its step and state types erased. */
interface Part {
  readonly send: MigrationDriver<ZoneLegacyStep, ZoneLegacyState>["send"]
  readonly inEffect: (step: ZoneLegacyStep, live: ZoneLegacyState) => boolean
  readonly differences: (expected: ZoneLegacyState, live: ZoneLegacyState) => ReadonlyArray<string>
}

export interface Projection<State> {
  readonly project: (w: ZoneLegacyState) => State
  readonly merge: (w: ZoneLegacyState, s: State) => ZoneLegacyState
}

const part = <Step extends MigrationStep, State>(
  driver: MigrationDriver<Step, State>,
  { project }: Projection<State>
): Part => ({
  // The part's driver reads the part's own fields of a step (check, body, path), never its key.
  send: (zoneId, step) => driver.send(zoneId, step as unknown as Step),
  inEffect: (step, live) => driver.inEffect(step as unknown as Step, project(live)),
  differences: (expected, live) => driver.differences(project(expected), project(live))
})

export const firewallProjection: Projection<{
  readonly firewallRules: ReadonlyArray<Rule>
  readonly customRules: ReadonlyArray<CustomRule>
  readonly lockdowns?: ReadonlyArray<Lockdown>
  readonly uaRules?: ReadonlyArray<UaRule>
}> = {
  // With the lockdowns and UA rules: rules migrated from them are placed again before a migrated allow.
  project: (w) => ({
    firewallRules: w.firewallRules,
    customRules: w.customRules,
    lockdowns: w.lockdowns,
    uaRules: w.uaRules
  }),
  merge: (w, s) => ({ ...w, firewallRules: s.firewallRules, customRules: s.customRules })
}

export const lockdownProjection: Projection<{
  readonly lockdowns: ReadonlyArray<Lockdown>
  readonly uaRules: ReadonlyArray<UaRule>
  readonly customRules: ReadonlyArray<CustomRule>
  readonly firewallRules: ReadonlyArray<Rule>
}> = {
  project: (w) => ({
    lockdowns: w.lockdowns,
    uaRules: w.uaRules,
    customRules: w.customRules,
    firewallRules: w.firewallRules
  }),
  merge: (w, s) => ({ ...w, lockdowns: s.lockdowns, uaRules: s.uaRules, customRules: s.customRules })
}

export const rateLimitProjection: Projection<{
  readonly rateLimits: ReadonlyArray<RateLimit>
  readonly rules: ReadonlyArray<RateLimitingRule>
}> = {
  project: (w) => ({ rateLimits: w.rateLimits, rules: w.rateLimitRules }),
  merge: (w, s) => ({ ...w, rateLimits: s.rateLimits, rateLimitRules: s.rules })
}

export const wafProjection: Projection<WafMigrationState> = {
  project: (w) => w.waf,
  merge: (w, s) => ({ ...w, waf: s })
}

const parts: Readonly<Record<PartName, Part>> = {
  "firewall-rules": part(firewallMigrationDriver, firewallProjection),
  "lockdowns-ua": part(lockdownUaDriver, lockdownProjection),
  "rate-limits": part(rateLimitDriver, rateLimitProjection),
  waf: part(wafMigrationDriver, wafProjection)
}

/**
 * The zone's legacy state, each field read once. Where the platform has ended the previous rate
 * limits' API (410), the zone has none to move: that part has nothing to do, the others go on.
 */
export const readZoneLegacy = (zoneId: string) =>
  Effect.map(
    Effect.all([
      readZoneRules(zoneId),
      allLockdowns(zoneId),
      allUaRules(zoneId),
      Effect.catchTag(allRateLimits(zoneId), "Gone", () => Effect.succeed([])),
      getRateLimitRules(zoneId),
      readWafState(zoneId)
    ]),
    ([rules, lockdowns, uaRules, rateLimits, rateLimitRules, waf]): ZoneLegacyState => ({
      firewallRules: rules.firewallRules,
      customRules: rules.customRules,
      lockdowns,
      uaRules,
      rateLimits,
      // The entry point's rules, none without one (as the rate limit migration reads them).
      rateLimitRules: (rateLimitRules?.rules ?? []) as unknown as ReadonlyArray<RateLimitingRule>,
      waf
    })
  )

const zoneLegacyCommands = (zone: string) => ({
  migrate: `edgectl migrate --zone ${quote(zone)}`,
  rollback: `edgectl migrate --zone ${quote(zone)} --rollback`
})

/** The umbrella's driver: each step sent and checked by its part's driver; the read-back compares every part. */
export const zoneLegacyDriver: MigrationDriver<ZoneLegacyStep, ZoneLegacyState> = {
  kind: ZoneLegacyKind,
  read: readZoneLegacy,
  send: (zoneId, step) => parts[step.part].send(zoneId, step),
  inEffect: (step, live) => parts[step.part].inEffect(step, live),
  // Parts share fields (the custom rules): one difference is said once.
  differences: (expected, live) => [...new Set(PartNames.flatMap((name) => parts[name].differences(expected, live)))],
  commands: zoneLegacyCommands
}

/** Where the zone `live` differs from `expected`, part by part: only the parts that differ, in order. */
export const partDifferences = (expected: ZoneLegacyState, live: ZoneLegacyState) =>
  PartNames.flatMap((name) => {
    const differences = parts[name].differences(expected, live)
    return differences.length > 0 ? [{ part: name, differences }] : []
  })
