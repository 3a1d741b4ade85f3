/** Units: the checker's rules (operators, functions, [*], regex, wildcards, lists, limits, scheme). */
import { describe, expect, it } from "vitest"
import {
  check,
  FIELDS,
  FUNCTIONS,
  NETWORK_FIELDS,
  operatorsFor,
  typeName,
  type CheckOptions
} from "../../src/rules/index.js"

const first = (src: string, options?: CheckOptions) => check(src, options).diagnostics[0]
const codes = (src: string, options?: CheckOptions) => check(src, options).diagnostics.map((d) => d.code)
const at = (src: string, d: { range: { start: number; end: number } } | undefined) =>
  d ? src.slice(d.range.start, d.range.end) : undefined

describe("scheme", () => {
  it("has every documented field with a type and a one-line meaning", () => {
    expect(FIELDS.length).toBeGreaterThanOrEqual(80)
    expect(new Set(FIELDS.map((f) => f.name)).size).toBe(FIELDS.length)
    for (const f of FIELDS) {
      expect(f.summary.length).toBeGreaterThan(10)
      expect(f.summary).not.toContain("\n")
      expect(typeName(f.type)).toBe(f.typeText.replace("Bytes", "String"))
    }
    const byName = new Map(FIELDS.map((f) => [f.name, f]))
    expect(typeName(byName.get("http.request.headers")!.type)).toBe("Map<Array<String>>")
    expect(typeName(byName.get("http.request.body.multipart.filenames")!.type)).toBe("Array<Array<String>>")
    expect(byName.get("ip.geoip.country")!.replacedBy).toBe("ip.src.country")
    expect(NETWORK_FIELDS.map((f) => f.name)).toContain("tcp.dstport")
  })

  it("has every function with a signature and a meaning", () => {
    const names = FUNCTIONS.map((f) => f.name)
    for (const n of [
      "any",
      "all",
      "cidr",
      "cidr6",
      "concat",
      "decode_base64",
      "ends_with",
      "starts_with",
      "join",
      "len",
      "lookup_json_integer",
      "lookup_json_string",
      "lower",
      "upper",
      "regex_replace",
      "remove_bytes",
      "remove_query_args",
      "split",
      "substring",
      "to_string",
      "url_decode",
      "uuidv4",
      "wildcard_replace",
      "is_timed_hmac_valid_v0",
      "bit_slice"
    ]) {
      expect(names).toContain(n)
    }
    for (const f of FUNCTIONS) expect(f.signature.startsWith(`${f.name}(`)).toBe(true)
  })

  it("suggests the closest field for a misspelt one", () => {
    expect(first('http.hots eq "a"')).toMatchObject({ code: "unknown-field", hint: "did you mean `http.host`?" })
    expect(first('http.request.uri.pat eq "a"')?.hint).toBe("did you mean `http.request.uri.path`?")
    expect(first('HTTP.HOST eq "a"')?.hint).toBe("did you mean `http.host`?")
    expect(first("ip.source eq 1.2.3.4")?.hint).toBe("did you mean `ip.src`?")
    expect(first("tcp.dstport eq 80")?.hint).toContain("network (Magic Firewall) scheme")
    expect(first('lowr(http.host) eq "a"')).toMatchObject({ code: "unknown-function", hint: "did you mean `lower`?" })
    expect(first('lower eq "a"')).toMatchObject({ code: "function-needs-call" })
  })

  it("checks against the network scheme when asked", () => {
    expect(check("tcp.dstport in {8000..8009 8080..8089}", { scheme: "network" }).valid).toBe(true)
    expect(check('bit_slice("tcp", 0, 16) eq 443', { scheme: "network" }).valid).toBe(true)
    expect(first('bit_slice("tcp", 0, 16) eq 443')).toMatchObject({ code: "function-not-available" })
    expect(first('http.host eq "a"', { scheme: "network" })?.code).toBe("unknown-field")
  })
})

describe("operators and types", () => {
  it("allows exactly the documented operators per type", () => {
    const samples: Record<string, string> = { Int: "cf.edge.server_port", Bytes: "http.host", Ip: "ip.src" }
    const rhs: Record<string, Record<string, string>> = {
      Int: { default: "80", in: "{80}" },
      Bytes: { default: '"a"', in: '{"a"}' },
      Ip: { default: "192.0.2.1", in: "{192.0.2.1}" }
    }
    const all = [
      "eq",
      "ne",
      "lt",
      "le",
      "gt",
      "ge",
      "contains",
      "matches",
      "wildcard",
      "strict wildcard",
      "in",
      "bitwise_and"
    ] as const
    for (const [type, field] of Object.entries(samples)) {
      const allowed = new Set(operatorsFor({ kind: type as "Int" }))
      for (const op of all) {
        const src = `${field} ${op} ${op === "in" ? rhs[type]!.in : op === "bitwise_and" ? "1" : rhs[type]!.default}`
        const r = check(src)
        expect(r.valid, src).toBe(allowed.has(op))
        if (!allowed.has(op)) expect(at(src, r.diagnostics[0]), src).toBe(op)
      }
    }
  })

  it("rejects operators on arrays and maps with a hint to index them", () => {
    expect(first('http.request.headers.names eq "a"')).toMatchObject({
      code: "unsupported-operator",
      hint: expect.stringContaining("[*]")
    })
    expect(first('http.request.cookies in {"a"}')).toMatchObject({ code: "unsupported-operator" })
  })

  it("checks index access by type", () => {
    expect(check('http.request.headers["a"][0] eq "b"').valid).toBe(true)
    expect(check('any(http.request.body.multipart.filenames[*][0] in {"a"})').valid).toBe(true)
    expect(check('any(http.request.body.multipart.filenames[*][*] eq "a")').valid).toBe(true)
    expect(first('http.request.headers[0][0] eq "b"')).toMatchObject({
      code: "index-not-supported",
      hint: expect.stringContaining('["name"]')
    })
    expect(first('http.request.body.multipart.filenames[0][*][*] eq "a"')?.code).toBe("index-not-supported")
    expect(first('http.request.headers.names[4294967296] eq "a"')?.code).toBe("invalid-index")
    expect(first('http.request.headers["\\xff"][0] eq "a"')?.code).toBe("invalid-index")
  })

  it("requires a Boolean at the root and explains [*] comparisons there", () => {
    expect(first('http.request.headers.names[*] == "x"')).toMatchObject({
      code: "expected-boolean",
      hint: expect.stringContaining("any(")
    })
    expect(first("http.host")).toMatchObject({ code: "expected-comparison", hint: 'e.g. http.host eq "value"' })
    expect(first('http.request.headers["a"]')).toMatchObject({ code: "expected-comparison" })
  })

  it("combines Array<Boolean> conditions element-wise only inside functions", () => {
    expect(check('any(http.request.headers.names[*] == "a" or http.request.headers.names[*] == "b")').valid).toBe(true)
    expect(check('any(not http.request.headers.names[*] == "a")').valid).toBe(true)
    expect(first('any(http.request.headers.names[*] == "a" or ssl)')?.code).toBe("type-mismatch")
  })

  it("rejects wrong literals with a precise span and a hint", () => {
    expect(first("cf.edge.server_port eq 08")).toMatchObject({
      code: "invalid-integer",
      hint: "write 8 for the decimal number"
    })
    expect(first("cf.edge.server_port eq 0xzz")?.code).toBe("invalid-integer")
    expect(first('ip.src eq "1.2.3.4"')).toMatchObject({ code: "type-mismatch", hint: "remove the quotes" })
    expect(first("ip.src eq 01.2.3.4")).toMatchObject({
      code: "invalid-ip",
      message: expect.stringContaining("leading zero")
    })
    expect(first("ip.src eq 1.2.3.4..1.2.3.5")?.code).toBe("range-outside-set")
    expect(first("ip.src in {10.0.0.0..::1}")).toMatchObject({
      code: "invalid-range",
      message: expect.stringContaining("IPv4")
    })
    expect(first("ip.src in {10.0.0.9..10.0.0.1}")?.code).toBe("invalid-range")
    expect(first("ip.src in {2001:db8::1/129}")?.code).toBe("invalid-cidr")
    expect(first("ip.src in {192.0.2.1/24}")?.hint).toBe("did you mean 192.0.2.0/24?")
    expect(first('http.host in {"a""b"}')?.code).toBe("set-separator")
    expect(first("http.host in {80}")).toMatchObject({ code: "type-mismatch", hint: 'String values are quoted: "80"' })
    expect(first('http.host eq {"a"}')?.code).toBe("set-not-allowed")
    expect(first("cf.edge.server_port eq 9007199254740993")).toMatchObject({
      severity: "warning",
      code: "imprecise-integer"
    })
    expect(first("http.host in {}")).toMatchObject({ severity: "information", code: "empty-set" })
  })
})

describe("functions", () => {
  it("checks argument count, kind, type and values", () => {
    expect(check('lower(http.host) eq "a"').valid).toBe(true)
    expect(check('concat("a", http.host, 6f:72) eq "a"').valid).toBe(true)
    expect(check("len(concat(http.request.headers.names, http.request.headers.values)) gt 3").valid).toBe(true)
    expect(first('concat(http.host, http.request.headers.names) eq "a"')?.code).toBe("type-mismatch")
    expect(first('lower(http.host, "x") eq "a"')).toMatchObject({
      code: "wrong-argument-count",
      hint: "lower(String) -> String"
    })
    expect(at('lower(http.host, "x", "y") eq "a"', first('lower(http.host, "x", "y") eq "a"'))).toBe('"x", "y"')
    expect(first('lower(cf.edge.server_port) eq "a"')).toMatchObject({
      code: "type-mismatch",
      message: expect.stringContaining("must be a String, got an Integer")
    })
    expect(first('lower(http.request.headers.names) eq "a"')?.hint).toContain("[*]")
    expect(first("cidr(ip.src, 33, 64) eq 10.0.0.0")).toMatchObject({
      code: "invalid-argument",
      message: expect.stringContaining("from 1 to 32")
    })
    expect(first("cidr(1.2.3.4, 24, 64) eq 10.0.0.0")?.code).toBe("literal-not-allowed")
    expect(first("cidr(ip.src, cf.edge.server_port, 64) eq 10.0.0.0")?.code).toBe("literal-required")
    expect(first('url_decode(http.request.uri.path, "x") eq "a"')?.code).toBe("invalid-argument")
    expect(first('regex_replace(http.host, "a", "b") eq "a"')).toMatchObject({
      code: "function-not-available",
      hint: expect.stringContaining("Transform Rules")
    })
    expect(check('is_timed_hmac_valid_v0("key", http.request.uri, 100000, http.request.timestamp.sec, 8)').valid).toBe(
      true
    )
  })

  it("allows [*] only in the first argument, and maps the function over it", () => {
    expect(check('any(lower(http.request.headers.names[*])[*] eq "a")').valid).toBe(true)
    expect(check('all(len(http.request.uri.args["filter"][*])[*] in {3 4})').valid).toBe(true)
    expect(first('lower(http.request.headers.names[*]) eq "a"')?.code).toBe("unsupported-operator")
    expect(first("ends_with(http.host, http.request.headers.names[*])")?.code).toBe("map-each-misplaced")
  })

  it("takes x[*] of Booleans as the array in any() and all()", () => {
    expect(check("any(cf.waf.content_scan.obj_sizes[*] gt 10)").valid).toBe(true)
    expect(first("any(cf.waf.content_scan.obj_sizes[*])")?.code).toBe("type-mismatch")
  })
})

describe("regular expressions and wildcards", () => {
  it("validates regexes with the Rust crate's rules and points inside the string", () => {
    const src = 'http.request.uri.path matches "^/api(?=v1)"'
    expect(at(src, first(src))).toBe("(?=")
    const back = 'http.host matches "(a)\\1"'
    expect(first(back)).toMatchObject({ code: "invalid-regex", message: expect.stringContaining("backreferences") })
    expect(at(back, first(back))).toBe("\\1")
    expect(first('http.host matches "\\p{L}"')).toMatchObject({
      code: "invalid-regex",
      hint: expect.stringContaining("(?u)")
    })
    expect(check('http.host matches "(?u)\\p{L}+"').valid).toBe(true)
    expect(check('http.host matches r"^[a-z]+\\.example\\.com$"').valid).toBe(true)
    expect(first('http.host matches "a{1000}{1000}"')?.code).toBe("regex-too-large")
    expect(first("http.host matches 61:62")?.code).toBe("expected-string")
  })

  it("warns where the plan lacks matches", () => {
    expect(codes('http.host matches "a"', { plan: "pro" })).toEqual(["plan-required"])
    expect(codes('http.host matches "a"', { plan: "business" })).toEqual([])
    expect(codes("cf.bot_management.score lt 30", { plan: "business" })).toEqual(["plan-required"])
  })

  it("validates wildcard patterns", () => {
    const src = 'http.host wildcard "a**b"'
    expect(at(src, first(src))).toBe("**")
    expect(check('http.host wildcard r"a\\*b\\\\"').valid).toBe(true)
    expect(first('http.host wildcard "a\\\\"')?.code).toBe("invalid-wildcard")
  })
})

describe("lists, fields and limits", () => {
  it("accepts any well-formed list name unless the lists are given", () => {
    expect(check("ip.src in $anything").valid).toBe(true)
    const lists = { office: "ip", bad_hosts: "hostname", asns: "asn" } as const
    expect(check("ip.src in $office", { lists }).valid).toBe(true)
    expect(check("ip.src in $cf.open_proxies", { lists }).valid).toBe(true)
    expect(check("ip.src.asnum in $asns", { lists }).valid).toBe(true)
    expect(first("ip.src in $ofice", { lists })).toMatchObject({
      code: "unknown-list",
      hint: "did you mean `$office`?"
    })
    expect(first("http.host in $office", { lists })).toMatchObject({ code: "list-type-mismatch" })
    expect(first("ip.src in $bad.", { lists })?.code).toBe("invalid-list-name")
  })

  it("notes deprecated fields and warns about fields the phase does not have", () => {
    expect(check('ip.geoip.country eq "GB"').diagnostics).toMatchObject([
      { severity: "information", code: "deprecated-field", hint: expect.stringContaining("ip.src.country") }
    ])
    expect(codes("http.response.code eq 404")).toEqual(["field-not-available"])
    expect(codes("http.response.code eq 404", { phase: "response" })).toEqual([])
    expect(codes('any(http.request.accepted_languages[*] eq "fr")')).toEqual(["field-not-available"])
  })

  it("enforces the length limit in characters, optionally", () => {
    const long = `http.host eq "${"a".repeat(4100)}"`
    expect(first(long)).toMatchObject({ code: "expression-too-long", range: { start: 4096, end: long.length } })
    expect(check(long, { maxLength: false }).valid).toBe(true)
    expect(check(long, { maxLength: 10_000 }).valid).toBe(true)
    // Characters, not UTF-16 units: 4,096 emoji fit.
    expect(check(`http.host eq "${"😀".repeat(4080)}"`).valid).toBe(true)
  })
})

describe("errors inside strings", () => {
  // Plain strings (ASCII, no escape) are lexed without per-byte offsets: the span is placed the same.
  it("places a wildcard error on its characters, in plain strings and in strings with escapes or non-ASCII", () => {
    for (const [src, span] of [
      ['http.host wildcard "a***"', "**"],
      ['http.host wildcard "ab***"', "**"],
      ['http.host wildcard "\\x61b***"', "**"],
      ['http.host wildcard "é***"', "**"],
      ['http.host wildcard "ab\\\\c"', "\\\\c"]
    ] as const) {
      const d = first(src)
      expect([d?.code, at(src, d)]).toEqual(["invalid-wildcard", span])
    }
  })
})
