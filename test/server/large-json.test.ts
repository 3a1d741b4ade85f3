/**
 * Large JSON bodies on the routes other than KV bulk (issue 19 item 2), against the served platform
 * and the in-process one: a body is parsed as it arrives (src/server/json-body.ts), created whole
 * when valid while other clients are answered, refused whole (nothing written) when an element is bad
 * or nested too deep, with the answers the whole-text reading gave. Memory and time are
 * measured in bench/limits.bench.mjs, not here.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Effect } from "effect"
import * as http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BasePath } from "../../src/api/contract.js"
import { LocalBase, LocalToken } from "../../src/api/target.js"
import { makeLocalClient, makeLocalHandler } from "../../src/server/door/local-transport.js"
import { storeFile } from "../../src/server/platform.js"
import {
  assertEnvelope,
  firstError,
  request,
  startPlatform,
  tempDir,
  World,
  type Platform
} from "../helpers/platform.js"

let p: Platform
let zone = ""

beforeAll(async () => {
  p = await startPlatform()
  zone = (await request(p.baseUrl, "/zones")).body.result[0].id as string
})
afterAll(async () => {
  await p?.close()
})

/** 1,000 filters (the batch limit) of ~25 KB each: `notes`, a property the platform ignores, makes up the size. */
const filtersBody = (tag: string) =>
  Array.from({ length: 1000 }, (_, i) => ({
    expression: `http.host eq "${tag}-${i}.example"`,
    description: `${tag} ${i}`,
    notes: "n".repeat(25_000)
  }))

const filterCount = async () =>
  (await request(p.baseUrl, `/zones/${zone}/filters?per_page=5`)).body.result_info.total_count as number

const deepMessage = "the JSON body is nested more than 100 levels deep (arrays and objects), the limit is 100"
const notJsonMessage = "invalid request body: expected JSON, the body could not be parsed"

interface Raw {
  readonly status: number
  readonly body: { success: boolean; result: any; errors: Array<{ code: number; message: string }> }
}

/** A POST whose body is sent chunked (no Content-Length) in 256 KiB pieces. */
const chunked = (path: string, body: string) =>
  new Promise<Raw>((resolve, reject) => {
    const url = new URL(p.baseUrl + path)
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { authorization: `Bearer ${World.allToken}`, "content-type": "application/json" }
      },
      (res) => {
        const parts: Array<Buffer> = []
        res.on("data", (d: Buffer) => parts.push(d))
        res.on("end", () =>
          resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString("utf8")) })
        )
      }
    )
    req.on("error", reject)
    const bytes = Buffer.from(body)
    for (let at = 0; at < bytes.length; at += 256 * 1024) req.write(bytes.subarray(at, at + 256 * 1024))
    req.end()
  })

describe("large JSON array bodies, served", () => {
  it("creates 1,000 filters from a 25 MB body whole, answering small GETs on other connections meanwhile", async () => {
    const before = await filterCount()
    const items = filtersBody("whole")
    const body = JSON.stringify(items)
    expect(body.length).toBeGreaterThan(25_000_000)
    let posted = false
    const post = request(p.baseUrl, `/zones/${zone}/filters`, { method: "POST", body }).finally(() => (posted = true))
    const answeredDuring: Array<number> = []
    const others = (async () => {
      while (!posted) {
        const r = await request(p.baseUrl, `/zones/${zone}`)
        if (!posted) answeredDuring.push(r.status)
      }
    })()
    const created = await post
    await others
    expect(created.status).toBe(200)
    const result = created.body.result as Array<{ expression: string; description: string }>
    expect(result.map((f) => [f.expression, f.description])).toEqual(items.map((f) => [f.expression, f.description]))
    expect(await filterCount()).toBe(before + 1000)
    expect(answeredDuring.length).toBeGreaterThan(0)
    expect(answeredDuring.every((s) => s === 200)).toBe(true)
  })

  it("creates a large array body sent chunked (no Content-Length) the same way", async () => {
    const before = await filterCount()
    const items = filtersBody("chunked")
    const r = await chunked(`/zones/${zone}/filters`, JSON.stringify(items))
    expect(r.status).toBe(200)
    expect(r.body.result).toHaveLength(1000)
    expect(r.body.result[999].expression).toBe(items[999]!.expression)
    expect(await filterCount()).toBe(before + 1000)
  })

  it("writes nothing when the last element of a 25 MB body is bad (a wrong field, or not JSON)", async () => {
    const before = await filterCount()
    const items: Array<unknown> = filtersBody("bad").slice(0, 999)
    const wrongField = JSON.stringify([...items, { expression: 5 }])
    const r = await request(p.baseUrl, `/zones/${zone}/filters`, { method: "POST", body: wrongField })
    assertEnvelope(r, false)
    expect(r.status).toBe(400)
    expect(firstError(r).message).toContain("[999].expression")
    const notJson = `${JSON.stringify(items).slice(0, -1)},{"expression":}]`
    for (const answer of [
      await request(p.baseUrl, `/zones/${zone}/filters`, { method: "POST", body: notJson }),
      await chunked(`/zones/${zone}/filters`, notJson)
    ]) {
      expect(answer.status).toBe(400)
      expect(answer.body.errors[0]!.message).toBe(notJsonMessage)
    }
    expect(await filterCount()).toBe(before)
  })

  it("answers a 6,000-deep element in a large array with a 400 naming the depth limit, writing nothing", async () => {
    const before = await filterCount()
    const items: Array<unknown> = filtersBody("deep").slice(0, 200)
    const deep = "[".repeat(6000) + "]".repeat(6000)
    const body = `${JSON.stringify(items.slice(0, 100)).slice(0, -1)},${deep},${JSON.stringify(items.slice(100)).slice(1)}`
    for (const answer of [
      await request(p.baseUrl, `/zones/${zone}/filters`, { method: "POST", body }),
      await chunked(`/zones/${zone}/filters`, body),
      await request(p.baseUrl, `/zones/${zone}/firewall/rules`, { method: "POST", body: `${body.slice(0, -1)},x]` })
    ]) {
      expect(answer.status).toBe(400)
      expect(answer.body.errors[0]!.message).toBe(deepMessage)
    }
    expect(await filterCount()).toBe(before)
  })
})

describe("large JSON object bodies, served", () => {
  const entrypoint = () => `/zones/${zone}/rulesets/phases/http_request_firewall_custom/entrypoint`

  it("takes a 20 MB custom rules PUT whole, and refuses a deep member or a bad end with nothing written", async () => {
    const rules = Array.from({ length: 50 }, (_, i) => ({
      action: "block",
      expression: `http.host eq "o${i}.example"`
    }))
    const notes = "n".repeat(20_000_000)
    const put = await request(p.baseUrl, entrypoint(), { method: "PUT", body: JSON.stringify({ rules, notes }) })
    expect(put.status).toBe(200)
    expect(put.body.result.rules.map((r: { expression: string }) => r.expression)).toEqual(
      rules.map((r) => r.expression)
    )
    const stored = JSON.stringify((await request(p.baseUrl, entrypoint())).body.result)
    const deep = `{"rules":[],"notes":"${notes}","x":${"[".repeat(6000)}${"]".repeat(6000)}}`
    const bad = `{"rules":[],"notes":"${notes}","x":}`
    for (const [body, message] of [
      [deep, deepMessage],
      [bad, notJsonMessage]
    ] as const) {
      const r = await request(p.baseUrl, entrypoint(), { method: "PUT", body })
      expect(r.status).toBe(400)
      expect(firstError(r).message).toBe(message)
    }
    expect(JSON.stringify((await request(p.baseUrl, entrypoint())).body.result)).toBe(stored)
  })
})

describe("large JSON array bodies, in process", () => {
  const local = makeLocalHandler(storeFile(tempDir()))
  afterAll(() => local.dispose())

  const viaLocal = async (path: string, body: string): Promise<Raw> => {
    const client = makeLocalClient(local.handle)
    const req = HttpClientRequest.post(`${LocalBase.replace(BasePath, "")}${BasePath}${path}`).pipe(
      HttpClientRequest.setHeader("authorization", `Bearer ${LocalToken}`),
      HttpClientRequest.bodyText(body, "application/json")
    )
    return Effect.runPromise(
      Effect.flatMap(client.execute(req), (r) =>
        Effect.map(r.json, (b) => ({ status: r.status, body: b as Raw["body"] }))
      )
    )
  }

  it("creates a 25 MB array of filters whole and refuses a deep one with the served answer", async () => {
    const zones = await Effect.runPromise(
      Effect.flatMap(
        makeLocalClient(local.handle).execute(
          HttpClientRequest.get(`${LocalBase.replace(BasePath, "")}${BasePath}/zones`).pipe(
            HttpClientRequest.setHeader("authorization", `Bearer ${LocalToken}`)
          )
        ),
        (r) => r.json
      )
    )
    const id = (zones as { result: Array<{ id: string }> }).result[0]!.id
    const items = filtersBody("local")
    const created = await viaLocal(`/zones/${id}/filters`, JSON.stringify(items))
    expect(created.status).toBe(200)
    expect(created.body.result).toHaveLength(1000)
    const deep = `${JSON.stringify(items).slice(0, -1)},${"[".repeat(6000)}${"]".repeat(6000)}]`
    const refused = await viaLocal(`/zones/${id}/filters`, deep)
    expect(refused.status).toBe(400)
    expect(refused.body.errors[0]!.message).toBe(deepMessage)
  })
})
