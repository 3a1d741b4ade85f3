/** Units: what editors ask: the node and token at an offset, what may be written there, completions. */
import { describe, expect, it } from "vitest"
import { completions, locate } from "../../src/rules/index.js"

describe("locate", () => {
  it("finds the innermost node and token, with the scheme entry for hover", () => {
    const src = 'lower(http.host) eq "a"'
    const fn = locate(src, 2)
    expect(fn.token).toEqual({ kind: "function", range: { start: 0, end: 5 } })
    expect(fn.function?.signature).toBe("lower(String) -> String")
    const field = locate(src, 8)
    expect(field.node).toMatchObject({ kind: "field", name: "http.host" })
    expect(field.field?.summary).toContain("Host")
    expect(field.ancestors.map((n) => n.kind)).toEqual(["comparison", "call"])
    expect(field.type?.type).toEqual({ kind: "Bytes" })
    expect(locate(src, 18).token?.kind).toBe("operator")
    expect(locate(src, 21).token?.kind).toBe("string")
  })

  it("says what may be written at an offset", () => {
    expect(locate("", 0).expected).toEqual([{ kind: "condition" }])
    // An IP address is not a condition: only its operators may follow it.
    expect(locate("ip.src ", 7).expected).toEqual([{ kind: "operator", type: { kind: "Ip" } }])
    expect(locate("ssl \n", 4).expected).toContainEqual({ kind: "logical-operator" })
    expect(locate("ip.src eq 1.2.3.4 and \n", 22).expected).toEqual([{ kind: "condition" }])
    expect(locate("http.host eq ", 13).expected).toEqual([{ kind: "value", type: { kind: "Bytes" }, operator: "eq" }])
    expect(locate("ip.src in $of", 13).expected).toContainEqual({ kind: "list", type: { kind: "Ip" } })
    expect(locate("lower(", 6).expected).toEqual([{ kind: "argument", function: "lower", index: 0 }])
    expect(locate("http.request.headers[", 21).expected).toContainEqual({
      kind: "index",
      type: { kind: "Map", of: { kind: "Array", of: { kind: "Bytes" } } }
    })
    const mid = locate('http.ho eq "x"', 4)
    expect(mid.expected).toEqual([{ kind: "condition" }])
    expect(mid.replace).toEqual({ start: 0, end: 7 })
    expect(mid.prefix).toBe("http")
  })
})

describe("completions", () => {
  it("offers fields and functions by prefix, operators by type, keywords after a condition", () => {
    expect(completions("http.request.uri.pa", 19).items.map((i) => i.label)).toEqual([
      "http.request.uri.path",
      "http.request.uri.path.extension"
    ])
    expect(completions("lo", 2).items.map((i) => i.label)).toEqual([
      "lookup_json_integer",
      "lookup_json_string",
      "lower"
    ])
    expect(completions("ip.src ", 7).items.map((i) => i.label)).toEqual(["eq", "ne", "in"])
    expect(completions('http.host eq "a" a', 18).items.map((i) => i.label)).toEqual(["and"])
    expect(completions("ip.src in $", 11, { lists: { office: "ip" } }).items.map((i) => i.label)).toEqual(["$office"])
    expect(completions("", 0).items.find((i) => i.label === "regex_replace")).toBeUndefined()
  })
})
