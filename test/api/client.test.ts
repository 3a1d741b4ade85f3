/**
 * The v4 client against the embedded platform, in-process (`clientLayer`) and over a socket
 * (`serve()` + FetchHttpClient), and its retry policy against a tiny scripted HTTP server.
 */
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { Effect, Either, Layer, ManagedRuntime, Option } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, ClientConfig, type Credentials } from "../../src/api/client.js"
import { collectPages, findInPages } from "../../src/api/pages.js"
import { Endpoints } from "../../src/api/contract.js"
import { WafEndpoints } from "../../src/api/contract-waf.js"
import { NotFound } from "../../src/domain/errors.js"
import { clientLayer } from "../../src/cli/environment.js"
import { startPlatform, tempDir, World, type Platform } from "../helpers/platform.js"

type Client = HttpClient.HttpClient | ClientConfig

const remoteLayer = (baseUrl: string, credentials: Credentials, maxRetries?: number): Layer.Layer<Client> =>
  Layer.merge(
    Layer.succeed(ClientConfig, {
      baseUrl,
      credentials,
      target: "remote",
      ...(maxRetries !== undefined ? { maxRetries } : {})
    }),
    FetchHttpClient.layer
  )

const fixtureZoneNames = World.memberZones.map((z) => z.name).sort()

let served: Platform
beforeAll(async () => {
  served = await startPlatform()
})
afterAll(async () => {
  await served?.close()
})

/** The same behaviour, whichever way the client reaches the platform. */
const suite = (label: string, makeLayer: () => Layer.Layer<Client, unknown>) =>
  describe(label, () => {
    let rt: ManagedRuntime.ManagedRuntime<Client, unknown>
    const run = <A, E>(e: Effect.Effect<A, E, Client>) => rt.runPromise(e)
    beforeAll(() => {
      rt = ManagedRuntime.make(makeLayer())
    })
    afterAll(async () => {
      await rt?.dispose()
    })
    const acmeId = () => run(call(Endpoints.listZones, { urlParams: { name: "acme.com" } })).then((p) => p.items[0]!.id)

    it("returns decoded values: a page of zones and a zone", async () => {
      const page = await run(call(Endpoints.listZones, { urlParams: { per_page: 5 } }))
      expect(page.items).toHaveLength(5)
      expect(page.info).toEqual({ page: 1, per_page: 5, count: 5, total_count: 46, total_pages: 10 })
      const id = await acmeId()
      const zone = await run(call(Endpoints.getZone, { path: { zone_id: id } }))
      expect(zone).toMatchObject({ id, name: "acme.com", status: "active", account: { name: "Acme Corp" } })
      expect(zone.plan?.id).toMatch(/^[0-9a-f]{32}$/)
    })

    it("sends filters as query parameters, repeated for arrays", async () => {
      const io = await run(call(Endpoints.listZones, { urlParams: { name: "ends_with:.io", per_page: 50 } }))
      expect(io.items.map((z) => z.name).sort()).toEqual(fixtureZoneNames.filter((n) => n.endsWith(".io")))
      const typed = await run(call(Endpoints.listZones, { urlParams: { type: ["partial", "full"], per_page: 50 } }))
      expect(typed.info.total_count).toBe(46)
      const partial = await run(call(Endpoints.listZones, { urlParams: { type: ["partial"], per_page: 50 } }))
      expect(partial.items.map((z) => z.name)).toEqual(["acme-partners.net"])
    })

    it("collectPages yields every zone exactly once, reading each page once", async () => {
      const fetched: Array<number> = []
      const zones = await run(
        collectPages((page) => {
          fetched.push(page)
          return call(Endpoints.listZones, { urlParams: { page, per_page: 20 } })
        })
      )
      const names = Array.from(zones, (z) => z.name)
      expect(names).toHaveLength(46)
      expect(new Set(names).size).toBe(46)
      expect(names.sort()).toEqual(fixtureZoneNames)
      expect(fetched).toEqual([1, 2, 3])
    })

    it("collectPages over the 1250 DNS records of acme.com", async () => {
      const id = await acmeId()
      const records = await run(
        collectPages((page) =>
          call(Endpoints.listDnsRecords, { path: { zone_id: id }, urlParams: { page, per_page: 500 } })
        )
      )
      expect(new Set(Array.from(records, (r) => r.id)).size).toBe(1250)
    })

    it("findInPages stops at the page that holds the item, and says none after the last page", async () => {
      const fetched: Array<number> = []
      const page = (n: number) => {
        fetched.push(n)
        return call(Endpoints.listZones, { urlParams: { page: n, per_page: 20, order: "name" } })
      }
      const all = await run(
        collectPages((n) => call(Endpoints.listZones, { urlParams: { page: n, per_page: 20, order: "name" } }))
      )
      const onSecond = all[25]!.name
      const found = await run(findInPages(page, (z) => z.name === onSecond))
      expect(Option.getOrUndefined(found)?.name).toBe(onSecond)
      expect(fetched).toEqual([1, 2])
      fetched.length = 0
      const missing = await run(findInPages(page, (z) => z.name === "no-such-zone.example"))
      expect(Option.isNone(missing)).toBe(true)
      expect(fetched).toEqual([1, 2, 3])
    })

    it("an unknown zone fails with NotFound (code 7003)", async () => {
      const r = await run(
        Effect.either(call(Endpoints.getZone, { path: { zone_id: "0123456789abcdef0123456789abcdef" } }))
      )
      if (Either.isRight(r)) throw new Error("expected a failure")
      const e = r.left
      expect(e).toBeInstanceOf(NotFound)
      expect(e._tag).toBe("NotFound")
      expect(e.code).toBe(7003)
      expect(e.message).toContain("0123456789abcdef0123456789abcdef")
    })

    it("a bad parameter fails with InvalidInput naming it; catchTag recovers", async () => {
      const message = await run(
        call(Endpoints.listZones, { urlParams: { per_page: 4 } }).pipe(
          Effect.map(() => "no failure"),
          Effect.catchTag("InvalidInput", (e) => Effect.succeed(`${e.code}: ${e.message}`))
        )
      )
      expect(message).toMatch(/^1004: .*per_page.*5.*50.*4/)
      // A value the contract's type refuses, sent anyway: the platform names it too.
      // @ts-expect-error "up" is not a direction
      const dir = await run(Effect.flip(call(Endpoints.listZones, { urlParams: { direction: "up" } })))
      expect([dir._tag, dir.message]).toEqual(["InvalidInput", expect.stringContaining("direction")])
    })

    it("responds to invites; answering twice is InvalidInput", async () => {
      const invites = await run(call(Endpoints.listInvites))
      const hooli = invites.find((i) => i.organization_name === "Hooli Labs")!
      const answered = await run(
        call(Endpoints.respondInvite, { path: { id: hooli.id }, payload: { status: "rejected" } })
      )
      expect(answered.status).toBe("rejected")
      const again = await run(
        Effect.flip(call(Endpoints.respondInvite, { path: { id: hooli.id }, payload: { status: "accepted" } }))
      )
      expect(again._tag).toBe("InvalidInput")
      const accounts = await run(call(Endpoints.listAccounts))
      expect(accounts.items.map((a) => a.name)).toEqual(["Acme Corp", "Globex", "Initech"])
    })

    it("verifies its token", async () => {
      const v = await run(call(Endpoints.verifyToken))
      expect(v.status).toBe("active")
    })
  })

suite("in-process: clientLayer({ remote: false, persistTo })", () =>
  clientLayer({ remote: false, persistTo: tempDir() })
)
suite("over a socket: ClientConfig at serve()", () =>
  remoteLayer(served.baseUrl, { kind: "token", token: World.allToken })
)

describe("credentials over a socket", () => {
  const run = <A, E>(e: Effect.Effect<A, E, Client>, credentials: Credentials) =>
    Effect.runPromise(e.pipe(Effect.provide(remoteLayer(served.baseUrl, credentials))))

  it("an unknown token fails with InvalidCredentials (9109)", async () => {
    const e = await run(Effect.flip(call(Endpoints.listZones)), {
      kind: "token",
      token: "unknown-token-0000000000000000000000000"
    })
    expect([e._tag, e.code]).toEqual(["InvalidCredentials", 9109])
  })

  it("an unknown key fails with InvalidCredentials (9103)", async () => {
    const e = await run(Effect.flip(call(Endpoints.listAccounts)), {
      kind: "key",
      email: World.email,
      key: "0000000000000000000000000000000000000"
    })
    expect([e._tag, e.code]).toEqual(["InvalidCredentials", 9103])
  })

  it("the key pair works, and an account-scoped token gets Unauthorized on user endpoints", async () => {
    const accounts = await run(call(Endpoints.listAccounts), { kind: "key", email: World.email, key: World.apiKey })
    expect(accounts.info.total_count).toBe(3)
    const e = await run(Effect.flip(call(Endpoints.listInvites)), { kind: "token", token: World.acmeToken })
    expect([e._tag, e.code]).toEqual(["Unauthorized", 10000])
  })

  it("clientLayer --remote takes the base URL and token from the environment", async () => {
    const layer = clientLayer({
      remote: true,
      env: { CLOUDFLARE_API_BASE_URL: served.baseUrl, CLOUDFLARE_API_TOKEN: World.globexToken }
    })
    const zones = await Effect.runPromise(
      call(Endpoints.listZones, { urlParams: { per_page: 50 } }).pipe(Effect.provide(layer))
    )
    expect(new Set(zones.items.map((z) => z.account.name))).toEqual(new Set(["Globex"]))
  })

  it("clientLayer --remote without credentials fails with InvalidInput naming CLOUDFLARE_API_TOKEN", async () => {
    const layer = clientLayer({ remote: true, env: {} })
    const e = await Effect.runPromise(Effect.flip(call(Endpoints.listZones).pipe(Effect.provide(layer))))
    expect(e._tag).toBe("InvalidInput")
    expect(e.message).toContain("CLOUDFLARE_API_TOKEN")
  })
})

/** A scripted platform: answers the n-th request with `script(n)`; counts requests. */
const scripted = async (
  script: (n: number, req: http.IncomingMessage) => { status: number; headers?: Record<string, string>; body: string }
) => {
  let count = 0
  const server = http.createServer((req, res) => {
    const answer = script(++count, req)
    res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
    res.end(answer.body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/client/v4`,
    requests: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const zoneBody = JSON.stringify({
  result: {
    id: "0123456789abcdef0123456789abcdef",
    name: "scripted.example",
    account: { id: "a".repeat(32), name: "Scripted" }
  },
  success: true,
  errors: [],
  messages: []
})
const failBody = (code: number, message: string) =>
  JSON.stringify({ result: null, success: false, errors: [{ code, message }], messages: [] })
const token: Credentials = { kind: "token", token: World.allToken }

describe("retries against a scripted server", () => {
  const getZone = (baseUrl: string, maxRetries?: number) =>
    Effect.runPromise(
      Effect.either(call(Endpoints.getZone, { path: { zone_id: "0123456789abcdef0123456789abcdef" } })).pipe(
        Effect.provide(remoteLayer(baseUrl, token, maxRetries))
      )
    )

  it("429 with Retry-After: 0 twice, then success: succeeds after 3 requests", async () => {
    const s = await scripted((n) =>
      n <= 2
        ? { status: 429, headers: { "retry-after": "0" }, body: failBody(10013, "rate limited") }
        : { status: 200, body: zoneBody }
    )
    try {
      const r = await getZone(s.baseUrl)
      expect(Either.getOrThrow(r).name).toBe("scripted.example")
      expect(s.requests()).toBe(3)
    } finally {
      await s.close()
    }
  })

  it("honours Retry-After seconds", async () => {
    const s = await scripted((n) =>
      n === 1
        ? { status: 429, headers: { "retry-after": "1" }, body: failBody(10013, "slow down") }
        : { status: 200, body: zoneBody }
    )
    try {
      const started = Date.now()
      expect(Either.isRight(await getZone(s.baseUrl))).toBe(true)
      expect(Date.now() - started).toBeGreaterThanOrEqual(950)
      expect(s.requests()).toBe(2)
    } finally {
      await s.close()
    }
  })

  it("a 500 on GET is retried", async () => {
    const s = await scripted((n) =>
      n === 1 ? { status: 500, body: failBody(10001, "internal") } : { status: 200, body: zoneBody }
    )
    try {
      expect(Either.getOrThrow(await getZone(s.baseUrl)).id).toBe("0123456789abcdef0123456789abcdef")
      expect(s.requests()).toBe(2)
    } finally {
      await s.close()
    }
  })

  it("a 500 on PATCH is not retried", async () => {
    const s = await scripted(() => ({ status: 500, body: failBody(10001, "internal") }))
    try {
      const r = await Effect.runPromise(
        Effect.flip(call(Endpoints.respondInvite, { path: { id: "x" }, payload: { status: "accepted" } })).pipe(
          Effect.provide(remoteLayer(s.baseUrl, token))
        )
      )
      expect(r._tag).toBe("ApiError")
      expect(r._tag === "ApiError" && r.status).toBe(500)
      expect(s.requests()).toBe(1)
    } finally {
      await s.close()
    }
  })

  it("an undeclared failure comes back as an ApiError with its code; a declared one keeps its tag", async () => {
    const s = await scripted(() => ({ status: 409, body: failBody(10301, "the migration is finished") }))
    try {
      const zone = await getZone(s.baseUrl, 0)
      const e = Either.isLeft(zone) ? zone.left : undefined
      expect([e?._tag, e?.code, e?.message]).toEqual(["ApiError", 10301, "the migration is finished"])
      expect(e?._tag === "ApiError" && e.status).toBe(409)
      const config = await Effect.runPromise(
        Effect.flip(call(WafEndpoints.config, { path: { zone_id: "0123456789abcdef0123456789abcdef" } })).pipe(
          Effect.provide(remoteLayer(s.baseUrl, token, 0))
        )
      )
      expect([config._tag, config.code]).toEqual(["MigrationFinished", 10301])
    } finally {
      await s.close()
    }
  })

  it("a 429 that never ends surfaces as RateLimited after maxRetries", async () => {
    const s = await scripted(() => ({
      status: 429,
      headers: { "retry-after": "0" },
      body: failBody(10013, "rate limited")
    }))
    try {
      const r = await getZone(s.baseUrl, 2)
      const e = Either.isLeft(r) ? r.left : undefined
      expect(e?._tag).toBe("RateLimited")
      expect(e?._tag === "RateLimited" && e.retryAfter).toBe(0)
      expect(e?.code).toBe(10013)
      expect(s.requests()).toBe(3)
    } finally {
      await s.close()
    }
  })

  it("a body that is not JSON is an ApiError with the status, not a crash", async () => {
    const s = await scripted(() => ({
      status: 502,
      headers: { "content-type": "text/html" },
      body: "<html>bad gateway</html>"
    }))
    try {
      const r = await getZone(s.baseUrl, 0)
      const e = Either.isLeft(r) ? r.left : undefined
      expect(e?._tag).toBe("ApiError")
      expect(e?._tag === "ApiError" && e.status).toBe(502)
      expect(s.requests()).toBe(1)
    } finally {
      await s.close()
    }
  })
})
