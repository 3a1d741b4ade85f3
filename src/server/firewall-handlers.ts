/**
 * Handlers of the filters and firewall-rules endpoints (area C): each finds the zone (not found
 * when the caller cannot see it) and runs one operation over the store: ./firewall-filter-ops.ts,
 * ./firewall-rule-ops.ts, or for a list a page of src/store/firewall-listings.ts.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { FirewallApi } from "../api/contract-firewall.js"
import { pageInfo } from "../domain/envelope.js"
import { InvalidInput } from "../domain/errors.js"
import { expressionError } from "../firewall/expression.js"
import { toFilter, toRule } from "./firewall-answers.js"
import type { Refusal, Scope } from "./firewall-checks.js"
import * as Filters from "./firewall-filter-ops.js"
import * as Rules from "./firewall-rule-ops.js"
import { Db } from "../store/db.js"
import * as Listings from "../store/firewall-listings.js"
import { isoMicros } from "../domain/timestamps.js"
import { PlatformClock } from "./clock.js"
import { visibleZone } from "./core-handlers.js"
import { firewallWritesRefused, LegacyApis } from "./legacy-mode.js"
import { requestPayload } from "./body-guard.js"

const scope = (zoneId: string, suffix: string) =>
  Effect.gen(function* () {
    yield* visibleZone(zoneId, suffix)
    const { db, sql } = yield* Db
    const clock = yield* PlatformClock
    return { sql, db, zoneId, now: isoMicros(clock.now().getTime()) } satisfies Scope
  })

/** Before a write: with the ended APIs switched on, the platform's maintenance-mode refusal (10020). */
const writable = Effect.flatMap(LegacyApis, (mode) => (mode.ended ? Effect.fail(firewallWritesRefused()) : Effect.void))
const writeScope = (zoneId: string, suffix: string) => Effect.zipRight(writable, scope(zoneId, suffix))

const run = <A, E extends Refusal>(zoneId: string, suffix: string, op: (s: Scope) => Effect.Effect<A, E>) =>
  Effect.flatMap(scope(zoneId, suffix), op)
const runWrite = <A, E extends Refusal>(zoneId: string, suffix: string, op: (s: Scope) => Effect.Effect<A, E>) =>
  Effect.flatMap(writeScope(zoneId, suffix), op)

/**
 * `delete_filter_if_unused` of a rule DELETE: in the query, or (as the API schema has it) in a JSON
 * body `{"delete_filter_if_unused": true}`; a DELETE without a body (or of whitespace) means false.
 * The body is read as parsed JSON, so a large one is parsed as it arrives (body-guard.ts), as on
 * the other routes.
 */
const deleteFilterIfUnused = (query: boolean | undefined, request: HttpServerRequest.HttpServerRequest) =>
  query !== undefined
    ? Effect.succeed(query)
    : Effect.flatMap(Effect.either(request.json), (parsed) => {
        if (Either.isLeft(parsed)) {
          // Not JSON: no body at all is fine; the text of a body that was parsed on the way fails.
          return Effect.flatMap(Effect.either(request.text), (text) =>
            Either.isRight(text) && text.right.trim() === ""
              ? Effect.succeed(false)
              : Effect.fail(
                  new InvalidInput({
                    message: 'the body of a rule DELETE must be JSON: {"delete_filter_if_unused": true}'
                  })
                )
          )
        }
        const body = parsed.right
        const value =
          typeof body === "object" && body !== null
            ? (body as { delete_filter_if_unused?: unknown }).delete_filter_if_unused
            : undefined
        if (value === undefined || typeof value === "boolean") return Effect.succeed(value === true)
        return Effect.fail(
          new InvalidInput({ message: `delete_filter_if_unused must be true or false, got ${JSON.stringify(value)}` })
        )
      })

/**
 * `/filters/validate-expr`: the platform's own answers, not the usual envelope: a valid expression
 * succeeds with no result; an invalid one is a 400 whose one error is the "Filter parsing error"
 * text with its caret and no code, and `messages` is null. No zone, so no plan: every field counts.
 */
const validateExpr = (expression: unknown) => {
  if (typeof expression !== "string") {
    return Effect.fail(
      new InvalidInput({
        message: `expression is required and must be a string, got ${expression === undefined ? "nothing" : JSON.stringify(expression)}`
      })
    )
  }
  const e = expressionError(expression, "")
  return Effect.succeed(
    e === undefined
      ? HttpServerResponse.unsafeJson({ result: null, success: true, errors: [], messages: [] })
      : HttpServerResponse.unsafeJson(
          { result: null, success: false, errors: [{ message: e.message }], messages: null },
          { status: 400 }
        )
  )
}

/** A write's body, read here (the contract types it for the client; src/firewall/body.ts reads it). */
const withPayload = <A, E, R>(
  request: HttpServerRequest.HttpServerRequest,
  write: (payload: unknown) => Effect.Effect<A, E, R>
) => Effect.flatMap(requestPayload(request), write)

const idsOf = (id: string | ReadonlyArray<string> | undefined) =>
  id === undefined ? [] : typeof id === "string" ? [id] : [...id]

const paged = <A>(page: number, perPage: number, r: { rows: ReadonlyArray<A>; total: number }) => ({
  items: r.rows,
  info: pageInfo(page, perPage, r.total, r.rows.length)
})

export const FirewallLive = HttpApiBuilder.group(FirewallApi(), "firewall", (handlers) =>
  handlers
    .handle("listFilters", ({ path, urlParams: q }) =>
      Effect.map(scope(path.zone_id, "/filters"), (s) => {
        const page = q.page ?? 1
        const perPage = q.per_page ?? 25
        const r = Listings.listFilters(s.db, s.zoneId, q, { offset: (page - 1) * perPage, limit: perPage })
        return paged(page, perPage, { rows: r.rows.map(toFilter), total: r.total })
      })
    )
    .handleRaw("createFilters", ({ path, request }) =>
      withPayload(request, (payload) => runWrite(path.zone_id, "/filters", (s) => Filters.createFilters(s, payload)))
    )
    .handleRaw("updateFilters", ({ path, request }) =>
      withPayload(request, (payload) => runWrite(path.zone_id, "/filters", (s) => Filters.updateFilters(s, payload)))
    )
    .handle("deleteFilters", ({ path, urlParams }) =>
      runWrite(path.zone_id, "/filters", (s) => Filters.deleteFilters(s, idsOf(urlParams.id)))
    )
    .handle("getFilter", ({ path }) => run(path.zone_id, "/filters", (s) => Filters.getFilter(s, path.filter_id)))
    .handleRaw("updateFilter", ({ path, request }) =>
      withPayload(request, (payload) =>
        runWrite(path.zone_id, "/filters", (s) => Filters.updateFilter(s, path.filter_id, payload))
      )
    )
    .handle("deleteFilter", ({ path }) =>
      runWrite(path.zone_id, "/filters", (s) => Filters.deleteFilter(s, path.filter_id))
    )
    .handle("listRules", ({ path, urlParams: q }) =>
      Effect.map(scope(path.zone_id, "/firewall/rules"), (s) => {
        const page = q.page ?? 1
        const perPage = q.per_page ?? 25
        const r = Listings.queryRules(s.db, s.zoneId, q, { offset: (page - 1) * perPage, limit: perPage })
        return paged(page, perPage, { rows: r.rows.map(toRule), total: r.total })
      })
    )
    .handleRaw("createRules", ({ path, request }) =>
      withPayload(request, (payload) => runWrite(path.zone_id, "/firewall/rules", (s) => Rules.createRules(s, payload)))
    )
    .handleRaw("updateRules", ({ path, request }) =>
      withPayload(request, (payload) => runWrite(path.zone_id, "/firewall/rules", (s) => Rules.updateRules(s, payload)))
    )
    .handleRaw("patchRules", ({ path, request }) =>
      withPayload(request, (payload) => runWrite(path.zone_id, "/firewall/rules", (s) => Rules.patchRules(s, payload)))
    )
    .handle("deleteRules", ({ path, urlParams }) =>
      runWrite(path.zone_id, "/firewall/rules", (s) => Rules.deleteRules(s, idsOf(urlParams.id)))
    )
    .handle("getRule", ({ path }) => run(path.zone_id, "/firewall/rules", (s) => Rules.getRule(s, path.rule_id)))
    .handleRaw("updateRule", ({ path, request }) =>
      withPayload(request, (payload) =>
        runWrite(path.zone_id, "/firewall/rules", (s) => Rules.updateRule(s, path.rule_id, payload))
      )
    )
    .handleRaw("patchRule", ({ path, request }) =>
      withPayload(request, (payload) =>
        runWrite(path.zone_id, "/firewall/rules", (s) => Rules.patchRule(s, path.rule_id, payload))
      )
    )
    .handle("deleteRule", ({ path, urlParams, request }) =>
      Effect.flatMap(deleteFilterIfUnused(urlParams.delete_filter_if_unused, request), (deleteFilterIfUnused) =>
        runWrite(path.zone_id, "/firewall/rules", (s) => Rules.deleteRule(s, path.rule_id, { deleteFilterIfUnused }))
      )
    )
    .handle("validateExpr", ({ urlParams }) => validateExpr(urlParams.expression))
    .handleRaw("validateExprPost", ({ request }) =>
      withPayload(request, (payload) =>
        typeof payload === "object" && payload !== null && !Array.isArray(payload)
          ? validateExpr((payload as { expression?: unknown }).expression)
          : Effect.fail(new InvalidInput({ message: 'the body must be a JSON object {"expression": "..."}' }))
      )
    )
)
