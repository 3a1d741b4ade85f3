/**
 * The remote client's time limits (src/api/timed-fetch.ts) as a caller of the client sees them: a
 * write that got no answer fails with the tagged error `NoAnswer` (method, path, seconds), which a
 * caller catches by its tag (the migrations journal it as "sent, no answer"); a read that got none
 * is tried again; an answer that arrives in time is read whole, however slowly the body came.
 */
import { Effect, Layer } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call } from "../../src/api/client.js"
import { KvEndpoints } from "../../src/api/contract-kv.js"
import { clientLayerWith } from "../../src/api/target.js"
import { NoAnswer } from "../../src/domain/errors.js"

const requests: Array<string> = []
let server: http.Server
let base: string
beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      requests.push(`${req.method} ${req.url}`)
      // The namespace "slow" answers in pieces, each well within the limit; every other request is held.
      if (!req.url!.includes("/namespaces/slow")) return
      res.writeHead(200, { "content-type": "application/json" })
      const body = JSON.stringify({ success: true, errors: [], messages: [], result: { id: "slow", title: "t" } })
      let at = 0
      const more = setInterval(() => {
        res.write(body.slice(at, at + 10))
        at += 10
        if (at >= body.length) {
          clearInterval(more)
          res.end()
        }
      }, 150)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const remote = (timeout: number) =>
  clientLayerWith({ remote: true, timeout, env: { CLOUDFLARE_API_BASE_URL: base, CLOUDFLARE_API_TOKEN: "t" } }, () =>
    Layer.die("no local platform in these tests")
  )

describe("a remote platform that does not answer", () => {
  it("a write: NoAnswer with its method, path and seconds, caught by its tag, sent once", async () => {
    requests.length = 0
    const caught = await Effect.runPromise(
      call(KvEndpoints.deleteNamespace, { path: { account_id: "acc", namespace_id: "ns1" } }).pipe(
        Effect.as(undefined),
        Effect.catchTag("NoAnswer", (e) => Effect.succeed(e)),
        Effect.provide(remote(1))
      )
    )
    expect(caught).toBeInstanceOf(NoAnswer)
    expect({ method: caught!.method, path: caught!.path, seconds: caught!.seconds, message: caught!.message }).toEqual({
      method: "DELETE",
      path: "/accounts/acc/storage/kv/namespaces/ns1",
      seconds: 1,
      message: "DELETE /accounts/acc/storage/kv/namespaces/ns1: sent, no answer in 1 s: it may have been applied"
    })
    expect(requests).toEqual(["DELETE /client/v4/accounts/acc/storage/kv/namespaces/ns1"])
  })

  it("a read: tried again (1 + 3 retries), then NoAnswer saying nothing of a write", async () => {
    requests.length = 0
    const e = await Effect.runPromise(
      Effect.flip(
        call(KvEndpoints.getNamespace, { path: { account_id: "acc", namespace_id: "ns2" } }).pipe(
          Effect.provide(remote(1))
        )
      )
    )
    expect(e).toBeInstanceOf(NoAnswer)
    expect(e.message).toBe("GET /accounts/acc/storage/kv/namespaces/ns2: no answer in 1 s")
    expect(requests).toHaveLength(4)
  })

  it("an answer whose body comes slowly, each piece within the limit, is read whole", async () => {
    const ns = await Effect.runPromise(
      call(KvEndpoints.getNamespace, { path: { account_id: "acc", namespace_id: "slow" } }).pipe(
        Effect.provide(remote(1))
      )
    )
    expect(ns).toMatchObject({ id: "slow", title: "t" })
  })
})
