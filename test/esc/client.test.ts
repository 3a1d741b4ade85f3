/**
 * The ESC service over the v4 client: in-process (local mode) and over a socket (`--remote`
 * against the served platform), its typed errors, the scope rules of a test request end to end,
 * the platform's clock, and the bare answers the platform's docs show (a scripted HTTP server).
 */
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import bareSecret from "../../fixtures/esc/esc-zone-get-with-secret.json" with { type: "json" }
import { ClientConfig } from "../../src/api/client.js"
import { clientLayer } from "../../src/cli/environment.js"
import { fixedClock } from "../../src/server/clock.js"
import {
  accountOf,
  accountTarget,
  disableAlways,
  enableEsc,
  getEsc,
  setSecret,
  testRequest,
  zoneTarget,
  type EscTarget
} from "../../src/services/esc-service.js"
import { startPlatform, tempDir, World, type Platform } from "../helpers/platform.js"

type Client = HttpClient.HttpClient | ClientConfig

const June2024 = "2024-06-01T12:00:00Z"

let served: Platform
beforeAll(async () => {
  served = await startPlatform(undefined, { clock: fixedClock(new Date(June2024)) })
})
afterAll(async () => {
  await served?.close()
})

const suite = (label: string, makeLayer: () => Layer.Layer<Client, unknown>) =>
  describe(label, () => {
    let rt: ManagedRuntime.ManagedRuntime<Client, unknown>
    const run = <A, E>(e: Effect.Effect<A, E, Client>) => rt.runPromise(e)
    const fail = <A, E>(e: Effect.Effect<A, E, Client>) =>
      rt
        .runPromise(Effect.either(e))
        .then((r) => (Either.isLeft(r) ? r.left : Promise.reject(new Error("expected a failure"))))
    beforeAll(() => {
      rt = ManagedRuntime.make(makeLayer())
    })
    afterAll(async () => {
      await rt?.dispose()
    })

    it("finds zones and accounts by name or id", async () => {
      const zone = await run(zoneTarget("ACME.com"))
      expect(zone).toMatchObject({ kind: "zone", name: "acme.com", account: { name: "Acme Corp" } })
      expect(await run(zoneTarget(zone.id))).toEqual(zone)
      const account = await run(accountTarget("acme corp"))
      expect(account).toEqual({ kind: "account", id: zone.account.id, name: "Acme Corp" })
      expect(await run(accountTarget(account.id))).toEqual(account)
    })

    it("an unknown zone or account is a NotFound naming it", async () => {
      expect(await fail(zoneTarget("nope.example"))).toMatchObject({
        _tag: "NotFound",
        message: "no zone named nope.example is visible to these credentials"
      })
      expect(await fail(accountTarget("Umbrella Partners"))).toMatchObject({
        _tag: "NotFound",
        message: 'no account named "Umbrella Partners" is visible to these credentials'
      })
      expect(await fail(accountTarget("f".repeat(32)))).toMatchObject({ _tag: "NotFound", code: 7003 })
    })

    it("reads the removal status on the platform's clock, not this machine's", async () => {
      const s = await run(Effect.flatMap(zoneTarget("acme.com"), getEsc))
      expect(s.setting).toEqual({ always: false, with_secret: "acme-esc-preview-7Qx2" })
      expect(s.removal).toMatchObject({ removed: false, days: 213, relative: "in 6 months 30 days" })
      expect(s.removal.now.slice(0, 10)).toBe("2024-06-01")
    })

    it("a bad secret is an InvalidInput before anything is sent", async () => {
      const zone = await run(zoneTarget("acme.net"))
      const e = await fail(setSecret(zone, "x".repeat(101)))
      expect(e).toMatchObject({ _tag: "InvalidInput", message: "secret must be at most 100 characters, got 101" })
      expect((await run(getEsc(zone))).setting).toEqual({ always: false, with_secret: null })
    })

    it("disable, secret and enable walk the state table; --only undoes one part", async () => {
      const zone = await run(zoneTarget("acme.net"))
      expect((await run(disableAlways(zone))).setting).toEqual({ always: true, with_secret: null })
      expect((await run(setSecret(zone, "net-Key-42"))).setting).toEqual({ always: true, with_secret: "net-Key-42" })
      const onlyAlways = await run(enableEsc(zone, "always"))
      expect(onlyAlways.before).toEqual({ always: true, with_secret: "net-Key-42" })
      expect(onlyAlways.status.setting).toEqual({ always: false, with_secret: "net-Key-42" })
      expect((await run(enableEsc(zone, "always"))).status.setting).toEqual({
        always: false,
        with_secret: "net-Key-42"
      })
      await run(disableAlways(zone))
      expect((await run(enableEsc(zone, "secret"))).status.setting).toEqual({ always: true, with_secret: null })
      await run(setSecret(zone, "net-Key-43"))
      const all = await run(enableEsc(zone))
      expect(all.before).toEqual({ always: true, with_secret: "net-Key-43" })
      expect(all.status.setting).toEqual({ always: false, with_secret: null })
      expect((await run(enableEsc(zone, "secret"))).status.setting).toEqual({ always: false, with_secret: null })
    })

    it("a test request follows the scope rules: a zone's secret works only on that zone", async () => {
      const [org, io] = await run(Effect.all([zoneTarget("acme.org"), zoneTarget("acme.io")]))
      await run(setSecret(org, "org-only-Key"))
      const onOrg = await run(testRequest(org, "lang=en; disable_esc=org-only-Key"))
      expect(onOrg.decision).toMatchObject({ escRuns: false, decidedBy: "zone-secret" })
      expect(onOrg.cookie).toBe("lang=en; disable_esc=or…ey")
      const onIo = await run(testRequest(io, "lang=en; disable_esc=org-only-Key"))
      expect(onIo.decision).toMatchObject({ escRuns: true, decidedBy: null, escCookies: 1 })
      expect((await run(testRequest(org, "lang=en"))).decision.escRuns).toBe(true)
      await run(enableEsc(org))
    })

    it("an account's secret and always work on every zone of the account, and on no other account's zone", async () => {
      const [dev, globex] = await run(Effect.all([zoneTarget("acme.dev"), zoneTarget("globex.net")]))
      const acme = accountOf(dev)
      await run(setSecret(acme, "acme-Wide-Key"))
      expect((await run(testRequest(dev, "disable_esc=acme-Wide-Key"))).decision).toMatchObject({
        escRuns: false,
        decidedBy: "account-secret"
      })
      expect((await run(testRequest(globex, "disable_esc=acme-Wide-Key"))).decision.escRuns).toBe(true)
      await run(disableAlways(acme))
      const t = await run(testRequest(dev, undefined))
      expect(t.decision).toMatchObject({ escRuns: false, decidedBy: "account-always" })
      expect(t.accountSetting).toEqual({ always: true, with_secret: "acme-Wide-Key" })
      expect(t.cookie).toBeNull()
      expect((await run(testRequest(globex, undefined))).decision.escRuns).toBe(true)
      await run(enableEsc(acme))
      expect((await run(testRequest(dev, "disable_esc=acme-Wide-Key"))).decision.escRuns).toBe(true)
    })
  })

suite("in-process (local mode)", () => {
  process.env.EDGECTL_PLATFORM_NOW = June2024
  return clientLayer({ remote: false, persistTo: tempDir() })
})

suite("over a socket (--remote against the served platform)", () =>
  clientLayer({ remote: true, env: { CLOUDFLARE_API_BASE_URL: served.baseUrl, CLOUDFLARE_API_TOKEN: World.allToken } })
)

describe("the platform's documented answers (bare objects, no POST body)", () => {
  let server: http.Server
  let baseUrl: string
  const state = { always: false, with_secret: bareSecret.with_secret as string | null }
  const seen: Array<string> = []
  beforeAll(async () => {
    // Answers as the docs show them: GET a bare object; POST and DELETE an envelope with no result.
    server = http.createServer((req, res) => {
      let body = ""
      req.on("data", (c) => (body += c))
      req.on("end", () => {
        seen.push(`${req.method} ${req.url}`)
        if (req.method === "POST")
          Object.assign(
            state,
            JSON.parse(body).always ? { always: true } : { with_secret: JSON.parse(body).with_secret }
          )
        if (req.method === "DELETE") Object.assign(state, { always: false, with_secret: null })
        const bare = {
          ...(state.always ? { always: true } : {}),
          ...(state.with_secret ? { with_secret: state.with_secret } : {})
        }
        res.writeHead(200, { "content-type": "application/json", date: "Tue, 01 Oct 2024 00:00:00 GMT" })
        res.end(JSON.stringify(req.method === "GET" ? bare : { result: null, success: true, errors: [], messages: [] }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it("reads a bare GET answer and reads the setting again when a change's answer does not show it", async () => {
    const layer = Layer.merge(
      Layer.succeed(ClientConfig, { baseUrl, credentials: { kind: "token", token: "t".repeat(40) }, target: "remote" }),
      FetchHttpClient.layer
    )
    const zone: EscTarget = {
      kind: "zone",
      id: "a".repeat(32),
      name: "example.com",
      account: { id: "b".repeat(32), name: "Example" }
    }
    const rt = ManagedRuntime.make(layer)
    try {
      const s = await rt.runPromise(getEsc(zone))
      expect(s.setting).toEqual({ always: false, with_secret: "MySecretString321#" })
      expect(s.removal).toMatchObject({ removed: false, days: 92 })
      expect((await rt.runPromise(disableAlways(zone))).setting).toEqual({
        always: true,
        with_secret: "MySecretString321#"
      })
      expect(seen.slice(-2)).toEqual([
        `POST /client/v4/zones/${zone.id}/disable_esc`,
        `GET /client/v4/zones/${zone.id}/disable_esc`
      ])
      // DELETE's answer (no result) reads as nothing set, which is what DELETE does: no second read.
      const before = seen.length
      expect((await rt.runPromise(enableEsc(zone))).status.setting).toEqual({ always: false, with_secret: null })
      expect(seen.slice(before)).toEqual([
        `GET /client/v4/zones/${zone.id}/disable_esc`,
        `DELETE /client/v4/zones/${zone.id}/disable_esc`
      ])
    } finally {
      await rt.dispose()
    }
  })
})
