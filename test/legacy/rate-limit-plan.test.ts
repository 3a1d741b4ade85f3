/**
 * The previous rate limits -> rate limiting rules plan as a pure function, on the demo zones'
 * rate limits: the mapping per plan (acme-mail.com enterprise, globex-store.com business,
 * initech-payroll.com pro), each planned entry point accepted by the local platform's own check for
 * that plan, a plan over the new quota refused whole, and a re-plan after the apply that has
 * nothing left to send.
 */
import * as Either from "effect/Either"
import { describe, expect, it } from "vitest"
import { DemoLegacy } from "../../src/demo/legacy-rules.js"
import type { RateLimit } from "../../src/domain/legacy-security.js"
import {
  nearestSupported,
  planRateLimitMigration,
  type RateLimitingRule,
  type RateLimitState
} from "../../src/firewall/rate-limit-plan.js"
import { readRateLimitEntrypoint } from "../../src/server/rulesets-ratelimit.js"

const demo = (zone: string): ReadonlyArray<RateLimit> =>
  (DemoLegacy[zone]!.rate_limits ?? []).map((r, i) => ({ ...r, id: `rl${i}` }))
const plan = (name: string, zone: string, before: RateLimitState, deleteOld = false) =>
  planRateLimitMigration({ zone: { id: "z1", name: zone }, plan: name, before, deleteOld })
const accepted = (rules: ReadonlyArray<RateLimitingRule>, on: string) => {
  const read = readRateLimitEntrypoint({ rules }, on)
  expect(Either.isRight(read) ? "ok" : JSON.stringify(read.left)).toBe("ok")
}
const codes = (p: { notes: ReadonlyArray<{ code: string; rule?: string | undefined }> }, rule: string) =>
  p.notes.filter((n) => n.rule === rule).map((n) => n.code)

describe("planRateLimitMigration", () => {
  it("maps acme-mail.com's rate limits on enterprise: URL, method, response counting, NAT, bypass, custom response", () => {
    const p = plan("enterprise", "acme-mail.com", { rateLimits: demo("acme-mail.com"), rules: [] })
    expect(p.refused).toBeUndefined()
    const body = (p.steps[0]!.body as { rules: ReadonlyArray<RateLimitingRule> }).rules
    expect(body.map((r) => r.ref)).toEqual(["rate_limit:rl0", "rate_limit:rl1", "rate_limit:rl2"])
    const [login, sync, site] = body
    expect(login!.expression).toBe(
      'http.host wildcard "*.acme-mail.com" and http.request.uri.path wildcard "/login*" and http.request.method in {"POST"} and not cf.bot_management.verified_bot'
    )
    expect(login!.action).toBe("block")
    expect(login!.action_parameters).toEqual({
      response: { status_code: 429, content_type: "application/json", content: '{"error":"slow down"}' }
    })
    expect(login!.ratelimit).toEqual({
      characteristics: ["cf.colo.id", "ip.src"],
      period: 300,
      requests_per_period: 5,
      mitigation_timeout: 900,
      counting_expression: `${login!.expression} and http.response.code in {401 403}`,
      requests_to_origin: true
    })
    expect(sync!.expression).toBe(
      'http.host eq "acme-mail.com" and http.request.uri.path wildcard "/api/sync*" and not (http.host eq "acme-mail.com" and http.request.uri.path wildcard "/api/sync/health") and not cf.bot_management.verified_bot'
    )
    expect(sync!.ratelimit.characteristics).toEqual(["cf.colo.id", "cf.unique_visitor_id"])
    expect(site).toMatchObject({ action: "log", enabled: false, expression: "not cf.bot_management.verified_bot" })
    accepted(body, "enterprise")
    // Two disables (the third is disabled already), each undone by a re-enable.
    expect(p.steps.map((s) => s.key)).toEqual(["entrypoint", "disable:rl0", "disable:rl1"])
    expect(p.steps[1]!.inverse).toMatchObject({ key: "enable:rl0", body: { disabled: false } })
  })

  it("refuses globex-store.com whole: 6 rate limits, the business plan allows 5", () => {
    const p = plan("business", "globex-store.com", { rateLimits: demo("globex-store.com"), rules: [] })
    expect(p.refused).toBe(
      "zone globex-store.com would need 6 rate limiting rules (0 there now, 6 for the previous rate limits), more than the 5 its business plan allows: delete some rate limits, or upgrade the plan"
    )
    expect(p.steps).toEqual([])
  })

  it("maps five of globex-store.com's on business: periods rounded, challenges throttle, one scheme", () => {
    const five = demo("globex-store.com").slice(1)
    const p = plan("business", "globex-store.com", { rateLimits: five, rules: [] })
    expect(p.refused).toBeUndefined()
    const body = (p.steps[0]!.body as { rules: ReadonlyArray<RateLimitingRule> }).rules
    accepted(body, "business")
    const cart = body.find((r) => r.ref === "rate_limit:rl2")!
    expect(cart.expression).toContain(
      'http.request.method in {"POST" "PUT"} and starts_with(http.request.full_uri, "https://")'
    )
    expect(cart.ratelimit).toMatchObject({ period: 600, mitigation_timeout: 86400 })
    const reviews = body.find((r) => r.ref === "rate_limit:rl5")!
    expect(reviews).toMatchObject({ action: "js_challenge", ratelimit: { period: 600, mitigation_timeout: 0 } })
    expect(codes(p, "rl5")).toEqual(["period-rounded", "challenge-throttles"])
    expect(codes(p, "rl3")).toEqual(["challenge-throttles"])
  })

  it("refuses initech-payroll.com on pro (3 vs 2) and maps two with the method dropped and periods rounded", () => {
    const all = demo("initech-payroll.com")
    expect(plan("pro", "initech-payroll.com", { rateLimits: all, rules: [] }).refused).toContain(
      "would need 3 rate limiting rules"
    )
    const p = plan("pro", "initech-payroll.com", { rateLimits: all.slice(1), rules: [] })
    const body = (p.steps[0]!.body as { rules: ReadonlyArray<RateLimitingRule> }).rules
    accepted(body, "pro")
    expect(body[0]!.ratelimit.period).toBe(60)
    expect(codes(p, "rl1")).toEqual(["period-rounded"])
    expect(body[1]!.expression).toBe(
      'http.host eq "initech-payroll.com" and http.request.uri.path wildcard "/" and not cf.bot_management.verified_bot'
    )
    const login = plan("pro", "initech-payroll.com", { rateLimits: all.slice(0, 1), rules: [] })
    expect(codes(login, "rl0")).toEqual(["method-dropped"])
  })

  it("keeps the zone's own rate limiting rules first, and a re-plan after the apply sends nothing", () => {
    const mine: RateLimitingRule = {
      ref: "mine",
      action: "block",
      expression: 'http.request.uri.path eq "/x"',
      enabled: true,
      ratelimit: { characteristics: ["cf.colo.id", "ip.src"], period: 60, requests_per_period: 10 }
    }
    const before = { rateLimits: demo("acme-mail.com"), rules: [mine] }
    const p = plan("enterprise", "acme-mail.com", before)
    expect((p.steps[0]!.body as { rules: ReadonlyArray<RateLimitingRule> }).rules[0]!.ref).toBe("mine")
    const again = plan("enterprise", "acme-mail.com", p.expected)
    expect(again.steps).toEqual([])
    expect(again.expected.rules).toEqual(p.expected.rules)
  })

  it("leaves a simulate-only rate limit out below Enterprise (no log action there), said in a note", () => {
    const p = plan("business", "acme-mail.com", { rateLimits: demo("acme-mail.com"), rules: [] })
    const body = (p.steps[0]!.body as { rules: ReadonlyArray<RateLimitingRule> }).rules
    expect(body.map((r) => r.ref)).toEqual(["rate_limit:rl0", "rate_limit:rl1"])
    expect(codes(p, "rl2")).toEqual(["log-not-offered"])
    accepted(body, "business")
  })

  it("on Free: the host is dropped (the rule covers every host), period and timeout rounded to 10 s", () => {
    const homepage = demo("initech-payroll.com").slice(2)
    const p = plan("free", "initech-payroll.com", { rateLimits: homepage, rules: [] })
    const body = (p.steps[0]!.body as { rules: ReadonlyArray<RateLimitingRule> }).rules
    expect(body[0]!.expression).toBe('http.request.uri.path wildcard "/" and not cf.bot_management.verified_bot')
    expect(body[0]!.ratelimit).toMatchObject({ period: 10, mitigation_timeout: 10 })
    expect(codes(p, "rl2")).toEqual(["host-dropped", "timeout-rounded"])
    accepted(body, "free")
  })

  it("deletes instead of disabling with --delete-old, irreversibly", () => {
    const p = plan("enterprise", "acme-mail.com", { rateLimits: demo("acme-mail.com"), rules: [] }, true)
    expect(p.steps.map((s) => s.key)).toEqual(["entrypoint", "delete:rl0", "delete:rl1", "delete:rl2"])
    expect(p.steps[1]!.inverse).toHaveProperty("irreversible")
    expect(p.notes.map((n) => n.code)).toContain("delete-old-irreversible")
  })

  it("rounds to the nearest supported value the plan offers", () => {
    expect(nearestSupported(55, 3600)).toBe(60)
    expect(nearestSupported(3600, 600)).toBe(600)
    expect(nearestSupported(900, 86400)).toBe(900)
  })
})
