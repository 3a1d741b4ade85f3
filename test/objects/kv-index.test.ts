// list() reads memory (the key index) once the cache holds the whole table, and SQLite otherwise
// (and always with noCache). Both must give what a plain model of the table gives, whatever the
// sequence of writes, deletes, rollbacks, noCache calls and reopenings.
import { describe, expect, it } from "vitest"
import type { ListOptions, ObjectStorage } from "../../src/objects/index.js"
import { KeyIndex } from "../../src/objects/key-index.js"
import { openStorage, random, tempDir } from "../helpers/objects.js"

const utf8Order = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b))

const modelList = (model: Map<string, unknown>, o: ListOptions): Array<[string, unknown]> => {
  let rows = [...model].sort(([a], [b]) => utf8Order(a, b))
  rows = rows.filter(([k]) => {
    if (o.start !== undefined && utf8Order(k, o.start) < 0) return false
    if (o.startAfter !== undefined && utf8Order(k, o.startAfter) <= 0) return false
    if (o.end !== undefined && utf8Order(k, o.end) >= 0) return false
    return o.prefix === undefined || k.startsWith(o.prefix)
  })
  if (o.reverse === true) rows.reverse()
  return o.limit === undefined ? rows : rows.slice(0, o.limit)
}

describe("list() from the key index and from SQLite", () => {
  it("agree with a model over 1,500 random operations", async () => {
    const rand = random(12345)
    const pick = <T>(xs: ReadonlyArray<T>): T => xs[rand(xs.length)]!
    const atoms = ["", "\u0000", "a", "ab", "b", "k1", "k10", "k2", "é", "\uE000", "\u{1F600}", "z"]
    const key = (): string => pick(atoms) + (rand(2) === 0 ? pick(atoms) : "")
    const value = (): unknown => (rand(3) === 0 ? { n: rand(100), s: key() } : `v${rand(1000)}`)
    const dir = tempDir()
    let s: ObjectStorage = openStorage(dir)
    const model = new Map<string, unknown>()
    const options = (): ListOptions => {
      const o: Record<string, unknown> = {}
      if (rand(3) === 0) o.start = key()
      else if (rand(4) === 0) o.startAfter = key()
      if (rand(3) === 0) o.end = key()
      if (rand(3) === 0) o.prefix = pick(atoms)
      if (rand(2) === 0) o.reverse = true
      if (rand(2) === 0) o.limit = 1 + rand(6)
      return o as ListOptions
    }
    for (let step = 0; step < 1500; step++) {
      const noCache = rand(40) === 0
      const op = rand(100)
      if (op < 30) {
        const [k, v] = [key(), value()]
        await s.put(k, v, { noCache })
        model.set(k, v)
      } else if (op < 40) {
        const entries: Record<string, unknown> = {}
        for (let i = rand(6); i >= 0; i--) entries[key()] = value()
        await s.put(entries, { noCache })
        for (const [k, v] of Object.entries(entries)) model.set(k, v)
      } else if (op < 52) {
        const k = key()
        expect(await s.delete(k, { noCache })).toBe(model.delete(k))
      } else if (op < 57) {
        const ks = [key(), key(), key()]
        const n = new Set(ks.filter((k) => model.has(k))).size
        expect(await s.delete(ks)).toBe(n)
        for (const k of ks) model.delete(k)
      } else if (op < 58) {
        await s.deleteAll()
        model.clear()
      } else if (op < 60) {
        // A transaction that is undone: nothing it did stays, in memory or on disk.
        await expect(
          s.transaction(async (txn) => {
            await txn.put(key(), "rolled back")
            await txn.delete(key())
            throw new Error("undo")
          })
        ).rejects.toThrow("undo")
      } else if (op < 68) {
        const ks = [key(), key()]
        const got = (await s.get(ks, { noCache })) as Map<string, unknown>
        expect([...got]).toEqual(modelList(model, {}).filter(([k]) => ks.includes(k)))
      } else if (op < 70) {
        await s.sync()
        s.close()
        s = openStorage(dir)
      } else {
        const o = op < 75 ? {} : options()
        const expected = modelList(model, o)
        expect([...(await s.list(o))]).toEqual(expected)
        expect([...(await s.list({ ...o, noCache: true }))]).toEqual(expected)
      }
    }
    expect([...(await s.list())]).toEqual(modelList(model, {}))
  })

  it("a table larger than the cache is listed from SQLite, correctly", async () => {
    const s = openStorage()
    // 34 MiB of values, beyond the cache's 32 MiB.
    const big = "x".repeat(120_000)
    const model = new Map<string, unknown>()
    for (let i = 0; i < 290; i += 10) {
      const entries = Object.fromEntries(
        Array.from({ length: 10 }, (_, j) => [`k${String(i + j).padStart(3, "0")}`, `${i + j}${big}`])
      )
      await s.put(entries)
      for (const [k, v] of Object.entries(entries)) model.set(k, v)
    }
    const listed = await s.list()
    expect(listed.size).toBe(290)
    expect([...listed.keys()]).toEqual([...model.keys()])
    for (const [k, v] of model) expect(listed.get(k)).toBe(v)
    await s.put("k000", "small")
    await s.delete("k289")
    expect([...(await s.list({ reverse: true, limit: 2 })).keys()]).toEqual(["k288", "k287"])
    expect((await s.list({ end: "k001" })).get("k000")).toBe("small")
  })

  it.each([
    ["plain keys (JavaScript's comparison)", ""],
    ["keys above U+D7FF (code point comparison)", "\u{1F600}"]
  ])("the key index keeps order and ranges through block splits and merges: %s", (_, high) => {
    const rand = random(99)
    const index = new KeyIndex()
    const model = new Set<string>()
    // Bounds may hold any unit, whatever the keys.
    const key = (bound = false): string =>
      `k${rand(6000)}${rand(3) === 0 ? high : ""}${bound && rand(3) === 0 ? "\uE000" : ""}`
    for (let step = 0; step < 12_000; step++) {
      const k = key()
      if (rand(3) === 0) expect(index.remove(k)).toBe(model.delete(k))
      else expect(index.insert(k)).toBe(!model.has(k) && model.add(k) !== undefined)
      if (step % 1500 === 0 || step === 11_999) {
        const sorted = [...model].sort(utf8Order)
        expect(index.size).toBe(sorted.length)
        expect(index.range({})).toEqual(sorted)
        if (high === "") expect((index as unknown as { plain: boolean }).plain).toBe(true)
        for (let q = 0; q < 20; q++) {
          const [a, b] = [key(true), key(true)]
          const strict = rand(2) === 0
          const limit = rand(2) === 0 ? undefined : 1 + rand(700)
          const within = sorted.filter(
            (x) => (strict ? utf8Order(x, a) > 0 : utf8Order(x, a) >= 0) && utf8Order(x, b) < 0
          )
          const forward = index.range({
            lower: a,
            lowerStrict: strict,
            upper: b,
            ...(limit === undefined ? {} : { limit })
          })
          expect(forward).toEqual(within.slice(0, limit))
          const backward = index.range({
            lower: a,
            lowerStrict: strict,
            upper: b,
            reverse: true,
            ...(limit === undefined ? {} : { limit })
          })
          expect(backward).toEqual([...within].reverse().slice(0, limit))
        }
      }
    }
    expect(KeyIndex.fromSorted([...model].sort(utf8Order)).range({ reverse: true, limit: 3 })).toEqual(
      [...model].sort(utf8Order).reverse().slice(0, 3)
    )
  })
})
