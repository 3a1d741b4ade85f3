/**
 * Handlers of the previous WAF (packages, groups, rules, URI-based overrides), the zone `waf`
 * setting, page rules and the migration (src/server/waf-migration-handlers.ts). Once a zone's migration is
 * finished every previous-WAF endpoint answers MigrationFinished.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { WafApi } from "../api/contract-waf.js"
import { InvalidInput } from "../domain/errors.js"
import type { WafGroup, WafPackage, WafRule } from "../domain/waf.js"
import type { Db } from "../store/db.js"
import {
  getZoneWaf,
  listOverrides,
  listPageRules,
  putOverride,
  deleteOverride,
  getOverride,
  setGroupMode,
  setPackage,
  setRuleMode,
  setWafSetting,
  zoneSettings
} from "../store/waf-repo.js"
import { hexId } from "../domain/ids.js"
import { isOwaspPackage } from "../waf/catalog.js"
import { checkOverrideBody } from "./waf-override-body.js"
import { requestPayload } from "./body-guard.js"
import { groupsOf, packagesOf, rulesOf } from "../waf/view.js"
import { checkZone, configOf, getEntrypoint, putEntrypoint, statusOf } from "./waf-migration-handlers.js"
import { notFound, pageOf, previousWafZone, wafZone } from "./waf-zone.js"

type Sql = Db["sql"]

const dir = <A>(items: Array<A>, direction: "asc" | "desc" | undefined) =>
  direction === "desc" ? items.reverse() : items

/** A store that fails a query is the platform's fault: a defect, answered 500 (as when queries threw). */
const settingsOf = (sql: Sql, zoneId: string) => Effect.orDie(zoneSettings(sql, zoneId))

const packageOf = (zoneId: string, sql: Sql, id: string): Effect.Effect<WafPackage | undefined> =>
  Effect.map(settingsOf(sql, zoneId), (s) => packagesOf(zoneId, s).find((p) => p.id === id))

const ensurePackage = (p: WafPackage | undefined, id: string) =>
  p ? Effect.succeed(p) : Effect.fail(notFound("package", id))

const groupIn = (sql: Sql, zoneId: string, packageId: string, id: string): Effect.Effect<WafGroup | undefined> =>
  Effect.map(settingsOf(sql, zoneId), (s) => groupsOf(s).find((g) => g.id === id && g.package_id === packageId))
const ruleIn = (sql: Sql, zoneId: string, packageId: string, id: string): Effect.Effect<WafRule | undefined> =>
  Effect.map(settingsOf(sql, zoneId), (s) => rulesOf(s).find((r) => r.id === id && r.package_id === packageId))

const MODE_CODES: Record<string, string> = { DIS: "disable", CHL: "challenge", BLK: "block", SIM: "simulate" }

export const WafLive = HttpApiBuilder.group(WafApi(), "waf", (handlers) =>
  handlers
    .handle("listPackages", ({ path, urlParams: q }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* previousWafZone(path.zone_id, "/firewall/waf/packages")
        let items = packagesOf(zone.id, yield* settingsOf(sql, zone.id))
        if (q.name !== undefined) items = items.filter((p) => p.name.toLowerCase().includes(q.name!.toLowerCase()))
        return pageOf(
          dir(
            items.sort((a, b) => a.name.localeCompare(b.name)),
            q.direction
          ),
          q.page,
          q.per_page ?? 50
        )
      })
    )
    .handle("getPackage", ({ path }) =>
      Effect.flatMap(previousWafZone(path.zone_id, "/firewall/waf/packages"), ({ zone, sql }) =>
        Effect.flatMap(packageOf(zone.id, sql, path.package_id), (p) => ensurePackage(p, path.package_id))
      )
    )
    .handle("patchPackage", ({ path, payload }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* previousWafZone(path.zone_id, "/firewall/waf/packages")
        yield* ensurePackage(yield* packageOf(zone.id, sql, path.package_id), path.package_id)
        if (!isOwaspPackage(path.package_id)) {
          return yield* Effect.fail(
            new InvalidInput({
              message: "sensitivity, action_mode: only the anomaly (OWASP) package has a sensitivity and an action mode"
            })
          )
        }
        if (payload.sensitivity === undefined && payload.action_mode === undefined) {
          return yield* Effect.fail(
            new InvalidInput({
              message: "body: give sensitivity (high, medium, low, off) and/or action_mode (simulate, block, challenge)"
            })
          )
        }
        yield* Effect.orDie(setPackage(sql, zone.id, path.package_id, payload))
        return (yield* packageOf(zone.id, sql, path.package_id))!
      })
    )
    .handle("listGroups", ({ path, urlParams: q }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* previousWafZone(path.zone_id, "/firewall/waf/packages")
        yield* ensurePackage(yield* packageOf(zone.id, sql, path.package_id), path.package_id)
        let items = groupsOf(yield* settingsOf(sql, zone.id)).filter((g) => g.package_id === path.package_id)
        if (q.mode !== undefined) items = items.filter((g) => g.mode === q.mode)
        if (q.name !== undefined) items = items.filter((g) => g.name.toLowerCase().includes(q.name!.toLowerCase()))
        if (q.order === "rules_count") items.sort((a, b) => a.rules_count - b.rules_count)
        if (q.order === "mode") items.sort((a, b) => a.mode.localeCompare(b.mode))
        return pageOf(dir(items, q.direction), q.page, q.per_page ?? 50)
      })
    )
    .handle("getGroup", ({ path }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* previousWafZone(path.zone_id, "/firewall/waf/packages")
        const g = yield* groupIn(sql, zone.id, path.package_id, path.group_id)
        return g ?? (yield* Effect.fail(notFound("group", path.group_id)))
      })
    )
    .handle("patchGroup", ({ path, payload }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* previousWafZone(path.zone_id, "/firewall/waf/packages")
        if (!(yield* groupIn(sql, zone.id, path.package_id, path.group_id)))
          return yield* Effect.fail(notFound("group", path.group_id))
        yield* Effect.orDie(setGroupMode(sql, zone.id, path.group_id, payload.mode))
        return (yield* groupIn(sql, zone.id, path.package_id, path.group_id))!
      })
    )
    .handle("listRules", ({ path, urlParams: q }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* previousWafZone(path.zone_id, "/firewall/waf/packages")
        yield* ensurePackage(yield* packageOf(zone.id, sql, path.package_id), path.package_id)
        let items = rulesOf(yield* settingsOf(sql, zone.id)).filter((r) => r.package_id === path.package_id)
        if (q.mode !== undefined) {
          const m = MODE_CODES[q.mode] ?? q.mode
          items = items.filter((r) => r.mode === m || (r.mode === "default" && r.default_mode === m))
        }
        if (q.group_id !== undefined) items = items.filter((r) => r.group.id === q.group_id)
        if (q.description !== undefined)
          items = items.filter((r) => r.description.toLowerCase().includes(q.description!.toLowerCase()))
        if (q.order === "group_id") items.sort((a, b) => a.group.id.localeCompare(b.group.id))
        else if (q.order === "description") items.sort((a, b) => a.description.localeCompare(b.description))
        else items.sort((a, b) => Number(a.priority) - Number(b.priority))
        return pageOf(dir(items, q.direction), q.page, q.per_page ?? 50)
      })
    )
    .handle("getRule", ({ path }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* previousWafZone(path.zone_id, "/firewall/waf/packages")
        const r = yield* ruleIn(sql, zone.id, path.package_id, path.rule_id)
        return r ?? (yield* Effect.fail(notFound("rule", path.rule_id)))
      })
    )
    .handle("patchRule", ({ path, payload }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* previousWafZone(path.zone_id, "/firewall/waf/packages")
        const r = yield* ruleIn(sql, zone.id, path.package_id, path.rule_id)
        if (!r) return yield* Effect.fail(notFound("rule", path.rule_id))
        if (!r.allowed_modes.includes(payload.mode)) {
          return yield* Effect.fail(
            new InvalidInput({
              message: `mode: rule ${r.id} allows ${r.allowed_modes.join(", ")}, got ${JSON.stringify(payload.mode)}`
            })
          )
        }
        const isDefault = payload.mode === (isOwaspPackage(r.package_id) ? "on" : "default")
        yield* Effect.orDie(setRuleMode(sql, zone.id, r.id, payload.mode, isDefault))
        return (yield* ruleIn(sql, zone.id, path.package_id, path.rule_id))!
      })
    )
    .handle("listOverrides", ({ path, urlParams: q }) =>
      Effect.flatMap(previousWafZone(path.zone_id, "/firewall/waf/overrides"), ({ zone, sql }) =>
        Effect.map(Effect.orDie(listOverrides(sql, zone.id)), (all) => pageOf(all, q.page, q.per_page ?? 50))
      )
    )
    .handleRaw("createOverride", ({ path, request }) =>
      Effect.gen(function* () {
        const payload = yield* requestPayload(request)
        const { zone, sql, now } = yield* previousWafZone(path.zone_id, "/firewall/waf/overrides")
        const id = hexId("waf-override", zone.id, now(), (yield* Effect.orDie(listOverrides(sql, zone.id))).length)
        const o = yield* Either.match(checkOverrideBody(payload, id, false), {
          onLeft: Effect.fail,
          onRight: Effect.succeed
        })
        return yield* Effect.orDie(putOverride(sql, zone.id, o, now()))
      })
    )
    .handle("getOverride", ({ path }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* previousWafZone(path.zone_id, "/firewall/waf/overrides")
        const o = yield* Effect.orDie(getOverride(sql, zone.id, path.override_id))
        return o ?? (yield* Effect.fail(notFound("override", path.override_id)))
      })
    )
    .handleRaw("updateOverride", ({ path, request }) =>
      Effect.gen(function* () {
        const payload = yield* requestPayload(request)
        const { zone, sql, now } = yield* previousWafZone(path.zone_id, "/firewall/waf/overrides")
        if (!(yield* Effect.orDie(getOverride(sql, zone.id, path.override_id))))
          return yield* Effect.fail(notFound("override", path.override_id))
        const o = yield* Either.match(checkOverrideBody(payload, path.override_id, true), {
          onLeft: Effect.fail,
          onRight: Effect.succeed
        })
        return yield* Effect.orDie(putOverride(sql, zone.id, o, now()))
      })
    )
    .handle("deleteOverride", ({ path }) =>
      Effect.gen(function* () {
        const { zone, sql } = yield* previousWafZone(path.zone_id, "/firewall/waf/overrides")
        const deleted = yield* Effect.orDie(deleteOverride(sql, zone.id, path.override_id))
        return deleted ? { id: path.override_id } : yield* Effect.fail(notFound("override", path.override_id))
      })
    )
    .handle("getWafSetting", ({ path }) =>
      Effect.map(previousWafZone(path.zone_id, "/settings/waf"), ({ waf }) => ({
        id: "waf" as const,
        value: waf.waf,
        editable: true,
        modified_on: waf.wafModifiedOn
      }))
    )
    .handle("patchWafSetting", ({ path, payload }) =>
      Effect.gen(function* () {
        const { zone, sql, now } = yield* previousWafZone(path.zone_id, "/settings/waf")
        yield* Effect.orDie(setWafSetting(sql, zone.id, payload.value, now()))
        const w = yield* Effect.orDie(getZoneWaf(sql, zone.id))
        return { id: "waf" as const, value: w.waf, editable: true, modified_on: w.wafModifiedOn }
      })
    )
    .handle("listPageRules", ({ path }) =>
      Effect.flatMap(wafZone(path.zone_id, "/pagerules"), ({ zone, sql }) => Effect.orDie(listPageRules(sql, zone.id)))
    )
    .handle("check", ({ path, urlParams }) => checkZone(path.zone_id, urlParams.phase_two))
    .handle("config", ({ path, urlParams }) => configOf(path.zone_id, urlParams.phase_two))
    .handle("status", ({ path }) => statusOf(path.zone_id))
    .handle("getEntrypoint", ({ path }) => getEntrypoint(path.zone_id))
    .handleRaw("putEntrypoint", ({ path, urlParams, request }) =>
      Effect.flatMap(requestPayload(request), (payload) => putEntrypoint(path.zone_id, urlParams, payload))
    )
)
