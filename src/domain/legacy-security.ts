/**
 * The platform's legacy security products on the wire, as their APIs answered while they were
 * served: Zone Lockdown (`/zones/{zone_id}/firewall/lockdowns`), User Agent Blocking
 * (`/zones/{zone_id}/firewall/ua_rules`) and rate limiting, previous version
 * (`/zones/{zone_id}/rate_limits`). Facts: the reference's lockdown-ua-migration.md §2-3 and
 * rate-limiting-migration.md §2. The request bodies below are what the contract declares (the
 * client encodes them); the server reads the body itself, field by field (src/server/legacy-body.ts),
 * so that every problem is named in one answer.
 */
import * as Schema from "effect/Schema"

export const LockdownConfiguration = Schema.Struct({
  target: Schema.Literal("ip", "ip_range"),
  value: Schema.String
})
export type LockdownConfiguration = typeof LockdownConfiguration.Type

export const Lockdown = Schema.Struct({
  id: Schema.String,
  created_on: Schema.String,
  modified_on: Schema.String,
  paused: Schema.Boolean,
  description: Schema.String,
  urls: Schema.Array(Schema.String),
  configurations: Schema.Array(LockdownConfiguration),
  /** Accepted on create and answered when set (the spec's response schema leaves it out; cloudflare-go reads it). */
  priority: Schema.optional(Schema.Number)
})
export type Lockdown = typeof Lockdown.Type

export const UaModes = ["block", "challenge", "js_challenge", "managed_challenge"] as const

export const UaRule = Schema.Struct({
  id: Schema.String,
  paused: Schema.Boolean,
  description: Schema.String,
  mode: Schema.Literal(...UaModes),
  configuration: Schema.Struct({ target: Schema.Literal("ua"), value: Schema.String })
})
export type UaRule = typeof UaRule.Type

export const RateLimitMethods = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "_ALL_"] as const
export const RateLimitSchemes = ["HTTP", "HTTPS", "_ALL_"] as const
export const RateLimitModes = ["simulate", "ban", "challenge", "js_challenge", "managed_challenge"] as const
export const RateLimitContentTypes = ["text/plain", "text/xml", "application/json"] as const

const ResponseHeader = Schema.Struct({ name: Schema.String, op: Schema.Literal("eq", "ne"), value: Schema.String })

export const RateLimit = Schema.Struct({
  id: Schema.String,
  disabled: Schema.Boolean,
  description: Schema.String,
  match: Schema.Struct({
    request: Schema.Struct({
      methods: Schema.Array(Schema.Literal(...RateLimitMethods)),
      schemes: Schema.Array(Schema.Literal(...RateLimitSchemes)),
      url: Schema.String
    }),
    response: Schema.Struct({
      status: Schema.optional(Schema.Array(Schema.Number)),
      origin_traffic: Schema.Boolean,
      headers: Schema.optional(Schema.Array(ResponseHeader))
    })
  }),
  bypass: Schema.Array(Schema.Struct({ name: Schema.Literal("url"), value: Schema.String })),
  threshold: Schema.Number,
  period: Schema.Number,
  action: Schema.Struct({
    mode: Schema.Literal(...RateLimitModes),
    timeout: Schema.optional(Schema.Number),
    response: Schema.optional(
      Schema.Struct({ content_type: Schema.Literal(...RateLimitContentTypes), body: Schema.String })
    )
  }),
  correlate: Schema.optional(Schema.Struct({ by: Schema.Literal("nat") }))
})
export type RateLimit = typeof RateLimit.Type

// ---- request bodies (POST creates, PUT replaces: every field the platform keeps is sent) ----

export const LockdownBody = Schema.Struct({
  urls: Schema.Array(Schema.String),
  configurations: Schema.Array(LockdownConfiguration),
  description: Schema.optional(Schema.String),
  paused: Schema.optional(Schema.Boolean),
  priority: Schema.optional(Schema.Number)
})
export type LockdownBody = typeof LockdownBody.Type

export const UaRuleBody = Schema.Struct({
  mode: UaRule.fields.mode,
  configuration: UaRule.fields.configuration,
  description: Schema.optional(Schema.String),
  paused: Schema.optional(Schema.Boolean)
})
export type UaRuleBody = typeof UaRuleBody.Type

const { id: _id, ...rateLimitFields } = RateLimit.fields
/** A rate limit as written: the whole object but its id. */
export const RateLimitBody = Schema.Struct(rateLimitFields)
export type RateLimitBody = typeof RateLimitBody.Type

/** The three products, by the name edgectl's commands and the store use. */
export type LegacyKind = "lockdowns" | "ua_rules" | "rate_limits"

/**
 * Rules per zone plan (lockdown-ua-migration.md §2.5 and §3.4, rate-limiting-migration.md §2.4).
 * A plan the table lacks counts as free. Zone Lockdown is not offered on Free.
 */
const LegacyRuleLimits: Readonly<Record<LegacyKind, Readonly<Record<string, number>>>> = {
  lockdowns: { free: 0, lite: 3, pro: 3, pro_plus: 10, business: 10, enterprise: 200 },
  ua_rules: { free: 10, lite: 50, pro: 50, pro_plus: 250, business: 250, enterprise: 1000 },
  rate_limits: { free: 1, lite: 10, pro: 10, pro_plus: 15, business: 15, enterprise: 100 }
}

/** What the products are called in messages. */
export const LegacyProductNames: Readonly<Record<LegacyKind, string>> = {
  lockdowns: "Zone Lockdown rules",
  ua_rules: "User Agent Blocking rules",
  rate_limits: "rate limits (previous version)"
}

export const legacyLimit = (kind: LegacyKind, plan: string): number =>
  LegacyRuleLimits[kind][plan] ?? LegacyRuleLimits[kind].free!
