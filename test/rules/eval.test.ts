/** Units: evaluation semantics (missing values, arrays, functions, bytes, regex, wildcard, lists, encodings). */
import { describe, expect, it } from "vitest"
import {
  check,
  compile,
  RequestContext,
  validateRequest,
  type CompileOptions,
  type Request
} from "../../src/rules/index.js"
import { hmacSha256, sha256 } from "../../src/rules/sha256.js"

const run = (src: string, request: Request, options: CompileOptions = {}): boolean => {
  const r = check(src)
  expect(
    r.diagnostics.filter((d) => d.severity === "error"),
    src
  ).toEqual([])
  return compile(r.checked!, options)(request)
}

describe("missing values", () => {
  it("makes every comparison on a missing value false, ne included", () => {
    for (const src of [
      'http.host eq "a"',
      'http.host ne "a"',
      'http.host contains ""',
      'http.host matches "."',
      'http.host wildcard "*"',
      'http.host in {"a"}',
      "cf.edge.server_port lt 10",
      "ip.src ne 1.2.3.4",
      "ip.src in {0.0.0.0/0}"
    ]) {
      expect(run(src, {}), src).toBe(false)
      expect(run(`not ${src}`, {}), src).toBe(true)
    }
  })

  it("treats null, a wrong shape, an absent key and an out-of-range index as missing", () => {
    expect(run('http.host ne "a"', { "http.host": null })).toBe(false)
    expect(run('http.host ne "a"', { "http.host": 5 })).toBe(false)
    expect(run("cf.edge.server_port ne 1", { "cf.edge.server_port": 1.5 })).toBe(false)
    expect(run('http.request.headers["a"][0] ne "x"', { "http.request.headers": { b: ["y"] } })).toBe(false)
    expect(run('http.request.headers["a"][1] ne "x"', { "http.request.headers": { a: ["y"] } })).toBe(false)
    expect(run("ssl", { ssl: "yes" })).toBe(false)
  })

  it("maps [*] over a missing value to an empty array: any is false, all is true", () => {
    expect(run('any(http.request.headers["a"][*] eq "x")', {})).toBe(false)
    expect(run('all(http.request.headers["a"][*] eq "x")', {})).toBe(true)
    expect(run('not len(http.request.headers["a"]) ge 0', {})).toBe(true)
  })

  it("can follow the open-source engine for ne", () => {
    expect(run('http.host ne "a"', {}, { missingNotEqual: true })).toBe(true)
    expect(run('http.host eq "a"', {}, { missingNotEqual: true })).toBe(false)
  })
})

describe("logic", () => {
  it("evaluates n-ary and, or and xor (parity)", () => {
    const req = { ssl: true, "cf.client.bot": false, "http.request.headers.truncated": true }
    expect(run("ssl and cf.client.bot", req)).toBe(false)
    expect(run("ssl or cf.client.bot", req)).toBe(true)
    expect(run("ssl xor cf.client.bot", req)).toBe(true)
    expect(run("ssl xor http.request.headers.truncated", req)).toBe(false)
    expect(run("ssl xor http.request.headers.truncated xor ssl", req)).toBe(true)
    expect(run("ssl and http.request.headers.truncated and not cf.client.bot", req)).toBe(true)
    expect(run("cf.client.bot or cf.client.bot or ssl", req)).toBe(true)
    expect(run("true", {})).toBe(true)
    expect(run("false or ssl", req)).toBe(true)
  })

  it("combines [*] comparisons element-wise, truncating to the shorter", () => {
    const req = { "http.request.headers.names": ["a", "b", "c"], "http.request.headers.values": ["1", "2"] }
    expect(run('any(http.request.headers.names[*] eq "c" and http.request.headers.values[*] eq "2")', req)).toBe(false)
    expect(run('any(http.request.headers.names[*] eq "b" and http.request.headers.values[*] eq "2")', req)).toBe(true)
    expect(run('all(not http.request.headers.names[*] eq "z")', req)).toBe(true)
    expect(run('any(http.request.headers.names[*] eq "a" xor http.request.headers.values[*] eq "1")', req)).toBe(false)
  })
})

describe("values and operators", () => {
  it("compares strings bytewise and case-sensitively", () => {
    expect(run('http.host lt "b"', { "http.host": "a" })).toBe(true)
    expect(run('http.host gt "B"', { "http.host": "a" })).toBe(true)
    expect(run('http.host eq "é"', { "http.host": "é" })).toBe(true)
    expect(run('http.host eq "\\xc3\\xa9"', { "http.host": "é" })).toBe(true)
    expect(run("len(http.host) eq 2", { "http.host": "é" })).toBe(true)
    expect(run('http.host eq "\\xff"', { "http.host": { $base64: "/w==" } })).toBe(true)
    expect(run('http.host eq "ab"', { "http.host": new Uint8Array([97, 98]) })).toBe(true)
  })

  it("handles integers, ranges and bitwise and", () => {
    expect(run("cf.edge.server_port in {80 8000..8080}", { "cf.edge.server_port": 8042 })).toBe(true)
    expect(run("cf.edge.server_port in {80 8000..8080}", { "cf.edge.server_port": 8081 })).toBe(false)
    expect(run("cf.edge.server_port bitwise_and 0x100000000", { "cf.edge.server_port": 2 ** 32 })).toBe(true)
    expect(run("cf.edge.server_port & 2", { "cf.edge.server_port": 5 })).toBe(false)
    expect(run("cf.edge.server_port eq -1", { "cf.edge.server_port": -1n })).toBe(true)
  })

  it("matches IP addresses, CIDR blocks and ranges per family", () => {
    const req = (ip: string) => ({ "ip.src": ip })
    expect(run("ip.src in {10.0.0.0/8 2001:db8::/32 192.0.2.10..192.0.2.20}", req("10.255.0.1"))).toBe(true)
    expect(run("ip.src in {10.0.0.0/8 2001:db8::/32 192.0.2.10..192.0.2.20}", req("192.0.2.15"))).toBe(true)
    expect(run("ip.src in {10.0.0.0/8 2001:db8::/32 192.0.2.10..192.0.2.20}", req("2001:db8:ffff::1"))).toBe(true)
    expect(run("ip.src in {10.0.0.0/8 2001:db8::/32 192.0.2.10..192.0.2.20}", req("::ffff:10.0.0.1"))).toBe(false)
    expect(run("ip.src eq ::1", req("0:0:0:0:0:0:0:1"))).toBe(true)
    expect(run("ip.src eq 1.2.3.4", req("not an ip"))).toBe(false)
    expect(run("ip.src in {0.0.0.0/0 ::/0}", req("203.0.113.9"))).toBe(true)
  })

  it("matches regexes on bytes, Unicode only with (?u)", () => {
    expect(run('http.host matches "^api\\."', { "http.host": "api.example.com" })).toBe(true)
    expect(run('http.host matches "(?i)^API"', { "http.host": "api.example.com" })).toBe(true)
    expect(run('http.request.uri.path matches "^/caf.$"', { "http.request.uri.path": "/café" })).toBe(false)
    expect(run('http.request.uri.path matches "^/caf..$"', { "http.request.uri.path": "/café" })).toBe(true)
    expect(run('http.request.uri.path matches "(?u)^/caf.$"', { "http.request.uri.path": "/café" })).toBe(true)
    expect(run('http.request.uri.path matches "a.b"', { "http.request.uri.path": "a\nb" })).toBe(false)
    expect(run('http.request.uri.path matches "(?s)a.b"', { "http.request.uri.path": "a\nb" })).toBe(true)
    expect(run('http.request.uri.path matches r"\\d{3}"', { "http.request.uri.path": "/a123" })).toBe(true)
  })

  it("matches wildcards on the whole value", () => {
    const w = (pattern: string, value: string, strict = false) =>
      run(`http.host ${strict ? "strict wildcard" : "wildcard"} r"${pattern}"`, { "http.host": value })
    expect(w("*.example.com", "WWW.Example.COM")).toBe(true)
    expect(w("*.example.com", "WWW.Example.COM", true)).toBe(false)
    expect(w("*.example.com", "example.com")).toBe(false)
    expect(w("a*b*c", "abc")).toBe(true)
    expect(w("a*b*c", "aXbYbZc")).toBe(true)
    expect(w("a*b*c", "acb")).toBe(false)
    expect(w("*", "")).toBe(true)
    expect(w("a\\*", "a*")).toBe(true)
    expect(w("a\\*", "ab")).toBe(false)
    expect(w("ab*ba", "aba")).toBe(false)
  })
})

describe("functions", () => {
  const req = {
    "http.host": "WWW.Example.com",
    "http.request.uri.path": "/a%2520b+c/%u2601",
    "http.request.body.raw": '{"a": {"b": [1, 42.0, "x", 7]}, "n": -3, "s": "é"}',
    "ip.src": "2001:db8:abcd:1234::5",
    "http.request.headers.names": ["Content-Type", "X-A"],
    "http.request.headers": { "x-b64": ["MTIzYWJj", "not base64!"] }
  }
  it("transform strings", () => {
    expect(run('lower(http.host) eq "www.example.com"', req)).toBe(true)
    expect(run('upper(http.host) eq "WWW.EXAMPLE.COM"', req)).toBe(true)
    expect(run('concat(http.host, "/", http.request.uri.path) eq "WWW.Example.com//a%2520b+c/%u2601"', req)).toBe(true)
    expect(run('concat(http.host, http.referer) eq "WWW.Example.com"', req)).toBe(true)
    expect(run("len(concat(http.request.headers.names, http.request.headers.names)) eq 4", req)).toBe(true)
    expect(run('remove_bytes(http.host, "\\x2e\\x57") eq "Examplecom"', req)).toBe(true)
    expect(run('substring(http.host, 4, 11) eq "Example"', req)).toBe(true)
    expect(run('substring(http.host, -3) eq "com"', req)).toBe(true)
    expect(run('substring(http.host, 0, -4) eq "WWW.Example"', req)).toBe(true)
    expect(run('starts_with(http.host, "WWW") and ends_with(http.host, ".com")', req)).toBe(true)
    expect(run('join(http.request.headers.names, ",") eq "Content-Type,X-A"', req)).toBe(true)
  })

  it("decode URLs, Base64 and JSON", () => {
    expect(run('url_decode(http.request.uri.path) eq "/a%20b c/%u2601"', req)).toBe(true)
    expect(run('url_decode(http.request.uri.path, "r") eq "/a b c/%u2601"', req)).toBe(true)
    expect(run('url_decode(http.request.uri.path, "ur") eq "/a b c/\\xe2\\x98\\x81"', req)).toBe(true)
    expect(run('any(decode_base64(http.request.headers["x-b64"][*])[*] eq "123abc")', req)).toBe(true)
    expect(run('len(decode_base64(http.request.headers["x-b64"][*])) eq 1', req)).toBe(true)
    expect(run('lookup_json_integer(http.request.body.raw, "a", "b", 3) eq 7', req)).toBe(true)
    expect(run('lookup_json_integer(http.request.body.raw, "n") eq -3', req)).toBe(true)
    expect(run('lookup_json_integer(http.request.body.raw, "a", "b", 1) eq 42', req)).toBe(false)
    expect(run('lookup_json_string(http.request.body.raw, "a", "b", 2) eq "x"', req)).toBe(true)
    expect(run('lookup_json_string(http.request.body.raw, "s") eq "é"', req)).toBe(true)
    expect(run('lookup_json_string(http.request.body.raw, "a", "b", 9) ne "x"', req)).toBe(false)
    expect(run('lookup_json_string(http.request.uri.path, "a") ne "x"', req)).toBe(false)
  })

  it("compute networks", () => {
    expect(run("cidr(ip.src, 24, 32) eq 2001:db8::", req)).toBe(true)
    expect(run("cidr6(ip.src, 48) eq 2001:db8:abcd::", req)).toBe(true)
    expect(run("cidr(ip.src, 24, 24) eq 113.10.0.0", { "ip.src": "113.10.0.2" })).toBe(true)
    expect(run("cidr6(ip.src, 24) eq 113.10.0.2", { "ip.src": "113.10.0.2" })).toBe(true)
  })

  it("validate timed HMAC tokens", () => {
    // RFC 4231 test case 2 for the primitive.
    const hex = (b: string) => [...b].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("")
    expect(hex(sha256("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    expect(hex(hmacSha256("Jefe", "what do ya want for nothing?"))).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    )
    const ts = "1484063787"
    const mac = btoa(hmacSha256("mysecretkey", `/download/cat.jpg${ts}`))
    const uri = `/download/cat.jpg?verify=${ts}-${encodeURIComponent(mac)}`
    const expr = 'is_timed_hmac_valid_v0("mysecretkey", http.request.uri, 100000, http.request.timestamp.sec, 8)'
    expect(run(expr, { "http.request.uri": uri, "http.request.timestamp.sec": 1484063787 + 50 })).toBe(true)
    expect(run(expr, { "http.request.uri": uri, "http.request.timestamp.sec": 1484063787 + 100001 })).toBe(false)
    expect(run(expr, { "http.request.uri": uri.replace("cat", "dog"), "http.request.timestamp.sec": 1484063787 })).toBe(
      false
    )
    const safe = mac.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
    const safeExpr = expr.replace(", 8)", ', 8, "s")')
    expect(
      run(safeExpr, {
        "http.request.uri": `/download/cat.jpg?verify=${ts}-${safe}`,
        "http.request.timestamp.sec": 1484063787
      })
    ).toBe(true)
  })
})

describe("lists and contexts", () => {
  it("reads named lists from the request, else from the compile options", () => {
    const src = "ip.src in $office"
    expect(run(src, { "ip.src": "192.0.2.9", $lists: { office: ["192.0.2.0/24"] } })).toBe(true)
    expect(run(src, { "ip.src": "192.0.2.9" }, { listItems: { office: ["192.0.2.1..192.0.2.10"] } })).toBe(true)
    expect(run(src, { "ip.src": "192.0.2.9" })).toBe(false)
    expect(run("http.host in $hosts", { "http.host": "a.example" }, { listItems: { hosts: ["a.example"] } })).toBe(true)
    expect(run("ip.src.asnum in $asns", { "ip.src.asnum": 13335 }, { listItems: { asns: [13335] } })).toBe(true)
  })

  it("shares one context between expressions, converting each field once", () => {
    const a = compile(check('http.host eq "a"').checked!)
    const b = compile(check('lower(http.host) eq "a"').checked!)
    let reads = 0
    const request = Object.defineProperty({}, "http.host", { enumerable: true, get: () => (reads++, "A") })
    const ctx = a.context(request)
    expect(a(ctx)).toBe(false)
    expect(b(ctx)).toBe(true)
    expect(reads).toBe(1)
    expect(ctx).toBeInstanceOf(RequestContext)
    // A context of another scheme is not reused.
    const net = compile(check("tcp.dstport eq 80", { scheme: "network" }).checked!)
    expect(net(new RequestContext({ "tcp.dstport": 80 }))).toBe(true)
  })

  it("validates request encodings", () => {
    expect(
      validateRequest({ "http.host": "a", "ip.src": "1.2.3.4", ssl: true, "http.request.headers": { a: ["b"] } })
    ).toEqual([])
    expect(
      validateRequest({
        "ip.src": 5,
        ssl: "yes",
        "http.request.headers": { a: "b" },
        "http.hots": "x",
        $lists: { a: "x" }
      })
    ).toEqual([
      { field: "ip.src", message: "expected an IP address string, got number 5" },
      { field: "ssl", message: 'expected true or false, got the string "yes"' },
      { field: "http.request.headers", message: 'key "a": expected an array (Array<String>), got the string "b"' },
      { field: "http.hots", message: "unknown field (did you mean http.host?)" },
      { field: "$lists.a", message: "must be an array of items" }
    ])
    expect(validateRequest([])).toHaveLength(1)
  })
})
