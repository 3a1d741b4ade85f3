/**
 * Local mode builds the embedded API in parts (src/server/door/parts.ts, one table). The table must
 * send every endpoint of the contract to the part whose contract holds it, every group of the whole
 * API must be in one part, and an in-process client over the parts must answer exactly as the whole
 * API served on a socket does.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BasePath, V4Api } from "../../src/api/contract.js"
import { LocalBase, LocalToken } from "../../src/api/target.js"
import { makeLocalClient, makeLocalHandler } from "../../src/server/door/local-transport.js"
import { loadPart, partNames, partOf, type PartName } from "../../src/server/door/parts.js"
import { storeFile } from "../../src/server/platform.js"
import { request, startPlatform, tempDir, type Platform } from "../helpers/platform.js"

interface Described {
  readonly identifier: string
  readonly endpoints: Record<string, { readonly method: string; readonly path: string }>
}
const endpoints = Object.values(V4Api().groups as unknown as Record<string, Described>).flatMap((group) =>
  Object.values(group.endpoints).map((e) => ({ group: group.identifier, method: e.method, path: e.path }))
)

/** Each group of the contract and the part whose contract holds it, read from the parts' own APIs. */
const partOfGroup: Record<string, PartName> = {}
beforeAll(async () => {
  for (const name of partNames) {
    const { api } = await loadPart(name)
    for (const group of Object.values((api as unknown as { groups: Record<string, Described> }).groups)) {
      expect(partOfGroup[group.identifier], `the group ${group.identifier} in two parts`).toBeUndefined()
      partOfGroup[group.identifier] = name
    }
  }
})

describe("partOf", () => {
  it("has every group of the whole API in a part, and no other", () => {
    expect(new Set(Object.keys(partOfGroup))).toEqual(new Set(endpoints.map((e) => e.group)))
    expect(Object.keys(partOfGroup).length).toBeGreaterThanOrEqual(partNames.length)
  })

  it("sends every endpoint of the contract to the part of its group, with or without the base path and a query", () => {
    expect(endpoints.length).toBeGreaterThan(60)
    for (const e of endpoints) {
      const path = e.path
        .replace(BasePath, "")
        .replace(/:(\w+)/g, (_: string, name: string) => `${name}-0123456789abcdef`)
      const expected = partOfGroup[e.group]
      expect(partOf(`${BasePath}${path}`), `${e.method} ${e.path}`).toBe(expected)
      expect(partOf(path), `${e.method} ${e.path}`).toBe(expected)
      expect(partOf(`${BasePath}${path}?page=2&name=a/b`), `${e.method} ${e.path}`).toBe(expected)
    }
  })

  it("gives every path to one part only: all methods of a path are in the same group", () => {
    const byPath = new Map<string, Set<string>>()
    for (const e of endpoints) byPath.set(e.path, (byPath.get(e.path) ?? new Set()).add(e.group))
    for (const [path, groups] of byPath) expect(new Set([...groups].map((g) => partOfGroup[g])).size, path).toBe(1)
  })

  it("sends paths of no part to the core", () => {
    for (const p of [
      "/nope",
      "/client/v4",
      "/client/v4/",
      "/client/v4/zones/x/unknown",
      "/accounts/x/storage",
      "/zones/x/firewall"
    ]) {
      expect(partOf(p), p).toBe("core")
    }
  })
})

describe("the in-process platform in parts answers as the whole API does", () => {
  let served: Platform
  let local: ReturnType<typeof makeLocalHandler>
  beforeAll(async () => {
    served = await startPlatform()
    // Its own store: the same demo world, seeded on the first request.
    local = makeLocalHandler(storeFile(tempDir()))
  })
  afterAll(async () => {
    await local?.dispose()
    await served?.close()
  })

  const viaLocal = async (path: string) => {
    const client = makeLocalClient(local.handle)
    const response = await Effect.runPromise(
      client.get(`${LocalBase.replace(BasePath, "")}${BasePath}${path}`, {
        headers: { authorization: `Bearer ${LocalToken}` }
      })
    )
    const text = await Effect.runPromise(response.text)
    return { status: response.status, body: JSON.parse(text) as unknown }
  }

  it("a request of each part, an unknown route and a bad parameter", async () => {
    // Served: the whole API (app.ts), built from every part of the table.
    const zones = (
      await request<{ result: Array<{ id: string; name: string; account: { id: string } }> }>(
        served.baseUrl,
        "/zones?name=acme.com",
        { token: LocalToken }
      )
    ).body.result
    const zone = zones[0]!
    const paths = [
      "/zones?per_page=5",
      `/zones/${zone.id}`,
      `/zones/${zone.id}/dns_records?per_page=3`,
      "/user/invites",
      `/zones/${zone.id}/disable_esc`,
      `/accounts/${zone.account.id}/storage/kv/namespaces`,
      `/zones/${zone.id}/filters`,
      `/zones/${zone.id}/firewall/rules`,
      `/zones/${zone.id}/firewall/waf/packages`,
      `/zones/${zone.id}/waf_migration/status`,
      `/zones/${zone.id}/rulesets`,
      `/zones/${zone.id}/firewall/lockdowns`,
      `/zones/${zone.id}/rate_limits`,
      "/zones/0123/nothing-here",
      "/nope",
      "/zones?per_page=500"
    ]
    expect(new Set(paths.map((p) => partOf(p)))).toEqual(new Set(partNames))
    for (const path of paths) {
      const [l, s] = await Promise.all([viaLocal(path), request(served.baseUrl, path, { token: LocalToken })])
      expect(l.status, path).toBe(s.status)
      expect(l.body, path).toEqual(s.body)
    }
  })
})
