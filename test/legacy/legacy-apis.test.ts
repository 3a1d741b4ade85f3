/**
 * The legacy security products served by the local platform as the platform served them (Zone
 * Lockdown, User Agent Blocking, rate limiting previous version): shapes, pagination, filters, the
 * plan's quota, every bad field named; and the ended switch, under which the rate limits answer
 * 410 and firewall rules refuse writes with 10020 while the rest is served. Over HTTP against
 * `serve()` on a real store.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { legacyApis } from "../../src/server/legacy-mode.js"
import { request, startPlatform, type Platform } from "../helpers/platform.js"

let p: Platform
const zones = new Map<string, string>()

const zoneId = async (name: string) => {
  if (!zones.has(name)) {
    const r = await request(p.baseUrl, `/zones?name=${name}`)
    zones.set(name, r.body.result[0].id as string)
  }
  return zones.get(name)!
}

beforeAll(async () => {
  p = await startPlatform()
})
afterAll(async () => p?.close())

describe("Zone Lockdown: /zones/{zone_id}/firewall/lockdowns", () => {
  it("lists the demo zone's rules in processing order, with the API's fields and result_info", async () => {
    const z = await zoneId("acme-mail.com")
    const r = await request(p.baseUrl, `/zones/${z}/firewall/lockdowns`)
    expect(r.status).toBe(200)
    expect(r.body.result_info).toMatchObject({ page: 1, per_page: 20, count: 3, total_count: 3 })
    const [first] = r.body.result
    expect(Object.keys(first).sort()).toEqual(
      ["configurations", "created_on", "description", "id", "modified_on", "paused", "priority", "urls"].sort()
    )
    expect(first).toMatchObject({ priority: 1, urls: ["acme-mail.com/admin/*"], paused: false })
    expect(r.body.result.map((l: { description: string }) => l.description)).toEqual([
      "webmail admin from the office only",
      "partner API",
      "staging (paused)"
    ])
  })

  it("pages with per_page 1 or a multiple of 5, and filters by URI, IP and description", async () => {
    const z = await zoneId("acme-mail.com")
    const second = await request(p.baseUrl, `/zones/${z}/firewall/lockdowns?per_page=1&page=2`)
    expect(second.body.result_info).toMatchObject({ page: 2, per_page: 1, count: 1, total_count: 3, total_pages: 3 })
    expect(second.body.result[0].description).toBe("partner API")
    const bad = await request(p.baseUrl, `/zones/${z}/firewall/lockdowns?per_page=7`)
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0].message).toContain("per_page must be 1 or a multiple of 5, got 7")
    const uri = await request(p.baseUrl, `/zones/${z}/firewall/lockdowns?uri_search=partner`)
    expect(uri.body.result.map((l: { description: string }) => l.description)).toEqual(["partner API"])
    const ip = await request(p.baseUrl, `/zones/${z}/firewall/lockdowns?ip=203.0.113.7`)
    expect(ip.body.result.map((l: { description: string }) => l.description)).toEqual(["staging (paused)"])
    const range = await request(p.baseUrl, `/zones/${z}/firewall/lockdowns?ip_range_search=198.51.100.0/24`)
    expect(range.body.result).toHaveLength(2)
    const desc = await request(p.baseUrl, `/zones/${z}/firewall/lockdowns?description_search=WEBMAIL`)
    expect(desc.body.result).toHaveLength(1)
  })

  it("creates, reads, replaces and deletes a rule; a Pro zone stops at its quota of 3", async () => {
    const z = await zoneId("initech-payroll.com")
    const body = (n: number) => ({
      urls: [`initech-payroll.com/admin${n}/*`],
      configurations: [{ target: "ip_range", value: "192.0.2.0/24" }],
      description: `admin ${n}`
    })
    const ids: string[] = []
    for (const n of [1, 2, 3]) {
      const r = await request(p.baseUrl, `/zones/${z}/firewall/lockdowns`, { method: "POST", body: body(n) })
      expect(r.status).toBe(200)
      expect(r.body.result).toMatchObject({ ...body(n), paused: false })
      ids.push(r.body.result.id)
    }
    const over = await request(p.baseUrl, `/zones/${z}/firewall/lockdowns`, { method: "POST", body: body(4) })
    expect(over.status).toBe(400)
    expect(over.body.errors[0]).toMatchObject({
      code: 10200,
      message: "a pro zone may have at most 3 Zone Lockdown rules; it has 3"
    })
    const put = await request(p.baseUrl, `/zones/${z}/firewall/lockdowns/${ids[0]}`, {
      method: "PUT",
      body: { ...body(9), paused: true }
    })
    expect(put.body.result).toMatchObject({ id: ids[0], description: "admin 9", paused: true })
    expect((await request(p.baseUrl, `/zones/${z}/firewall/lockdowns/${ids[0]}`)).body.result.paused).toBe(true)
    const del = await request(p.baseUrl, `/zones/${z}/firewall/lockdowns/${ids[0]}`, { method: "DELETE" })
    expect(del.body.result).toEqual({ id: ids[0] })
    const gone = await request(p.baseUrl, `/zones/${z}/firewall/lockdowns/${ids[0]}`)
    expect(gone.status).toBe(404)
  })

  it("names every bad field of a body in one answer, and writes nothing", async () => {
    const z = await zoneId("acme-mail.com")
    const r = await request(p.baseUrl, `/zones/${z}/firewall/lockdowns`, {
      method: "POST",
      body: {
        urls: [""],
        configurations: [
          { target: "ip", value: "300.1.1.1" },
          { target: "asn", value: "1" }
        ],
        paused: "no"
      }
    })
    expect(r.status).toBe(400)
    const message: string = r.body.errors[0].message
    expect(message).toContain('urls[0] must be a non-empty string, got ""')
    expect(message).toContain('configurations[0].value must be an IPv4 or IPv6 address, got "300.1.1.1"')
    expect(message).toContain('configurations[1].target must be one of ip, ip_range, got "asn"')
    expect(message).toContain('paused must be true or false, got "no"')
    expect((await request(p.baseUrl, `/zones/${z}/firewall/lockdowns`)).body.result_info.total_count).toBe(3)
  })
})

describe("User Agent Blocking: /zones/{zone_id}/firewall/ua_rules", () => {
  it("lists with both filter spellings, creates and refuses a mode or target the API does not take", async () => {
    const z = await zoneId("acme-mail.com")
    const all = await request(p.baseUrl, `/zones/${z}/firewall/ua_rules`)
    expect(all.body.result).toHaveLength(3)
    expect(all.body.result[0]).toEqual({
      id: all.body.result[0].id,
      paused: false,
      description: "Block Bad Bot web spider",
      mode: "block",
      configuration: { target: "ua", value: "BadBot/1.0.2 (+http://bad.bot)" }
    })
    expect((await request(p.baseUrl, `/zones/${z}/firewall/ua_rules?ua_search=curl`)).body.result).toHaveLength(1)
    expect((await request(p.baseUrl, `/zones/${z}/firewall/ua_rules?user_agent=curl`)).body.result).toHaveLength(1)
    expect((await request(p.baseUrl, `/zones/${z}/firewall/ua_rules?paused=true`)).body.result).toHaveLength(1)
    const bad = await request(p.baseUrl, `/zones/${z}/firewall/ua_rules`, {
      method: "POST",
      body: { mode: "whitelist", configuration: { target: "ip", value: "x" } }
    })
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0].message).toContain(
      'mode must be one of block, challenge, js_challenge, managed_challenge, got "whitelist"'
    )
    expect(bad.body.errors[0].message).toContain('configuration.target must be one of ua, got "ip"')
    const ok = await request(p.baseUrl, `/zones/${z}/firewall/ua_rules`, {
      method: "POST",
      body: { mode: "js_challenge", configuration: { target: "ua", value: "Evil/1.0" } }
    })
    expect(ok.body.result).toMatchObject({ mode: "js_challenge", paused: false, description: "" })
  })
})

describe("rate limits, previous version: /zones/{zone_id}/rate_limits", () => {
  it("answers the demo rules with every field of the wire shape and raises a ban timeout to the period", async () => {
    const z = await zoneId("acme-mail.com")
    const r = await request(p.baseUrl, `/zones/${z}/rate_limits`)
    expect(r.body.result).toHaveLength(3)
    expect(r.body.result[0]).toMatchObject({
      description: "Prevent multiple login failures",
      match: {
        request: { methods: ["POST"], schemes: ["HTTP", "HTTPS"], url: "*.acme-mail.com/login*" },
        response: { status: [401, 403], origin_traffic: false }
      },
      threshold: 5,
      period: 300,
      action: { mode: "ban", timeout: 900, response: { content_type: "application/json" } }
    })
    const created = await request(p.baseUrl, `/zones/${z}/rate_limits`, {
      method: "POST",
      body: {
        match: { request: { url: "acme-mail.com/x*" } },
        threshold: 10,
        period: 120,
        action: { mode: "ban", timeout: 60 }
      }
    })
    expect(created.status).toBe(200)
    expect(created.body.result).toMatchObject({
      match: { request: { methods: ["_ALL_"], schemes: ["_ALL_"], url: "acme-mail.com/x*" } },
      action: { mode: "ban", timeout: 120 }
    })
  })

  it("refuses a timeout on a challenge, a period out of range and a missing threshold, naming each", async () => {
    const z = await zoneId("acme-mail.com")
    const r = await request(p.baseUrl, `/zones/${z}/rate_limits`, {
      method: "POST",
      body: { match: { request: { url: "*" } }, period: 5, action: { mode: "challenge", timeout: 60 } }
    })
    expect(r.status).toBe(400)
    const m: string = r.body.errors[0].message
    expect(m).toContain("period must be an integer from 10 to 86400, got 5")
    expect(m).toContain("threshold is required")
    expect(m).toContain("action.timeout must not be given for challenge")
  })

  it("a Pro zone already over the new quota keeps its old one: 10 rules", async () => {
    const z = await zoneId("initech-payroll.com")
    const body = {
      match: { request: { url: "initech-payroll.com/*" } },
      threshold: 5,
      period: 60,
      action: { mode: "ban" }
    }
    let status = 200
    let created = 0
    while (status === 200 && created < 20) {
      status = (await request(p.baseUrl, `/zones/${z}/rate_limits`, { method: "POST", body })).status
      if (status === 200) created++
    }
    expect(created).toBe(7)
    expect(status).toBe(400)
  })
})

describe("the ended switch (serve --legacy-apis ended)", () => {
  let ended: Platform
  beforeAll(async () => {
    ended = await startPlatform(undefined, { legacy: legacyApis("ended") })
  })
  afterAll(async () => ended?.close())

  it("rate limits answer 410 with no code; firewall rule writes answer 10020; reads and the other products are served", async () => {
    const z = (await request(ended.baseUrl, "/zones?name=acme-mail.com")).body.result[0].id
    const rl = await request(ended.baseUrl, `/zones/${z}/rate_limits`)
    expect(rl.status).toBe(410)
    expect(rl.body.success).toBe(false)
    expect(rl.body.errors[0].code).toBeUndefined()
    expect(rl.body.errors[0].message).toContain("ended on 2025-06-15")
    const write = await request(ended.baseUrl, `/zones/${z}/firewall/rules`, {
      method: "POST",
      body: [{ action: "block", filter: { expression: 'http.host eq "x.acme-mail.com"' } }]
    })
    expect(write.status).toBe(400)
    expect(write.body.errors[0].code).toBe(10020)
    expect(write.body.errors[0].message).toMatch(/^firewallrules\.api\.maintenance_mode\./)
    expect((await request(ended.baseUrl, `/zones/${z}/firewall/rules`)).status).toBe(200)
    expect((await request(ended.baseUrl, `/zones/${z}/firewall/lockdowns`)).body.result).toHaveLength(3)
  })
})
