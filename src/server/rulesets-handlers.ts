/**
 * Handlers of a zone's rulesets (issue 21): the list and one ruleset read both entry points the
 * local platform keeps (custom and managed); writes change the custom phase's entry point only
 * (the managed one is written by the WAF migration's PUT, src/server/waf-migration-handlers.ts).
 * Each write reads its body (rulesets-body.ts), computes the new ruleset (rulesets-ops.ts) and
 * saves it, or with `dry_run=true` stops before saving and answers `result: null`.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { RulesetsApi } from "../api/contract-rulesets.js"
import { Conflict, InvalidInput, NotFound } from "../domain/errors.js"
import { CUSTOM_PHASE, type RulesetSummary, type ZoneRuleset } from "../domain/ruleset.js"
import { getCustomEntrypoint, saveRuleset, zoneRulesets } from "../store/rulesets-repo.js"
import { readCreate, readDryRun, readEntrypoint, readRuleChange, type Read } from "./rulesets-body.js"
import * as Ops from "./rulesets-ops.js"
import { wafZone } from "./waf-zone.js"

const readOk = <A, E>(r: Read<A, E>) => (r.ok ? Effect.succeed(r.value) : Effect.fail(r.error))
const outcomeOk = <E extends Ops.Refusal>(o: Ops.Outcome<E>) => (o.ok ? Effect.succeed(o.value) : Effect.fail(o.error))

const summary = ({ rules: _rules, ...rest }: ZoneRuleset): RulesetSummary => rest

const rulesetNotFound = (id: string) => new NotFound({ code: 10003, message: `could not find ruleset ${id}` })
const entrypointNotFound = () =>
  new NotFound({ code: 10003, message: `could not find entrypoint ruleset in the ${CUSTOM_PHASE} phase` })

/** The custom entry point named by the path, for a rule write: another zone ruleset is not writable here. */
const writableRuleset = (zoneId: string, rulesetId: string, suffix: string) =>
  Effect.gen(function* () {
    const z = yield* wafZone(zoneId, suffix)
    const custom = getCustomEntrypoint(z.db, z.zone.id)
    if (custom !== null && custom.id === rulesetId) return { ...z, ruleset: custom }
    const other = zoneRulesets(z.db, z.zone.id).find((r) => r.id === rulesetId)
    if (other === undefined) return yield* Effect.fail(rulesetNotFound(rulesetId))
    return yield* Effect.fail(
      new InvalidInput({
        message: `ruleset_id: single-rule changes on this platform are for the ${CUSTOM_PHASE} entry point; ruleset ${rulesetId} is the ${other.phase} entry point (update it with a PUT of the phase entry point)`
      })
    )
  })

/** Saves the ruleset unless it is a dry run; answers it, or null on a dry run. */
const commit = (db: Parameters<typeof saveRuleset>[0], zoneId: string, dryRun: boolean, next: ZoneRuleset) => {
  if (dryRun) return null
  saveRuleset(db, zoneId, next)
  return next
}

export const RulesetsLive = HttpApiBuilder.group(RulesetsApi, "rulesets", (handlers) =>
  handlers
    .handle("listRulesets", ({ path }) =>
      Effect.map(wafZone(path.zone_id, "/rulesets"), ({ zone, db }) => zoneRulesets(db, zone.id).map(summary))
    )
    .handle("createRuleset", ({ path, urlParams, payload }) =>
      Effect.gen(function* () {
        const dryRun = yield* readOk(readDryRun(urlParams.dry_run))
        const { zone, db, plan, now } = yield* wafZone(path.zone_id, "/rulesets")
        const input = yield* readOk(readCreate(payload, plan))
        if (getCustomEntrypoint(db, zone.id) !== null) {
          return yield* Effect.fail(
            new Conflict({
              code: 20217,
              message: `exceeded maximum number of zone/account rulesets for phase ${CUSTOM_PHASE}: the zone has its entry point; update it with a PUT of the phase entry point`
            })
          )
        }
        const next = yield* outcomeOk(Ops.putEntrypoint(zone.id, plan, null, input, now()))
        return commit(db, zone.id, dryRun, next)
      })
    )
    .handle("getRuleset", ({ path }) =>
      Effect.flatMap(wafZone(path.zone_id, `/rulesets/${path.ruleset_id}`), ({ zone, db }) => {
        const r = zoneRulesets(db, zone.id).find((x) => x.id === path.ruleset_id)
        return r ? Effect.succeed(r) : Effect.fail(rulesetNotFound(path.ruleset_id))
      })
    )
    .handle("getCustomEntrypoint", ({ path }) =>
      Effect.flatMap(wafZone(path.zone_id, `/rulesets/phases/${CUSTOM_PHASE}/entrypoint`), ({ zone, db }) => {
        const r = getCustomEntrypoint(db, zone.id)
        return r ? Effect.succeed(r) : Effect.fail(entrypointNotFound())
      })
    )
    .handle("putCustomEntrypoint", ({ path, urlParams, payload }) =>
      Effect.gen(function* () {
        const dryRun = yield* readOk(readDryRun(urlParams.dry_run))
        const { zone, db, plan, now } = yield* wafZone(path.zone_id, `/rulesets/phases/${CUSTOM_PHASE}/entrypoint`)
        const input = yield* readOk(readEntrypoint(payload, plan))
        const next = yield* outcomeOk(Ops.putEntrypoint(zone.id, plan, getCustomEntrypoint(db, zone.id), input, now()))
        return commit(db, zone.id, dryRun, next)
      })
    )
    .handle("createRule", ({ path, urlParams, payload }) =>
      Effect.gen(function* () {
        const dryRun = yield* readOk(readDryRun(urlParams.dry_run))
        const { zone, db, plan, now, ruleset } = yield* writableRuleset(
          path.zone_id,
          path.ruleset_id,
          `/rulesets/${path.ruleset_id}/rules`
        )
        const change = yield* readOk(readRuleChange(payload, plan, false))
        const next = yield* outcomeOk(Ops.addRule(plan, ruleset, change, now()))
        return commit(db, zone.id, dryRun, next)
      })
    )
    .handle("updateRule", ({ path, urlParams, payload }) =>
      Effect.gen(function* () {
        const dryRun = yield* readOk(readDryRun(urlParams.dry_run))
        const { zone, db, plan, now, ruleset } = yield* writableRuleset(
          path.zone_id,
          path.ruleset_id,
          `/rulesets/${path.ruleset_id}/rules/${path.rule_id}`
        )
        if (!ruleset.rules.some((r) => r.id === path.rule_id)) {
          return yield* Effect.fail(Ops.ruleNotFound(ruleset.id, path.rule_id))
        }
        const change = yield* readOk(readRuleChange(payload, plan, true))
        const next = yield* outcomeOk(Ops.updateRule(plan, ruleset, path.rule_id, change, now()))
        return commit(db, zone.id, dryRun, next)
      })
    )
    .handle("deleteRule", ({ path, urlParams }) =>
      Effect.gen(function* () {
        const dryRun = yield* readOk(readDryRun(urlParams.dry_run))
        const { zone, db, now, ruleset } = yield* writableRuleset(
          path.zone_id,
          path.ruleset_id,
          `/rulesets/${path.ruleset_id}/rules/${path.rule_id}`
        )
        const next = yield* outcomeOk(Ops.deleteRule(ruleset, path.rule_id, now()))
        return commit(db, zone.id, dryRun, next)
      })
    )
)
