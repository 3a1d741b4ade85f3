/**
 * Request bodies of the in-process platform (local mode's transport, src/server/door/local-transport.ts):
 * read in slices from the bytes the client made, within the same limits as a served body, refused
 * with the same answer as `edgectl serve` gives the same body.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BasePath } from "../../src/api/contract.js"
import { makeLocalClient, makeLocalHandler } from "../../src/server/door/local-transport.js"
import { LocalBase, LocalToken } from "../../src/api/target.js"
import { BulkMaxBytes, ValueMaxBytes } from "../../src/domain/kv-limits.js"
import { storeFile } from "../../src/server/platform.js"
import { hexId } from "../../src/domain/ids.js"
import { startPlatform, tempDir, type Platform } from "../helpers/platform.js"

let served: Platform
let local: ReturnType<typeof makeLocalHandler>
const acme = hexId("account", "Acme Corp")
const kv = `/accounts/${acme}/storage/kv/namespaces`

beforeAll(async () => {
  served = await startPlatform()
  local = makeLocalHandler(storeFile(tempDir()))
})
afterAll(async () => {
  await local?.dispose()
  await served?.close()
})

interface Answer {
  readonly status: number
  readonly body: { result: any; errors: Array<{ code: number; message: string }> }
}

const viaLocal = async (method: "PUT" | "POST", path: string, body: Uint8Array, type: string): Promise<Answer> => {
  const client = makeLocalClient(local.handle)
  const request = HttpClientRequest.make(method)(`${LocalBase.replace(BasePath, "")}${BasePath}${path}`).pipe(
    HttpClientRequest.setHeader("authorization", `Bearer ${LocalToken}`),
    HttpClientRequest.bodyUint8Array(body, type)
  )
  const response = await Effect.runPromise(client.execute(request))
  return { status: response.status, body: JSON.parse(await Effect.runPromise(response.text)) }
}

const viaServed = async (method: "PUT" | "POST", path: string, body: Uint8Array, type: string): Promise<Answer> => {
  const r = await fetch(served.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${LocalToken}`, "content-type": type },
    body: body as unknown as BodyInit
  })
  return { status: r.status, body: (await r.json()) as Answer["body"] }
}

const bulkOf = (n: number, valueBytes: number) =>
  Buffer.from(JSON.stringify(Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: "v".repeat(valueBytes) }))))

describe("in-process request bodies", () => {
  it("stores a large bulk (40 MB, 4,000 entries) in one request", async () => {
    const r = await viaLocal("PUT", `${kv}/local-large/bulk`, bulkOf(4000, 10_000), "application/json")
    expect(r.body.result).toEqual({ successful_key_count: 4000, unsuccessful_keys: [] })
  })

  it("refuses a bulk over 100 MiB with the answer served for the same body", async () => {
    const body = Buffer.alloc(BulkMaxBytes + 1, 32)
    body[0] = 0x5b
    const ns = (await viaServed("POST", kv, Buffer.from(JSON.stringify({ title: "local-over" })), "application/json"))
      .body.result.id as string
    const [l, s] = [
      await viaLocal("PUT", `${kv}/${ns}/bulk`, body, "application/json"),
      await viaServed("PUT", `${kv}/${ns}/bulk`, body, "application/json")
    ]
    expect(l).toEqual(s)
    expect(l.status).toBe(413)
    expect(l.body.errors[0]!.message).toBe(
      "the request body is 104857601 bytes (100.0 MiB), the limit is 104857600 bytes (100.0 MiB)"
    )
  })

  it("refuses a JSON body over 100 MiB on any route, and a KV value over 25 MiB, as served", async () => {
    const zone = (
      await (await fetch(`${served.baseUrl}/zones`, { headers: { authorization: `Bearer ${LocalToken}` } })).json()
    ).result[0].id as string
    const big = Buffer.alloc(BulkMaxBytes + 10, 32)
    const [l, s] = [
      await viaLocal("POST", `/zones/${zone}/filters`, big, "application/json"),
      await viaServed("POST", `/zones/${zone}/filters`, big, "application/json")
    ]
    expect(l).toEqual(s)
    expect(l.status).toBe(413)
    const value = Buffer.alloc(ValueMaxBytes + 1, 97)
    const ns = (await viaServed("POST", kv, Buffer.from(JSON.stringify({ title: "local-value" })), "application/json"))
      .body.result.id as string
    const [lv, sv] = [
      await viaLocal("PUT", `${kv}/${ns}/values/v`, value, "application/octet-stream"),
      await viaServed("PUT", `${kv}/${ns}/values/v`, value, "application/octet-stream")
    ]
    expect(lv).toEqual(sv)
    expect(lv.body.errors[0]!.message).toMatch(/^value is 26214401 bytes, the limit is 26214400 bytes/)
  })
})
