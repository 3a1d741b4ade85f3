/** `edgectl rules check|eval|format` through the built CLI, as a child process. */
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { edgectl, tempDir } from "../helpers/cli.js"

interface JsonDiagnostic {
  severity: string
  code: string
  message: string
  range: { start: number; end: number }
  hint?: string
}

describe("edgectl rules", () => {
  let dir: string
  const file = (name: string, content: string) => {
    const p = path.join(dir, name)
    fs.writeFileSync(p, content)
    return p
  }
  beforeAll(() => {
    dir = tempDir("edgectl-rules-")
  })

  describe("check", () => {
    it("prints `valid` and exits 0 for a valid expression, without creating any state", () => {
      const r = edgectl(["rules", "check", 'http.request.uri.path contains "/admin" and ip.src ne 1.2.3.4'], {
        cwd: dir
      })
      expect(r.status).toBe(0)
      expect(r.stdout).toBe("valid\n")
      expect(r.stderr).toBe("")
      expect(fs.existsSync(path.join(dir, ".edgectl"))).toBe(false)
    })

    it("prints each problem with a caret under its span, the code, the message and the hint; exits 1", () => {
      const src = 'http.hots eq "example.com" or ip.src in {10.0.0.0/33}'
      const r = edgectl(["rules", "check", src], { cwd: dir })
      expect(r.status).toBe(1)
      const lines = r.stdout.split("\n")
      expect(lines[0]).toBe("error[unknown-field]: unknown field `http.hots`")
      expect(lines[1]).toBe(" --> 1:1")
      expect(lines[3]).toBe(`1 | ${src}`)
      expect(lines[4]).toBe("  | ^^^^^^^^^")
      expect(lines[5]).toBe("  = hint: did you mean `http.host`?")
      expect(r.stdout).toContain(`  | ${" ".repeat(src.indexOf("10.0.0.0/33"))}^^^^^^^^^^^\n`)
      expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("invalid: 2 errors")
      expect(r.stderr).toBe("error: rules check: the expression has 2 errors\n")
    })

    it("prints --json with valid and every diagnostic's range", () => {
      const r = edgectl(["rules", "check", "--json", "ssl eq true"], { cwd: dir })
      expect(r.status).toBe(1)
      const out = JSON.parse(r.stdout) as { valid: boolean; diagnostics: Array<JsonDiagnostic> }
      expect(out).toEqual({
        valid: false,
        diagnostics: [
          {
            severity: "error",
            code: "boolean-with-operator",
            message: "unrecognised input: `ssl` is a Boolean, it takes no operator or value",
            range: { start: 4, end: 11 },
            hint: "use `ssl` or `not ssl`"
          }
        ]
      })
      const ok = edgectl(["rules", "check", "--json", 'ip.geoip.country eq "GB"'], { cwd: dir })
      expect(ok.status).toBe(0)
      expect(JSON.parse(ok.stdout)).toMatchObject({
        valid: true,
        diagnostics: [{ severity: "information", code: "deprecated-field" }]
      })
    })

    it("reads the expression from --file (its final newline is not part of it) and from stdin", () => {
      const p = file("rule.txt", 'http.host eq "a"\nand http.hots eq "b"\n')
      const r = edgectl(["rules", "check", "--file", p], { cwd: dir })
      expect(r.status).toBe(1)
      expect(r.stdout).toContain(` --> ${p}:2:5`)
      expect(r.stdout).toContain('2 | and http.hots eq "b"\n  |     ^^^^^^^^^')
      const json = JSON.parse(edgectl(["rules", "check", "--json", "--file", "-"], { cwd: dir, input: "ssl\n" }).stdout)
      expect(json).toEqual({ valid: true, diagnostics: [] })
    })

    it("shows long expressions around the span", () => {
      const src = `http.host eq "${"a".repeat(300)}" and http.hots eq "x"`
      const r = edgectl(["rules", "check", src], { cwd: dir })
      const shown = r.stdout.split("\n")[3]!
      expect(shown.length).toBeLessThan(130)
      expect(shown).toContain("…")
      expect(r.stdout.split("\n")[4]!.indexOf("^")).toBe(shown.indexOf("http.hots"))
    })

    it("takes --scheme network", () => {
      expect(edgectl(["rules", "check", "--scheme", "network", "tcp.dstport in {80 443}"], { cwd: dir }).status).toBe(0)
      expect(edgectl(["rules", "check", "tcp.dstport in {80 443}"], { cwd: dir }).status).toBe(1)
    })

    it("refuses bad input: both an expression and --file, neither, a missing file", () => {
      const both = edgectl(["rules", "check", "ssl", "--file", file("x.txt", "ssl")], { cwd: dir })
      expect(both.status).toBe(2)
      expect(both.stderr).toBe("error: rules check: give the expression or --file, not both\n")
      const neither = edgectl(["rules", "check"], { cwd: dir })
      expect(neither.status).toBe(2)
      expect(neither.stderr).toMatch(/^error: rules check: give an expression/)
      const missing = edgectl(["rules", "check", "--file", path.join(dir, "nope.txt")], { cwd: dir })
      expect(missing.status).toBe(1)
      expect(missing.stderr).toBe(`error: rules check: cannot read ${path.join(dir, "nope.txt")}: no such file\n`)
      expect(missing.stdout).toBe("")
    })
  })

  describe("eval", () => {
    it("prints match and the field values used", () => {
      const req = file(
        "req.json",
        JSON.stringify({
          "http.request.uri.path": "/admin",
          "ip.src": "5.6.7.8",
          "http.request.headers": { "x-a": ["1"] }
        })
      )
      const r = edgectl(
        [
          "rules",
          "eval",
          '(http.request.uri.path contains "/admin" and ip.src ne 1.2.3.4) or http.host matches "^api\\."',
          "--request",
          req
        ],
        { cwd: dir }
      )
      expect(r.status).toBe(0)
      expect(r.stdout).toBe(
        'match\n\nfields used:\n  http.request.uri.path  "/admin"\n  ip.src                 "5.6.7.8"\n  http.host              (missing)\n'
      )
      const no = edgectl(["rules", "eval", 'http.request.headers["x-a"][0] eq "2"', "--request", req], { cwd: dir })
      expect(no.stdout.split("\n")[0]).toBe("no match")
    })

    it("prints --json with match and the fields", () => {
      const req = file(
        "req2.json",
        JSON.stringify({ "ip.src": "192.0.2.10", $lists: { office: ["192.0.2.0/24"] }, "http.user_agnt": "x" })
      )
      const r = edgectl(["rules", "eval", "--json", "ip.src in $office", "--request", req], { cwd: dir })
      expect(r.status).toBe(0)
      expect(JSON.parse(r.stdout)).toEqual({
        match: true,
        fields: { "ip.src": "192.0.2.10" },
        warnings: ["http.user_agnt: unknown field (did you mean http.user_agent?)"],
        diagnostics: []
      })
    })

    it("exits 1 with the diagnostics for an invalid expression", () => {
      const req = file("req3.json", "{}")
      const human = edgectl(["rules", "eval", "http.hots eq 1", "--request", req], { cwd: dir })
      expect(human.status).toBe(1)
      expect(human.stdout).toBe("")
      expect(human.stderr).toContain("error[unknown-field]")
      expect(human.stderr.trimEnd().split("\n").at(-1)).toBe("error: rules eval: the expression has 1 error")
      const json = edgectl(["rules", "eval", "--json", "http.hots eq 1", "--request", req], { cwd: dir })
      expect(json.status).toBe(1)
      expect(JSON.parse(json.stdout)).toMatchObject({
        match: null,
        valid: false,
        diagnostics: [{ code: "unknown-field", range: { start: 0, end: 9 } }]
      })
    })

    it("refuses a missing request file, unreadable JSON, a non-object and wrongly typed values", () => {
      const missing = edgectl(["rules", "eval", "ssl", "--request", path.join(dir, "none.json")], { cwd: dir })
      expect([missing.status, missing.stderr]).toEqual([
        1,
        `error: rules eval: cannot read ${path.join(dir, "none.json")}: no such file\n`
      ])
      const bad = edgectl(["rules", "eval", "ssl", "--request", file("bad.json", "{nope")], { cwd: dir })
      expect(bad.status).toBe(1)
      expect(bad.stderr).toMatch(/^error: rules eval: .*bad\.json is not valid JSON: /)
      const array = edgectl(["rules", "eval", "ssl", "--request", file("arr.json", "[]")], { cwd: dir })
      expect(array.status).toBe(1)
      expect(array.stderr).toContain("must hold a JSON object")
      const typed = edgectl(
        ["rules", "eval", "ip.src eq 1.2.3.4", "--request", file("typed.json", '{"ip.src": 1234}')],
        { cwd: dir }
      )
      expect([typed.status, typed.stderr.split("\n")[0]]).toEqual([
        1,
        "error: rules eval: request field ip.src: expected an IP address string, got number 1234"
      ])
      const noRequest = edgectl(["rules", "eval", "ssl"], { cwd: dir })
      expect(noRequest.status).toBe(2)
      const both = edgectl(
        ["rules", "eval", "ssl", "--file", file("e.txt", "ssl"), "--request", file("r.json", "{}")],
        { cwd: dir }
      )
      expect(both.status).toBe(2)
      const neither = edgectl(["rules", "eval", "--request", file("r2.json", "{}")], { cwd: dir })
      expect(neither.status).toBe(2)
    })
  })

  describe("format", () => {
    it("prints the canonical form", () => {
      const r = edgectl(["rules", "format", 'ssl&&!cf.client.bot||http.host=="x"'], { cwd: dir })
      expect([r.status, r.stdout]).toEqual([0, 'ssl and not cf.client.bot or http.host eq "x"\n'])
      expect(JSON.parse(edgectl(["rules", "format", "--json", "!ssl"], { cwd: dir }).stdout)).toEqual({
        valid: true,
        formatted: "not ssl"
      })
      expect(edgectl(["rules", "format", "http.hots eq 1"], { cwd: dir }).status).toBe(1)
    })
  })
})
