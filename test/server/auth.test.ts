/** Authentication of the embedded platform over a real socket, with the platform's codes and statuses. */
import Database from "better-sqlite3"
import { createHash } from "node:crypto"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DemoZones } from "../helpers/demo-world.js"
import { assertEnvelope, firstError, request, startPlatform, World, type Platform } from "../helpers/platform.js"

interface Zone {
  id: string
  name: string
  account: { id: string; name: string }
}
interface List<A> {
  result: Array<A>
  result_info: { total_count: number }
}

let p: Platform
const get = <A = any>(path: string, o?: Parameters<typeof request>[2]) => request<A>(p.baseUrl, path, o)
const failure = async (path: string, headers: Record<string, string>) => {
  const r = await get(path, { token: null, headers })
  assertEnvelope(r, false)
  return { status: r.status, ...firstError(r) }
}
const zonesOf = (account: string) =>
  World.memberZones
    .filter((z) => z.account === account)
    .map((z) => z.name)
    .sort()

beforeAll(async () => {
  p = await startPlatform()
})
afterAll(async () => {
  await p?.close()
})

describe("missing and malformed credentials", () => {
  it("no credential headers: 400, code 9106", async () => {
    const e = await failure("/zones", {})
    expect(e).toMatchObject({
      status: 400,
      code: 9106,
      message: "Missing X-Auth-Key, X-Auth-Email or Authorization headers"
    })
  })

  it("an email without a key, or a key without an email, is missing credentials too", async () => {
    expect((await failure("/zones", { "x-auth-email": World.email })).code).toBe(9107)
    expect((await failure("/zones", { "x-auth-key": World.apiKey })).code).toBe(9106)
  })

  it("a malformed Authorization header: 400, 6003 with 6111 in the chain", async () => {
    for (const authorization of [
      "Bearer",
      "Bearer ",
      "Bearer bad token with spaces",
      "Bearer ümlaut",
      "Basic dXNlcjpwYXNz",
      "garbage"
    ]) {
      const e = await failure("/zones", { authorization })
      expect(e, authorization).toMatchObject({ status: 400, code: 6003, message: "Invalid request headers" })
      expect(
        e.error_chain?.map((c) => c.code),
        authorization
      ).toEqual([6111])
    }
  })

  it("a malformed X-Auth-Email: 6003 with 6102; a malformed X-Auth-Key: 6003 with 6103", async () => {
    const email = await failure("/zones", { "x-auth-email": "not-an-email", "x-auth-key": World.apiKey })
    expect([email.status, email.code, email.error_chain?.map((c) => c.code)]).toEqual([400, 6003, [6102]])
    const key = await failure("/zones", { "x-auth-email": World.email, "x-auth-key": "bad key!" })
    expect([key.status, key.code, key.error_chain?.map((c) => c.code)]).toEqual([400, 6003, [6103]])
  })
})

describe("unknown credentials", () => {
  it("an unknown token: 403, code 9109", async () => {
    const e = await failure("/zones", { authorization: "Bearer unknown-token-0000000000000000000000000" })
    expect(e).toMatchObject({ status: 403, code: 9109, message: "Invalid access token" })
  })

  it("an unknown key or email: 403, code 9103", async () => {
    const wrongKey = await failure("/zones", {
      "x-auth-email": World.email,
      "x-auth-key": "0000000000000000000000000000000000000"
    })
    expect(wrongKey).toMatchObject({ status: 403, code: 9103, message: "Unknown X-Auth-Key or X-Auth-Email" })
    const wrongEmail = await failure("/accounts", { "x-auth-email": "someone@example.com", "x-auth-key": World.apiKey })
    expect(wrongEmail).toMatchObject({ status: 403, code: 9103 })
  })

  it("the expired token of the fixture is rejected", async () => {
    const e = await failure("/zones", { authorization: `Bearer ${World.expiredToken}` })
    expect(e).toMatchObject({ status: 403, code: 9109 })
  })

  it("the key and email of the fixture are accepted, the email case-insensitively", async () => {
    const r = await get<List<Zone>>("/zones", {
      token: null,
      headers: { "x-auth-email": World.email.toUpperCase(), "x-auth-key": World.apiKey }
    })
    expect(r.status).toBe(200)
    expect(r.body.result_info.total_count).toBe(DemoZones)
  })
})

describe("GET /user/tokens/verify", () => {
  it("an unknown token answers code 1000 Invalid API Token", async () => {
    const e = await failure("/user/tokens/verify", { authorization: "Bearer unknown-token-0000000000000000000000000" })
    expect(e).toMatchObject({ status: 403, code: 1000, message: "Invalid API Token" })
  })

  it("answers 1000 whatever the query string or a trailing slash", async () => {
    for (const path of ["/user/tokens/verify?include=all", "/user/tokens/verify/"]) {
      const e = await failure(path, { authorization: "Bearer unknown-token-0000000000000000000000000" })
      expect([e.status, e.code], path).toEqual([403, 1000])
    }
  })

  it("the expired token does not verify", async () => {
    const e = await failure("/user/tokens/verify", { authorization: `Bearer ${World.expiredToken}` })
    expect(e.code).toBe(1000)
  })

  it("a valid token, user-level or account-scoped, is active", async () => {
    for (const token of [World.allToken, World.acmeToken]) {
      const r = await get<{ result: { id: string; status: string; expires_on: string | null } }>(
        "/user/tokens/verify",
        { token }
      )
      expect(r.status).toBe(200)
      assertEnvelope(r, true)
      expect(r.body.result.status).toBe("active")
      expect(r.body.result.id).toMatch(/^[0-9a-f]{32}$/)
    }
  })
})

describe("account-scoped tokens", () => {
  const accountToken = [
    ["Acme Corp", World.acmeToken],
    ["Globex", World.globexToken],
    ["Initech", World.initechToken]
  ] as const

  it("see only their account's zones", async () => {
    for (const [account, token] of accountToken) {
      const r = await get<List<Zone>>("/zones?per_page=50", { token })
      expect(r.status).toBe(200)
      expect(
        r.body.result.every((z) => z.account.name === account),
        account
      ).toBe(true)
      expect(r.body.result.map((z) => z.name).sort()).toEqual(zonesOf(account))
      expect(r.body.result_info.total_count).toBe(zonesOf(account).length)
    }
  })

  it("see only their account in /accounts", async () => {
    const r = await get<List<{ name: string }>>("/accounts", { token: World.globexToken })
    expect(r.body.result.map((a) => a.name)).toEqual(["Globex"])
  })

  it("get 404 for another account's zone, its records and its certificate packs", async () => {
    const acme = (await get<List<Zone>>("/zones?name=acme.com")).body.result[0]!
    for (const path of [
      `/zones/${acme.id}`,
      `/zones/${acme.id}/dns_records`,
      `/zones/${acme.id}/ssl/certificate_packs`
    ]) {
      const r = await get(path, { token: World.globexToken })
      expect(r.status, path).toBe(404)
      expect(firstError(r).code, path).toBe(7003)
    }
    const own = await get<{ result: Zone }>(`/zones/${acme.id}`, { token: World.acmeToken })
    expect([own.status, own.body.result.name]).toEqual([200, "acme.com"])
    const other = await get(`/accounts/${acme.account.id}`, { token: World.initechToken })
    expect([other.status, firstError(other).code]).toEqual([404, 7003])
  })

  it("cannot filter their way into another account", async () => {
    const acme = (await get<List<Zone>>("/zones?name=acme.com")).body.result[0]!
    const r = await get<List<Zone>>(`/zones?account.id=${acme.account.id}`, { token: World.globexToken })
    expect(r.body.result).toEqual([])
    const any = await get<List<Zone>>("/zones?name=acme.com&status=active&match=any&per_page=50", {
      token: World.globexToken
    })
    expect(any.body.result.every((z) => z.account.name === "Globex")).toBe(true)
  })

  it("get 403 code 10000 on user endpoints", async () => {
    const invites = await get("/user/invites", { token: World.acmeToken })
    expect(invites.status).toBe(403)
    assertEnvelope(invites, false)
    expect(firstError(invites).code).toBe(10000)
    const all = (await get<{ result: Array<{ id: string }> }>("/user/invites")).body.result
    const patch = await get(`/user/invites/${all[0]!.id}`, {
      token: World.acmeToken,
      method: "PATCH",
      body: { status: "accepted" }
    })
    expect([patch.status, firstError(patch).code]).toEqual([403, 10000])
    const memberships = await get("/memberships", { token: World.globexToken })
    expect(memberships.status).toBe(403)
    expect((await get(`/user/invites/${all[0]!.id}`)).body.result.status).toBe("pending")
  })
})

describe("credentials changed behind the server's back", () => {
  it("a token disabled by another process is refused on the next request (no stale credential cache)", async () => {
    const q = await startPlatform()
    try {
      const ok = await request(q.baseUrl, "/zones", { token: World.globexToken })
      expect(ok.status).toBe(200)
      // Another connection to the same store, as a second edgectl process would open it.
      const other = new Database(path.join(q.stateDir, "platform.sqlite"))
      other
        .prepare("UPDATE tokens SET status = 'disabled' WHERE secret_hash = ?")
        .run(createHash("sha256").update(World.globexToken).digest("hex"))
      other.close()
      const refused = await request(q.baseUrl, "/zones", { token: World.globexToken })
      expect([refused.status, firstError(refused).code]).toEqual([403, 9109])
      expect((await request(q.baseUrl, "/zones", { token: World.acmeToken })).status).toBe(200)
    } finally {
      await q.close()
    }
  })
})
