/**
 * The `http_ratelimit` phase's entry point on the local platform (the rate limits' replacement):
 * a PUT of the whole entry point, read back by GET and listed among the zone's rulesets, with the
 * plan's limits checked before anything is saved — rule count, expression fields, counting
 * characteristics, periods, mitigation timeouts, challenges that must throttle, custom counting
 * expressions — each refusal naming the field, the limit and the value. Over HTTP against `serve()`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, startPlatform, type Platform } from "../helpers/platform.js"

let p: Platform
const ids = new Map<string, string>()
const zoneId = async (name: string) => {
  if (!ids.has(name)) ids.set(name, (await request(p.baseUrl, `/zones?name=${name}`)).body.result[0].id)
  return ids.get(name)!
}
const entry = (z: string) => `/zones/${z}/rulesets/phases/http_ratelimit/entrypoint`

const rule = (over: Record<string, unknown> = {}, counter: Record<string, unknown> = {}) => ({
  action: "block",
  expression: 'http.request.uri.path eq "/login"',
  description: "login",
  ratelimit: {
    characteristics: ["cf.colo.id", "ip.src"],
    period: 60,
    requests_per_period: 5,
    mitigation_timeout: 600,
    ...counter
  },
  ...over
})

const put = async (zone: string, rules: unknown[], query = "") =>
  request(p.baseUrl, `${entry(await zoneId(zone))}${query}`, { method: "PUT", body: { rules } })

beforeAll(async () => {
  p = await startPlatform()
})
afterAll(async () => p?.close())

describe("http_ratelimit entry point", () => {
  it("a PUT saves the rules with their counter; GET and the rulesets list show the entry point", async () => {
    const r = await put("initech-payroll.com", [rule()])
    expect(r.status).toBe(200)
    expect(r.body.result).toMatchObject({ phase: "http_ratelimit", kind: "zone", version: "1" })
    expect(r.body.result.rules[0]).toMatchObject({
      action: "block",
      enabled: true,
      ratelimit: {
        characteristics: ["cf.colo.id", "ip.src"],
        period: 60,
        requests_per_period: 5,
        mitigation_timeout: 600
      }
    })
    const z = await zoneId("initech-payroll.com")
    const got = await request(p.baseUrl, entry(z))
    expect(got.body.result).toEqual(r.body.result)
    const list = await request(p.baseUrl, `/zones/${z}/rulesets`)
    expect(list.body.result.map((x: { phase: string }) => x.phase)).toContain("http_ratelimit")
  })

  it("dry_run=true checks and answers null, saving nothing", async () => {
    const before = (await request(p.baseUrl, entry(await zoneId("initech-payroll.com")))).body.result.version
    const r = await put("initech-payroll.com", [rule({ description: "changed" })], "?dry_run=true")
    expect(r.status).toBe(200)
    expect(r.body.result).toBeNull()
    const after = (await request(p.baseUrl, entry(await zoneId("initech-payroll.com")))).body.result
    expect(after.version).toBe(before)
    expect(after.rules[0].description).toBe("login")
  })

  it("a Pro zone: at most 2 rules, no method field, its own periods, cf.colo.id always", async () => {
    const three = await put("initech-payroll.com", [rule(), rule({ description: "b" }), rule({ description: "c" })])
    expect(three.status).toBe(400)
    expect(three.body.errors[0]).toMatchObject({
      code: 10200,
      message: "rules: a pro zone may have at most 2 rate limiting rules in the http_ratelimit phase, got 3"
    })
    const method = await put("initech-payroll.com", [
      rule({ expression: 'http.request.uri.path eq "/login" and http.request.method eq "POST"' })
    ])
    expect(method.status).toBe(400)
    expect(method.body.errors[0].message).toMatch(
      /^rules\[0\]\.expression: a pro zone's rate limiting rules cannot use http\.request\.method \(it may use /
    )
    const period = await put("initech-payroll.com", [rule({}, { period: 600 })])
    expect(period.body.errors[0].message).toBe(
      "rules[0].ratelimit.period: a pro zone's periods are 10, 15, 20, 30, 40, 45, 60 seconds, got 600"
    )
    const colo = await put("initech-payroll.com", [rule({}, { characteristics: ["ip.src"] })])
    expect(colo.body.errors[0].message).toBe(
      'rules[0].ratelimit.characteristics: must include cf.colo.id (the platform counts per data center), got ["ip.src"]'
    )
    const counting = await put("initech-payroll.com", [rule({}, { counting_expression: "http.response.code eq 401" })])
    expect(counting.body.errors[0].message).toBe(
      "rules[0].ratelimit.counting_expression: a custom counting expression needs Business or Enterprise, this zone is on pro"
    )
  })

  it("a Business zone: a challenge must throttle, response fields count, NAT support but not with ip.src", async () => {
    const challenge = await put("globex-store.com", [rule({ action: "managed_challenge" }, { mitigation_timeout: 60 })])
    expect(challenge.body.errors[0].message).toBe(
      "rules[0].ratelimit.mitigation_timeout: a managed_challenge rule on a business zone must throttle: set it to 0, got 60"
    )
    const both = await put("globex-store.com", [
      rule({}, { characteristics: ["cf.colo.id", "ip.src", "cf.unique_visitor_id"] })
    ])
    expect(both.body.errors[0].message).toContain("cannot be used together")
    const ok = await put("globex-store.com", [
      rule({ action: "managed_challenge" }, { mitigation_timeout: 0 }),
      rule(
        { description: "by response", expression: 'http.request.method eq "POST"' },
        {
          characteristics: ["cf.colo.id", "cf.unique_visitor_id"],
          counting_expression: 'http.request.method eq "POST" and http.response.code in {401 403}',
          requests_to_origin: true,
          period: 600
        }
      )
    ])
    expect(ok.status).toBe(200)
    expect(ok.body.result.rules).toHaveLength(2)
    const throttle = await put("globex-store.com", [rule({}, { mitigation_timeout: 0 })])
    expect(throttle.body.errors[0].message).toBe(
      "rules[0].ratelimit.mitigation_timeout: throttling with block needs Enterprise, this zone is on business"
    )
  })

  it("an Enterprise zone throttles with block and counts by any characteristic; skip is not a rate limiting action", async () => {
    const ok = await put("acme-mail.com", [
      rule({}, { mitigation_timeout: 0, characteristics: ["cf.colo.id", 'http.request.headers["x-api-key"]'] })
    ])
    expect(ok.status).toBe(200)
    const skip = await put("acme-mail.com", [rule({ action: "skip", action_parameters: { ruleset: "current" } })])
    expect(skip.status).toBe(400)
    expect(skip.body.errors[0].message).toBe(
      'rules[0].action: expected one of block, challenge, js_challenge, managed_challenge, log, got "skip"'
    )
  })
})
