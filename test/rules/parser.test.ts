/** Units: the lexer's literals and strings, the parser's structure and ranges, and error recovery. */
import { describe, expect, it } from "vitest"
import { check, type Comparison, type Expression, type Logical, type Node } from "../../src/rules/index.js"
import { lexString } from "../../src/rules/lexer.js"

const tree = (src: string): Expression => {
  const r = check(src)
  expect(
    r.diagnostics.filter((d) => d.severity === "error"),
    src
  ).toEqual([])
  return r.tree
}
const codes = (src: string) => check(src).diagnostics.map((d) => d.code)
const slice = (src: string, n: { range: { start: number; end: number } }) => src.slice(n.range.start, n.range.end)

/** A compact picture of a tree: `or(and(a, b), c)`. */
const shape = (n: Node): string => {
  switch (n.kind) {
    case "logical":
      return `${n.op}(${n.operands.map(shape).join(", ")})`
    case "not":
      return `not(${shape(n.operand)})`
    case "group":
      return `(${shape(n.expression)})`
    case "comparison":
      return `${shape(n.lhs)} ${n.operator.name}`
    case "bare":
      return shape(n.value)
    case "field":
      return n.name
    case "call":
      return `${n.name}()`
    case "index":
      return `${shape(n.target)}[]`
    case "constant":
      return String(n.value)
    default:
      return n.kind
  }
}

describe("lexer: strings", () => {
  const lex = (src: string, regex = false) => {
    const out: Array<unknown> = []
    const s = lexString(src, 0, regex, out as never)
    return { s, out }
  }

  it("decodes the four escapes of quoted strings into bytes", () => {
    const { s, out } = lex('"a\\"b\\\\c\\x41\\101\\xff"')
    expect(out).toEqual([])
    expect(s.value).toBe('a"b\\cAA\xff')
    expect(s.range).toEqual({ start: 0, end: 21 })
  })

  it("encodes non-ASCII text as its UTF-8 bytes", () => {
    expect(lex('"é한"').s.value).toBe("\xc3\xa9\xed\x95\x9c")
  })

  it("rejects other escapes with the escape's span and a hint", () => {
    const { out } = lex('"a\\nb"')
    expect(out).toMatchObject([
      { code: "invalid-escape", range: { start: 2, end: 4 }, hint: expect.stringContaining("\\x0A") }
    ])
    expect(lex('"\\x4"').out).toMatchObject([{ code: "invalid-escape" }])
    expect(lex('"\\400"').out).toMatchObject([{ code: "invalid-escape", message: expect.stringContaining("\\377") }])
  })

  it("reports an unterminated string over the rest of the input", () => {
    expect(lex('"abc').out).toMatchObject([{ code: "unterminated-string", range: { start: 0, end: 4 } }])
    expect(lex('"abc\\').out).toMatchObject([{ code: "unterminated-string" }])
  })

  it("reads raw strings with hashes and leaves what follows the delimiter", () => {
    const s = lex('r#"a"b"#tail').s
    expect(s.value).toBe('a"b')
    expect(s.range.end).toBe(8)
    expect(lex('r"x\\d"').s.value).toBe("x\\d")
    expect(lex('r#"a"').out).toMatchObject([{ code: "unterminated-string" }])
    expect(lex(`r${"#".repeat(256)}"a"${"#".repeat(256)}`).out).toMatchObject([{ code: "invalid-raw-string" }])
  })

  it('keeps regex escapes for the regex engine, except \\" outside classes', () => {
    expect(lex('"^api\\\\."', true).s.pattern).toBe("^api\\\\.")
    expect(lex('"\\d+\\."', true).s.pattern).toBe("\\d+\\.")
    expect(lex('"a\\"b"', true).s.pattern).toBe('a"b')
    // Inside a class a quote does not end the string and \" stays as written.
    expect(lex('"[a-z"\\]]+"', true).s.pattern).toBe('[a-z"\\]]+')
  })
})

describe("parser: structure", () => {
  it("builds n-ary logical nodes with precedence not > and > xor > or", () => {
    expect(shape(tree('ssl or cf.client.bot && http.host eq "a" and ssl or ssl ^^ ssl and ssl || ssl'))).toBe(
      "or(ssl, and(cf.client.bot, http.host eq, ssl), xor(ssl, and(ssl, ssl)), ssl)"
    )
    expect(shape(tree("not ssl and cf.client.bot"))).toBe("and(not(ssl), cf.client.bot)")
    expect(shape(tree('not http.host eq "x"'))).toBe("not(http.host eq)")
    expect(shape(tree("!!ssl"))).toBe("not(not(ssl))")
    expect(shape(tree("! (not !ssl)"))).toBe("not((not(not(ssl))))")
  })

  it("reads both notations of every operator", () => {
    const pairs: ReadonlyArray<readonly [string, string]> = [
      ["eq", "=="],
      ["ne", "!="],
      ["lt", "<"],
      ["le", "<="],
      ["gt", ">"],
      ["ge", ">="]
    ]
    for (const [word, sym] of pairs) {
      const a = tree(`cf.edge.server_port ${word} 80`) as Comparison
      const b = tree(`cf.edge.server_port ${sym} 80`) as Comparison
      expect(a.operator.name).toBe(word)
      expect(b.operator.name).toBe(word)
      expect(b.operator.text).toBe(sym)
    }
    expect((tree('http.host ~ "a"') as Comparison).operator.name).toBe("matches")
    expect((tree("cf.edge.server_port & 1") as Comparison).operator.name).toBe("bitwise_and")
    expect((tree('http.host strict wildcard "a*"') as Comparison).operator.name).toBe("strict wildcard")
  })

  it("gives every node its source range", () => {
    const src = 'lower(http.request.headers["x"][0]) contains "a" and ip.src in {10.0.0.0/8 $x}'.replace(" $x", "")
    const t = tree(src) as Logical
    expect(slice(src, t)).toBe(src)
    const c = t.operands[0] as Comparison
    expect(slice(src, c.lhs)).toBe('lower(http.request.headers["x"][0])')
    expect(slice(src, c.operator)).toBe("contains")
    expect(slice(src, c.rhs)).toBe('"a"')
    const call = c.lhs as Extract<Node, { kind: "call" }>
    expect(slice(src, { range: call.nameRange })).toBe("lower")
    const idx = call.args[0] as Extract<Node, { kind: "index" }>
    expect(slice(src, { range: idx.keyRange })).toBe("[0]")
    expect(slice(src, idx.target)).toBe('http.request.headers["x"]')
    const set = (t.operands[1] as Comparison).rhs as Extract<Node, { kind: "set" }>
    expect(slice(src, set)).toBe("{10.0.0.0/8}")
    expect(slice(src, set.items[0]!)).toBe("10.0.0.0/8")
  })

  it("reads literals in the type of the left-hand side", () => {
    const ints = (
      (tree("cf.edge.server_port in {0x50 0123 -5 1..3}") as Comparison).rhs as { items: ReadonlyArray<unknown> }
    ).items
    expect(ints).toMatchObject([
      { kind: "int", value: 80 },
      { kind: "int", value: 83 },
      { kind: "int", value: -5 },
      { kind: "int-range", from: 1, to: 3 }
    ])
    const ips = (
      (tree("ip.src in {192.0.2.1 10.0.0.0/8 2001:db8::/32 10.0.0.1..10.0.0.9}") as Comparison).rhs as {
        items: ReadonlyArray<{ kind: string }>
      }
    ).items
    expect(ips.map((i) => i.kind)).toEqual(["ip", "cidr", "cidr", "ip-range"])
    expect((tree("http.host contains 6F:72-67.2e") as Comparison).rhs).toMatchObject({ kind: "bytes", value: "org." })
  })

  it("accepts glued tokens where they are unambiguous, warning about glued keywords", () => {
    expect(tree('http.host eq"x"')).toMatchObject({ kind: "comparison" })
    expect(tree("(ssl)and(ssl)")).toMatchObject({ kind: "logical" })
    expect(check("notssl").diagnostics).toMatchObject([{ severity: "warning", code: "glued-keyword" }])
    expect(check("ssl andcf.client.bot").diagnostics).toMatchObject([{ severity: "warning", code: "glued-keyword" }])
    expect(check("cf.edge.server_port eq 80and ssl").diagnostics).toMatchObject([
      { severity: "warning", code: "glued-keyword" }
    ])
  })

  it("treats true/false as constants and accepts tabs with a warning", () => {
    expect(tree("true")).toMatchObject({ kind: "constant", value: true })
    expect(tree("ssl and false")).toMatchObject({ kind: "logical" })
    const tabbed = check("ssl\tand\tssl")
    expect(tabbed.valid).toBe(true)
    expect(tabbed.diagnostics.map((d) => d.code)).toEqual(["tab-character", "tab-character"])
  })

  it("handles 128 levels of nesting and stops at 129 without deep recursion", () => {
    expect(check(`${"(".repeat(128)}ssl${")".repeat(128)}`).valid).toBe(true)
    expect(codes(`${"(".repeat(129)}ssl${")".repeat(129)}`)).toEqual(["nesting-too-deep"])
    expect(codes(`${"not ".repeat(200)}ssl`)).toEqual(["nesting-too-deep"])
    expect(codes(`${"lower(".repeat(200)}http.host${")".repeat(200)} eq "a"`)).toContain("nesting-too-deep")
    const huge = check(`${"(".repeat(100_000)}ssl`)
    expect(huge.valid).toBe(false)
    expect(check("ssl", { maxDepth: 0 }).valid).toBe(true)
  })
})

describe("parser: error recovery", () => {
  it("reports independent problems in one pass", () => {
    const r = check('http.hots eq "a" and ip.src in {10.0.0.0/33, 1.2.3.4} or cf.threat_score contains "x" and (ssl')
    expect(r.diagnostics.map((d) => d.code)).toEqual([
      "unknown-field",
      "invalid-cidr",
      "set-comma",
      "unsupported-operator",
      "unclosed-parenthesis"
    ])
  })

  it("reports a missing operator between conditions and keeps checking the second one", () => {
    expect(codes('http.host eq "a" http.hots eq "b"')).toEqual(["missing-operator", "unknown-field"])
  })

  it("reports a stray closing parenthesis and continues", () => {
    const r = check('ssl) and http.hots eq "a"')
    expect(r.diagnostics.map((d) => [d.code, d.range.start])).toEqual([
      ["unmatched-parenthesis", 3],
      ["unknown-field", 9]
    ])
  })

  it("names unexpected characters, including look-alike quotes and spaces", () => {
    expect(check("ssl # comment").diagnostics[0]).toMatchObject({
      code: "unexpected-character",
      range: { start: 4, end: 5 }
    })
    expect(check("http.host eq “x”").diagnostics[0]).toMatchObject({
      code: "expected-value",
      message: expect.stringContaining("U+201C")
    })
    expect(check("ssl\u00a0and ssl").diagnostics[0]).toMatchObject({
      message: expect.stringContaining("no-break space")
    })
    expect(check("http.host eq 'x'").diagnostics[0]).toMatchObject({ hint: expect.stringContaining("double quotes") })
  })

  it("explains common mistakes", () => {
    expect(check('http.host = "x"').diagnostics[0]).toMatchObject({
      code: "unknown-operator",
      hint: "use `eq` or `==`"
    })
    expect(check('http.request.uri.path ends_with ".html"').diagnostics[0]).toMatchObject({
      code: "unknown-operator",
      hint: expect.stringContaining("ends_with(http.request.uri.path")
    })
    expect(check('http.host not contains "x"').diagnostics[0]).toMatchObject({ code: "misplaced-not" })
    expect(check('ssl AND http.host eq "x"').diagnostics[0]).toMatchObject({
      code: "unknown-operator",
      hint: "write `and`"
    })
    expect(check('"example.com" eq http.host').diagnostics[0]).toMatchObject({ code: "expected-field" })
    expect(check("ip.src in 203.0.113.0/24").diagnostics[0]).toMatchObject({
      code: "in-needs-set",
      hint: "write `in {203.0.113.0/24}`"
    })
    expect(check('http.request.headers ["x"][0] eq "a"').diagnostics[0]).toMatchObject({ code: "space-before-index" })
    expect(check("http.host eq").diagnostics[0]).toMatchObject({
      code: "expected-value",
      range: { start: 12, end: 12 }
    })
    expect(check("").diagnostics[0]).toMatchObject({ code: "expected-expression", message: "the expression is empty" })
    expect(check('lower(http.host, ) eq "a"').diagnostics.map((d) => d.code)).toContain("expected-argument")
    expect(check('lower(http.host eq "a"').diagnostics.map((d) => d.code)).toContain("unclosed-call")
    expect(check("ip.src in {10.0.0.1").diagnostics[0]).toMatchObject({ code: "unclosed-set" })
  })
})
