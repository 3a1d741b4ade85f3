/**
 * A zone's firewall rules list (`GET /zones/{id}/firewall/rules`, what `firewall rules list` asks)
 * answered without the HttpApi app, as route-table.ts answers the hottest JSON reads: in local mode
 * a cold `firewall rules list` then never builds the firewall part of the API. A module of its own
 * so that only a firewall request loads the firewall contract (fast-routes.ts imports it then).
 *
 * Same rule as the table: it answers only a successful read whose request it understands exactly
 * (GET, no body, the path spelled plainly, a query of declared names with plain values), with the
 * handler's own functions (credentials: auth.ts; the zone and its rules: the store's synchronous
 * listing and firewall-answers.ts; the parameters and the answer: the endpoint's own schemas); anything else,
 * every error included, is the app's (test/server/route-table.test.ts compares both).
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { BasePath } from "../../api/contract-core.js"
import { FirewallEndpoints, RulesListParams } from "../../api/contract-firewall.js"
import { pageInfo } from "../../domain/envelope.js"
import type { Db } from "../../store/db.js"
import { queryRules } from "../../store/firewall-listings.js"
import * as Zones from "../../store/zones-repo.js"
import { authenticate } from "../auth.js"
import { toRule } from "../firewall-answers.js"
import { isBodilessGet, normalizeUrlParams, orApp, plainQuery, type TableRequest } from "./route-table.js"

const ROUTE = new RegExp(`^${BasePath}/zones/([A-Za-z0-9_-]{1,64})/firewall/rules(?:\\?(.*))?$`)
// Made with the route (this module is loaded when the first firewall request comes).
const paramsSchema = RulesListParams()
const names: ReadonlySet<string> = new Set(Object.keys(paramsSchema.fields))
const decodeParams = Schema.decodeUnknownEither(paramsSchema)
const encodePage = Schema.encodeSync(FirewallEndpoints.listRules.successSchema)

/** The answer's JSON text (status 200, `application/json`), or `undefined`: ask the app. */
export const makeFirewallRulesRoute = (db: Db["db"]) => orApp((request) => answer(db, request))

const answer = (db: Db["db"], request: TableRequest): string | undefined => {
  if (!isBodilessGet(request)) return undefined
  const route = ROUTE.exec(request.url)
  if (route === null) return undefined
  const query = plainQuery(route[2], names)
  if (query === undefined) return undefined
  const principal = authenticate(request.headers, request.url, db)
  if (Either.isLeft(principal)) return undefined
  const zoneId = route[1]!
  if (Zones.getZone(db, zoneId, principal.right.accountIds) === undefined) return undefined
  const params = decodeParams(normalizeUrlParams(query, paramsSchema.ast))
  if (Either.isLeft(params)) return undefined
  const q = params.right
  // As the handler (firewall-handlers.ts, listRules).
  const page = q.page ?? 1
  const perPage = q.per_page ?? 25
  const r = queryRules(db, zoneId, q, { offset: (page - 1) * perPage, limit: perPage })
  const rows = r.rows.map(toRule)
  return JSON.stringify(encodePage({ items: rows, info: pageInfo(page, perPage, r.total, rows.length) }))
}
