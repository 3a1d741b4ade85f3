/** Units: the canonical formatter, tree equality, and printing trees built by code. */
import { describe, expect, it } from "vitest"
import { check, format, sameTree, type Expression } from "../../src/rules/index.js"

const fmt = (src: string, width?: number) => {
  const r = check(src, { maxLength: false })
  expect(r.checked, src).toBeDefined()
  return format(r.checked!.expression, width === undefined ? {} : { width })
}

describe("format", () => {
  it("prints English operators, single spaces and decimal integers", () => {
    expect(fmt('ssl&&!cf.client.bot||http.host=="x"')).toBe('ssl and not cf.client.bot or http.host eq "x"')
    expect(fmt("ssl ^^ ssl")).toBe("ssl xor ssl")
    expect(fmt("cf.edge.server_port & 0x10")).toBe("cf.edge.server_port bitwise_and 16")
    expect(fmt("cf.edge.server_port in {0x50   0123 1..3}")).toBe("cf.edge.server_port in {80 83 1..3}")
    expect(fmt('http.host strict   wildcard "a*"')).toBe('http.host strict wildcard "a*"')
    expect(fmt("ip.src in {2001:0DB8:0000::/32 10.0.0.1..10.0.0.9}")).toBe(
      "ip.src in {2001:db8::/32 10.0.0.1..10.0.0.9}"
    )
    expect(fmt("ssl\tand\nssl")).toBe("ssl and ssl")
  })

  it("keeps strings as written (raw strings and regex escapes included) and parentheses as written", () => {
    expect(fmt('http.host matches r#"^a"b\\d"#')).toBe('http.host matches r#"^a"b\\d"#')
    expect(fmt('http.host eq "a\\x41\\"" and (ssl)')).toBe('http.host eq "a\\x41\\"" and (ssl)')
    expect(fmt('any( lower( http.request.headers.names[ * ] )[*] == "a" )')).toBe(
      'any(lower(http.request.headers.names[*])[*] eq "a")'
    )
  })

  it("breaks long chains over indented lines when a width is given", () => {
    const src =
      'http.host eq "example.com" and (http.request.uri.path contains "/admin" or http.request.uri.path contains "/login") and not ssl'
    const out = fmt(src, 50)
    expect(out.split("\n").length).toBeGreaterThan(2)
    expect(out).toContain(
      '\nand (\n  http.request.uri.path contains "/admin"\n  or http.request.uri.path contains "/login"\n)'
    )
    expect(sameTree(check(out).tree, check(src).tree)).toBe(true)
  })

  it("adds the parentheses a tree built by code needs", () => {
    const field = (name: string) =>
      ({
        kind: "bare",
        value: { kind: "field", name, range: { start: 0, end: 0 } },
        range: { start: 0, end: 0 }
      }) as const
    const r = { start: 0, end: 0 }
    const or: Expression = {
      kind: "logical",
      op: "or",
      operands: [field("ssl"), field("cf.client.bot")],
      operators: [],
      range: r
    }
    const and: Expression = { kind: "logical", op: "and", operands: [or, field("ssl")], operators: [], range: r }
    expect(format(and)).toBe("(ssl or cf.client.bot) and ssl")
    expect(format({ kind: "not", operand: or, operator: { text: "not", range: r }, range: r })).toBe(
      "not (ssl or cf.client.bot)"
    )
    const cmp: Expression = {
      kind: "comparison",
      lhs: { kind: "field", name: "http.host", range: r },
      operator: { name: "matches", text: "~", range: r },
      rhs: { kind: "string", value: "", raw: false, hashes: 0, pattern: 'a"b\\.', range: r },
      range: r
    }
    expect(format(cmp)).toBe('http.host matches r#"a"b\\."#')
    expect(check(format(cmp)).valid).toBe(true)
    const eq: Expression = {
      ...cmp,
      operator: { name: "eq", text: "eq", range: r },
      rhs: { kind: "string", value: 'q"\\\x01é', raw: false, hashes: 0, range: r }
    }
    expect(format(eq)).toBe('http.host eq "q\\"\\\\\\x01\\xe9"')
  })
})

describe("sameTree", () => {
  it("ignores notation, spacing and ranges but not meaning", () => {
    expect(sameTree(check("ssl && !cf.client.bot").tree, check("ssl and not cf.client.bot").tree)).toBe(true)
    expect(sameTree(check("cf.edge.server_port eq 0x50").tree, check("cf.edge.server_port == 80").tree)).toBe(true)
    expect(sameTree(check("ssl and cf.client.bot").tree, check("ssl or cf.client.bot").tree)).toBe(false)
    expect(sameTree(check("(ssl)").tree, check("ssl").tree)).toBe(false)
    expect(sameTree(check("ip.src eq ::1").tree, check("ip.src eq ::2").tree)).toBe(false)
  })
})
