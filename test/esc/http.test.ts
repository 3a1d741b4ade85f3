/**
 * Area B over a real socket: every transition of the spec's ESC state table on a zone and on an
 * account, every bad body, who may see what, and the platform's clock in the Date header.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixedClock } from "../../src/server/clock.js"
import {
  assertEnvelope,
  firstError,
  request,
  startPlatform,
  World,
  type Answer,
  type Platform,
  type RequestOptions
} from "../helpers/platform.js"

let p: Platform
const call = <A = any>(path: string, o?: RequestOptions) => request<A>(p.baseUrl, path, o)
const zoneId = async (name: string): Promise<string> => (await call(`/zones?name=${name}`)).body.result[0].id
const accountId = async (name: string): Promise<string> =>
  (await call<{ result: Array<{ id: string; name: string }> }>("/accounts?per_page=50")).body.result.find(
    (a) => a.name === name
  )!.id

const Clock = new Date("2024-06-01T12:00:00Z")

beforeAll(async () => {
  p = await startPlatform(undefined, { clock: fixedClock(Clock) })
})
afterAll(async () => {
  await p?.close()
})

const ok = (a: Answer) => {
  expect(a.status, JSON.stringify(a.body)).toBe(200)
  return assertEnvelope(a, true).result
}

/** The three calls of one scope. */
const esc = (base: string) => ({
  get: () => call(`${base}/disable_esc`),
  post: (body: unknown, o: RequestOptions = {}) => call(`${base}/disable_esc`, { method: "POST", body, ...o }),
  del: () => call(`${base}/disable_esc`, { method: "DELETE" })
})

for (const scope of ["zone", "account"] as const) {
  describe(`the ESC state table on ${scope === "zone" ? "a zone" : "an account"}`, () => {
    let s: ReturnType<typeof esc>
    beforeAll(async () => {
      s = esc(scope === "zone" ? `/zones/${await zoneId(`globex-beta.io`)}` : `/accounts/${await accountId("Initech")}`)
    })

    it("starts enabled: GET answers an empty object in the envelope", async () => {
      expect(ok(await s.get())).toEqual({})
    })

    it("enabled → POST {always: true} → disabled for all requests (POST answers the new setting)", async () => {
      expect(ok(await s.post({ always: true }))).toEqual({ always: true })
      expect(ok(await s.get())).toEqual({ always: true })
    })

    it("disabled → POST {always: true} again stays disabled", async () => {
      expect(ok(await s.post({ always: true }))).toEqual({ always: true })
    })

    it("disabled → POST {with_secret} → same status, secret stored", async () => {
      expect(ok(await s.post({ with_secret: "first-Secret#1" }))).toEqual({
        always: true,
        with_secret: "first-Secret#1"
      })
      expect(ok(await s.get())).toEqual({ always: true, with_secret: "first-Secret#1" })
    })

    it("disabled → DELETE → enabled, and the secret is gone too (ESC runs for every request)", async () => {
      expect(ok(await s.del())).toEqual({})
      expect(ok(await s.get())).toEqual({})
    })

    it("enabled → POST {with_secret} → still enabled, secret stored; a new secret replaces it", async () => {
      expect(ok(await s.post({ with_secret: "x".repeat(100) }))).toEqual({ with_secret: "x".repeat(100) })
      expect(ok(await s.post({ with_secret: "MySecretString321#" }))).toEqual({ with_secret: "MySecretString321#" })
      expect(ok(await s.get())).toEqual({ with_secret: "MySecretString321#" })
    })

    it("enabled with a secret → POST {always: true} keeps the secret", async () => {
      expect(ok(await s.post({ always: true }))).toEqual({ always: true, with_secret: "MySecretString321#" })
    })

    it("DELETE when nothing is set is harmless", async () => {
      ok(await s.del())
      expect(ok(await s.del())).toEqual({})
    })
  })
}

describe("bad bodies", () => {
  let post: (body: unknown, o?: RequestOptions) => Promise<Answer>
  let get: () => Promise<Answer>
  beforeAll(async () => {
    const s = esc(`/zones/${await zoneId("globex-old.com")}`)
    await s.post({ with_secret: "keep-me-1234" })
    post = s.post
    get = s.get
  })

  const refused = async (body: unknown, message: string | RegExp, o?: RequestOptions) => {
    const r = await post(body, o)
    expect(r.status, JSON.stringify(body)).toBe(400)
    assertEnvelope(r, false)
    expect(firstError(r).code).toBe(1004)
    expect(firstError(r).message).toMatch(message)
    return firstError(r).message
  }

  it("always: false, a non-boolean always, both fields", async () => {
    await refused({ always: false }, "invalid request: always must be true, got false: DELETE turns ESC on again")
    await refused({ always: "true" }, "invalid request: always must be the boolean true, got a string of 4 characters")
    await refused(
      { always: true, with_secret: "abc" },
      /^invalid request: send either "always" or "with_secret", not both/
    )
  })

  it("a 101-character, an empty and a non-string secret: the field, the limit and the size, never the secret", async () => {
    const long = "L0ng".repeat(25) + "!"
    const m = await refused(
      { with_secret: long },
      "invalid request: with_secret must be at most 100 characters, got 101"
    )
    expect(m).not.toContain("L0ng")
    await refused({ with_secret: "" }, "invalid request: with_secret must be 1 to 100 characters, got an empty string")
    await refused(
      { with_secret: 42 },
      "invalid request: with_secret must be a string of 1 to 100 characters, got a number"
    )
    const spaced = await refused({ with_secret: "my secret" }, /got a space at position 3 of 9$/)
    expect(spaced).not.toContain("my secret")
  })

  it("unknown fields, an empty object, an array, malformed JSON and an empty body", async () => {
    await refused({ with_secret: "abc", ttl: 60 }, /^invalid request: unknown field "ttl": the body takes only/)
    await refused({}, /got an empty object$/)
    await refused([], /must be a JSON object.*got an array of 0 items$/)
    const secret = "do-not-echo-99"
    const m = await refused(
      `{"with_secret": "${secret}"`,
      "invalid request body: expected JSON, the body could not be parsed"
    )
    expect(m).not.toContain(secret)
    await refused("", /got null or an empty body$/)
  })

  it("reads a JSON body sent without a content-type or as text/plain, as official tools send it", async () => {
    const r = await call(`/zones/${await zoneId("globex-old.com")}/disable_esc`, {
      method: "POST",
      body: '{"always": false}',
      headers: { "content-type": "text/plain;charset=UTF-8" }
    })
    expect(r.status).toBe(400)
    expect(firstError(r).message).toMatch(/always must be true/)
  })

  it("a refused body changes nothing", async () => {
    expect(ok(await get())).toEqual({ with_secret: "keep-me-1234" })
  })
})

describe("who may see which setting", () => {
  it("an account-scoped token manages its own account's zones and account", async () => {
    const zone = await zoneId("acme-media.com")
    const acme = await accountId("Acme Corp")
    const opts = { token: World.acmeToken }
    expect(ok(await call(`/zones/${zone}/disable_esc`, opts))).toEqual({})
    expect(
      ok(await call(`/accounts/${acme}/disable_esc`, { ...opts, method: "POST", body: { with_secret: "acme-wide-1" } }))
    ).toEqual({ with_secret: "acme-wide-1" })
    ok(await call(`/accounts/${acme}/disable_esc`, { ...opts, method: "DELETE" }))
  })

  it("another account's zone or account answers as not found, for every method, and is not changed", async () => {
    const globexZone = await zoneId("globex.io")
    const globex = await accountId("Globex")
    for (const [path, method, body] of [
      [`/zones/${globexZone}/disable_esc`, "GET", undefined],
      [`/zones/${globexZone}/disable_esc`, "POST", { always: true }],
      [`/zones/${globexZone}/disable_esc`, "DELETE", undefined],
      [`/accounts/${globex}/disable_esc`, "GET", undefined],
      [`/accounts/${globex}/disable_esc`, "POST", { always: true }],
      [`/accounts/${globex}/disable_esc`, "DELETE", undefined]
    ] as const) {
      const r = await call(path, { token: World.acmeToken, method, ...(body ? { body } : {}) })
      expect(r.status, `${method} ${path}`).toBe(404)
      assertEnvelope(r, false)
      expect(firstError(r)).toMatchObject({
        code: 7003,
        message: `Could not route to ${path}, perhaps your object identifier is invalid?`
      })
    }
    expect(ok(await call(`/zones/${globexZone}/disable_esc`))).toEqual({})
    expect(ok(await call(`/accounts/${globex}/disable_esc`))).toEqual({})
  })

  it("an unknown zone or account id is not found; no credentials is 9106", async () => {
    for (const path of [
      `/zones/${"0".repeat(32)}/disable_esc`,
      `/accounts/${"0".repeat(32)}/disable_esc`,
      "/zones/acme.com/disable_esc"
    ]) {
      const r = await call(path)
      expect(r.status, path).toBe(404)
      expect(firstError(r).code).toBe(7003)
    }
    const r = await call(`/zones/${await zoneId("acme.io")}/disable_esc`, { token: null })
    expect(r.status).toBe(400)
    expect(firstError(r).code).toBe(9106)
  })

  it("the global key and email authenticate as on the docs' examples", async () => {
    const r = await call(`/zones/${await zoneId("acme-legacy.com")}/disable_esc`, {
      token: null,
      headers: { "x-auth-email": World.email, "x-auth-key": World.apiKey }
    })
    expect(ok(r)).toEqual({ always: true })
  })

  it("other methods on disable_esc are no route (7000)", async () => {
    const r = await call(`/zones/${await zoneId("acme.io")}/disable_esc`, { method: "PUT", body: { always: true } })
    expect(r.status).toBe(404)
    expect(firstError(r).code).toBe(7000)
  })
})

describe("the demo world and the platform's clock", () => {
  it("seeds acme-legacy.com disabled for all requests and acme.com with a test secret", async () => {
    expect(ok(await call(`/zones/${await zoneId("acme-legacy.com")}/disable_esc`))).toEqual({ always: true })
    expect(ok(await call(`/zones/${await zoneId("acme.com")}/disable_esc`))).toEqual({
      with_secret: "acme-esc-preview-7Qx2"
    })
  })

  it("answers carry the platform's clock in the Date header", async () => {
    const r = await call(`/zones/${await zoneId("acme.com")}/disable_esc`)
    expect(r.headers.get("date")).toBe(Clock.toUTCString())
    const refused = await call(`/zones/${await zoneId("acme.com")}/disable_esc`, {
      method: "POST",
      body: { always: false }
    })
    expect(refused.status).toBe(400)
  })
})
