/**
 * What each zone plan allows in rate limiting rules (`http_ratelimit`, rate-limiting-migration.md
 * §3.5): the supported period and timeout values, the maximum period and timeout, the fields of the
 * expression, the counting characteristics and the custom counting expression. One table, read by
 * the local platform's check (src/server/rulesets-ratelimit.ts) and by the migration from the
 * previous rate limits (src/firewall/rate-limit-plan.ts), so both agree on what a plan takes.
 */

/** Rate limiting rules per zone plan (§3.5; Enterprise with application security on its contract: 100). */
export const RateLimitRuleLimits: Readonly<Record<string, number>> = { free: 1, pro: 2, business: 5, enterprise: 100 }

/** The supported period and timeout values, in seconds (§3.5). */
export const SUPPORTED = [
  10, 15, 20, 30, 40, 45, 60, 90, 120, 180, 240, 300, 480, 600, 900, 1200, 1800, 2400, 3600, 65535, 86400
]

export interface PlanRules {
  readonly maxPeriod: number
  readonly maxTimeout: number
  /** Fields the rule's expression may use; undefined: any. */
  readonly fields: ReadonlyArray<string> | undefined
  readonly characteristics: ReadonlyArray<string> | undefined
  readonly countingExpression: boolean
}

const FREE_FIELDS = ["http.request.uri.path", "cf.bot_management.verified_bot", "cf.client.bot"]
const PRO_FIELDS = [...FREE_FIELDS, "http.host", "http.request.uri", "http.request.full_uri", "http.request.uri.query"]
const BUSINESS_FIELDS = [...PRO_FIELDS, "http.request.method", "ip.src", "http.user_agent"]

const PLANS: Readonly<Record<string, PlanRules>> = {
  free: {
    maxPeriod: 10,
    maxTimeout: 10,
    fields: FREE_FIELDS,
    characteristics: ["cf.colo.id", "ip.src"],
    countingExpression: false
  },
  pro: {
    maxPeriod: 60,
    maxTimeout: 3600,
    fields: PRO_FIELDS,
    characteristics: ["cf.colo.id", "ip.src"],
    countingExpression: false
  },
  business: {
    maxPeriod: 600,
    maxTimeout: 86400,
    fields: BUSINESS_FIELDS,
    characteristics: ["cf.colo.id", "ip.src", "cf.unique_visitor_id"],
    countingExpression: true
  },
  enterprise: {
    maxPeriod: 65535,
    maxTimeout: 86400,
    fields: undefined,
    characteristics: undefined,
    countingExpression: true
  }
}

export const rateLimitPlan = (plan: string): PlanRules => PLANS[plan] ?? PLANS.free!
