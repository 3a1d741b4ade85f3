/**
 * The one list of fast routes (src/server/door/fast-routes.ts). The in-process transport tries only
 * the routes of a request's part, so a route whose `part` does not hold the paths it answers would
 * never be asked (its reads would go to the app: the same bytes, slower, and silently). Every route
 * is made over a real store and asked a read of each kind; each read must be answered by exactly the
 * routes of its part, and by one at least. What a route answers, byte for byte against the app, is
 * test/server/route-table.test.ts's.
 */
import { HttpClientRequest } from "@effect/platform"
import { Effect, Exit, Scope } from "effect"
import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BasePath } from "../../src/api/contract.js"
import { LocalBase } from "../../src/api/target.js"
import { fastRoutes, type FastRoute } from "../../src/server/door/fast-routes.js"
import { makeLocalClient, makeLocalHandler } from "../../src/server/door/local-transport.js"
import { partOf } from "../../src/server/door/parts.js"
import { LocalKvOptions } from "../../src/server/kv-options.js"
import { storeFile, storeServices } from "../../src/server/platform.js"
import { tempDir, World } from "../helpers/platform.js"

const hexId = (...parts: Array<string>) => createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 32)
const ACME = hexId("zone", "acme.com")
const file = storeFile(tempDir())
const scope = Effect.runSync(Scope.make())
let routes: ReadonlyArray<FastRoute> = []

const ask = (route: FastRoute, path: string) =>
  route({ method: "GET", url: `${BasePath}${path}`, headers: { authorization: `Bearer ${World.allToken}` } })

beforeAll(async () => {
  const services = await Effect.runPromise(Scope.extend(storeServices(file, undefined, { kv: LocalKvOptions }), scope))
  routes = await Promise.all(fastRoutes.map((entry) => entry.make(services)))
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

describe("the fast routes", () => {
  it("are named once each", () => {
    expect(new Set(fastRoutes.map((r) => r.name)).size).toBe(fastRoutes.length)
  })

  it("each answer only paths of the part they are listed under", async () => {
    const table = routes[fastRoutes.findIndex((r) => r.part === "core")]!
    const accounts = JSON.parse(String(ask(table, "/accounts?per_page=50"))) as { result: Array<{ id: string }> }
    const account = accounts.result[0]!.id
    const namespace = `/accounts/${account}/storage/kv/namespaces/fast-routes-ns`
    // A value to read, written through the in-process platform (local mode: the namespace is implicit).
    const local = makeLocalHandler(file, { routeTable: false })
    try {
      const put = HttpClientRequest.put(`${LocalBase.replace(BasePath, "")}${BasePath}${namespace}/values/k`, {
        headers: { authorization: `Bearer ${World.allToken}` }
      }).pipe(HttpClientRequest.bodyUint8Array(new TextEncoder().encode("v")))
      expect((await Effect.runPromise(makeLocalClient(local.handle).execute(put))).status).toBe(200)
    } finally {
      await local.dispose()
    }
    const reads = [
      `/zones/${ACME}`,
      `/zones/${ACME}/dns_records?per_page=5`,
      "/zones?per_page=5",
      "/accounts",
      `${namespace}/values/k`,
      `${namespace}/entries?limit=10`,
      `/zones/${ACME}/firewall/rules`
    ]
    const answered = new Set<number>()
    for (const path of reads) {
      const by = routes.flatMap((route, i) => (ask(route, path) === undefined ? [] : [i]))
      expect(by.length, path).toBeGreaterThan(0)
      for (const i of by) {
        expect(fastRoutes[i]!.part, `${fastRoutes[i]!.name}: ${path}`).toBe(partOf(path))
        answered.add(i)
      }
    }
    // Every route of the list was asked something it answers.
    expect(answered.size).toBe(fastRoutes.length)
  })
})
