/**
 * Handlers of the legacy security products' endpoints (Zone Lockdown, User Agent Blocking, rate
 * limiting previous version): each finds the zone (not found when the caller cannot see it), reads
 * the body with ./legacy-body.ts, checks the plan's quota and writes the store. With the ended APIs
 * switched on (./legacy-mode.ts), every rate-limits call answers Gone.
 *
 * Choices where the reference is silent (docs/legacy-migrations.md, "Legacy security products"): lists come in the
 * order rules were created (the platform's order is not documented), Zone Lockdown's by priority
 * first (rules with one before rules without, as they are processed); a PUT replaces every field
 * it may set; a plan's quota refuses a create, never an update.
 */
import * as Either from "effect/Either"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { LegacyApi } from "../api/contract-legacy.js"
import type { LockdownsListParams, UaRulesListParams } from "../api/contract-legacy.js"
import { pageInfo } from "../domain/envelope.js"
import { type Gone, InvalidInput, NotFound, QuotaExceeded } from "../domain/errors.js"
import {
  type LegacyKind,
  LegacyProductNames,
  legacyLimit,
  type Lockdown,
  type RateLimit,
  type UaRule
} from "../domain/legacy-security.js"
import { isoMicros } from "../domain/timestamps.js"
import { Db } from "../store/db.js"
import type { StoreError } from "../store/store-error.js"
import * as Repo from "../store/legacy-repo.js"
import { PlatformClock } from "./clock.js"
import { visibleZone } from "./core-handlers.js"
import { readLockdown, readRateLimit, readUaRule, type Read } from "./legacy-body.js"
import { LegacyApis, rateLimitsGone } from "./legacy-mode.js"
import { requestPayload } from "./body-guard.js"

const suffixes: Record<LegacyKind, string> = {
  lockdowns: "/firewall/lockdowns",
  ua_rules: "/firewall/ua_rules",
  rate_limits: "/rate_limits"
}

/** A product and what is checked before its zone: the rate limits' API may have ended. */
interface Product<E> {
  readonly kind: LegacyKind
  readonly open: Effect.Effect<void, E, LegacyApis>
}
const lockdowns: Product<never> = { kind: "lockdowns", open: Effect.void }
const uaRules: Product<never> = { kind: "ua_rules", open: Effect.void }
const rateLimits: Product<Gone> = {
  kind: "rate_limits",
  open: Effect.flatMap(LegacyApis, (mode) => (mode.ended ? Effect.fail(rateLimitsGone()) : Effect.void))
}

const scope = <E>(product: Product<E>, zoneId: string) =>
  Effect.gen(function* () {
    yield* product.open
    yield* visibleZone(zoneId, suffixes[product.kind])
    const { sql } = yield* Db
    const clock = yield* PlatformClock
    return { sql, zoneId, now: isoMicros(clock.now().getTime()) }
  })

/** A store query; a store that fails it is the platform's fault (500), as when its queries threw. */
const stored = <A>(query: Effect.Effect<A, StoreError>) => Effect.orDie(query)

const toLockdown = (r: Repo.LegacyRow): Lockdown =>
  ({ id: r.id, created_on: r.created_on, modified_on: r.modified_on, ...r.fields }) as unknown as Lockdown
const toUaRule = (r: Repo.LegacyRow): UaRule => ({ id: r.id, ...r.fields }) as unknown as UaRule
const toRateLimit = (r: Repo.LegacyRow): RateLimit => ({ id: r.id, ...r.fields }) as unknown as RateLimit

const notFound = (kind: LegacyKind, id: string) =>
  new NotFound({ message: `${suffixes[kind].slice(1)}/${id}: no such rule in this zone` })

const bodyOf = <A>(read: Read<A>) =>
  Either.mapLeft(read, (problems) => new InvalidInput({ message: problems.join("; ") }))

const page = <A>(
  rows: ReadonlyArray<A>,
  q: { readonly page?: number | undefined; readonly per_page?: number | undefined }
) => {
  const p = q.page ?? 1
  const perPage = q.per_page ?? 20
  const slice = rows.slice((p - 1) * perPage, p * perPage)
  return { items: slice, info: pageInfo(p, perPage, rows.length, slice.length) }
}

const has = (text: string, search: string | undefined) =>
  search === undefined || text.toLowerCase().includes(search.toLowerCase())

/** Whether an IPv4 address lies in a configuration's value (an address or a range); IPv6 compared as text. */
const ipMatches = (value: string, ip: string) => {
  if (!value.includes("/")) return value.toLowerCase() === ip.toLowerCase()
  const [base, bits] = value.split("/")
  const v4 = (s: string) => {
    const parts = s.split(".").map(Number)
    return parts.length === 4 && parts.every((n) => n >= 0 && n <= 255)
      ? parts.reduce((a, n) => a * 256 + n, 0)
      : undefined
  }
  const a = v4(base ?? "")
  const b = v4(ip)
  if (a === undefined || b === undefined) return value.toLowerCase().startsWith(ip.toLowerCase())
  const size = 2 ** (32 - Number(bits))
  return Math.floor(a / size) === Math.floor(b / size)
}

const lockdownMatches = (l: Lockdown, q: LockdownsListParams) =>
  has(l.description, q.description) &&
  has(l.description, q.description_search) &&
  (q.uri_search === undefined || l.urls.some((u) => has(u, q.uri_search))) &&
  [q.ip, q.ip_search].every(
    (ip) => ip === undefined || l.configurations.some((c) => c.target === "ip" && c.value === ip)
  ) &&
  (q.ip_range_search === undefined ||
    l.configurations.some((c) => c.target === "ip_range" && ipMatches(c.value, q.ip_range_search!.split("/")[0]!))) &&
  (q.priority === undefined || l.priority === q.priority)

const uaMatches = (u: UaRule, q: UaRulesListParams) =>
  has(u.description, q.description) &&
  has(u.description, q.description_search) &&
  has(u.configuration.value, q.ua_search) &&
  has(u.configuration.value, q.user_agent) &&
  (q.paused === undefined || u.paused === q.paused)

/** Lockdowns in the order they are processed: rules with a priority (lowest first) before rules without. */
const byPriority = (a: Lockdown, b: Lockdown) => (a.priority ?? Infinity) - (b.priority ?? Infinity)

const create = <A, E>(product: Product<E>, zoneId: string, read: Read<object>, to: (r: Repo.LegacyRow) => A) =>
  Effect.gen(function* () {
    const kind = product.kind
    const s = yield* scope(product, zoneId)
    const fields = yield* bodyOf(read)
    // The count and the insert in one transaction: another process cannot add a rule between them.
    const added = Effect.gen(function* () {
      const plan = yield* stored(Repo.zonePlan(s.sql, zoneId))
      const limit = legacyLimit(kind, plan)
      const count = yield* stored(Repo.countLegacy(s.sql, zoneId, kind))
      if (count >= limit) {
        return yield* Effect.fail(
          new QuotaExceeded({
            message: `a ${plan} zone may have at most ${limit} ${LegacyProductNames[kind]}; it has ${count}`
          })
        )
      }
      return yield* stored(Repo.insertLegacy(s.sql, zoneId, kind, Repo.newLegacyId(), fields, s.now))
    })
    return to(yield* s.sql.withTransaction(added).pipe(Effect.catchTag("SqlError", Effect.die)))
  })

const get = <A, E>(product: Product<E>, zoneId: string, id: string, to: (r: Repo.LegacyRow) => A) =>
  Effect.gen(function* () {
    const s = yield* scope(product, zoneId)
    const r = yield* stored(Repo.getLegacy(s.sql, zoneId, product.kind, id))
    return r === undefined ? yield* Effect.fail(notFound(product.kind, id)) : to(r)
  })

const replace = <A, E>(
  product: Product<E>,
  zoneId: string,
  id: string,
  read: Read<object>,
  to: (r: Repo.LegacyRow) => A
) =>
  Effect.gen(function* () {
    const s = yield* scope(product, zoneId)
    const fields = yield* bodyOf(read)
    const r = yield* stored(Repo.replaceLegacy(s.sql, zoneId, product.kind, id, fields, s.now))
    return r === undefined ? yield* Effect.fail(notFound(product.kind, id)) : to(r)
  })

const remove = <E>(product: Product<E>, zoneId: string, id: string) =>
  Effect.gen(function* () {
    const s = yield* scope(product, zoneId)
    const deleted = yield* stored(Repo.deleteLegacy(s.sql, zoneId, product.kind, id))
    return deleted ? { id } : yield* Effect.fail(notFound(product.kind, id))
  })

/** A zone's rules of one kind, read for a listing. */
const listed = <E>(product: Product<E>, zoneId: string) =>
  Effect.flatMap(scope(product, zoneId), (s) => stored(Repo.listLegacy(s.sql, s.zoneId, product.kind)))

export const LegacyLive = HttpApiBuilder.group(LegacyApi(), "legacy", (handlers) =>
  handlers
    .handle("listLockdowns", ({ path, urlParams: q }) =>
      Effect.map(listed(lockdowns, path.zone_id), (rows) =>
        page(
          rows
            .map(toLockdown)
            .filter((l) => lockdownMatches(l, q))
            .sort(byPriority),
          q
        )
      )
    )
    .handleRaw("createLockdown", ({ path, request }) =>
      Effect.flatMap(requestPayload(request), (payload) =>
        create(lockdowns, path.zone_id, readLockdown(payload), toLockdown)
      )
    )
    .handle("getLockdown", ({ path }) => get(lockdowns, path.zone_id, path.lock_downs_id, toLockdown))
    .handleRaw("updateLockdown", ({ path, request }) =>
      Effect.flatMap(requestPayload(request), (payload) =>
        replace(lockdowns, path.zone_id, path.lock_downs_id, readLockdown(payload), toLockdown)
      )
    )
    .handle("deleteLockdown", ({ path }) => remove(lockdowns, path.zone_id, path.lock_downs_id))
    .handle("listUaRules", ({ path, urlParams: q }) =>
      Effect.map(listed(uaRules, path.zone_id), (rows) =>
        page(
          rows.map(toUaRule).filter((u) => uaMatches(u, q)),
          q
        )
      )
    )
    .handleRaw("createUaRule", ({ path, request }) =>
      Effect.flatMap(requestPayload(request), (payload) => create(uaRules, path.zone_id, readUaRule(payload), toUaRule))
    )
    .handle("getUaRule", ({ path }) => get(uaRules, path.zone_id, path.ua_rule_id, toUaRule))
    .handleRaw("updateUaRule", ({ path, request }) =>
      Effect.flatMap(requestPayload(request), (payload) =>
        replace(uaRules, path.zone_id, path.ua_rule_id, readUaRule(payload), toUaRule)
      )
    )
    .handle("deleteUaRule", ({ path }) => remove(uaRules, path.zone_id, path.ua_rule_id))
    .handle("listRateLimits", ({ path, urlParams: q }) =>
      Effect.map(listed(rateLimits, path.zone_id), (rows) => page(rows.map(toRateLimit), q))
    )
    .handleRaw("createRateLimit", ({ path, request }) =>
      Effect.flatMap(requestPayload(request), (payload) =>
        create(rateLimits, path.zone_id, readRateLimit(payload), toRateLimit)
      )
    )
    .handle("getRateLimit", ({ path }) => get(rateLimits, path.zone_id, path.rate_limit_id, toRateLimit))
    .handleRaw("updateRateLimit", ({ path, request }) =>
      Effect.flatMap(requestPayload(request), (payload) =>
        replace(rateLimits, path.zone_id, path.rate_limit_id, readRateLimit(payload), toRateLimit)
      )
    )
    .handle("deleteRateLimit", ({ path }) => remove(rateLimits, path.zone_id, path.rate_limit_id))
)
