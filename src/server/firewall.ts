/**
 * Handlers of the filters and firewall-rules endpoints (area C): each finds the zone (not found
 * when the caller cannot see it) and runs one operation of src/firewall/ops.ts over the store.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { FirewallApi } from "../api/contract-firewall.js"
import { pageInfo } from "../domain/envelope.js"
import * as Ops from "../firewall/ops.js"
import { Db } from "../store/db.js"
import * as Repo from "../store/firewall-repo.js"
import { isoMicros } from "../store/world.js"
import { PlatformClock } from "./clock.js"
import { visibleZone } from "./handlers.js"

const scope = (zoneId: string, suffix: string) =>
  Effect.gen(function* () {
    yield* visibleZone(zoneId, suffix)
    const { db } = yield* Db
    const clock = yield* PlatformClock
    return { db, zoneId, now: isoMicros(clock.now().getTime()) } satisfies Ops.Scope
  })

const run = <A>(zoneId: string, suffix: string, op: (s: Ops.Scope) => Ops.Outcome<A>) =>
  Effect.flatMap(scope(zoneId, suffix), (s) => {
    const r = op(s)
    return r.ok ? Effect.succeed(r.value) : Effect.fail(r.error)
  })

const idsOf = (id: string | ReadonlyArray<string> | undefined) => (id === undefined ? [] : typeof id === "string" ? [id] : [...id])

const paged = <A>(page: number, perPage: number, r: { rows: ReadonlyArray<A>; total: number }) => ({
  items: r.rows,
  info: pageInfo(page, perPage, r.total, r.rows.length)
})

export const FirewallLive = HttpApiBuilder.group(FirewallApi, "firewall", (handlers) =>
  handlers
    .handle("listFilters", ({ path, urlParams: q }) =>
      Effect.map(scope(path.zone_id, "/filters"), (s) => {
        const page = q.page ?? 1
        const perPage = q.per_page ?? 25
        const r = Repo.listFilters(s.db, s.zoneId, q, { offset: (page - 1) * perPage, limit: perPage })
        return paged(page, perPage, { rows: r.rows.map(Ops.toFilter), total: r.total })
      })
    )
    .handle("createFilters", ({ path, payload }) => run(path.zone_id, "/filters", (s) => Ops.createFilters(s, payload)))
    .handle("updateFilters", ({ path, payload }) => run(path.zone_id, "/filters", (s) => Ops.updateFilters(s, payload)))
    .handle("deleteFilters", ({ path, urlParams }) =>
      Effect.map(scope(path.zone_id, "/filters"), (s) => Ops.deleteFilters(s, idsOf(urlParams.id)))
    )
    .handle("getFilter", ({ path }) => run(path.zone_id, "/filters", (s) => Ops.getFilter(s, path.filter_id)))
    .handle("updateFilter", ({ path, payload }) => run(path.zone_id, "/filters", (s) => Ops.updateFilter(s, path.filter_id, payload)))
    .handle("deleteFilter", ({ path }) => run(path.zone_id, "/filters", (s) => Ops.deleteFilter(s, path.filter_id)))
    .handle("listRules", ({ path, urlParams: q }) =>
      Effect.map(scope(path.zone_id, "/firewall/rules"), (s) => {
        const page = q.page ?? 1
        const perPage = q.per_page ?? 25
        const r = Repo.queryRules(s.db, s.zoneId, q, { offset: (page - 1) * perPage, limit: perPage })
        return paged(page, perPage, { rows: r.rows.map(Ops.toRule), total: r.total })
      })
    )
    .handle("createRules", ({ path, payload }) => run(path.zone_id, "/firewall/rules", (s) => Ops.createRules(s, payload)))
    .handle("updateRules", ({ path, payload }) => run(path.zone_id, "/firewall/rules", (s) => Ops.updateRules(s, payload)))
    .handle("patchRules", ({ path, payload }) => run(path.zone_id, "/firewall/rules", (s) => Ops.patchRules(s, payload)))
    .handle("deleteRules", ({ path, urlParams }) =>
      Effect.map(scope(path.zone_id, "/firewall/rules"), (s) => Ops.deleteRules(s, idsOf(urlParams.id)))
    )
    .handle("getRule", ({ path }) => run(path.zone_id, "/firewall/rules", (s) => Ops.getRule(s, path.rule_id)))
    .handle("updateRule", ({ path, payload }) => run(path.zone_id, "/firewall/rules", (s) => Ops.updateRule(s, path.rule_id, payload)))
    .handle("patchRule", ({ path, payload }) => run(path.zone_id, "/firewall/rules", (s) => Ops.patchRule(s, path.rule_id, payload)))
    .handle("deleteRule", ({ path }) => run(path.zone_id, "/firewall/rules", (s) => Ops.deleteRule(s, path.rule_id)))
)
