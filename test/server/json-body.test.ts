/**
 * The reader of large JSON bodies (src/server/json-body.ts) says what the whole-text path says:
 * `JSON.parse` of the body and the nesting check of json-depth.ts, with too deep winning over a
 * syntax error anywhere, however the bytes are cut into chunks.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { jsonDepthOver } from "../../src/domain/json-depth.js"
import { JsonBodyReader, type JsonBody } from "../../src/server/json-body.js"

const MaxDepth = 4

/** What the body was before the reader: one string, one depth pass, one JSON.parse (json-body.ts's contract). */
const oracle = (bytes: Buffer): JsonBody => {
  const text = bytes.toString("utf8")
  if (jsonDepthOver(text, MaxDepth)) return { _tag: "TooDeep" }
  if (!/^[ \n\r\t]*\[/.test(text)) return { _tag: "Text", text }
  try {
    return { _tag: "Array", value: JSON.parse(text) as Array<unknown> }
  } catch {
    return { _tag: "NotJson" }
  }
}

const read = (bytes: Buffer, cuts: ReadonlyArray<number>, whole: boolean, maxDepth = MaxDepth): JsonBody => {
  const reader = new JsonBodyReader({
    maxDepth,
    size: bytes.length,
    limit: bytes.length,
    ...(whole ? { whole: bytes } : {})
  })
  let at = 0
  for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    reader.push(bytes.subarray(at, cut))
    at = cut
  }
  reader.push(bytes.subarray(at))
  return reader.end()
}

/** JSON values nested up to ~12 levels, and texts near JSON: cut, spliced, with stray brackets and escapes. */
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
    fc.string({ unit: fc.constantFrom("a", "é", "\\", '"', "[", "]", "{", "}", ",", "😀", "\n") }),
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

describe("the large JSON body reader", () => {
  it("answers as JSON.parse and the nesting check of the whole text, however the body is cut", () => {
    fc.assert(
      fc.property(nearJson, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (text, cuts, whole) => {
        const bytes = Buffer.from(text, "utf8")
        expect(read(bytes, cuts, whole)).toEqual(oracle(bytes))
      }),
      { numRuns: 5000 }
    )
  })

  it("parses an array of many elements in runs, one chunk after another", () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({ i, s: "x".repeat(i % 97), n: [i, { d: [i] }] }))
    const bytes = Buffer.from(JSON.stringify(items))
    const cuts = Array.from({ length: 200 }, (_, k) => Math.floor((k * bytes.length) / 200) + 7)
    expect(read(bytes, cuts, false, 100)).toEqual({ _tag: "Array", value: items })
  })

  it("finds an element nested too deep after a syntax error, and past the end of the array", () => {
    const deep = "[".repeat(MaxDepth + 1) + "]".repeat(MaxDepth + 1)
    const atLimit = "[".repeat(MaxDepth) + "]".repeat(MaxDepth)
    const cases = [
      `[1, x, ${deep}]`,
      `[1] ${deep}`,
      `[1}, ${deep}]`,
      `[${deep}, x]`,
      `[1,,${atLimit}]`,
      `[1}[${atLimit}]`
    ]
    for (const text of cases) expect(read(Buffer.from(text), [3, 9], false)).toEqual({ _tag: "TooDeep" })
  })
})
