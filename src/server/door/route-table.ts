/**
 * The platform's hottest reads, answered without the HttpApi app: `GET /zones/{id}` and
 * `GET /zones/{id}/dns_records` are most of what the CLI, the TUI and official clients ask, and the
 * app's generic work per request (a fiber, the router's matching, context and middleware layers)
 * cost more than the query and the encoding together (bench/platform.bench.mjs has the profile).
 *
 * A table, not a second implementation: it answers only a successful read whose request it
 * understands exactly, with the same functions as the app (credentials: auth.ts; the zone and its
 * records: the store; parameters and the answer: the endpoint's own schemas, prepared once), and
 * declines everything else (`undefined`), which the caller then hands to the app. So every error,
 * every unusual spelling of a path (trailing or double slash, capitals, percent-encoding), every
 * other method and every route it does not hold is answered by the app, as before; what it answers
 * is byte for byte what the app would (test/server/route-table.test.ts compares both on every route
 * of the contract).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { AccountsParams, BasePath, DnsListParams, Endpoints, ZonesListParams } from "../../api/contract-core.js"
import { lazily } from "../../api/contract-lazy.js"
import type { Db } from "../../store/db.js"
import type { Account } from "../../domain/account.js"
import type { DnsRecord } from "../../domain/dns.js"
import type { Page, PageInfo } from "../../domain/envelope.js"
import type { Zone } from "../../domain/zone.js"
import * as Identity from "../../store/identity-repo.js"
import * as Zones from "../../store/zones-repo.js"
import { authenticate } from "../auth.js"
import { dnsQuery } from "../core-handlers.js"

/** What the table reads of a request: the node request and the in-process one both have these. */
export interface TableRequest {
  readonly method: string
  /** The path with the base path and the query, as the app's request has it. */
  readonly url: string
  readonly headers: Readonly<Record<string, string | undefined>>
}

/** The answer's JSON text (status 200, `application/json`), or `undefined`: ask the app. */
export type RouteTable = (request: TableRequest) => string | undefined

/**
 * A GET without a body or a content-type, the only requests a table answers: with either, the
 * app's body checks decide (a GET's multipart type is refused there).
 */
export const isBodilessGet = (request: TableRequest): boolean =>
  request.method === "GET" &&
  request.headers["content-type"] === undefined &&
  request.headers["content-length"] === undefined &&
  request.headers["transfer-encoding"] === undefined

/**
 * A table's answer, or `undefined` when reading it throws: a store failure (or a row off its
 * schema) the app then meets again and answers as it answers any internal failure, a 500
 * (errors.ts).
 */
export const orApp =
  <A>(answer: (request: TableRequest) => A | undefined) =>
  (request: TableRequest): A | undefined => {
    try {
      return answer(request)
    } catch {
      return undefined
    }
  }

// A zone id as the platform makes them, or any id of plain characters: nothing the router would
// decode, fold or trim. The query, when there is one, is as plain (see `plainQuery`).
const ROUTE = new RegExp(`^${BasePath}/zones/([A-Za-z0-9_-]{1,64})(/dns_records)?(?:\\?(.*))?$`)
// The two lists a cold command asks first (`zones list`, a zone's name resolved, the account of a
// KV command): answered here, local mode never builds the core part of the API for them.
const LIST = new RegExp(`^${BasePath}/(zones|accounts)(?:\\?(.*))?$`)
const PAIR = /^([A-Za-z0-9_.]+)=([A-Za-z0-9_.:-]+)$/

/**
 * The parameters of a query every parser reads alike (no escapes, no `+`, no repeated or empty
 * names, no value without `=`, only names the endpoint declares), as the router's; `undefined` for
 * any other query.
 */
export const plainQuery = (
  query: string | undefined,
  names: ReadonlySet<string>
): Record<string, string> | undefined => {
  const out: Record<string, string> = {}
  if (query === undefined || query === "") return out
  for (const pair of query.split("&")) {
    const m = PAIR.exec(pair)
    if (m === null || !names.has(m[1]!) || Object.hasOwn(out, m[1]!)) return undefined
    out[m[1]!] = m[2]!
  }
  return out
}

// Prepared on first use, then kept: the app decodes and encodes with these same schemas
// (HttpApiBuilder caches its parsers per schema too). A cold command builds only those of the
// routes it asks (contract-lazy.ts).
const encodeZone = lazily(() => Schema.encodeSync(Endpoints.getZone.successSchema))
const encodeDnsPage = lazily(() => Schema.encodeSync(Endpoints.listDnsRecords.successSchema))
const encodeZonesPage = lazily(() => Schema.encodeSync(Endpoints.listZones.successSchema))
const encodeAccountsPage = lazily(() => Schema.encodeSync(Endpoints.listAccounts.successSchema))
const decodeDnsParams = lazily(() => Schema.decodeUnknownEither(DnsListParams()))
const decodeZonesParams = lazily(() => Schema.decodeUnknownEither(ZonesListParams()))
const decodeAccountsParams = lazily(() => Schema.decodeUnknownEither(AccountsParams()))
// The app's own step between the query and the schema (a name whose type is not a string gets its
// value in an array); internal to @effect/platform, so untyped: were it gone, the call would throw
// and the table decline every DNS list (test/server/route-table.test.ts would say so).
export const normalizeUrlParams = (
  HttpApiBuilder as unknown as { normalizeUrlParams: (p: object, ast: unknown) => unknown }
).normalizeUrlParams
const dnsNames = lazily((): ReadonlySet<string> => new Set(Object.keys(DnsListParams().fields)))
// `type` is left to the app: its handler checks the values beyond the schema (one of four types).
const zonesNames = lazily(
  (): ReadonlySet<string> => new Set(Object.keys(ZonesListParams().fields).filter((n) => n !== "type"))
)
const accountsNames = lazily((): ReadonlySet<string> => new Set(Object.keys(AccountsParams().fields)))
const noNames: ReadonlySet<string> = new Set()

const isString = (u: unknown): u is string => typeof u === "string"
const isObject = (u: unknown) => typeof u === "object" && u !== null && !Array.isArray(u)
const optional = <A>(u: unknown, is: (u: unknown) => u is A) => u === undefined || is(u)

const nullOr =
  <A>(is: (u: unknown) => u is A) =>
  (u: unknown): u is A | null =>
    u === null || is(u)
const isStrings = (u: unknown): u is ReadonlyArray<string> => Array.isArray(u) && u.every(isString)
const isBoolean = (u: unknown): u is boolean => typeof u === "boolean"
const isNumber = (u: unknown): u is number => typeof u === "number"
const isRecord = (u: unknown): u is Record<string, unknown> => isObject(u)

/** The Plan's fields (src/domain/zone.ts) in its order, and undefined for one off its schema. */
const planWire = (p: Record<string, unknown>) =>
  isString(p.id) &&
  isString(p.name) &&
  optional(p.price, isNumber) &&
  optional(p.currency, isString) &&
  optional(p.frequency, isString) &&
  optional(p.is_subscribed, isBoolean) &&
  optional(p.can_subscribe, isBoolean) &&
  optional(p.legacy_id, isString) &&
  optional(p.legacy_discount, isBoolean) &&
  optional(p.externally_managed, isBoolean)
    ? {
        id: p.id,
        name: p.name,
        price: p.price,
        currency: p.currency,
        frequency: p.frequency,
        is_subscribed: p.is_subscribed,
        can_subscribe: p.can_subscribe,
        legacy_id: p.legacy_id,
        legacy_discount: p.legacy_discount,
        externally_managed: p.externally_managed
      }
    : undefined

/**
 * A zone's wire object without its schema's encoder, as `dnsPageJson` below: the fields in the
 * order of Zone (src/domain/zone.ts) and of its owner, account and plan, whose excess fields the
 * encoder drops too; `undefined` for a zone off its schema, which then goes through the encoder.
 */
const zoneWire = (z: Zone): object | undefined => {
  const owner = z.owner as Record<string, unknown> | undefined
  const account = z.account as Record<string, unknown>
  const plan = z.plan === undefined ? undefined : isRecord(z.plan) ? planWire(z.plan) : undefined
  if (
    !isString(z.id) ||
    !isString(z.name) ||
    !optional(z.status, isString) ||
    !optional(z.paused, isBoolean) ||
    !optional(z.type, isString) ||
    !optional(z.development_mode, isNumber) ||
    !optional(z.name_servers, isStrings) ||
    !optional(z.original_name_servers, nullOr(isStrings)) ||
    !optional(z.original_registrar, nullOr(isString)) ||
    !optional(z.original_dnshost, nullOr(isString)) ||
    !optional(z.created_on, isString) ||
    !optional(z.modified_on, isString) ||
    !optional(z.activated_on, nullOr(isString)) ||
    !optional(z.meta, isRecord) ||
    !(
      owner === undefined ||
      (isRecord(owner) &&
        optional(owner.id, nullOr(isString)) &&
        optional(owner.name, nullOr(isString)) &&
        optional(owner.email, nullOr(isString)) &&
        optional(owner.type, isString))
    ) ||
    !(isRecord(account) && isString(account.id) && optional(account.name, isString)) ||
    (z.plan !== undefined && plan === undefined) ||
    !optional(z.permissions, isStrings) ||
    !optional(z.vanity_name_servers, isStrings)
  )
    return undefined
  return {
    id: z.id,
    name: z.name,
    status: z.status,
    paused: z.paused,
    type: z.type,
    development_mode: z.development_mode,
    name_servers: z.name_servers,
    original_name_servers: z.original_name_servers,
    original_registrar: z.original_registrar,
    original_dnshost: z.original_dnshost,
    created_on: z.created_on,
    modified_on: z.modified_on,
    activated_on: z.activated_on,
    meta: z.meta,
    owner: owner === undefined ? undefined : { id: owner.id, name: owner.name, email: owner.email, type: owner.type },
    account: { id: account.id, name: account.name },
    plan,
    permissions: z.permissions,
    vanity_name_servers: z.vanity_name_servers
  }
}

const zoneJson = (z: Zone): string => {
  const result = zoneWire(z)
  return JSON.stringify(result === undefined ? encodeZone()(z) : { result, success: true, errors: [], messages: [] })
}

/** A page's JSON in the Paged envelope's order (src/domain/envelope.ts). */
const pagedJson = (result: ReadonlyArray<unknown>, i: PageInfo): string =>
  JSON.stringify({
    result,
    result_info: {
      page: i.page,
      per_page: i.per_page,
      count: i.count,
      total_count: i.total_count,
      total_pages: i.total_pages
    },
    success: true,
    errors: [],
    messages: []
  })

const zonesPageJson = (page: Page<Zone>): string => {
  const result: Array<object> = []
  for (const z of page.items) {
    const wire = zoneWire(z)
    if (wire === undefined) return JSON.stringify(encodeZonesPage()(page))
    result.push(wire)
  }
  return pagedJson(result, page.info)
}

/** An account in the order of Account (src/domain/account.ts); off its schema, the encoder's. */
const accountsPageJson = (page: Page<Account>): string => {
  const result: Array<object> = []
  for (const a of page.items) {
    if (
      !isString(a.id) ||
      !isString(a.name) ||
      !optional(a.type, isString) ||
      !optional(a.created_on, isString) ||
      !optional(a.settings, isRecord)
    )
      return JSON.stringify(encodeAccountsPage()(page))
    result.push({ id: a.id, name: a.name, type: a.type, created_on: a.created_on, settings: a.settings })
  }
  return pagedJson(result, page.info)
}

/**
 * A DNS page's JSON without its schema's encoder, which is a third of a page's cost: the store's
 * records are already the wire's values, so the encoding only orders the fields as the schema does
 * (DnsRecord, src/domain/dns.ts, inside the Paged envelope) and drops absent ones, as
 * JSON.stringify does. It checks each field's type as the encoder would; a record off its schema
 * (a damaged store) goes through the encoder, which refuses it as before. The test compares both
 * on every page of the demo world.
 */
const dnsPageJson = (page: Page<DnsRecord>): string => {
  const result: Array<unknown> = []
  for (const r of page.items) {
    if (
      !isString(r.id) ||
      !isString(r.type) ||
      !isString(r.name) ||
      !optional(r.content, isString) ||
      !(r.data === undefined || isObject(r.data)) ||
      !(r.priority === undefined || typeof r.priority === "number") ||
      typeof r.proxiable !== "boolean" ||
      typeof r.proxied !== "boolean" ||
      typeof r.ttl !== "number" ||
      !isObject(r.settings) ||
      !(r.comment === null || isString(r.comment)) ||
      !Array.isArray(r.tags) ||
      !r.tags.every(isString) ||
      !isObject(r.meta) ||
      !optional(r.created_on, isString) ||
      !optional(r.modified_on, isString)
    )
      return JSON.stringify(encodeDnsPage()(page))
    result.push({
      id: r.id,
      type: r.type,
      name: r.name,
      content: r.content,
      data: r.data,
      priority: r.priority,
      proxiable: r.proxiable,
      proxied: r.proxied,
      ttl: r.ttl,
      settings: r.settings,
      comment: r.comment,
      tags: r.tags,
      meta: r.meta,
      created_on: r.created_on,
      modified_on: r.modified_on
    })
  }
  return pagedJson(result, page.info)
}

/** The table over the store `db` (the handle the app's handlers use). */
export const makeRouteTable = (db: Db["db"]): RouteTable => orApp((request) => answer(db, request))

const answer = (db: Db["db"], request: TableRequest): string | undefined => {
  if (!isBodilessGet(request)) return undefined
  const route = ROUTE.exec(request.url)
  if (route === null) return list(db, request)
  const dns = route[2] !== undefined
  // The zone's endpoint declares no parameters: a query there is left to the app.
  const query = plainQuery(route[3], dns ? dnsNames() : noNames)
  if (query === undefined) return undefined
  const principal = authenticate(request.headers, request.url, db)
  if (Either.isLeft(principal)) return undefined
  const zoneId = route[1]!
  const zone = Zones.getZone(db, zoneId, principal.right.accountIds)
  if (zone === undefined) return undefined
  if (!dns) return zoneJson(zone)
  const params = decodeDnsParams()(normalizeUrlParams(query, DnsListParams().ast))
  if (Either.isLeft(params)) return undefined
  return dnsPageJson(Zones.listDnsRecords(db, dnsQuery(zoneId, params.right)))
}

/** `GET /zones` and `GET /accounts`, as their handlers (core-handlers.ts) answer them. */
const list = (db: Db["db"], request: TableRequest): string | undefined => {
  const route = LIST.exec(request.url)
  if (route === null) return undefined
  const zones = route[1] === "zones"
  const query = plainQuery(route[2], zones ? zonesNames() : accountsNames())
  if (query === undefined) return undefined
  const principal = authenticate(request.headers, request.url, db)
  if (Either.isLeft(principal)) return undefined
  const accountIds = principal.right.accountIds
  if (zones) {
    const params = decodeZonesParams()(normalizeUrlParams(query, ZonesListParams().ast))
    if (Either.isLeft(params)) return undefined
    const q = params.right
    return zonesPageJson(
      Zones.listZones(db, {
        accountIds,
        name: q.name,
        status: q.status,
        accountId: q["account.id"],
        accountName: q["account.name"],
        types: undefined,
        match: q.match,
        order: q.order,
        direction: q.direction,
        page: q.page ?? 1,
        perPage: q.per_page ?? 20
      })
    )
  }
  const params = decodeAccountsParams()(normalizeUrlParams(query, AccountsParams().ast))
  if (Either.isLeft(params)) return undefined
  const q = params.right
  return accountsPageJson(
    Identity.listAccounts(db, accountIds, {
      name: q.name,
      direction: q.direction,
      page: q.page ?? 1,
      perPage: q.per_page ?? 20
    })
  )
}
