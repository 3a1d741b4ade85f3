/** The KV endpoints over HTTP against the real embedded server (wire mode, as `edgectl serve`). */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import keysListExample from "../../fixtures/kv/kv-keys-list.json" with { type: "json" }
import lastPageExample from "../../fixtures/kv/kv-keys-list.last-page.json" with { type: "json" }
import namespacesExample from "../../fixtures/kv/kv-namespaces-list.json" with { type: "json" }
import bulkPutExample from "../../fixtures/kv/kv-bulk-put.request.json" with { type: "json" }
import bulkWriteExample from "../../fixtures/kv/kv-bulk-write.response.json" with { type: "json" }
import bulkGetRequest from "../../fixtures/kv/kv-bulk-get.request.json" with { type: "json" }
import notFoundExample from "../../fixtures/kv/kv-key-not-found.error.json" with { type: "json" }
import { hexId } from "../../src/domain/ids.js"
import { assertEnvelope, firstError, request, startPlatform, World, type Platform } from "../helpers/platform.js"

let p: Platform
const acme = hexId("account", "Acme Corp")
const globex = hexId("account", "Globex")
const base = (account = acme) => `/accounts/${account}/storage/kv/namespaces`
const auth = { authorization: `Bearer ${World.allToken}` }

beforeAll(async () => {
  p = await startPlatform()
})
afterAll(async () => {
  await p?.close()
})

const keysOf = (o: object) => Object.keys(o).sort()

const newNamespace = async (title: string, account = acme) => {
  const r = await request(p.baseUrl, base(account), { method: "POST", body: { title } })
  assertEnvelope(r, true)
  return r.body.result.id as string
}

const raw = (path: string, init: RequestInit = {}) =>
  fetch(p.baseUrl + path, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } })

describe("namespaces", () => {
  it("create answers the namespace; list pages it with the example's shape", async () => {
    const id = await newNamespace("srv-one")
    expect(id).toMatch(/^[0-9a-f]{32}$/)
    const list = await request(p.baseUrl, `${base()}?per_page=1000&order=title&direction=asc&page=1`)
    const body = assertEnvelope(list, true)
    expect(keysOf(body)).toEqual(keysOf(namespacesExample))
    expect(keysOf(list.body.result_info)).toEqual(keysOf(namespacesExample.result_info))
    const mine = list.body.result.find((n: { id: string }) => n.id === id)
    expect(keysOf(mine)).toEqual(keysOf(namespacesExample.result[0]!))
    expect(mine).toEqual({ id, title: "srv-one", supports_url_encoding: true })
    const past = await request(p.baseUrl, `${base()}?per_page=1000&page=2`)
    expect(past.body.result).toEqual([])
  })

  it("a duplicate title is 400 with code 10014", async () => {
    await newNamespace("srv-dup")
    const r = await request(p.baseUrl, base(), { method: "POST", body: { title: "srv-dup" } })
    expect(r.status).toBe(400)
    assertEnvelope(r, false)
    expect(firstError(r).code).toBe(10014)
    // the same title in another account is fine
    await newNamespace("srv-dup", globex)
  })

  it("get, rename (answering the namespace), delete; then 404 code 10013", async () => {
    const id = await newNamespace("srv-rename")
    const renamed = await request(p.baseUrl, `${base()}/${id}`, { method: "PUT", body: { title: "srv-renamed" } })
    expect(renamed.body.result).toEqual({ id, title: "srv-renamed", supports_url_encoding: true })
    expect((await request(p.baseUrl, `${base()}/${id}`)).body.result.title).toBe("srv-renamed")
    const del = await request(p.baseUrl, `${base()}/${id}`, { method: "DELETE" })
    assertEnvelope(del, true)
    const gone = await request(p.baseUrl, `${base()}/${id}`)
    expect(gone.status).toBe(404)
    expect(firstError(gone).code).toBe(10013)
  })

  it("bad titles and parameters name the field, the limit and the value", async () => {
    const empty = await request(p.baseUrl, base(), { method: "POST", body: { title: "  " } })
    expect(empty.status).toBe(400)
    expect(firstError(empty).message).toContain("title is empty")
    const long = await request(p.baseUrl, base(), { method: "POST", body: { title: "t".repeat(513) } })
    expect(firstError(long).message).toBe("title is 513 characters, the limit is 512")
    const perPage = await request(p.baseUrl, `${base()}?per_page=1001`)
    expect(firstError(perPage).message).toContain("per_page must be between 1 and 1000, got 1001")
  })

  it("another account's namespaces are not reachable with an account-scoped token", async () => {
    const r = await request(p.baseUrl, base(globex), { token: World.acmeToken })
    expect(r.status).toBe(404)
    expect(firstError(r).code).toBe(7003)
  })
})

describe("values", () => {
  let ns: string
  beforeAll(async () => {
    ns = await newNamespace("srv-values")
  })
  const value = (key: string) => `${base()}/${ns}/values/${encodeURIComponent(key)}`

  it("stores a raw body verbatim (any content type) and answers it as octet-stream bytes", async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 254])
    expect((await raw(value("bin"), { method: "PUT", body: bytes })).status).toBe(200)
    const got = await raw(value("bin"))
    expect(got.headers.get("content-type")).toBe("application/octet-stream")
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true)
    expect(got.headers.get("expiration")).toBeNull()
    await raw(value("text"), { method: "PUT", body: "héllo", headers: { "content-type": "text/plain" } })
    expect(await (await raw(value("text"))).text()).toBe("héllo")
  })

  it("keys with URL-special characters round-trip (/ ? % + # and unicode)", async () => {
    for (const key of ["a/b", "q?x=1", "100%", "a+b", "#hash", "ключ", "a%2Fb"]) {
      expect((await raw(value(key), { method: "PUT", body: `v:${key}` })).status).toBe(200)
      expect(await (await raw(value(key))).text()).toBe(`v:${key}`)
    }
  })

  it("multipart: value and metadata fields, expiration_ttl wins over expiration, the header carries it", async () => {
    const form = new FormData()
    form.append("value", "from a form")
    form.append("metadata", JSON.stringify({ owner: "ada", n: 1 }))
    const before = Math.floor(Date.now() / 1000)
    const put = await raw(`${value("mp")}?expiration_ttl=120&expiration=${before + 99999}`, {
      method: "PUT",
      body: form
    })
    assertEnvelope({ status: put.status, headers: put.headers, body: await put.json() }, true)
    const got = await raw(value("mp"))
    expect(await got.text()).toBe("from a form")
    const exp = Number(got.headers.get("expiration"))
    expect(exp).toBeGreaterThanOrEqual(before + 120)
    expect(exp).toBeLessThanOrEqual(before + 122)
    const meta = await request(p.baseUrl, `${base()}/${ns}/metadata/mp`)
    expect(meta.body.result).toEqual({ owner: "ada", n: 1 })
  })

  it("multipart: a file part, and metadata flattened into metadata[...] fields (as the SDK sends an object)", async () => {
    const form = new FormData()
    form.append("value", new Blob([Buffer.from([9, 8, 7])]), "blob")
    form.append("metadata[owner]", "ada")
    form.append("metadata[tags][]", "x")
    form.append("metadata[tags][]", "y")
    form.append("metadata[deep][n]", "1")
    expect((await raw(value("mp-file"), { method: "PUT", body: form })).status).toBe(200)
    expect(Buffer.from(await (await raw(value("mp-file"))).arrayBuffer())).toEqual(Buffer.from([9, 8, 7]))
    const meta = await request(p.baseUrl, `${base()}/${ns}/metadata/mp-file`)
    expect(meta.body.result).toEqual({ owner: "ada", tags: ["x", "y"], deep: { n: "1" } })
  })

  it("a missing key is 404 code 10009, in the example's shape, for value and metadata", async () => {
    const r = await request(p.baseUrl, `${base()}/${ns}/metadata/nope`)
    expect(r.status).toBe(404)
    expect(keysOf(r.body)).toEqual(keysOf(notFoundExample))
    expect(firstError(r).code).toBe(10009)
    const v = await raw(value("nope"))
    expect(v.status).toBe(404)
    expect(v.headers.get("content-type")).toContain("application/json")
    expect(((await v.json()) as { errors: Array<{ code: number }> }).errors[0]!.code).toBe(10009)
  })

  it("delete is fine for a missing key; a deleted key is gone", async () => {
    await raw(value("del"), { method: "PUT", body: "x" })
    assertEnvelope(await request(p.baseUrl, `${base()}/${ns}/values/del`, { method: "DELETE" }), true)
    assertEnvelope(await request(p.baseUrl, `${base()}/${ns}/values/del`, { method: "DELETE" }), true)
    expect((await raw(value("del"))).status).toBe(404)
  })

  it("validation: each error names the field, the limit and the actual size, with its code", async () => {
    const cases: Array<[string, RequestInit, number, string]> = [
      [`${value("x".repeat(513))}`, { method: "PUT", body: "v" }, 10022, "key is 513 bytes, the limit is 512 bytes"],
      [`${value("sp ace")}`, { method: "PUT", body: "v" }, 10022, "key has whitespace (U+0020) at character 3"],
      [
        `${value("ttl")}?expiration_ttl=30`,
        { method: "PUT", body: "v" },
        1004,
        "expiration_ttl is 30 seconds, the minimum is 60"
      ],
      [
        `${value("ttl")}?expiration_ttl=abc`,
        { method: "PUT", body: "v" },
        1004,
        'expiration_ttl must be a whole number of seconds, got "abc"'
      ],
      [`${value("exp")}?expiration=1000`, { method: "PUT", body: "v" }, 1004, "expiration 1000 is"],
      [
        `${value("big")}`,
        { method: "PUT", body: Buffer.alloc(26_214_401) },
        10024,
        "value is 26214401 bytes, the limit is 26214400 bytes (25 MiB)"
      ]
    ]
    for (const [path, init, code, message] of cases) {
      const r = await raw(path, init)
      expect(r.status).toBe(400)
      const body = (await r.json()) as {
        errors: Array<{ code: number; message: string; meta: { problems: Array<{ field: string }> } }>
      }
      expect(body.errors[0]!.code).toBe(code)
      expect(body.errors[0]!.message).toContain(message)
      expect(body.errors[0]!.meta.problems.length).toBeGreaterThan(0)
    }
    const form = new FormData()
    form.append("value", "v")
    form.append("metadata", JSON.stringify({ v: "x".repeat(1100) }))
    const meta = await raw(value("meta"), { method: "PUT", body: form })
    const mb = (await meta.json()) as { errors: Array<{ code: number; message: string }> }
    expect(mb.errors[0]).toMatchObject({
      code: 10030,
      message: "metadata is 1108 bytes as JSON, the limit is 1024 bytes"
    })
    const bad = new FormData()
    bad.append("value", "v")
    bad.append("metadata", "{bad")
    expect(
      (
        (await (await raw(value("meta"), { method: "PUT", body: bad })).json()) as {
          errors: Array<{ message: string }>
        }
      ).errors[0]!.message
    ).toMatch(/^metadata is not valid JSON/)
    // nothing was stored by any of them
    for (const k of ["ttl", "exp", "big", "meta"]) expect((await raw(value(k))).status).toBe(404)
  })

  it("an unknown namespace id is a 404 with code 10013, for reads and writes (the platform's answer)", async () => {
    const other = `${base()}/00000000000000000000000000000000`
    for (const [path, method] of [
      [`${other}/values/k`, "PUT"],
      [`${other}/values/k`, "GET"],
      [`${other}/keys`, "GET"],
      [`${other}/bulk`, "PUT"]
    ] as const) {
      const r = await raw(path, { method, ...(method === "PUT" ? { body: path.endsWith("bulk") ? "[]" : "v" } : {}) })
      expect(r.status).toBe(404)
      expect(((await r.json()) as { errors: Array<{ code: number }> }).errors[0]!.code).toBe(10013)
    }
  })
})

describe("keys, bulk writes and reads", () => {
  let ns: string
  beforeAll(async () => {
    ns = await newNamespace("srv-bulk")
  })
  const bulk = (body: unknown, method = "PUT", suffix = "") =>
    request(p.baseUrl, `${base()}/${ns}/bulk${suffix}`, {
      method,
      body: typeof body === "string" ? body : JSON.stringify(body)
    })

  it("bulk put takes the example request and answers the example's shape", async () => {
    const r = await bulk(bulkPutExample)
    assertEnvelope(r, true)
    expect(r.body).toEqual(bulkWriteExample)
    const img = await raw(`${base()}/${ns}/values/img`)
    expect(await img.text()).toBe("hello")
  })

  it("one bad entry rejects the whole request and writes nothing; every problem is listed", async () => {
    const r = await bulk([
      { key: "ok-1", value: "1" },
      { key: "bad-ttl", value: "2", expiration_ttl: 30 },
      { key: "ok-2", value: "3" },
      { key: "bad-64", value: "@@@not base64!!", base64: true }
    ])
    expect(r.status).toBe(400)
    const e = firstError(r) as {
      code: number
      message: string
      meta?: { problems: Array<{ index: number; field: string }> }
    }
    expect(e.message).toMatch(
      /^2 invalid entries, nothing was written: entry 1 \(key "bad-ttl"\): expiration_ttl is 30 seconds, the minimum is 60; entry 3/
    )
    expect(e.meta!.problems.map((x) => [x.index, x.field])).toEqual([
      [1, "expiration_ttl"],
      [3, "base64"]
    ])
    for (const k of ["ok-1", "ok-2"]) expect((await raw(`${base()}/${ns}/values/${k}`)).status).toBe(404)
  })

  it("bodies: not JSON, not an array, more than 10,000 entries", async () => {
    expect(firstError(await bulk("[{")).message).toMatch(/^invalid request body: not JSON/)
    expect(firstError(await bulk({ key: "a" })).message).toBe(
      "the request body must be a JSON array of entries, got an object"
    )
    const many = Array.from({ length: 10_001 }, (_, i) => ({ key: `k${i}`, value: "v" }))
    expect(firstError(await bulk(many)).message).toBe("a bulk request takes at most 10000 entries, got 10001; split it")
    const exactly = await bulk(many.slice(0, 10_000))
    expect(exactly.body.result).toEqual({ successful_key_count: 10_000, unsuccessful_keys: [] })
  })

  it("keys list: pages of `limit` with a cursor, empty on the last page (the examples' shapes), prefix", async () => {
    const first = await request(p.baseUrl, `${base()}/${ns}/keys?prefix=k1&limit=10`)
    const body = assertEnvelope(first, true)
    expect(keysOf(body)).toEqual(keysOf(keysListExample))
    expect(keysOf(first.body.result_info)).toEqual(keysOf(keysListExample.result_info))
    expect(first.body.result).toHaveLength(10)
    expect(first.body.result_info.cursor).not.toBe("")
    let cursor = first.body.result_info.cursor as string
    let count = 10
    let last: any
    while (cursor !== "") {
      last = await request(p.baseUrl, `${base()}/${ns}/keys?prefix=k1&limit=1000&cursor=${encodeURIComponent(cursor)}`)
      count += last.body.result.length
      cursor = last.body.result_info.cursor
    }
    // k1, k10..k19, k100..k199, k1000..k1999: 1 + 10 + 100 + 1000
    expect(count).toBe(1111)
    expect(keysOf(last.body.result_info)).toEqual(keysOf(lastPageExample.result_info))
    expect(firstError(await request(p.baseUrl, `${base()}/${ns}/keys?limit=5`)).message).toContain(
      "limit must be between 10 and 1000, got 5"
    )
    expect(firstError(await request(p.baseUrl, `${base()}/${ns}/keys?cursor=garbage!`)).message).toContain(
      "is not a cursor this platform returned"
    )
  })

  it("listing shows expiration (seconds) and metadata only when set", async () => {
    const r = await request(p.baseUrl, `${base()}/${ns}/keys?prefix=My-`)
    expect(r.body.result).toHaveLength(1)
    expect(keysOf(r.body.result[0])).toEqual(keysOf(keysListExample.result[0]!))
    expect(r.body.result[0].metadata).toEqual({ someMetadataKey: "someMetadataValue" })
    const img = (await request(p.baseUrl, `${base()}/${ns}/keys?prefix=img`)).body.result[0]
    expect(img).toEqual({ name: "img" })
  })

  it("bulk get: text, json, with metadata; missing keys are null", async () => {
    await bulk([{ key: "j", value: '{"n":1}' }])
    const text = await request(p.baseUrl, `${base()}/${ns}/bulk/get`, { method: "POST", body: bulkGetRequest })
    expect(text.body.result.values["My-Key"]).toMatchObject({
      value: "Some string",
      metadata: { someMetadataKey: "someMetadataValue" }
    })
    expect(text.body.result.values.missing).toBeNull()
    const json = await request(p.baseUrl, `${base()}/${ns}/bulk/get`, {
      method: "POST",
      body: { keys: ["j", "nope"], type: "json" }
    })
    expect(json.body.result.values).toEqual({ j: { n: 1 }, nope: null })
    const notJson = await request(p.baseUrl, `${base()}/${ns}/bulk/get`, {
      method: "POST",
      body: { keys: ["img"], type: "json" }
    })
    expect(firstError(notJson).message).toContain('the value of key "img" is not JSON')
    const tooMany = await request(p.baseUrl, `${base()}/${ns}/bulk/get`, {
      method: "POST",
      body: { keys: Array.from({ length: 101 }, (_, i) => `k${i}`) }
    })
    expect(firstError(tooMany).message).toBe("keys has 101 keys, the limit is 100")
  })

  it("bulk delete: DELETE …/bulk (wrangler) and POST …/bulk/delete (SDK)", async () => {
    const del = await bulk(["k1", "k2", "absent"], "DELETE")
    expect(del.body.result).toEqual({ successful_key_count: 3, unsuccessful_keys: [] })
    const post = await bulk(["k3"], "POST", "/delete")
    expect(post.body.result.successful_key_count).toBe(1)
    for (const k of ["k1", "k2", "k3"]) expect((await raw(`${base()}/${ns}/values/${k}`)).status).toBe(404)
    const bad = await bulk(["ok", 5, ""], "DELETE")
    expect(firstError(bad).message).toMatch(/^2 invalid entries/)
  })
})
