/**
 * Handlers of a zone's rulesets (issue 21): the list and one ruleset read the entry points the
 * local platform keeps (custom, rate limiting and managed); writes change the custom phase's entry
 * point, and the rate limiting phase's by a PUT of the whole entry point (rulesets-ratelimit.ts;
 * the managed one is written by the WAF migration's PUT, src/server/waf-migration-handlers.ts).
 * Each write reads its body (rulesets-body.ts), computes the new ruleset (rulesets-ops.ts) and
 * saves it, or with `dry_run=true` stops before saving and answers `result: null`.
 */
import * as Either from "effect/Either"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { RulesetsApi } from "../api/contract-rulesets.js"
import { Conflict, InvalidInput, NotFound } from "../domain/errors.js"
import { CustomRulesPhase } from "../domain/custom-rule.js"
import type { RulesetSummary, ZoneRuleset } from "../domain/ruleset.js"
import {
  getCustomEntrypoint,
  getPhaseEntrypoint,
  RULESET_VERSIONS_KEPT,
  rulesetVersions,
  saveRuleset,
  zoneRulesets
} from "../store/rulesets-repo.js"
import { readCreate, readDryRun, readEntrypoint, readRuleChange } from "./rulesets-body.js"
import * as Ops from "./rulesets-ops.js"
import { otherPhaseRead, otherPhaseWrite } from "./rulesets-phases.js"
import { RateLimitPhase, RateLimitPhaseSpec, readRateLimitEntrypoint } from "./rulesets-ratelimit.js"
import { wafZone } from "./waf-zone.js"
import { requestPayload } from "./body-guard.js"
import type { Db } from "../store/db.js"

type Sql = Db["sql"]

/** A store that fails a query is the platform's fault: a defect, answered 500 (as when queries threw). */
const stored = Effect.orDie

const summary = ({ rules: _rules, ...rest }: ZoneRuleset): RulesetSummary => rest

const rulesetNotFound = (id: string) => new NotFound({ code: 10003, message: `could not find ruleset ${id}` })
const entrypointNotFound = () =>
  new NotFound({ code: 10003, message: `could not find entrypoint ruleset in the ${CustomRulesPhase} phase` })

/** Why an older version is not there: the custom entry point prunes its history, the managed one keeps its latest only. */
const missingWhy = (versions: ReadonlyArray<ZoneRuleset>, version: string) => {
  const latest = versions[0]!
  const asked = Number(version)
  if (!Number.isInteger(asked) || asked >= Number(latest.version)) return ""
  if (latest.phase !== CustomRulesPhase)
    return `; the local platform keeps only the latest version of the ${latest.phase} entry point (the WAF migration writes it whole)`
  const oldest = versions.at(-1)!.version
  return asked < Number(oldest)
    ? `; versions before ${oldest} are pruned: the history keeps the newest ${RULESET_VERSIONS_KEPT}`
    : ""
}

/** One version of a ruleset's history (newest first), or not found saying which versions there are. */
const versionOf = (versions: ReadonlyArray<ZoneRuleset>, rulesetId: string, version: string) => {
  if (versions.length === 0) return Effect.fail(rulesetNotFound(rulesetId))
  const v = versions.find((r) => r.version === version)
  if (v !== undefined) return Effect.succeed(v)
  return Effect.fail(
    new NotFound({
      code: 10003,
      message: `could not find version ${version} of ruleset ${rulesetId} (its latest is ${versions[0]!.version}${missingWhy(versions, version)})`
    })
  )
}

/** The versions of a phase's entry point in the zone: a phase without one answers as its GET does. */
const phaseVersions = (sql: Sql, zoneId: string, phase: string) =>
  Effect.gen(function* () {
    const entry = (yield* stored(zoneRulesets(sql, zoneId))).find((r) => r.phase === phase)
    if (entry === undefined) return yield* Effect.fail(otherPhaseRead(phase))
    return { id: entry.id, versions: yield* stored(rulesetVersions(sql, zoneId, entry.id)) }
  })

/** The custom entry point named by the path, for a rule write: another zone ruleset is not writable here. */
const writableRuleset = (zoneId: string, rulesetId: string, suffix: string) =>
  Effect.gen(function* () {
    const z = yield* wafZone(zoneId, suffix)
    const custom = yield* stored(getCustomEntrypoint(z.sql, z.zone.id))
    if (custom !== null && custom.id === rulesetId) return { ...z, ruleset: custom }
    const other = (yield* stored(zoneRulesets(z.sql, z.zone.id))).find((r) => r.id === rulesetId)
    if (other === undefined) return yield* Effect.fail(rulesetNotFound(rulesetId))
    return yield* Effect.fail(
      new InvalidInput({
        message: `ruleset_id: single-rule changes on this platform are for the ${CustomRulesPhase} entry point; ruleset ${rulesetId} is the ${other.phase} entry point (update it with a PUT of the phase entry point)`
      })
    )
  })

/**
 * Reads the custom entry point, computes the next one and saves it (unless a dry run) in one
 * immediate transaction: two writers (the TUI and a script on `edgectl serve`) never both build on
 * the same version. Answers the ruleset, or null on a dry run.
 */
const commit = <E extends Ops.Refusal>(
  sql: Sql,
  zoneId: string,
  dryRun: boolean,
  change: (current: ZoneRuleset | null) => Ops.Outcome<E>,
  phase: string = CustomRulesPhase
) =>
  Effect.gen(function* () {
    const o = change(yield* getPhaseEntrypoint(sql, zoneId, phase))
    if (Either.isRight(o) && !dryRun) yield* saveRuleset(sql, zoneId, o.right)
    return o
  }).pipe(
    sql.withTransaction,
    stored,
    Effect.flatMap((o) => o),
    Effect.map((next) => (dryRun ? null : next))
  )

/** The custom entry point a rule write started from, still there when the transaction reads it. */
const still =
  <E extends Ops.Refusal>(id: string, f: (r: ZoneRuleset) => Ops.Outcome<E>) =>
  (current: ZoneRuleset | null) =>
    current !== null && current.id === id ? f(current) : Either.left(rulesetNotFound(id))

export const RulesetsLive = HttpApiBuilder.group(RulesetsApi(), "rulesets", (handlers) =>
  handlers
    .handle("listRulesets", ({ path }) =>
      Effect.flatMap(wafZone(path.zone_id, "/rulesets"), ({ zone, sql }) =>
        Effect.map(stored(zoneRulesets(sql, zone.id)), (all) => all.map(summary))
      )
    )
    .handleRaw("createRuleset", ({ path, urlParams, request }) =>
      Effect.gen(function* () {
        const payload = yield* requestPayload(request)
        const dryRun = yield* readDryRun(urlParams.dry_run)
        const { zone, sql, plan, now } = yield* wafZone(path.zone_id, "/rulesets")
        const input = yield* readCreate(payload, plan)
        const at = now()
        return yield* commit(sql, zone.id, dryRun, (current): Ops.Outcome<Ops.Refusal> =>
          current !== null
            ? Either.left(
                new Conflict({
                  code: 20217,
                  message: `exceeded maximum number of zone/account rulesets for phase ${CustomRulesPhase}: the zone has its entry point; update it with a PUT of the phase entry point`
                })
              )
            : Ops.putEntrypoint(zone.id, plan, null, input, at)
        )
      })
    )
    .handle("getRuleset", ({ path }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* wafZone(path.zone_id, `/rulesets/${path.ruleset_id}`)
        const r = (yield* stored(zoneRulesets(sql, zone.id))).find((x) => x.id === path.ruleset_id)
        return r ?? (yield* Effect.fail(rulesetNotFound(path.ruleset_id)))
      })
    )
    .handle("listVersions", ({ path }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* wafZone(path.zone_id, `/rulesets/${path.ruleset_id}/versions`)
        const versions = yield* stored(rulesetVersions(sql, zone.id, path.ruleset_id))
        return versions.length > 0 ? versions.map(summary) : yield* Effect.fail(rulesetNotFound(path.ruleset_id))
      })
    )
    .handle("getVersion", ({ path }) =>
      Effect.flatMap(
        wafZone(path.zone_id, `/rulesets/${path.ruleset_id}/versions/${path.ruleset_version}`),
        ({ zone, sql }) =>
          Effect.flatMap(stored(rulesetVersions(sql, zone.id, path.ruleset_id)), (versions) =>
            versionOf(versions, path.ruleset_id, path.ruleset_version)
          )
      )
    )
    .handle("listEntrypointVersions", ({ path }) =>
      Effect.flatMap(
        wafZone(path.zone_id, `/rulesets/phases/${path.ruleset_phase}/entrypoint/versions`),
        ({ zone, sql }) =>
          Effect.map(phaseVersions(sql, zone.id, path.ruleset_phase), ({ versions }) => versions.map(summary))
      )
    )
    .handle("getEntrypointVersion", ({ path }) =>
      Effect.flatMap(
        wafZone(path.zone_id, `/rulesets/phases/${path.ruleset_phase}/entrypoint/versions/${path.ruleset_version}`),
        ({ zone, sql }) =>
          Effect.flatMap(phaseVersions(sql, zone.id, path.ruleset_phase), ({ id, versions }) =>
            versionOf(versions, id, path.ruleset_version)
          )
      )
    )
    .handle("getCustomEntrypoint", ({ path }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* wafZone(path.zone_id, `/rulesets/phases/${CustomRulesPhase}/entrypoint`)
        const r = yield* stored(getCustomEntrypoint(sql, zone.id))
        return r ?? (yield* Effect.fail(entrypointNotFound()))
      })
    )
    .handleRaw("putCustomEntrypoint", ({ path, urlParams, request }) =>
      Effect.gen(function* () {
        const payload = yield* requestPayload(request)
        const dryRun = yield* readDryRun(urlParams.dry_run)
        const { zone, sql, plan, now } = yield* wafZone(path.zone_id, `/rulesets/phases/${CustomRulesPhase}/entrypoint`)
        const input = yield* readEntrypoint(payload, plan)
        const at = now()
        return yield* commit(sql, zone.id, dryRun, (current) => Ops.putEntrypoint(zone.id, plan, current, input, at))
      })
    )
    .handle("getPhaseEntrypoint", ({ path }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* wafZone(path.zone_id, `/rulesets/phases/${path.ruleset_phase}/entrypoint`)
        const r =
          path.ruleset_phase === RateLimitPhase ? yield* stored(getPhaseEntrypoint(sql, zone.id, RateLimitPhase)) : null
        return r ?? (yield* Effect.fail(otherPhaseRead(path.ruleset_phase)))
      })
    )
    .handleRaw("putPhaseEntrypoint", ({ path, urlParams, request }) =>
      Effect.gen(function* () {
        const payload = yield* requestPayload(request)
        const dryRun = yield* readDryRun(urlParams.dry_run)
        const { zone, sql, plan, now } = yield* wafZone(
          path.zone_id,
          `/rulesets/phases/${path.ruleset_phase}/entrypoint`
        )
        if (path.ruleset_phase !== RateLimitPhase) return yield* Effect.fail(otherPhaseWrite(path.ruleset_phase))
        const input = yield* readRateLimitEntrypoint(payload, plan)
        const at = now()
        return yield* commit(
          sql,
          zone.id,
          dryRun,
          (current) => Ops.putEntrypoint(zone.id, plan, current, input, at, RateLimitPhaseSpec),
          RateLimitPhase
        )
      })
    )
    .handleRaw("createRule", ({ path, urlParams, request }) =>
      Effect.gen(function* () {
        const payload = yield* requestPayload(request)
        const dryRun = yield* readDryRun(urlParams.dry_run)
        const { zone, sql, plan, now, ruleset } = yield* writableRuleset(
          path.zone_id,
          path.ruleset_id,
          `/rulesets/${path.ruleset_id}/rules`
        )
        const change = yield* readRuleChange(payload, plan, false)
        const at = now()
        return yield* commit(
          sql,
          zone.id,
          dryRun,
          still(ruleset.id, (r) => Ops.addRule(plan, r, change, at))
        )
      })
    )
    .handleRaw("updateRule", ({ path, urlParams, request }) =>
      Effect.gen(function* () {
        const payload = yield* requestPayload(request)
        const dryRun = yield* readDryRun(urlParams.dry_run)
        const { zone, sql, plan, now, ruleset } = yield* writableRuleset(
          path.zone_id,
          path.ruleset_id,
          `/rulesets/${path.ruleset_id}/rules/${path.rule_id}`
        )
        if (!ruleset.rules.some((r) => r.id === path.rule_id)) {
          return yield* Effect.fail(Ops.ruleNotFound(ruleset.id, path.rule_id))
        }
        const change = yield* readRuleChange(payload, plan, true)
        const at = now()
        return yield* commit(
          sql,
          zone.id,
          dryRun,
          still(ruleset.id, (r) => Ops.updateRule(plan, r, path.rule_id, change, at))
        )
      })
    )
    .handle("deleteRule", ({ path, urlParams }) =>
      Effect.gen(function* () {
        const dryRun = yield* readDryRun(urlParams.dry_run)
        const { zone, sql, now, ruleset } = yield* writableRuleset(
          path.zone_id,
          path.ruleset_id,
          `/rulesets/${path.ruleset_id}/rules/${path.rule_id}`
        )
        const at = now()
        return yield* commit(
          sql,
          zone.id,
          dryRun,
          still(ruleset.id, (r) => Ops.deleteRule(r, path.rule_id, at))
        )
      })
    )
)
