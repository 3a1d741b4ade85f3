/**
 * Properties: the checker never throws on any input and always answers with a checked expression
 * or at least one error inside the input; formatting a checked expression and parsing it again
 * gives the same tree; compiled expressions evaluate any request without throwing.
 */
import { FastCheck as fc } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { check, compile, format, sameTree, type CheckResult } from "../../src/rules/index.js"

const vectors = (
  JSON.parse(
    fs.readFileSync(path.join(import.meta.dirname, "..", "..", "fixtures", "rules-test-vectors.json"), "utf8")
  ) as {
    vectors: ReadonlyArray<{ expression: string; scheme?: string }>
  }
).vectors
  .filter((v) => v.scheme === undefined && v.expression.length < 200)
  .map((v) => v.expression)

/** The answer is well-formed: a checked tree, or errors whose ranges lie inside the input. */
const wellFormed = (src: string, r: CheckResult) => {
  expect(r.source).toBe(src)
  if (r.valid) expect(r.checked).toBeDefined()
  else {
    expect(r.checked).toBeUndefined()
    expect(r.diagnostics.some((d) => d.severity === "error")).toBe(true)
  }
  for (const d of r.diagnostics) {
    expect(d.code).not.toBe("internal-error")
    expect(d.code).toMatch(/^[a-z]+(-[a-z0-9]+)*$/)
    expect(d.range.start).toBeGreaterThanOrEqual(0)
    expect(d.range.start).toBeLessThanOrEqual(d.range.end)
    expect(d.range.end).toBeLessThanOrEqual(src.length)
  }
}

// Pieces that reach deep into the grammar when glued together at random.
const TOKENS = [
  "http.host",
  "ip.src",
  "ssl",
  "cf.edge.server_port",
  "http.request.headers",
  "http.request.headers.names",
  "lower",
  "any",
  "all",
  "concat",
  "len",
  "url_decode",
  "cidr",
  " eq ",
  " ne ",
  " == ",
  " != ",
  " lt ",
  " >= ",
  " contains ",
  " matches ",
  " ~ ",
  " wildcard ",
  " strict wildcard ",
  " in ",
  " & ",
  " and ",
  " or ",
  " xor ",
  " && ",
  " || ",
  " ^^ ",
  "not ",
  "!",
  "(",
  ")",
  "[",
  "]",
  "[*]",
  "[0]",
  '["a"]',
  "{",
  "}",
  ",",
  "$list",
  '"a"',
  '"\\x41"',
  '"\\n"',
  'r#"x"#',
  'r"',
  '"',
  "\\",
  "1",
  "0x1f",
  "0123",
  "-5",
  "1..5",
  "10.0.0.0/8",
  "2001:db8::1",
  "::",
  "/33",
  "..",
  "6f:72",
  "true",
  "false",
  "\t",
  "\n",
  " ",
  "#",
  "\u00a0",
  "é",
  "😀",
  '"(?u)\\p{L}"',
  '"(?=x)"',
  '"a**"',
  "9223372036854775808"
]
const tokenSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }).map((ts) => ts.join(""))

/** A mutation of a valid expression: delete, insert, replace or duplicate a slice. */
const mutated = fc
  .tuple(
    fc.constantFrom(...vectors),
    fc.nat(),
    fc.nat(),
    fc.constantFrom(...TOKENS, ""),
    fc.constantFrom("delete", "insert", "replace", "duplicate")
  )
  .map(([src, a, b, token, op]) => {
    const i = a % (src.length + 1)
    const j = Math.min(src.length, i + (b % 8))
    switch (op) {
      case "delete":
        return src.slice(0, i) + src.slice(j)
      case "insert":
        return src.slice(0, i) + token + src.slice(i)
      case "replace":
        return src.slice(0, i) + token + src.slice(j)
      default:
        return src.slice(0, j) + src.slice(i, j) + src.slice(j)
    }
  })

// Valid expressions, generated from the grammar.
const str = fc
  .string({ maxLength: 6 })
  .map((s) =>
    JSON.stringify(s).replace(/\\u([0-9a-f]{2})([0-9a-f]{2})/g, (_, hi: string, lo: string) =>
      hi === "00" ? `\\x${lo}` : `\\u${hi}${lo}`
    )
  )
const plainStr = fc.stringMatching(/^[a-z0-9/._-]{0,8}$/).map((s) => `"${s}"`)
const int = fc.integer({ min: -1000, max: 70000 }).map(String)
const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join("."))
const comparison = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        "http.host",
        "http.request.uri.path",
        "http.user_agent",
        'http.request.headers["x"][0]',
        "lower(http.host)"
      ),
      fc.constantFrom("eq", "ne", "==", "lt", "ge", "contains"),
      plainStr
    )
    .map(([f, o, v]) => `${f} ${o} ${v}`),
  fc
    .tuple(
      fc.constantFrom("http.host", "http.request.uri.path"),
      fc.constantFrom("wildcard", "strict wildcard"),
      fc.stringMatching(/^[a-z*.]{0,6}$/).filter((s) => !s.includes("**"))
    )
    .map(([f, o, v]) => `${f} ${o} "${v}"`),
  fc
    .tuple(
      fc.constantFrom("http.host", "http.request.uri.path"),
      fc.constantFrom('"^/a"', 'r"\\d+"', '"(?i)admin"', '"[a-z]+$"')
    )
    .map(([f, v]) => `${f} matches ${v}`),
  fc
    .tuple(
      fc.constantFrom("cf.edge.server_port", "ip.src.asnum", "len(http.host)"),
      fc.constantFrom("eq", "ne", "lt", "le", "gt", "ge", "&"),
      int
    )
    .map(([f, o, v]) => `${f} ${o} ${v}`),
  fc
    .tuple(
      fc.constantFrom("cf.edge.server_port", "ip.src.asnum"),
      fc.array(
        fc.oneof(
          int,
          fc.tuple(fc.nat(100), fc.nat(100)).map(([a, b]) => `${a}..${a + b}`)
        ),
        { maxLength: 4 }
      )
    )
    .map(([f, xs]) => `${f} in {${xs.join(" ")}}`),
  fc
    .tuple(fc.constantFrom("ip.src", "cf.edge.server_ip"), fc.constantFrom("eq", "ne"), ipv4)
    .map(([f, o, v]) => `${f} ${o} ${v}`),
  fc
    .tuple(
      fc.array(fc.oneof(ipv4, fc.constantFrom("10.0.0.0/8", "2001:db8::/32", "192.0.2.1..192.0.2.9")), { maxLength: 4 })
    )
    .map(([xs]) => `ip.src in {${xs.join(" ")}}`),
  fc
    .tuple(
      fc.constantFrom("any", "all"),
      fc.constantFrom(
        "http.request.headers.names[*]",
        'http.request.headers["a"][*]',
        "lower(http.request.uri.args.values[*])[*]"
      ),
      str
    )
    .map(([q, f, v]) => `${q}(${f} eq ${v})`),
  fc.constantFrom("ssl", "cf.client.bot", "true", 'starts_with(http.host, "a")', "http.request.headers.truncated")
)
const expression: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    comparison,
    fc
      .tuple(tie("e"), fc.constantFrom(" and ", " or ", " xor ", " && ", " || ", " ^^ "), tie("e"))
      .map(([a, o, b]) => `${a}${o}${b}`),
    tie("e").map((a) => `(${a})`),
    tie("e").map((a) => `not (${a})`),
    tie("e").map((a) => `!(${a})`)
  )
})).e

const request = fc.record(
  {
    "http.host": fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null), fc.integer()),
    "http.request.uri.path": fc.string({ maxLength: 12 }),
    "http.request.headers": fc.dictionary(
      fc.constantFrom("a", "x", "b"),
      fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 })
    ),
    "http.request.headers.names": fc.array(fc.string({ maxLength: 4 }), { maxLength: 4 }),
    "ip.src": fc.oneof(ipv4, fc.constant("2001:db8::7"), fc.constant("bad")),
    "cf.edge.server_port": fc.oneof(fc.integer({ min: 0, max: 70000 }), fc.double()),
    ssl: fc.boolean()
  },
  { requiredKeys: [] }
)

describe("rules properties", () => {
  it("never throws on random text and answers well-formed", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: "grapheme" }), (src) => wellFormed(src, check(src))),
      { numRuns: 500 }
    )
  })

  it("never throws on token soup", () => {
    fc.assert(
      fc.property(tokenSoup, (src) => wellFormed(src, check(src))),
      { numRuns: 2000 }
    )
  })

  it("never throws on mutated valid expressions, and formats the ones that stay valid", () => {
    fc.assert(
      fc.property(mutated, (src) => {
        const r = check(src)
        wellFormed(src, r)
        if (r.checked) {
          const again = check(format(r.checked.expression))
          expect(again.valid).toBe(true)
          expect(sameTree(again.tree, r.tree)).toBe(true)
        }
      }),
      { numRuns: 2000 }
    )
  })

  it("checks generated expressions, and format then parse gives the same tree", () => {
    fc.assert(
      fc.property(expression, fc.constantFrom(undefined, 40), (src, width) => {
        const r = check(src, { maxLength: false })
        expect(
          r.diagnostics.filter((d) => d.severity === "error"),
          src
        ).toEqual([])
        const printed = format(r.checked!.expression, width === undefined ? {} : { width })
        const again = check(printed, { maxLength: false })
        expect(again.valid, printed).toBe(true)
        expect(sameTree(again.tree, r.tree)).toBe(true)
        // Canonical: formatting is idempotent.
        expect(format(again.checked!.expression, width === undefined ? {} : { width })).toBe(printed)
      }),
      { numRuns: 500 }
    )
  })

  it("evaluates generated expressions against random requests without throwing, the same on a shared context", () => {
    fc.assert(
      fc.property(expression, request, (src, req) => {
        const r = check(src, { maxLength: false })
        const run = compile(r.checked!)
        const once = run(req)
        expect(typeof once).toBe("boolean")
        expect(run(run.context(req))).toBe(once)
      }),
      { numRuns: 500 }
    )
  })
})
