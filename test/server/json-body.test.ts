/**
 * The reader of large JSON bodies (src/server/json-body.ts) says what the whole-text path says:
 * `JSON.parse` of the body and the nesting check of json-depth.ts, with too deep winning over a
 * syntax error anywhere, however the bytes are cut into chunks.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { jsonDepthOver } from "../../src/domain/json-depth.js"
import { jsonPrefix, JsonBodyReader, type JsonBody } from "../../src/server/json-body.js"

const MaxDepth = 4

/** What the body was before the reader: one string, one depth pass, one JSON.parse (json-body.ts's contract). */
const oracle = (bytes: Buffer): JsonBody => {
  const text = bytes.toString("utf8")
  if (jsonDepthOver(text, MaxDepth)) return { _tag: "TooDeep" }
  if (/^[ \n\r\t]*$/.test(text)) return { _tag: "Text", text }
  try {
    return { _tag: "Value", value: JSON.parse(text) as unknown }
  } catch {
    return { _tag: "NotJson" }
  }
}

const read = (bytes: Buffer, cuts: ReadonlyArray<number>, maxDepth = MaxDepth): JsonBody => {
  const reader = new JsonBodyReader(maxDepth)
  let at = 0
  for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    reader.push(bytes.subarray(at, cut))
    at = cut
  }
  reader.push(bytes.subarray(at))
  return reader.end()
}

/** Object.is on numbers (-0), own __proto__ properties and key order included. */
const same = (a: JsonBody, b: JsonBody) => {
  expect(a._tag).toBe(b._tag)
  if (a._tag === "Value" && b._tag === "Value") expect(JSON.stringify(a.value)).toBe(JSON.stringify(b.value))
  expect(a).toStrictEqual(b)
}

/** JSON values nested up to ~12 levels, and texts near JSON: cut, spliced, with stray brackets and escapes. */
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
    fc.string({ unit: fc.constantFrom("a", "é", "\\", '"', "[", "]", "{", "}", ",", "😀", "\n", "\u0001", "\ud800") }),
    fc.constantFrom(0, -0, 1e21, 1.5e-7, 123456789012345680000, -1),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom("a", "b", "__proto__", "[", '"'), tie("v"), { maxKeys: 3 })
  )
})).v

const nearJson = fc.oneof(
  fc.array(value, { maxLength: 6 }).map((v) => JSON.stringify(v, null, Math.random() < 0.5 ? 1 : undefined)),
  value.map((v) => ` ${JSON.stringify(v)} `),
  fc
    .tuple(
      fc.array(value, { maxLength: 6 }),
      fc.nat(),
      fc.constantFrom("", "]", "[", "}", ",", '"', "\\", "x", "[[[[[[[[[[")
    )
    .map(([v, at, junk]) => {
      const t = JSON.stringify(v)
      const i = at % (t.length + 1)
      return t.slice(0, i) + junk + t.slice(i)
    }),
  // Nesting around the limit, with a syntax error before or after it.
  fc
    .tuple(
      fc.array(fc.integer({ min: 0, max: MaxDepth + 1 }), { minLength: 1, maxLength: 4 }),
      fc.nat(),
      fc.constantFrom(",", "]", "}", "x", " 1 ")
    )
    .map(([depths, at, junk]) => {
      const t = `[${depths.map((d) => "[".repeat(d) + "1" + "]".repeat(d)).join(",")}]`
      const i = at % (t.length + 1)
      return t.slice(0, i) + junk + t.slice(i)
    }),
  fc.constantFrom("", "  ", "[]", "[1,]", "[,1]", "[1 2]", "[1]]", "[1] x", "[{]", "\uFEFF[1]", "[" + "[".repeat(9))
)

/** Bytes no JSON text makes: cut UTF-8, stray bytes, raw control characters, broken escapes and words. */
const junkBytes = fc.constantFrom(
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xff]),
  Buffer.from([0xf0, 0x9f, 0x98]),
  Buffer.from([0x01]),
  Buffer.from("\\u12"),
  Buffer.from("\\x"),
  Buffer.from('"\\u00e9\\uD83D\\ude00"'),
  Buffer.from("tru"),
  Buffer.from("-"),
  Buffer.from("01"),
  Buffer.from("1."),
  Buffer.from("1e"),
  Buffer.from('{"a" 1}'),
  Buffer.from('{"a":}'),
  Buffer.from("\uFEFF")
)
const nearBytes = fc.oneof(
  nearJson.map((t) => Buffer.from(t, "utf8")),
  fc.tuple(value, fc.nat(), junkBytes).map(([v, at, junk]) => {
    const t = Buffer.from(JSON.stringify(v), "utf8")
    const i = at % (t.length + 1)
    return Buffer.concat([t.subarray(0, i), junk, t.subarray(i)])
  })
)

describe("the large JSON body reader", () => {
  it("answers as JSON.parse and the nesting check of the whole text, however the body is cut", () => {
    fc.assert(
      fc.property(nearBytes, fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) =>
        same(read(bytes, cuts), oracle(bytes))
      ),
      { numRuns: 8000 }
    )
  })

  it("parses a body of many values, one chunk after another", () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({
      i,
      s: "x".repeat(i % 97) + "é😀",
      n: [i, -i / 7, { d: [i] }]
    }))
    const bytes = Buffer.from(JSON.stringify({ items }))
    const cuts = Array.from({ length: 200 }, (_, k) => Math.floor((k * bytes.length) / 200) + 7)
    same(read(bytes, cuts, 100), { _tag: "Value", value: JSON.parse(bytes.toString()) as unknown })
  })

  it("finds nesting too deep after a syntax error, past the end of the value, and inside a broken string", () => {
    const deep = "[".repeat(MaxDepth + 1) + "]".repeat(MaxDepth + 1)
    const atLimit = "[".repeat(MaxDepth) + "]".repeat(MaxDepth)
    const cases = [
      `[1, x, ${deep}]`,
      `[1] ${deep}`,
      `[1}, ${deep}]`,
      `[${deep}, x]`,
      `[1,,${atLimit}]`,
      `[1}[${atLimit}]`,
      `{"a" ${deep}}`,
      `["\\x", ${deep}]`,
      `["\\u12", ${deep}]`
    ]
    for (const text of cases) expect(read(Buffer.from(text), [3, 9]), text).toEqual({ _tag: "TooDeep" })
    // Inside a string (as a text scan reads it), brackets do not count.
    for (const text of [`["\\x${deep}"]`, `["\u0001${deep}"`, `{"\\u1${deep}"}`])
      expect(read(Buffer.from(text), [2]), text).toEqual({ _tag: "NotJson" })
  })

  it("quotes the first characters of a value as JSON.stringify would, without serializing the rest", () => {
    const anything = fc.oneof(fc.jsonValue(), value, fc.string({ unit: "grapheme", maxLength: 200 }))
    fc.assert(
      fc.property(anything, fc.integer({ min: 1, max: 120 }), (v, max) => {
        expect(jsonPrefix(v, max)).toBe(JSON.stringify(v)?.slice(0, max))
      }),
      { numRuns: 3000 }
    )
    const huge = { rules: Array.from({ length: 3 }, () => ({ x: "😀".repeat(1e6) })), b: [undefined, () => 1] }
    expect(jsonPrefix(huge, 80)).toBe(JSON.stringify(huge).slice(0, 80))
    expect(jsonPrefix(undefined, 80)).toBeUndefined()
  })
})
