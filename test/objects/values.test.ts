import { deserialize, serialize } from "node:v8"
import { describe, expect, it } from "vitest"
import { compareUtf8, MAX_VALUE_BYTES } from "../../src/objects/index.js"
import { fastDeserialize, fastSerialize } from "../../src/objects/v8-fast.js"
import { openStorage, random, tempDir } from "../helpers/objects.js"

const samples: Array<unknown> = [
  1,
  -1,
  0,
  -0,
  2 ** 30,
  -(2 ** 30),
  2 ** 31,
  -(2 ** 31),
  1.5,
  Number.NaN,
  Infinity,
  "",
  "abc",
  "é",
  "ü€",
  "a😀b",
  "\u0000",
  true,
  false,
  null,
  undefined,
  { a: 1, b: "é€", c: [1, 2, { d: null }] },
  [],
  [1, "two", [3]],
  { "0": 1, x: 2, "4294967295": 3 },
  "€".repeat(300),
  "x".repeat(200),
  ["€", "a€", 1, "aa€"],
  { "é€": ["€"], u: undefined },
  [[[[[[1]]]]]]
]
// Forms the fast reader leaves to node:v8.
const hard: Array<unknown> = [
  // eslint-disable-next-line no-sparse-arrays -- an array with a hole is the value under test
  [1, , 3],
  new Date(1),
  new Map([[1, 2]]),
  new Set(["a"]),
  new Uint8Array([1, 2]),
  10n,
  /x/g,
  Object.assign([1, 2], { extra: true }),
  { ["__proto__"]: 1 },
  JSON.parse('{"__proto__": {"a": 1}}'),
  new String("boxed"),
  new Error("e")
]

describe("value encoding", () => {
  it("the fast reader reads what node:v8 and the fast writer write, exactly as node:v8 does", () => {
    for (const v of [...samples, ...hard]) {
      expect(fastDeserialize(serialize(v))).toStrictEqual(deserialize(serialize(v)))
      expect(fastDeserialize(fastSerialize(v))).toStrictEqual(deserialize(fastSerialize(v)))
    }
    const shared = { s: 1 }
    const twice = fastDeserialize(serialize([shared, shared])) as Array<unknown>
    expect(twice[0]).toBe(twice[1])
    const proto = fastDeserialize(serialize(JSON.parse('{"__proto__": {"a": 1}}'))) as Record<string, unknown>
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype)
    expect(Object.keys(proto)).toEqual(["__proto__"])
  })

  it("the fast reader refuses damaged bytes as node:v8 does, never returning a partial value", () => {
    const good = serialize({ a: "text", b: [1, 2] })
    for (let cut = 2; cut < good.length; cut++) expect(() => fastDeserialize(good.subarray(0, cut))).toThrow()
    expect(() => fastDeserialize(Buffer.from([0xff, 0x0f, 0x22, 0x09, 0x61]))).toThrow()
  })

  it("strings of every kind round-trip through put/get/list, cached, uncached and after reopening", async () => {
    const dir = tempDir()
    const values: Record<string, string> = {
      empty: "",
      nul: "a\u0000b\u0000",
      latin1: "déjà vu ÿ",
      bmp: "€ \uE000 \uFFFF",
      astral: "😀 \u{10FFFF}",
      lone: "\uD800 alone",
      loneLow: "x\uDC00",
      long: "y".repeat(100_000),
      mixed: `${"z".repeat(60_000)}€`
    }
    const s = openStorage(dir)
    await s.put(values)
    await s.put("one", "\uDBFF")
    const expected = new Map(Object.entries({ ...values, one: "\uDBFF" }).sort(([a], [b]) => compareUtf8(a, b)))
    expect(await s.list()).toEqual(expected)
    for (const [k, v] of expected) {
      expect(await s.get(k)).toBe(v)
      expect(await s.get(k, { noCache: true })).toBe(v)
    }
    s.close()
    const again = openStorage(dir)
    expect(await again.list()).toEqual(expected)
    expect(await again.get([...expected.keys()])).toEqual(expected)
  })

  it("a string's size is its V8 serialized size: the limit is exact for one-byte and two-byte strings", async () => {
    const s = openStorage()
    for (const [unit, fits] of [
      ["x", 131_066],
      ["€", 65_533]
    ] as const) {
      const ok = unit.repeat(fits)
      expect(serialize(ok).length).toBe(MAX_VALUE_BYTES)
      await s.put("k", ok)
      expect(await s.get("k", { noCache: true })).toBe(ok)
      const over = unit.repeat(fits + 1)
      await expect(s.put("k", over)).rejects.toThrow(`limit 131072 = 128 KiB): ${serialize(over).length} exceeds`)
    }
  })

  it("list() gives the same answer whether all, some, few or none of its values are cached", async () => {
    const dir = tempDir()
    const s = openStorage(dir)
    const all = new Map<string, unknown>()
    for (let i = 0; i < 300; i += 100) {
      const batch = Object.fromEntries(
        Array.from({ length: 100 }, (_, j) => [
          `k${String(i + j).padStart(3, "0")}`,
          i % 200 === 0 ? `v${i + j}` : { n: i + j }
        ])
      )
      await s.put(batch)
      for (const [k, v] of Object.entries(batch)) all.set(k, v)
    }
    expect(await s.list()).toEqual(all)
    await s.put("k000", "changed", { noCache: true })
    all.set("k000", "changed")
    expect(await s.list({ limit: 50 })).toEqual(new Map([...all].slice(0, 50)))
    s.close()
    const cold = openStorage(dir)
    for (const k of ["k001", "k150", "k299"]) await cold.get(k)
    expect(await cold.list()).toEqual(all)
    expect(await cold.list({ prefix: "k29" })).toEqual(new Map([...all].filter(([k]) => k.startsWith("k29"))))
    expect(await cold.list({ reverse: true, limit: 5 })).toEqual(new Map([...all].reverse().slice(0, 5)))
  })

  it("get(keys[]) mixes cached and stored values in UTF-8 order, each key once, absent keys omitted", async () => {
    const dir = tempDir()
    const s = openStorage(dir)
    await s.put({ a: "1", "\u{1F600}": { n: 2 }, "\uE000": "3", b: "4" })
    s.close()
    const t = openStorage(dir)
    expect(await t.get("b")).toBe("4")
    const m = await t.get(["\u{1F600}", "nope", "b", "\uE000", "a", "b"])
    expect([...m]).toEqual([
      ["a", "1"],
      ["b", "4"],
      ["\uE000", "3"],
      ["\u{1F600}", { n: 2 }]
    ])
    expect(await t.get(["nope"])).toEqual(new Map())
    await t.put("nope", "now")
    expect(await t.get(["nope", "a"], { noCache: true })).toEqual(
      new Map([
        ["a", "1"],
        ["nope", "now"]
      ])
    )
    expect(await t.get(["\u{1F600}", "b"])).toEqual(
      new Map<string, unknown>([
        ["b", "4"],
        ["\u{1F600}", { n: 2 }]
      ])
    )
  })

  it("put(entries) of every batch size writes every entry and replaces existing ones", async () => {
    const s = openStorage()
    const all = new Map<string, unknown>()
    for (const n of [1, 2, 3, 64, 127, 128]) {
      const batch = Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`k${String(i).padStart(3, "0")}`, n % 2 === 0 ? `${n}:${i}` : [n, i]])
      )
      await s.put(batch, n === 3 ? { noCache: true } : {})
      for (const [k, v] of Object.entries(batch)) all.set(k, v)
      expect(await s.list()).toEqual(new Map([...all].sort(([a], [b]) => compareUtf8(a, b))))
    }
  })

  it("compareUtf8 orders like UTF-8 bytes", () => {
    const units = [0x00, 0x41, 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0xffff]
    const rand = random(12345)
    const strings: Array<string> = []
    for (let i = 0; i < 200; i++) {
      let s = ""
      for (let j = rand(4); j >= 0; j--)
        s +=
          rand(3) === 0
            ? String.fromCodePoint(0x10000 + rand(0x100000))
            : String.fromCharCode(units[rand(units.length)]!)
      strings.push(s)
    }
    for (const a of strings) {
      for (const b of strings.slice(0, 60))
        expect(Math.sign(compareUtf8(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))))
    }
  })
})
