/**
 * KV bulk bodies read as they arrive by the served platform: values that span many chunks, bulks
 * whose checked entries outgrow memory (kept in a temporary file until the transaction), and the
 * same all-or-nothing answers and errors as a body read whole.
 */
import * as http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hexId } from "../../src/domain/ids.js"
import { firstError, request, startPlatform, World, type Platform } from "../helpers/platform.js"

let p: Platform
const acme = hexId("account", "Acme Corp")
const kv = `/accounts/${acme}/storage/kv/namespaces`
const auth = { authorization: `Bearer ${World.allToken}` }

beforeAll(async () => {
  p = await startPlatform()
})
afterAll(async () => {
  await p?.close()
})

const newNamespace = async (title: string) =>
  (await request(p.baseUrl, kv, { method: "POST", body: { title } })).body.result.id as string

/** A chunked request whose body is written `chunk` bytes at a time; the answer's status and JSON. */
const chunked = (method: string, path: string, body: Buffer, chunk = 64 * 1024) =>
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const url = new URL(p.baseUrl + path)
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        headers: { ...auth, "content-type": "application/json" }
      },
      (res) => {
        const parts: Array<Buffer> = []
        res.on("data", (d: Buffer) => parts.push(d))
        res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString()) }))
      }
    )
    req.on("error", reject)
    let at = 0
    const pump = () => {
      while (at < body.length) {
        const piece = body.subarray(at, at + chunk)
        at += piece.length
        if (!req.write(piece)) return void req.once("drain", pump)
      }
      req.end()
    }
    pump()
  })

const value = (ns: string, key: string) =>
  fetch(`${p.baseUrl}${kv}/${ns}/values/${encodeURIComponent(key)}`, { headers: auth }).then(async (r) => ({
    status: r.status,
    bytes: Buffer.from(await r.arrayBuffer())
  }))

const keyCount = async (ns: string) => {
  let count = 0
  let cursor = ""
  do {
    const r = await request(p.baseUrl, `${kv}/${ns}/keys?limit=1000${cursor ? `&cursor=${cursor}` : ""}`)
    count += r.body.result.length
    cursor = r.body.result_info.cursor
  } while (cursor !== "")
  return count
}

describe("bulk bodies read as they arrive", () => {
  it("stores a 25 MiB value that arrives in 64 KiB pieces, with the entries around it", async () => {
    const ns = await newNamespace("stream-big")
    const big = "é".repeat(12 * 1024 * 1024) + "xy"
    const body = Buffer.from(
      JSON.stringify([
        { key: "before", value: "b" },
        { key: "big", value: big },
        { key: "after", value: "a" }
      ])
    )
    const r = await chunked("PUT", `${kv}/${ns}/bulk`, body)
    expect(r.body.result).toEqual({ successful_key_count: 3, unsuccessful_keys: [] })
    const got = await value(ns, "big")
    expect(got.bytes.length).toBe(Buffer.byteLength(big))
    expect(got.bytes.equals(Buffer.from(big))).toBe(true)
    expect((await value(ns, "after")).bytes.toString()).toBe("a")
  })

  it("writes nothing when the last of 3,000 entries (more than memory keeps) is invalid", async () => {
    const ns = await newNamespace("stream-bad-last")
    await request(p.baseUrl, `${kv}/${ns}/bulk`, { method: "PUT", body: [{ key: "k7", value: "old" }] })
    const entries: Array<Record<string, unknown>> = Array.from({ length: 3000 }, (_, i) => ({
      key: `k${i}`,
      value: "v".repeat(10_000)
    }))
    entries.push({ key: "late", value: "x", expiration_ttl: 30 })
    const r = await chunked("PUT", `${kv}/${ns}/bulk`, Buffer.from(JSON.stringify(entries)))
    expect(r.status).toBe(400)
    expect(r.body.errors).toMatchObject([
      {
        code: 1004,
        message:
          '1 invalid entry, nothing was written: entry 3000 (key "late"): expiration_ttl is 30 seconds, the minimum is 60'
      }
    ])
    expect(await keyCount(ns)).toBe(1)
    expect((await value(ns, "k7")).bytes.toString()).toBe("old")
    // The same bulk without the bad entry is stored whole, in one request.
    const ok = await chunked("PUT", `${kv}/${ns}/bulk`, Buffer.from(JSON.stringify(entries.slice(0, 3000))))
    expect(ok.body.result).toEqual({ successful_key_count: 3000, unsuccessful_keys: [] })
    expect(await keyCount(ns)).toBe(3000)
    expect((await value(ns, "k2999")).bytes.length).toBe(10_000)
  })

  it("says where a body is not JSON, late in a large body too, writing nothing", async () => {
    const ns = await newNamespace("stream-syntax")
    const notJson = await request(p.baseUrl, `${kv}/${ns}/bulk`, { method: "PUT", body: "notjson" })
    expect(firstError(notJson).message).toBe(
      'invalid request body: not JSON ("notjson" is not a JSON value; expected a JSON array, at byte 0)'
    )
    const good = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ key: `k${i}`, value: "v".repeat(1000) })))
    const late = Buffer.from(`${good.slice(0, -1)},{"key":"x" "value":"y"}]`)
    const r = await chunked("PUT", `${kv}/${ns}/bulk`, late)
    expect(r.status).toBe(400)
    expect(r.body.errors[0].message).toBe(
      `invalid request body: not JSON (expected ',', at byte ${late.indexOf('"value":"y"')})`
    )
    expect(await keyCount(ns)).toBe(0)
  })

  it("deletes the keys of a streamed bulk delete, or none when one key is invalid", async () => {
    const ns = await newNamespace("stream-delete")
    const entries = Array.from({ length: 1500 }, (_, i) => ({ key: `d${i}`, value: "v" }))
    await request(p.baseUrl, `${kv}/${ns}/bulk`, { method: "PUT", body: entries })
    const keys = entries.map((e) => e.key)
    const bad = await chunked("POST", `${kv}/${ns}/bulk/delete`, Buffer.from(JSON.stringify([...keys, ""])), 1000)
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0].code).toBe(10022)
    expect(await keyCount(ns)).toBe(1500)
    const ok = await chunked("POST", `${kv}/${ns}/bulk/delete`, Buffer.from(JSON.stringify(keys.slice(0, 1000))), 1000)
    expect(ok.body.result).toEqual({ successful_key_count: 1000, unsuccessful_keys: [] })
    expect(await keyCount(ns)).toBe(500)
  })
})
