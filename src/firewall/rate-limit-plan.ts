/**
 * The plan of a zone's move from rate limiting (previous version, `/rate_limits`) to rate limiting
 * rules (the `http_ratelimit` entry point), as data (src/domain/migration.ts): a pure function of
 * the live state, the same shape as the Zone Lockdown migration (./lockdown-ua-plan.ts). The mapping
 * is the reference's (rate-limiting-migration.md §6, every rule of it derived: the platform documents
 * no per-field table), gated by what the zone's plan allows (src/domain/rate-limit-plans.ts):
 *
 * - the URL pattern becomes host and path terms (§6.3), methods, one scheme, bypass URLs and the
 *   old implicit search-engine exemption are appended; a term the plan cannot express is dropped
 *   (the rule matches more: said in a note);
 * - response codes and headers go to the counting expression (Business and up), origin-only counting
 *   to `requests_to_origin`; periods and timeouts are rounded to the nearest value the plan offers;
 * - the zone's rate limiting rules stay first (the new version ran before the old one), then one
 *   rule per old rate limit, in API order (the old newest-first order is not readable from the API).
 *
 * The new quota is planned for, never discovered at apply: a plan that does not fit is refused
 * whole, because leaving some rate limits out would silently drop protection the user chose; the
 * refusal names the counts so the user decides which to delete. Each new rule's `ref` is
 * `rate_limit:<id>`, so a re-run keeps what was migrated. Then each old rate limit still enabled is
 * disabled (reversible) or, with --delete-old, deleted.
 */
import type { CustomRule } from "../domain/custom-rule.js"
import type { RateLimit, RateLimitBody } from "../domain/legacy-security.js"
import type { MigrationPlan, MigrationStep, PlanNote } from "../domain/migration.js"
import { rateLimitPlan, RateLimitRuleLimits, SUPPORTED } from "../domain/rate-limit-plans.js"
import type { RateLimitParameters } from "../domain/ruleset.js"
import { quote, urlPatternExpression } from "../rules/url-pattern.js"
import { asWritten, sameCustomRules } from "./custom-rule-written.js"

/** A rule of the `http_ratelimit` phase: a custom rule's fields plus its counter. */
export type RateLimitingRule = Omit<CustomRule, "action"> & {
  readonly action: string
  readonly ratelimit: RateLimitParameters
}

export interface RateLimitState {
  readonly rateLimits: ReadonlyArray<RateLimit>
  /** The `http_ratelimit` entry point's rules in order (none without an entry point). */
  readonly rules: ReadonlyArray<RateLimitingRule>
}

type RateLimitCheck =
  | { readonly rules: ReadonlyArray<RateLimitingRule> }
  | { readonly rule: string; readonly disabled: boolean }
  | { readonly rule: string; readonly absent: true }

/** A step's body: the rate limiting rules' entry point, or a rate limit's PUT (`writeBody`). */
export type RateLimitStep = MigrationStep<RateLimitCheck> & {
  readonly body?: { readonly rules: ReadonlyArray<RateLimitingRule> } | RateLimitBody
}

export interface RateLimitPlan extends MigrationPlan<RateLimitStep, RateLimitState> {
  readonly kind: "rate-limits-ratelimit-rules"
  /** Each old rate limit and the ref of the rule that replaces it. */
  readonly mapping: ReadonlyArray<{ readonly rule: string; readonly ref: string }>
  readonly delete_old: boolean
}

export const RateLimitKind = "rate-limits-ratelimit-rules"

const ENTRYPOINT = "rulesets/phases/http_ratelimit/entrypoint"
const PREFIX = "rate_limit:"

// The phase's rules compare as custom rules do (as written: without id, version, last_updated).
const written = (r: RateLimitingRule) => asWritten(r as unknown as CustomRule) as unknown as RateLimitingRule
const same = (a: ReadonlyArray<RateLimitingRule>, b: ReadonlyArray<RateLimitingRule>) =>
  sameCustomRules(a as unknown as ReadonlyArray<CustomRule>, b as unknown as ReadonlyArray<CustomRule>)

const isOurs = (ref: string | undefined) => ref !== undefined && ref.startsWith(PREFIX)

/** The supported value nearest to `value` up to the plan's maximum (the larger on a tie), as the platform rounded. */
export const nearestSupported = (value: number, max: number): number =>
  SUPPORTED.filter((v) => v <= max).reduce((best, v) =>
    Math.abs(v - value) < Math.abs(best - value) || (Math.abs(v - value) === Math.abs(best - value) && v > best)
      ? v
      : best
  )

const ALL_METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"]

interface Mapped {
  readonly rule: RateLimitingRule
  readonly notes: ReadonlyArray<PlanNote>
}

/** One old rate limit as a rate limiting rule on a zone of `plan` (undefined: not known, nothing gated). */
const mapRateLimit = (rl: RateLimit, plan: string | undefined): Mapped => {
  const gates = rateLimitPlan(plan ?? "enterprise")
  const on = plan ?? "unknown"
  const may = (field: string) => gates.fields === undefined || gates.fields.includes(field)
  const notes: Array<PlanNote> = []
  const note = (severity: PlanNote["severity"], code: string, message: string) =>
    notes.push({ severity, code, rule: rl.id, message: `rate limit ${rl.id}: ${message} (derived)` })

  // §6.3: the URL pattern as host and path terms; Free has no host field, so the host term is dropped.
  const urlTerm = (url: string, what: string): string => {
    const bare = url.trim().replace(/^https?:\/\//i, "")
    if (bare === "" || bare === "*") return "true"
    const slash = bare.indexOf("/")
    const host = slash >= 0 ? bare.slice(0, slash) : bare
    const path = slash >= 0 ? bare.slice(slash) : ""
    if (!may("http.host") && host !== "*" && host !== "") {
      note(
        "changed",
        "host-dropped",
        `the ${on} plan has no host field: ${what} ${url} now matches its path on every host`
      )
      return urlPatternExpression(`*${path === "" ? "/" : path}`, { path: "caseless" })
    }
    if (slash < 0 && host.endsWith("*")) {
      note(
        "changed",
        "url-across-host",
        `${what} ${url} may match across the host and the path: compared as one string`
      )
      return `concat(http.host, http.request.uri.path) wildcard ${quote(bare.toLowerCase())}`
    }
    // A host without a path is the homepage only (the old matcher's one exception to exact paths).
    return urlPatternExpression(slash < 0 ? `${bare}/` : bare, { path: "caseless" })
  }

  const terms: Array<string> = []
  const url = urlTerm(rl.match.request.url, "URL")
  if (url !== "true") terms.push(url)
  const methods = rl.match.request.methods.filter((m) => m !== "_ALL_")
  if (!rl.match.request.methods.includes("_ALL_") && methods.length > 0 && methods.length < ALL_METHODS.length) {
    if (may("http.request.method")) terms.push(`http.request.method in {${methods.map(quote).join(" ")}}`)
    else
      note(
        "changed",
        "method-dropped",
        `the ${on} plan has no method field: ${methods.join(", ")} dropped, every method counts`
      )
  }
  const schemes = rl.match.request.schemes
  if (schemes.length === 1 && schemes[0] !== "_ALL_") {
    const prefix = `${schemes[0]!.toLowerCase()}://`
    if (may("http.request.full_uri")) terms.push(`starts_with(http.request.full_uri, ${quote(prefix)})`)
    else note("changed", "scheme-dropped", `the ${on} plan has no full URI field: ${schemes[0]} only is dropped`)
  }
  const bypass = rl.bypass.map((b) => urlTerm(b.value, "bypass URL"))
  if (bypass.includes("true")) note("changed", "bypass-everything", "a bypass URL matches every request")
  else if (bypass.length > 0) terms.push(`not (${bypass.map((b) => (bypass.length > 1 ? `(${b})` : b)).join(" or ")})`)
  // The old version exempted known search-engine crawlers implicitly.
  terms.push("not cf.bot_management.verified_bot")
  const expression = terms.join(" and ")

  // Response conditions count only in a custom counting expression (Business and up).
  const headers = rl.match.response.headers ?? []
  const cacheMiss = headers.filter(
    (h) => h.name.toLowerCase() === "cf-cache-status" && h.op === "ne" && h.value.toUpperCase() === "HIT"
  )
  const counted: Array<string> = []
  const status = rl.match.response.status ?? []
  if (status.length > 0) counted.push(`http.response.code in {${status.join(" ")}}`)
  for (const h of headers.filter((h) => !cacheMiss.includes(h))) {
    const term = `any(lower(http.response.headers[${quote(h.name.toLowerCase())}][*])[*] eq ${quote(h.value.toLowerCase())})`
    counted.push(h.op === "eq" ? term : `not ${term}`)
  }
  let counting: string | undefined
  if (counted.length > 0) {
    if (gates.countingExpression) counting = [expression, ...counted].join(" and ")
    else
      note(
        "changed",
        "response-dropped",
        `the ${on} plan has no counting expression: the response codes and headers are dropped, every matching request counts`
      )
  }

  const period = nearestSupported(rl.period, gates.maxPeriod)
  if (period !== rl.period)
    note("changed", "period-rounded", `period ${rl.period}s rounded to ${period}s, the nearest the ${on} plan offers`)
  const mode = rl.action.mode
  const action = mode === "ban" ? "block" : mode === "simulate" ? "log" : mode
  const challenge = action !== "block" && action !== "log"
  let timeout: number | undefined
  if (challenge) {
    if (plan !== "enterprise") {
      timeout = 0
      note(
        "changed",
        "challenge-throttles",
        `a ${action} on the ${on} plan throttles (mitigation_timeout 0): only the requests over the rate are challenged`
      )
    }
  } else if (rl.action.timeout !== undefined) {
    timeout = nearestSupported(rl.action.timeout, gates.maxTimeout)
    if (timeout !== rl.action.timeout)
      note(
        "changed",
        "timeout-rounded",
        `timeout ${rl.action.timeout}s rounded to ${timeout}s, the nearest the ${on} plan offers`
      )
  }
  const nat = rl.correlate?.by === "nat"
  const natAllowed = gates.characteristics === undefined || gates.characteristics.includes("cf.unique_visitor_id")
  if (nat && !natAllowed) note("changed", "nat-dropped", `the ${on} plan has no IP with NAT support: counted by IP`)
  const response = rl.action.response
  const ratelimit: RateLimitParameters = {
    characteristics: ["cf.colo.id", nat && natAllowed ? "cf.unique_visitor_id" : "ip.src"],
    period,
    requests_per_period: rl.threshold,
    ...(timeout !== undefined ? { mitigation_timeout: timeout } : {}),
    ...(counting !== undefined ? { counting_expression: counting } : {}),
    ...(rl.match.response.origin_traffic || cacheMiss.length > 0 ? { requests_to_origin: true } : {})
  }
  return {
    rule: {
      ref: `${PREFIX}${rl.id}`,
      description: rl.description !== "" ? rl.description : `rate limit ${rl.id}`,
      expression: expression,
      action,
      ...(response !== undefined && action === "block"
        ? {
            action_parameters: {
              response: { status_code: 429, content_type: response.content_type, content: response.body }
            }
          }
        : {}),
      ratelimit,
      enabled: !rl.disabled
    } as RateLimitingRule,
    notes
  }
}

export interface RateLimitPlanInput {
  readonly zone: { readonly id: string; readonly name: string }
  readonly account?: { readonly id: string; readonly name: string } | undefined
  readonly plan: string | undefined
  readonly before: RateLimitState
  readonly deleteOld: boolean
}

export const planRateLimitMigration = (input: RateLimitPlanInput): RateLimitPlan => {
  const { zone, before } = input
  const notes: Array<PlanNote> = []
  const user = before.rules.filter((r) => !isOurs(r.ref))
  const ours = new Map(before.rules.filter((r) => isOurs(r.ref)).map((r) => [r.ref!.slice(PREFIX.length), r]))
  const mapping: Array<RateLimitPlan["mapping"][number]> = []
  const migrated: Array<RateLimitingRule> = []
  for (const rl of before.rateLimits) {
    const kept = ours.get(rl.id)
    if (kept !== undefined) migrated.push(written(kept))
    else {
      const m = mapRateLimit(rl, input.plan)
      // (derived) `log` is Enterprise-only, as for custom rules: a simulate-only rate limit enforced
      // nothing, so below Enterprise it is left out (said) rather than refusing the whole plan.
      if (m.rule.action === "log" && input.plan !== undefined && input.plan !== "enterprise") {
        notes.push({
          severity: "unmapped",
          code: "log-not-offered",
          rule: rl.id,
          message: `rate limit ${rl.id} only logged (simulate): the ${input.plan} plan has no log action for rate limiting rules, so it is not migrated (it is still disabled) (derived)`
        })
        continue
      }
      migrated.push(m.rule)
      notes.push(...m.notes)
    }
    mapping.push({ rule: rl.id, ref: `${PREFIX}${rl.id}` })
  }
  // A rule migrated before whose rate limit is gone (deleted with --delete-old) stays as written.
  const orphans = [...ours].filter(([id]) => !before.rateLimits.some((rl) => rl.id === id)).map(([, r]) => written(r))
  const body = [...user.map(written), ...orphans, ...migrated]
  const limit = input.plan === undefined ? undefined : (RateLimitRuleLimits[input.plan] ?? RateLimitRuleLimits.free!)
  const refused =
    limit !== undefined && body.length > limit
      ? `zone ${zone.name} would need ${body.length} rate limiting rules (${body.length - migrated.length} there now, ${migrated.length} for the previous rate limits), more than the ${limit} its ${input.plan} plan allows: delete some rate limits, or upgrade the plan`
      : undefined
  if (before.rateLimits.length > 1)
    notes.push({
      severity: "info",
      code: "order",
      message:
        "the previous version ran its rules newest first, which the API does not expose: the rules keep the API's order (derived)"
    })
  if (migrated.length > 0)
    notes.push({
      severity: "changed",
      code: "exemptions",
      message:
        'a custom skip rule naming the product "rateLimit", if the zone has one, no longer exempts requests from these rules: add "http_ratelimit" to its phases (derived)'
    })

  const steps: Array<RateLimitStep> = []
  const current = before.rules.map(written)
  if (!same(body, current))
    steps.push({
      key: "entrypoint",
      method: "PUT",
      path: `/zones/${zone.id}/${ENTRYPOINT}`,
      body: { rules: body },
      description: `PUT the rate limiting rules entry point with ${body.length} rule(s): the ${body.length - migrated.length} there now, then ${migrated.length} for the previous rate limits`,
      check: { rules: body },
      inverse: {
        key: "restore-entrypoint",
        method: "PUT",
        path: `/zones/${zone.id}/${ENTRYPOINT}`,
        body: { rules: current },
        description: `PUT the rate limiting rules entry point back to the ${current.length} rule(s) it had`,
        check: { rules: current },
        inverse: { irreversible: "a restore is not undone" }
      }
    })
  const expectedOld: Array<RateLimit> = []
  for (const rl of before.rateLimits) {
    const path = `/zones/${zone.id}/rate_limits/${rl.id}`
    if (input.deleteOld) {
      steps.push({
        key: `delete:${rl.id}`,
        method: "DELETE",
        path,
        description: `delete rate limit ${rl.id}`,
        check: { rule: rl.id, absent: true },
        inverse: { irreversible: `rate limit ${rl.id} was deleted (--delete-old): a recreated one gets a new id` }
      })
      continue
    }
    const toggle = (disabled: boolean): RateLimitStep => ({
      key: `${disabled ? "disable" : "enable"}:${rl.id}`,
      method: "PUT",
      path,
      body: writeBody(rl, disabled),
      description: `${disabled ? "disable" : "re-enable"} rate limit ${rl.id}`,
      check: { rule: rl.id, disabled },
      inverse: disabled ? toggle(false) : { irreversible: "a re-enable is not undone" }
    })
    if (!rl.disabled) steps.push(toggle(true))
    expectedOld.push({ ...rl, disabled: true })
  }
  if (input.deleteOld)
    notes.push({
      severity: "info",
      code: "delete-old-irreversible",
      message: "--delete-old deletes the previous rate limits: this migration cannot be rolled back"
    })
  const expected: RateLimitState = { rateLimits: expectedOld, rules: body }
  return {
    kind: RateLimitKind,
    zone,
    ...(input.account !== undefined ? { account: input.account } : {}),
    steps: refused === undefined ? steps : [],
    before,
    expected: refused === undefined ? expected : before,
    notes,
    ...(refused !== undefined ? { refused } : {}),
    mapping,
    delete_old: input.deleteOld
  }
}

/** A rate limit's PUT body: the whole object but for `disabled` (the API only replaces). */
const writeBody = (rl: RateLimit, disabled: boolean): RateLimitBody => {
  const { id: _id, ...rest } = rl
  return { ...rest, disabled }
}

export const inEffect = (step: RateLimitStep, live: RateLimitState): boolean => {
  const c = step.check
  if ("rules" in c) return same(live.rules, c.rules)
  const rl = live.rateLimits.find((r) => r.id === c.rule)
  return "absent" in c ? rl === undefined : rl !== undefined && rl.disabled === c.disabled
}

export const stateDifferences = (expected: RateLimitState, live: RateLimitState): ReadonlyArray<string> => {
  const out: Array<string> = []
  if (!same(expected.rules, live.rules))
    out.push(
      `the rate limiting rules entry point differs from the plan's (${live.rules.length} rule(s), the plan has ${expected.rules.length})`
    )
  const byId = new Map(live.rateLimits.map((r) => [r.id, r]))
  for (const r of expected.rateLimits) {
    const l = byId.get(r.id)
    if (l === undefined) out.push(`rate limit ${r.id} is gone, the plan keeps it`)
    else if (l.disabled !== r.disabled)
      out.push(
        `rate limit ${r.id} is ${l.disabled ? "disabled" : "enabled"}, the plan has it ${r.disabled ? "disabled" : "enabled"}`
      )
    byId.delete(r.id)
  }
  for (const id of byId.keys()) out.push(`rate limit ${id} is there, the plan has it deleted`)
  return out
}
