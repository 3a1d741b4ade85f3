/**
 * The replay that proves the rate limiting migration, with time: each request (its time from the
 * traffic line's `at`, src/rules/replay-file.ts) through the zone "before" and the zone as the plan
 * leaves it, both by the one simulation below of a whole RateLimitState: its `http_ratelimit` rules
 * first (the new version ran before the old one), then its enabled rate limits (previous version),
 * each with its own counters per key, per side. "After" has every old rate limit disabled (or
 * deleted), so there the planned rules decide alone. Decisions are compared per request.
 *
 * A counter is a sliding window: a request that counts is added, and when the window holds more
 * than the threshold (`threshold` / `requests_per_period`: "exceeds") the rule acts: for its timeout
 * (`timeout` / `mitigation_timeout`) every matching request of that key gets the action, then
 * counting starts again; with no timeout (0: throttle) only the requests over the rate get it.
 * When counting depends on the response (old response codes or headers, a new counting expression
 * on `http.response.*`), the request that trips the rule was already answered: the next ones get
 * the action. `log` (old `simulate`) records and goes on; any other action ends the request.
 *
 * The old rule's matching is its own (URL pattern, methods, schemes, bypass URLs, the implicit
 * search-engine exemption, response codes from the line's `http.response.code`, response headers),
 * by the legacy matchers of ./legacy-replay.ts; the new rule's is its expressions, in the rules
 * language.
 */
import * as Either from "effect/Either"
import type { RateLimit } from "../domain/legacy-security.js"
import type { PlanNote } from "../domain/migration.js"
import type { Request, RequestContext } from "../rules/index.js"
import { REQUIRES } from "../rules/compile.js"
import { parseIp } from "../rules/ip.js"
import { ruleIndex, type RuleKeys } from "../rules/rule-index.js"
import type { ReplayRule, ZoneRulesState } from "./custom-rules-replay.js"
import { sharedExpressions, stateEvaluator } from "./custom-rules-replay.js"
import { legacyUrlMatcher, makeLegacyReplayer, urlSubject, verdict, type ReplaySide } from "./legacy-replay.js"
import type { RateLimitingRule, RateLimitState } from "./rate-limit-plan.js"

/** The readings the simulation takes where the platform documents nothing (said in the report and in docs/legacy-migrations.md). */
const RATE_LIMIT_ASSUMPTIONS: ReadonlyArray<string> = [
  "both versions count in a sliding window of the period, per key, in one data center (cf.colo.id is one value) (derived)",
  "the counting key is the source IP, an IPv6 address by its /64, on both sides; IP with NAT support (cf.unique_visitor_id) is counted by IP too (derived)",
  "the previous version's challenge modes act on the requests over the rate only (the zone's Challenge Passage time is not known) (derived)",
  "a previous rate limit's timeout shorter than its period counts as the period, as the API raised it (documented); ban and simulate without a timeout use the period (derived)",
  "a search engine crawler is a request with cf.bot_management.verified_bot; a cached response is one whose cf-cache-status header is HIT (derived)",
  "a request's scheme is the one of its http.request.full_uri; a line without it matches no one-scheme rule (derived)",
  "a line without a time comes at the previous line's time (derived)",
  "the zone's firewall and custom rules run before both versions; a bypass or skip of rateLimit exempts from the previous version only, a skip of the http_ratelimit phase from the new one (documented; the plan does not change them)"
]

/** Codes of the plan's notes that explain a difference made by design (rounding, what a plan cannot express, order). */
const GENERAL = ["order"]

interface Counter {
  readonly hits: Map<string, Array<number>>
  readonly until: Map<string, number>
}

/** One counted step: whether the rule acts on this request (see the file's comment). */
const step = (
  c: Counter,
  key: string,
  t: number,
  p: {
    readonly periodMs: number
    readonly limit: number
    readonly timeoutMs: number
    readonly counts: boolean
    readonly onResponse: boolean
  }
): boolean => {
  let hits = c.hits.get(key)
  if (hits === undefined) c.hits.set(key, (hits = []))
  while (hits.length > 0 && hits[0]! <= t - p.periodMs) hits.shift()
  if (p.timeoutMs > 0) {
    const u = c.until.get(key)
    if (u !== undefined) {
      if (t < u) return true
      c.until.delete(key)
      hits.length = 0
    }
  } else if (p.onResponse && hits.length > p.limit) return true
  if (!p.counts) return false
  hits.push(t)
  if (hits.length <= p.limit) return false
  if (p.timeoutMs > 0) c.until.set(key, t + p.timeoutMs)
  return !p.onResponse
}

const ipKey = (r: Request): string => {
  const src = r["ip.src"]
  if (typeof src !== "string") return ""
  const ip = Either.getOrUndefined(parseIp(src))
  if (ip === undefined) return src
  return ip.v === 4 ? src : `${(ip.n >> 64n).toString(16)}::/64`
}

const keyOf = (characteristics: ReadonlyArray<string>, r: Request) =>
  characteristics
    .filter((c) => c !== "cf.colo.id")
    .map((c) => (c === "ip.src" || c === "cf.unique_visitor_id" ? ipKey(r) : JSON.stringify(r[c] ?? null)))
    .join("\u0000")

const responseHeader = (r: Request, name: string): ReadonlyArray<string> => {
  const h = r["http.response.headers"]
  if (typeof h !== "object" || h === null) return []
  const v = (h as Record<string, unknown>)[name.toLowerCase()]
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : typeof v === "string" ? [v] : []
}

const cached = (r: Request) => responseHeader(r, "cf-cache-status").some((v) => v.toUpperCase() === "HIT")

const schemeOf = (r: Request): string | undefined => {
  const u = r["http.request.full_uri"]
  if (typeof u !== "string") return undefined
  const m = /^(https?):\/\//i.exec(u)
  return m === null ? undefined : m[1]!.toUpperCase()
}

interface Applied {
  readonly rule: ReplayRule
  readonly action: string
  /** Undefined: the rule does not apply to the request. `subject`: its lower-cased host and path (./legacy-replay.ts). */
  readonly check: (ctx: RequestContext, r: Request, t: number, subject: string) => boolean | undefined
  /** The keys the rule's expression requires (the rules index), for a new rule. */
  readonly requires?: RuleKeys
}

const newRule = (rule: RateLimitingRule, i: number, compiled: ReturnType<typeof sharedExpressions>): Applied => {
  const rl = rule.ratelimit
  const matches = compiled(rule.expression)
  const counting =
    rl.counting_expression !== undefined && rl.counting_expression !== "" ? rl.counting_expression : undefined
  const counts = counting !== undefined ? compiled(counting) : matches
  const c: Counter = { hits: new Map(), until: new Map() }
  const p = {
    periodMs: rl.period * 1000,
    limit: rl.requests_per_period ?? Infinity,
    timeoutMs: (rl.mitigation_timeout ?? 0) * 1000,
    onResponse: counting !== undefined && counting.includes("http.response.")
  }
  return {
    rule: {
      kind: "ratelimit",
      id: rule.ref ?? rule.id ?? `#${i + 1}`,
      ...(rule.description !== undefined ? { description: rule.description } : {})
    },
    action: rule.action,
    requires: (matches as { [REQUIRES]?: RuleKeys } | undefined)?.[REQUIRES],
    check: (ctx, r, t) => {
      if (matches === undefined || !matches(ctx)) return undefined
      const n = counts !== undefined && counts(ctx) && !(rl.requests_to_origin === true && cached(r))
      return step(c, keyOf(rl.characteristics, r), t, { ...p, counts: n })
    }
  }
}

const oldRule = (rl: RateLimit): Applied => {
  const url = legacyUrlMatcher(rl.match.request.url, "homepage")
  const bypass = rl.bypass.map((b) => legacyUrlMatcher(b.value, "homepage"))
  const methods = rl.match.request.methods
  const anyMethod = methods.length === 0 || methods.includes("_ALL_")
  const schemes = rl.match.request.schemes
  const anyScheme = schemes.length === 0 || schemes.includes("_ALL_") || schemes.length > 1
  const status = rl.match.response.status ?? []
  // "Each header is case insensitive" (rate-limiting-migration.md §2.3): the value is compared without case.
  const headers = (rl.match.response.headers ?? []).map((h) => ({
    ...h,
    is: (v: string) => v.toLowerCase() === h.value.toLowerCase()
  }))
  const cacheMiss = (h: { name: string; op: string; value: string }) =>
    h.name.toLowerCase() === "cf-cache-status" && h.op === "ne" && h.value.toUpperCase() === "HIT"
  const mode = rl.action.mode
  const action = mode === "ban" ? "block" : mode === "simulate" ? "log" : mode
  const timeout = action === "block" || action === "log" ? Math.max(rl.action.timeout ?? rl.period, rl.period) : 0
  const c: Counter = { hits: new Map(), until: new Map() }
  const p = {
    periodMs: rl.period * 1000,
    limit: rl.threshold,
    timeoutMs: timeout * 1000,
    onResponse: status.length > 0 || headers.some((h) => !cacheMiss(h))
  }
  return {
    rule: { kind: "rate_limit", id: rl.id, ...(rl.description !== "" ? { description: rl.description } : {}) },
    action,
    check: (_ctx, r, t, subject) => {
      if (!url(subject) || bypass.some((b) => b(subject))) return undefined
      const method = typeof r["http.request.method"] === "string" ? r["http.request.method"] : "GET"
      if (!anyMethod && !methods.includes(method as (typeof methods)[number])) return undefined
      if (!anyScheme && schemeOf(r) !== schemes[0]) return undefined
      if (r["cf.bot_management.verified_bot"] === true) return undefined
      const code = r["http.response.code"]
      const n =
        (status.length === 0 || (typeof code === "number" && status.includes(code))) &&
        headers.every((h) => responseHeader(r, h.name).some(h.is) === (h.op === "eq")) &&
        !(rl.match.response.origin_traffic && cached(r))
      return step(c, ipKey(r), t, { ...p, counts: n })
    }
  }
}

/** One side: a whole RateLimitState with its own counters (expressions shared with the other side through `compiled`). */
export const rateLimitSide = (
  state: RateLimitState,
  compiled: ReturnType<typeof sharedExpressions>,
  zone?: ZoneRulesState
): ReplaySide => {
  const news = state.rules.flatMap((r, i) => (r.enabled === false ? [] : [newRule(r, i, compiled)]))
  const olds = state.rateLimits.filter((rl) => !rl.disabled).map(oldRule)
  // Only the new rules whose expression can match run (a rule that does not match counts nothing).
  const index = ruleIndex(news.length, (i) => news[i]!.requires)
  const all = Int32Array.from(news.keys())
  const before = zone === undefined ? undefined : stateEvaluator(zone, compiled)
  return (ctx, request, at) => {
    // The zone's firewall and custom rules run first: a block or challenge there ends the request
    // before rate limiting; a bypass or skip of `rateLimit` exempts it from the previous version, a
    // skip of the `http_ratelimit` phase from the new one (rate-limiting-migration.md §6.5).
    let skipped: ReadonlyArray<string> = []
    let more = {}
    if (before !== undefined) {
      const v = before.verdict(before.decide(ctx))
      if (v.action !== null && v.action !== "allow") return v
      skipped = v.skipped
      more = { skipped: v.skipped, skippedBy: v.skippedBy }
    }
    const logged: Array<ReplayRule> = []
    const subject = urlSubject(request)
    const run = skipped.includes("http_ratelimit") ? [] : (index?.candidates(ctx) ?? all)
    for (let k = 0; k < run.length; k++) {
      const r = news[run[k]!]!
      if (r.check(ctx, request, at, subject) !== true) continue
      if (r.action === "log") logged.push(r.rule)
      else return verdict(r.action, r.rule, { ...more, logged })
    }
    if (!skipped.includes("rateLimit"))
      for (const r of olds) {
        if (r.check(ctx, request, at, subject) !== true) continue
        if (r.action === "log") logged.push(r.rule)
        else return verdict(r.action, r.rule, { ...more, logged })
      }
    return verdict(null, null, { ...more, logged })
  }
}

/**
 * The replay of `before` against `after`, in time order; `notes`: the plan's, to explain a difference
 * made by design; `zone`: the zone's firewall and custom rules, the same on both sides (the migration
 * changes neither), whose skips and bypasses exempt requests.
 */
export const makeRateLimitReplayer = (
  before: RateLimitState,
  after: RateLimitState,
  notes: ReadonlyArray<PlanNote>,
  options: { readonly keep?: number; readonly zone?: ZoneRulesState } = {}
) => {
  const compiled = sharedExpressions()
  return makeLegacyReplayer(
    rateLimitSide(before, compiled, options.zone),
    rateLimitSide(after, compiled, options.zone),
    {
      notes,
      general: GENERAL,
      skippedNotes: { rateLimit: "exemptions" },
      assumptions: RATE_LIMIT_ASSUMPTIONS,
      ordered: true,
      ...(options.keep !== undefined ? { keep: options.keep } : {})
    }
  )
}
