/**
 * Fields the platform's clients read, answered as the platform sends them (issue 18): a zone owner's
 * kind, SRV's structured `data`, token verification leaving unset dates out, page-rule timestamps.
 */
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { storeFile } from "../../src/server/platform.js"
import { assertEnvelope, request, startPlatform, type Platform } from "../helpers/platform.js"

let p: Platform
const get = <A = any>(path: string, token?: string) => request<A>(p.baseUrl, path, token !== undefined ? { token } : {})
const zoneId = async (name: string) => (await get(`/zones?name=${name}`)).body.result[0]!.id as string

beforeAll(async () => {
  p = await startPlatform()
})
afterAll(async () => {
  await p?.close()
})

describe("zone owner", () => {
  it('owner.type is a string ("user") in lists and single zones, id and email may stay null', async () => {
    const list = await get("/zones?per_page=50")
    assertEnvelope(list, true)
    for (const z of list.body.result) expect(z.owner.type, z.name).toBe("user")
    const one = await get(`/zones/${await zoneId("acme.com")}`)
    expect(one.body.result.owner).toMatchObject({ type: "user" })
    expect(one.body.result.owner.id).toBeNull()
  })
})

describe("SRV records", () => {
  it("carry data {priority, weight, port, target} agreeing with content and priority", async () => {
    const r = await get(`/zones/${await zoneId("acme.com")}/dns_records?type=SRV&per_page=500`)
    assertEnvelope(r, true)
    expect(r.body.result.length).toBeGreaterThan(0)
    for (const rec of r.body.result) {
      const [weight, port, target] = (rec.content as string).split(" ")
      expect(rec.data, rec.name).toEqual({ priority: rec.priority, weight: Number(weight), port: Number(port), target })
    }
    expect(r.body.result[0].data.target).toBe("sip.acme.com")
  })

  it("records without a structured form have no data", async () => {
    const r = await get(`/zones/${await zoneId("acme.com")}/dns_records?type=A&per_page=5`)
    for (const rec of r.body.result) expect(rec).not.toHaveProperty("data")
  })
})

describe("GET /user/tokens/verify", () => {
  it("leaves expires_on and not_before out when the token has none", async () => {
    const r = await get("/user/tokens/verify")
    assertEnvelope(r, true)
    expect(r.body.result.status).toBe("active")
    expect(r.body.result).not.toHaveProperty("expires_on")
    expect(r.body.result).not.toHaveProperty("not_before")
  })

  it("sends them as strings when the token has them", async () => {
    // The demo world's usable tokens have no dates: give one a window in the store, as issued.
    const db = new Database(storeFile(p.stateDir))
    const set = db.prepare("UPDATE tokens SET expires_on = ?, not_before = ? WHERE name = 'local all-accounts token'")
    try {
      set.run("2999-01-01T00:00:00Z", "2020-01-01T00:00:00Z")
      const r = await get("/user/tokens/verify")
      expect(r.body.result).toMatchObject({ expires_on: "2999-01-01T00:00:00Z", not_before: "2020-01-01T00:00:00Z" })
    } finally {
      set.run(null, null)
      db.close()
    }
  })
})

describe("page rules", () => {
  it("carry created_on and modified_on", async () => {
    const r = await get(`/zones/${await zoneId("acme.com")}/pagerules`)
    assertEnvelope(r, true)
    expect(r.body.result.length).toBeGreaterThan(0)
    for (const rule of r.body.result) {
      expect(rule.created_on).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)
      expect(rule.modified_on).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)
    }
  })
})

describe("routes the local platform does not serve", () => {
  it("answer the platform's no-route error, naming the method and path", async () => {
    const z = await zoneId("acme.com")
    for (const [method, path] of [
      ["GET", `/zones/${z}/dns_records/${"a".repeat(32)}`],
      ["PUT", `/zones/${z}/dns_records/${"a".repeat(32)}`],
      ["GET", `/zones/${z}/settings/ssl`]
    ]) {
      const r = await request(p.baseUrl, path, { method })
      expect(r.status, path).toBe(404)
      assertEnvelope(r, false)
      expect(r.body.errors[0]).toEqual({ code: 7000, message: `No route for that URI: ${method} /client/v4${path}` })
    }
  })
})
