/**
 * A zone's firewall rules and filters lists (`GET /zones/{id}/firewall/rules`, `GET
 * /zones/{id}/filters`: what `firewall rules list` and `firewall filters list` ask) answered
 * without the HttpApi app, as route-table.ts answers the hottest JSON reads: in local mode a cold
 * listing then never builds the firewall part of the API. A module of its own so that only a
 * firewall request loads the firewall contract (fast-routes.ts imports it then).
 *
 * Same rule as the table: it answers only a successful read whose request it understands exactly
 * (GET, no body, the path spelled plainly, a query of declared names with plain values), with the
 * handler's own functions (credentials: auth.ts; the zone and its rows: the store's synchronous
 * listings and firewall-answers.ts; the parameters and the answer: the endpoint's own schemas);
 * anything else, every error included, is the app's (test/server/route-table.test.ts compares both).
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { BasePath } from "../../api/contract-core.js"
import { FiltersListParams, FirewallEndpoints, RulesListParams } from "../../api/contract-firewall.js"
import { pageInfo } from "../../domain/envelope.js"
import type { Db } from "../../store/db.js"
import { listFilters, queryRules, type Page } from "../../store/firewall-listings.js"
import * as Zones from "../../store/zones-repo.js"
import { authenticate } from "../auth.js"
import { toFilter, toRule } from "../firewall-answers.js"
import { isBodilessGet, normalizeUrlParams, orApp, plainQuery, type TableRequest } from "./route-table.js"

/** One listing: its parameters, its rows and its answer, as the handler has them. */
const listing = <S extends Schema.Schema.AnyNoContext & { readonly fields: Schema.Struct.Fields }>(
  params: S,
  rows: (db: Db["db"], zoneId: string, q: Schema.Schema.Type<S>, page: Page) => { rows: Array<unknown>; total: number },
  success: Schema.Schema.AnyNoContext
) => {
  const names: ReadonlySet<string> = new Set(Object.keys(params.fields))
  const decode = Schema.decodeUnknownEither(params)
  const encode = Schema.encodeSync(success)
  return (db: Db["db"], zoneId: string, rawQuery: string | undefined): string | undefined => {
    const query = plainQuery(rawQuery, names)
    if (query === undefined) return undefined
    const q = decode(normalizeUrlParams(query, params.ast))
    if (Either.isLeft(q)) return undefined
    // As the handler (firewall-handlers.ts, listRules and listFilters).
    const { page = 1, per_page: perPage = 25 } = q.right as { page?: number; per_page?: number }
    const r = rows(db, zoneId, q.right, { offset: (page - 1) * perPage, limit: perPage })
    return JSON.stringify(encode({ items: r.rows, info: pageInfo(page, perPage, r.total, r.rows.length) }))
  }
}

// Made with the route (this module is loaded when the first firewall request comes).
const listings: Readonly<Record<string, ReturnType<typeof listing>>> = {
  "firewall/rules": listing(
    RulesListParams(),
    (db, zoneId, q, page) => {
      const r = queryRules(db, zoneId, q, page)
      return { rows: r.rows.map(toRule), total: r.total }
    },
    FirewallEndpoints.listRules.successSchema
  ),
  filters: listing(
    FiltersListParams(),
    (db, zoneId, q, page) => {
      const r = listFilters(db, zoneId, q, page)
      return { rows: r.rows.map(toFilter), total: r.total }
    },
    FirewallEndpoints.listFilters.successSchema
  )
}

const ROUTE = new RegExp(`^${BasePath}/zones/([A-Za-z0-9_-]{1,64})/(firewall/rules|filters)(?:\\?(.*))?$`)

/** The answer's JSON text (status 200, `application/json`), or `undefined`: ask the app. */
export const makeFirewallListsRoute = (db: Db["db"]) => orApp((request) => answer(db, request))

const answer = (db: Db["db"], request: TableRequest): string | undefined => {
  if (!isBodilessGet(request)) return undefined
  const route = ROUTE.exec(request.url)
  if (route === null) return undefined
  const principal = authenticate(request.headers, request.url, db)
  if (Either.isLeft(principal)) return undefined
  const zoneId = route[1]!
  if (Zones.getZone(db, zoneId, principal.right.accountIds) === undefined) return undefined
  return listings[route[2]!]!(db, zoneId, route[3])
}
