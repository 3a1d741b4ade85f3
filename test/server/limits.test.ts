/**
 * Hostile and oversized request bodies against the served platform: refused with the platform's
 * limit, as soon as it is known, in the envelope, with nothing written and the server still answering.
 */
import * as http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hexId } from "../../src/domain/ids.js"
import { assertEnvelope, firstError, request, startPlatform, World, type Platform } from "../helpers/platform.js"

let p: Platform
const acme = hexId("account", "Acme Corp")
let zone = ""
const zoneId = () => zone
const kv = `/accounts/${acme}/storage/kv/namespaces`

beforeAll(async () => {
  p = await startPlatform()
  zone = (await request(p.baseUrl, "/zones")).body.result[0].id as string
})
afterAll(async () => {
  await p?.close()
})

interface Raw {
  readonly status: number
  readonly body: { success: boolean; errors: Array<{ code: number; message: string }> }
  /** Bytes the client had sent when the answer arrived. */
  readonly sent: number
}

/**
 * A request whose body is written in `chunk`-sized pieces (chunked unless `contentLength` is given)
 * until `total` bytes or until the server answers, whichever comes first.
 */
const streamed = (
  method: string,
  path: string,
  o: { contentLength?: number; total: number; chunk: Buffer; type?: string }
) =>
  new Promise<Raw>((resolve, reject) => {
    const url = new URL(p.baseUrl + path)
    let sent = 0
    let answered = false
    const headers: Record<string, string | number> = {
      authorization: `Bearer ${World.allToken}`,
      "content-type": o.type ?? "application/json"
    }
    if (o.contentLength !== undefined) headers["content-length"] = o.contentLength
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers },
      (res) => {
        answered = true
        const parts: Array<Buffer> = []
        res.on("data", (d: Buffer) => parts.push(d))
        res.on("end", () => {
          resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString("utf8")), sent })
          req.destroy()
        })
      }
    )
    req.on("error", (e) => {
      if (!answered) reject(e)
    })
    const pump = () => {
      while (!answered && sent < o.total) {
        sent += o.chunk.length
        if (!req.write(o.chunk)) return void req.once("drain", pump)
      }
      if (!answered && sent >= o.total && o.contentLength === undefined) req.end()
    }
    pump()
  })

const filters = () =>
  request(p.baseUrl, `/zones/${zoneId()}/filters?per_page=100`).then((r) => JSON.stringify(r.body.result))

describe("body size limits", () => {
  it("refuses a JSON body whose Content-Length is over the limit before reading it (413)", async () => {
    const r = await streamed("POST", `/zones/${zoneId()}/filters`, {
      contentLength: 600 * 1024 * 1024,
      total: 64 * 1024,
      chunk: Buffer.alloc(16 * 1024, 32)
    })
    expect(r.status).toBe(413)
    expect(r.body.success).toBe(false)
    expect(r.body.errors[0]!.message).toBe(
      "the request body is 629145600 bytes (600.0 MiB), the limit is 104857600 bytes (100.0 MiB)"
    )
  })

  it("refuses a chunked JSON body once it crosses the limit, without reading the rest", async () => {
    const before = await filters()
    const r = await streamed("POST", `/zones/${zoneId()}/filters`, {
      total: 300 * 1024 * 1024,
      chunk: Buffer.alloc(1024 * 1024, 32)
    })
    expect(r.status).toBe(413)
    expect(r.body.errors[0]!.message).toContain("the limit of 104857600 bytes")
    expect(r.sent).toBeLessThan(200 * 1024 * 1024)
    expect(await filters()).toBe(before)
  })

  it("refuses a chunked KV value once it crosses 25 MiB, stating the exact limit", async () => {
    const ns = (await request(p.baseUrl, kv, { method: "POST", body: { title: "limits" } })).body.result.id as string
    const r = await streamed("PUT", `${kv}/${ns}/values/big`, {
      total: 40 * 1024 * 1024,
      chunk: Buffer.alloc(1024 * 1024, 97),
      type: "application/octet-stream"
    })
    // The KV value limit keeps the status of its other refusals (from Content-Length, in bulk).
    expect(r.status).toBe(400)
    expect(r.body.errors[0]!.message).toMatch(/the limit is 26214400 bytes/)
    expect(r.sent).toBeLessThan(35 * 1024 * 1024)
    const got = await fetch(`${p.baseUrl}${kv}/${ns}/values/big`, {
      headers: { authorization: `Bearer ${World.allToken}` }
    })
    expect(got.status).toBe(404)
  })
})

describe("large bodies", () => {
  it("stores a 20 MB bulk while other clients keep being answered", async () => {
    const ns = (await request(p.baseUrl, kv, { method: "POST", body: { title: "large" } })).body.result.id as string
    const body = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ key: `k${i}`, value: "v".repeat(10_000) })))
    const bulk = request(p.baseUrl, `${kv}/${ns}/bulk`, { method: "PUT", body })
    const others = await Promise.all(Array.from({ length: 20 }, () => request(p.baseUrl, `/zones/${zoneId()}`)))
    expect(others.map((r) => r.status)).toEqual(others.map(() => 200))
    expect((await bulk).status).toBe(200)
    const keys = await request(p.baseUrl, `${kv}/${ns}/keys?limit=10`)
    expect(keys.body.result_info.count).toBe(10)
  })
})

describe("hostile bodies", () => {
  const deepArray = "[".repeat(6000) + "]".repeat(6000)
  const deepObject = '{"a":'.repeat(6000) + "1" + "}".repeat(6000)

  it("answers JSON nested 6,000 levels with a 400 naming the nesting limit, writing nothing", async () => {
    const before = await filters()
    for (const body of [deepArray, deepObject, `[{"expression":"http.host eq \\"a\\"","description":${deepArray}}]`]) {
      const r = await request(p.baseUrl, `/zones/${zoneId()}/filters`, { method: "POST", body })
      assertEnvelope(r, false)
      expect(r.status).toBe(400)
      expect(firstError(r).message).toBe(
        "the JSON body is nested more than 100 levels deep (arrays and objects), the limit is 100"
      )
    }
    expect(await filters()).toBe(before)
    const invite = World.invites[0] as { id?: string } | undefined
    const patched = await request(p.baseUrl, `/user/invites/${invite?.id ?? "x"}`, {
      method: "PATCH",
      body: deepObject
    })
    expect(patched.status).toBe(400)
    expect(firstError(patched).message).toContain("nested more than 100 levels")
    const ns = await request(p.baseUrl, kv, { method: "POST", body: deepObject })
    expect(ns.status).toBe(400)
  })

  it("answers a deep KV bulk body and deep metadata with a 400", async () => {
    const ns = (await request(p.baseUrl, kv, { method: "POST", body: { title: "deep" } })).body.result.id as string
    const bulk = await request(p.baseUrl, `${kv}/${ns}/bulk`, {
      method: "PUT",
      body: `[{"key":"k","value":"v","metadata":${deepObject}}]`
    })
    expect(bulk.status).toBe(400)
    expect(firstError(bulk).message).toContain("nested more than 100 levels")
    const get = await request(p.baseUrl, `${kv}/${ns}/bulk/get`, {
      method: "POST",
      body: `{"keys":["k"],"x":${deepObject}}`,
      headers: { "content-type": "text/plain" }
    })
    expect(get.status).toBe(400)
    expect(firstError(get).message).toContain("nested more than 100 levels")
    const keys = await request(p.baseUrl, `${kv}/${ns}/keys`)
    expect(keys.body.result).toEqual([])
  })

  it("answers a multipart content type without a boundary with a 400, on JSON and KV routes", async () => {
    const before = await filters()
    const ns = (await request(p.baseUrl, kv, { method: "POST", body: { title: "mp" } })).body.result.id as string
    for (const path of [`/zones/${zoneId()}/filters`, `${kv}/${ns}/values/k`]) {
      const r = await request(p.baseUrl, path, {
        method: path.includes("values") ? "PUT" : "POST",
        body: "[]",
        headers: { "content-type": "multipart/form-data" }
      })
      assertEnvelope(r, false)
      expect(r.status).toBe(400)
      expect(firstError(r).message).toContain("has no boundary parameter")
    }
    expect(await filters()).toBe(before)
    const alive = await request(p.baseUrl, `/zones/${zoneId()}`)
    expect(alive.status).toBe(200)
  })
})
