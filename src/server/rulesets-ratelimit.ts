/**
 * The `http_ratelimit` phase's entry point on the local platform: rate limiting rules, the
 * replacement of the previous rate limits. Its PUT reads each rule as a custom rule is read
 * (rulesets-body.ts) plus its `ratelimit` counter, and checks what the zone's plan allows
 * (rate-limiting-migration.md §3): the rule count (1 / 2 / 5 / 100), the fields of the expression,
 * the counting characteristics (`cf.colo.id` always), the period and the mitigation timeout among
 * the supported values up to the plan's maximum, a challenge that must throttle (timeout 0) below
 * Enterprise, throttling with block and complexity-based counting on Enterprise only, and a
 * custom counting expression from Business. Rules with `ratelimit` are the only kind this phase takes.
 */
import type { InvalidExpression, InvalidInput } from "../domain/errors.js"
import type { RateLimitParameters } from "../domain/ruleset.js"
import { type PlanRules, rateLimitPlan, RateLimitRuleLimits, SUPPORTED } from "../domain/rate-limit-plans.js"
import { check } from "../rules/index.js"
import {
  bad,
  checkExpression,
  type EntrypointInput,
  isRecord,
  oneOf,
  type Read,
  reading,
  readRuleAt,
  type RuleInput,
  show,
  want
} from "./rulesets-body.js"
import type { WritablePhase } from "./rulesets-ops.js"

export const RateLimitPhase = "http_ratelimit"

/** Rules per plan (§3.5; Enterprise with application security on its contract: 100). */
export const RateLimitPhaseSpec: WritablePhase = {
  phase: RateLimitPhase,
  rulesAre: "rate limiting rules",
  limits: RateLimitRuleLimits
}

const ACTIONS = ["block", "challenge", "js_challenge", "managed_challenge", "log"]
const CHALLENGES = ["challenge", "js_challenge", "managed_challenge"]
const RATELIMIT_FIELDS = [
  "characteristics",
  "period",
  "requests_per_period",
  "score_per_period",
  "score_response_header_name",
  "mitigation_timeout",
  "counting_expression",
  "requests_to_origin"
]

const int = (v: unknown) => typeof v === "number" && Number.isInteger(v)

/** The fields of an expression the plan does not offer in rate limiting rules. */
const unavailableFields = (expression: string, p: PlanRules): ReadonlyArray<string> => {
  if (p.fields === undefined) return []
  const fields = check(expression).checked?.fields ?? []
  return fields.filter((f) => !p.fields!.includes(f))
}

const readCounter = (u: unknown, at: string, action: string, plan: string): RateLimitParameters => {
  const p = rateLimitPlan(plan)
  want(isRecord(u), at, `a rate limiting rule needs a ratelimit object, got ${show(u)}`)
  const o = u as Record<string, unknown>
  const unknown = Object.keys(o).find((k) => !RATELIMIT_FIELDS.includes(k))
  if (unknown !== undefined)
    bad(`${at}.${unknown}`, `not a field of ratelimit (expected ${RATELIMIT_FIELDS.join(", ")})`)
  want(
    Array.isArray(o.characteristics) && o.characteristics.every((c) => typeof c === "string"),
    `${at}.characteristics`,
    `expected an array of strings, got ${show(o.characteristics)}`
  )
  const characteristics = [...new Set(o.characteristics as Array<string>)]
  want(
    characteristics.includes("cf.colo.id"),
    `${at}.characteristics`,
    `must include cf.colo.id (the platform counts per data center), got ${show(characteristics)}`
  )
  if (p.characteristics !== undefined) {
    const extra = characteristics.find((c) => !p.characteristics!.includes(c))
    if (extra !== undefined) {
      bad(`${at}.characteristics`, `a ${plan} zone counts by ${p.characteristics.join(", ")} only, got ${show(extra)}`)
    }
  }
  want(
    !(characteristics.includes("ip.src") && characteristics.includes("cf.unique_visitor_id")),
    `${at}.characteristics`,
    "ip.src and cf.unique_visitor_id (IP with NAT support) cannot be used together"
  )
  const periods = SUPPORTED.filter((v) => v <= p.maxPeriod)
  want(
    int(o.period) && periods.includes(o.period as number),
    `${at}.period`,
    `a ${plan} zone's periods are ${periods.join(", ")} seconds, got ${show(o.period)}`
  )
  const scored = o.score_per_period !== undefined
  if (scored) {
    want(
      plan === "enterprise",
      `${at}.score_per_period`,
      `complexity-based counting needs Enterprise, this zone is on ${plan}`
    )
    want(
      int(o.score_per_period) && (o.score_per_period as number) >= 1,
      `${at}.score_per_period`,
      `expected an integer from 1, got ${show(o.score_per_period)}`
    )
    want(
      typeof o.score_response_header_name === "string",
      `${at}.score_response_header_name`,
      `expected the origin header carrying the score, got ${show(o.score_response_header_name)}`
    )
  } else {
    want(
      int(o.requests_per_period) && (o.requests_per_period as number) >= 1,
      `${at}.requests_per_period`,
      `expected an integer from 1, got ${show(o.requests_per_period)}`
    )
  }
  const timeout = o.mitigation_timeout
  if (timeout !== undefined) {
    want(
      int(timeout) && (timeout as number) >= 0,
      `${at}.mitigation_timeout`,
      `expected an integer from 0, got ${show(timeout)}`
    )
  }
  if (plan !== "enterprise") {
    if (CHALLENGES.includes(action)) {
      want(
        timeout === 0,
        `${at}.mitigation_timeout`,
        `a ${action} rule on a ${plan} zone must throttle: set it to 0, got ${show(timeout)}`
      )
    } else {
      const timeouts = SUPPORTED.filter((v) => v <= p.maxTimeout)
      want(
        timeout === undefined || (timeout !== 0 && timeouts.includes(timeout as number)),
        `${at}.mitigation_timeout`,
        timeout === 0
          ? `throttling with ${action} needs Enterprise, this zone is on ${plan}`
          : `a ${plan} zone's mitigation timeouts are ${timeouts.join(", ")} seconds, got ${show(timeout)}`
      )
    }
  } else if (timeout !== undefined) {
    want((timeout as number) <= 86400, `${at}.mitigation_timeout`, `expected at most 86400, got ${show(timeout)}`)
  }
  const counting = o.counting_expression
  if (counting !== undefined) {
    want(typeof counting === "string", `${at}.counting_expression`, `expected a string, got ${show(counting)}`)
    if (counting !== "") {
      want(
        p.countingExpression,
        `${at}.counting_expression`,
        `a custom counting expression needs Business or Enterprise, this zone is on ${plan}`
      )
      checkExpression(counting as string, plan, `${at}.counting_expression`, "response")
    }
  }
  if (o.requests_to_origin !== undefined) {
    want(
      typeof o.requests_to_origin === "boolean",
      `${at}.requests_to_origin`,
      `expected true or false, got ${show(o.requests_to_origin)}`
    )
  }
  return {
    characteristics,
    period: o.period as number,
    ...(scored
      ? {
          score_per_period: o.score_per_period as number,
          score_response_header_name: o.score_response_header_name as string
        }
      : { requests_per_period: o.requests_per_period as number }),
    ...(timeout !== undefined ? { mitigation_timeout: timeout as number } : {}),
    ...(counting !== undefined ? { counting_expression: counting as string } : {}),
    ...(o.requests_to_origin !== undefined ? { requests_to_origin: o.requests_to_origin as boolean } : {})
  }
}

const readRateLimitRule = (u: unknown, at: string, plan: string): RuleInput => {
  const field = (k: string) => `${at}.${k}`
  if (isRecord(u)) oneOf(u.action, ACTIONS, field("action"))
  const rule = readRuleAt(u, at, plan, ["ratelimit"])
  const missing = unavailableFields(rule.expression, rateLimitPlan(plan))
  if (missing.length > 0) {
    bad(
      field("expression"),
      `a ${plan} zone's rate limiting rules cannot use ${missing.join(", ")} (it may use ${rateLimitPlan(plan).fields!.join(", ")})`
    )
  }
  const ratelimit = readCounter((u as Record<string, unknown>).ratelimit, field("ratelimit"), rule.action, plan)
  return { ...rule, ratelimit }
}

/** The `http_ratelimit` entry point PUT: the ruleset's own fields and its whole rule list. */
export const readRateLimitEntrypoint = (
  u: unknown,
  plan: string
): Read<EntrypointInput, InvalidInput | InvalidExpression> =>
  reading(() => {
    want(isRecord(u), "body", `expected a ruleset object, got ${show(u)}`)
    const o = u as Record<string, unknown>
    for (const k of ["name", "description"]) {
      want(o[k] === undefined || typeof o[k] === "string", k, `expected a string, got ${show(o[k])}`)
    }
    if (o.kind !== undefined) oneOf(o.kind, ["zone"], "kind")
    if (o.phase !== undefined) oneOf(o.phase, [RateLimitPhase], "phase")
    want(o.rules === undefined || Array.isArray(o.rules), "rules", `expected an array, got ${show(o.rules)}`)
    const rules = ((o.rules as Array<unknown> | undefined) ?? []).map((r, i) =>
      readRateLimitRule(r, `rules[${i}]`, plan)
    )
    return {
      name: o.name as string | undefined,
      description: o.description as string | undefined,
      rules
    }
  })
