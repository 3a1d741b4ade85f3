import { describe, expect, it } from "vitest"
import { MAX_KEY_BYTES, MAX_VALUE_BYTES, StorageLimitError } from "../../src/objects/index.js"
import { openStorage } from "../helpers/objects.js"

describe("ctx.storage key-value methods", () => {
  it("get/put one key: structured-clone values come back as fresh copies; absent is undefined", async () => {
    const s = openStorage()
    const value = { n: 1, d: new Date(5), m: new Map([["a", [1, 2]]]), b: new Uint8Array([1, 2]), big: 10n }
    await s.put("k", value)
    const got = (await s.get("k")) as typeof value
    expect(got).toEqual(value)
    got.n = 99
    expect(((await s.get("k")) as typeof value).n).toBe(1)
    expect(await s.get("missing")).toBeUndefined()
    await s.put("", "empty key is valid")
    expect(await s.get("")).toBe("empty key is valid")
  })

  it("get(keys[]) returns a Map ordered by UTF-8 bytes, absent keys omitted", async () => {
    const s = openStorage()
    await s.put({ "\u{1F600}": 1, "\uE000": 2, b: 3, a: 4 })
    const m = (await s.get(["\u{1F600}", "nope", "b", "\uE000", "a"])) as Map<string, unknown>
    expect([...m.keys()]).toEqual(["a", "b", "\uE000", "\u{1F600}"])
  })

  it("put(entries) writes up to 128 pairs; delete returns boolean or count", async () => {
    const s = openStorage()
    const entries = Object.fromEntries(Array.from({ length: 128 }, (_, i) => [`k${i}`, i]))
    await s.put(entries)
    expect((await s.list()).size).toBe(128)
    expect(await s.delete("k0")).toBe(true)
    expect(await s.delete("k0")).toBe(false)
    expect(await s.delete(["k1", "k2", "nope"])).toBe(2)
  })

  it("refuses 129 keys or pairs, a 2,049-byte key and a 131,073-byte value, naming the limit", async () => {
    const s = openStorage()
    const keys = Array.from({ length: 129 }, (_, i) => `k${i}`)
    await expect(s.get(keys)).rejects.toThrow(/number of keys per call \(limit 128\): 129 exceeds the limit of 128/)
    await expect(s.delete(keys)).rejects.toThrow(/limit 128\): 129/)
    await expect(s.put(Object.fromEntries(keys.map((k) => [k, 1])))).rejects.toThrow(
      /number of entries per call \(limit 128\): 129/
    )
    const longKey = "x".repeat(MAX_KEY_BYTES + 1)
    await expect(s.put(longKey, 1)).rejects.toThrow(/key size in UTF-8 bytes \(limit 2048\): 2049 exceeds/)
    await expect(s.get("é".repeat(1025))).rejects.toBeInstanceOf(StorageLimitError)
    await s.put("x".repeat(MAX_KEY_BYTES), 1)
    // v8 serialization of a Uint8Array adds a header; find the size that serializes to exactly the limit + 1.
    const { serialize } = await import("node:v8")
    const overhead = serialize(new Uint8Array(0)).length
    await s.put("ok", new Uint8Array(MAX_VALUE_BYTES - overhead - 8))
    const big = new Uint8Array(MAX_VALUE_BYTES + 1 - overhead)
    const n = serialize(big).length
    await expect(s.put("big", big)).rejects.toThrow(new RegExp(`limit 131072 = 128 KiB\\): ${n} exceeds`))
    expect(n).toBeGreaterThan(MAX_VALUE_BYTES)
    await expect(s.put("u", undefined)).rejects.toThrow(/undefined value/)
    await expect(s.put("f", () => 1)).rejects.toThrow(/cannot be stored/)
    expect(await s.get("big")).toBeUndefined()
  })

  it("list: start, startAfter, end, prefix, reverse, limit; start with startAfter refused", async () => {
    const s = openStorage()
    await s.put({ a: 1, b: 2, c: 3, d: 4, pa: 5, pb: 6, "p\u{10FFFF}": 7, q: 8 })
    const keys = async (o: object) => [...(await s.list(o)).keys()]
    expect(await keys({ start: "b", end: "e" })).toEqual(["b", "c", "d"])
    expect(await keys({ startAfter: "b", end: "e" })).toEqual(["c", "d"])
    expect(await keys({ end: "c" })).toEqual(["a", "b"])
    expect(await keys({ reverse: true, limit: 2, end: "e" })).toEqual(["d", "c"])
    expect(await keys({ reverse: true, start: "b", end: "e" })).toEqual(["d", "c", "b"])
    expect(await keys({ start: "z", end: "a" })).toEqual([])
    expect(await keys({ prefix: "p" })).toEqual(["pa", "pb", "p\u{10FFFF}"])
    expect(await keys({ prefix: "p", limit: 1, reverse: true })).toEqual(["p\u{10FFFF}"])
    await expect(s.list({ start: "a", startAfter: "b" })).rejects.toThrow(
      "list() cannot be called with both start and startAfter values."
    )
    await expect(s.list({ limit: 0 })).rejects.toThrow(/List limit must be positive/)
    await expect(s.list({ limit: -1 })).rejects.toThrow(/List limit must be positive/)
  })

  it("orders keys by UTF-8 bytes, not UTF-16 units", async () => {
    const s = openStorage()
    const order = ["", "\u0000x", " ", "B", "a", "aa", "b", "z", "~", "é", "\uE000", "\uFFFF", "\u{10000}", "\u{1F600}"]
    await s.put(Object.fromEntries([...order].reverse().map((k) => [k, 1])))
    expect([...(await s.list()).keys()]).toEqual(order)
    expect([...(await s.list({ reverse: true, limit: 3 })).keys()]).toEqual(["\u{1F600}", "\u{10000}", "\uFFFF"])
  })

  it("noCache: reads and writes are the same, the value is not kept in memory", async () => {
    const s = openStorage()
    await s.put("k", 1, { noCache: true })
    expect(await s.get("k", { noCache: true })).toBe(1)
    expect(await s.get("k")).toBe(1)
    await s.put("k", 2, { noCache: true })
    expect(await s.get("k")).toBe(2)
    expect(await s.list({ noCache: true })).toEqual(new Map([["k", 2]]))
    expect(await s.delete("k", { noCache: true })).toBe(true)
    expect(await s.get("k", { allowConcurrency: true })).toBeUndefined()
  })

  it("deleteAll removes key-value data and user tables, and keeps the alarm", async () => {
    const s = openStorage()
    await s.put({ a: 1, b: 2 })
    s.sql.exec("CREATE TABLE t (x); CREATE VIEW v AS SELECT * FROM t; INSERT INTO t VALUES (1)")
    const at = Date.now() + 60_000
    await s.setAlarm(at)
    await s.deleteAll()
    expect((await s.list()).size).toBe(0)
    expect(s.sql.exec("SELECT name FROM sqlite_master WHERE name NOT LIKE '\\_cf\\_%' ESCAPE '\\'").toArray()).toEqual(
      []
    )
    expect(await s.getAlarm()).toBe(at)
  })
})

describe("value serialization", () => {
  it("the fast writer's bytes read back with node:v8 exactly as node:v8's own bytes do", async () => {
    const { fastSerialize } = await import("../../src/objects/v8-fast.js")
    const { deserialize, serialize } = await import("node:v8")
    const samples: Array<unknown> = [
      1,
      -1,
      0,
      -0,
      2 ** 30,
      -(2 ** 30),
      2 ** 31,
      1.5,
      Number.NaN,
      "",
      "abc",
      "é",
      "ü€",
      "a😀b",
      true,
      false,
      null,
      { a: 1, b: "é€", c: [1, 2, { d: null }] },
      [],
      [1, "two", [3]],
      { "0": 1, x: 2 },
      "€".repeat(300),
      ["€", "a€", 1, "aa€"],
      // eslint-disable-next-line no-sparse-arrays -- an array with a hole is the value under test
      [1, , 3],
      new Date(1),
      new Map([[1, 2]]),
      new Uint8Array([1, 2]),
      Object.assign(Object.create(null), { a: 1 })
    ]
    for (const v of samples) expect(deserialize(fastSerialize(v))).toStrictEqual(deserialize(serialize(v)))
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const back = deserialize(fastSerialize(cyclic)) as Record<string, unknown>
    expect(back.self).toBe(back)
  })
})
