/**
 * The legacy security products' endpoints of the v4 contract: Zone Lockdown
 * (`/zones/{zone_id}/firewall/lockdowns`), User Agent Blocking (`/zones/{zone_id}/firewall/ua_rules`)
 * and rate limiting, previous version (`/zones/{zone_id}/rate_limits`), as the platform served them
 * (lockdown-ua-migration.md §2-3, rate-limiting-migration.md §2). Each write declares its body
 * (src/domain/legacy-security.ts), which the client encodes; the server reads the body itself
 * (`handleRaw`) with src/server/legacy-body.ts, so that every problem is named in one answer. With the ended
 * APIs switched on (src/server/legacy-mode.ts) the rate limits answer Gone, as the platform now does.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { Envelope, Paged } from "../domain/envelope.js"
import { Deleted } from "../domain/firewall.js"
import { Lockdown, LockdownBody, RateLimit, RateLimitBody, UaRule, UaRuleBody } from "../domain/legacy-security.js"
import { BoolParam, IntParam, TextParam } from "../domain/params.js"
import { answers, Authentication, groupOf, onObject, platformApi, Wire } from "./contract-core.js"
import { lazily, lazyRecord } from "./contract-lazy.js"

const ZoneId = Schema.Struct({ zone_id: Schema.String })
const LockdownPath = Schema.Struct({ zone_id: Schema.String, lock_downs_id: Schema.String })
const UaRulePath = Schema.Struct({ zone_id: Schema.String, ua_rule_id: Schema.String })
const RateLimitPath = Schema.Struct({ zone_id: Schema.String, rate_limit_id: Schema.String })

/** `per_page`: 1 to 1000, "only … `1` or … a multiple of 5" (the three APIs' own words). */
const PerPage = Schema.transformOrFail(IntParam("per_page", 1, 1000), Schema.Number, {
  strict: true,
  decode: (n, _, ast) =>
    n === 1 || n % 5 === 0
      ? ParseResult.succeed(n)
      : ParseResult.fail(new ParseResult.Type(ast, n, `per_page must be 1 or a multiple of 5, got ${n}`)),
  encode: ParseResult.succeed
})

const paging = {
  page: Schema.optional(IntParam("page", 1, 1_000_000)),
  per_page: Schema.optional(PerPage)
}

export const LockdownsListParams = lazily(() =>
  Schema.Struct({
    ...paging,
    description: Schema.optional(TextParam("description", 1024)),
    description_search: Schema.optional(TextParam("description_search", 1024)),
    ip: Schema.optional(TextParam("ip", 64)),
    ip_search: Schema.optional(TextParam("ip_search", 64)),
    ip_range_search: Schema.optional(TextParam("ip_range_search", 64)),
    uri_search: Schema.optional(TextParam("uri_search", 1024)),
    priority: Schema.optional(IntParam("priority", 0, 2_147_483_647))
  })
)
export type LockdownsListParams = ReturnType<typeof LockdownsListParams>["Type"]

/** Both spellings of the filters: the 2023 specification's and the newer SDK's. */
export const UaRulesListParams = lazily(() =>
  Schema.Struct({
    ...paging,
    description: Schema.optional(TextParam("description", 1024)),
    description_search: Schema.optional(TextParam("description_search", 1024)),
    ua_search: Schema.optional(TextParam("ua_search", 1024)),
    user_agent: Schema.optional(TextParam("user_agent", 1024)),
    paused: Schema.optional(BoolParam("paused"))
  })
)
export type UaRulesListParams = ReturnType<typeof UaRulesListParams>["Type"]

const RateLimitsListParams = lazily(() => Schema.Struct(paging))

/** A create may meet the product's quota; the ended rate limits answer Gone. */
const write = answers(Wire.QuotaExceeded)
const ended = answers(Wire.Gone)

const lockdowns = "/zones/:zone_id/firewall/lockdowns"
const uaRules = "/zones/:zone_id/firewall/ua_rules"
const rateLimits = "/zones/:zone_id/rate_limits"

export const LegacyEndpoints = lazyRecord({
  listLockdowns: () =>
    HttpApiEndpoint.get("listLockdowns", lockdowns)
      .setPath(ZoneId)
      .setUrlParams(LockdownsListParams())
      .addSuccess(Paged(Lockdown))
      .pipe(onObject),
  createLockdown: () =>
    HttpApiEndpoint.post("createLockdown", lockdowns)
      .setPath(ZoneId)
      .setPayload(LockdownBody)
      .addSuccess(Envelope(Lockdown))
      .pipe(onObject, write),
  getLockdown: () =>
    HttpApiEndpoint.get("getLockdown", `${lockdowns}/:lock_downs_id`)
      .setPath(LockdownPath)
      .addSuccess(Envelope(Lockdown))
      .pipe(onObject),
  updateLockdown: () =>
    HttpApiEndpoint.put("updateLockdown", `${lockdowns}/:lock_downs_id`)
      .setPath(LockdownPath)
      .setPayload(LockdownBody)
      .addSuccess(Envelope(Lockdown))
      .pipe(onObject, write),
  deleteLockdown: () =>
    HttpApiEndpoint.del("deleteLockdown", `${lockdowns}/:lock_downs_id`)
      .setPath(LockdownPath)
      .addSuccess(Envelope(Deleted))
      .pipe(onObject),
  listUaRules: () =>
    HttpApiEndpoint.get("listUaRules", uaRules)
      .setPath(ZoneId)
      .setUrlParams(UaRulesListParams())
      .addSuccess(Paged(UaRule))
      .pipe(onObject),
  createUaRule: () =>
    HttpApiEndpoint.post("createUaRule", uaRules)
      .setPath(ZoneId)
      .setPayload(UaRuleBody)
      .addSuccess(Envelope(UaRule))
      .pipe(onObject, write),
  getUaRule: () =>
    HttpApiEndpoint.get("getUaRule", `${uaRules}/:ua_rule_id`)
      .setPath(UaRulePath)
      .addSuccess(Envelope(UaRule))
      .pipe(onObject),
  updateUaRule: () =>
    HttpApiEndpoint.put("updateUaRule", `${uaRules}/:ua_rule_id`)
      .setPath(UaRulePath)
      .setPayload(UaRuleBody)
      .addSuccess(Envelope(UaRule))
      .pipe(onObject, write),
  deleteUaRule: () =>
    HttpApiEndpoint.del("deleteUaRule", `${uaRules}/:ua_rule_id`)
      .setPath(UaRulePath)
      .addSuccess(Envelope(Deleted))
      .pipe(onObject),
  listRateLimits: () =>
    HttpApiEndpoint.get("listRateLimits", rateLimits)
      .setPath(ZoneId)
      .setUrlParams(RateLimitsListParams())
      .addSuccess(Paged(RateLimit))
      .pipe(onObject, ended),
  createRateLimit: () =>
    HttpApiEndpoint.post("createRateLimit", rateLimits)
      .setPath(ZoneId)
      .setPayload(RateLimitBody)
      .addSuccess(Envelope(RateLimit))
      .pipe(onObject, write, ended),
  getRateLimit: () =>
    HttpApiEndpoint.get("getRateLimit", `${rateLimits}/:rate_limit_id`)
      .setPath(RateLimitPath)
      .addSuccess(Envelope(RateLimit))
      .pipe(onObject, ended),
  updateRateLimit: () =>
    HttpApiEndpoint.put("updateRateLimit", `${rateLimits}/:rate_limit_id`)
      .setPath(RateLimitPath)
      .setPayload(RateLimitBody)
      .addSuccess(Envelope(RateLimit))
      .pipe(onObject, write, ended),
  deleteRateLimit: () =>
    HttpApiEndpoint.del("deleteRateLimit", `${rateLimits}/:rate_limit_id`)
      .setPath(RateLimitPath)
      .addSuccess(Envelope(Deleted))
      .pipe(onObject, ended)
})

export const LegacyGroup = lazily(() => class LegacyGroup extends groupOf("legacy", LegacyEndpoints) {})

/** The legacy products' part of the API on its own (local mode builds only the parts a command calls). */
export const LegacyApi = lazily(
  () => class LegacyApi extends platformApi(HttpApi.make("v4").add(LegacyGroup().middleware(Authentication))) {}
)
