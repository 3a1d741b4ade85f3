/**
 * CLI end-to-end (the built bin/edgectl.cjs): option values and exit codes, the same rule on every
 * command. A bad option value (not a number, out of range, not one of the choices) is a usage
 * error, exit 2, one line naming the option, what it takes and the value; a missing input file is
 * a failure the user can fix, exit 1. And `dns list --proxied false`, `check --json`.
 */
import * as path from "node:path"
import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import { edgectlAsync, json, root, tempDir, type Result } from "../helpers/cli.js"

const state = tempDir("edgectl-options-")
const cwd = tempDir("edgectl-options-cwd-")
const run = (args: ReadonlyArray<string>) => edgectlAsync(args, { cwd, env: { CLOUDFLARE_ACCOUNT_ID: undefined } })
const local = (args: ReadonlyArray<string>) => run([...args, "--persist-to", state])
const sample = path.join(root, "fixtures/waf/traffic-sample.jsonl")

/** Exit `code`, nothing on stdout, and exactly `line` (one line) on stderr. */
const refused = (r: Result, code: 1 | 2, line: string | RegExp) => {
  expect({ status: r.status, stdout: r.stdout }).toEqual({ status: code, stdout: "" })
  const lines = r.stderr.trimEnd().split("\n")
  expect(lines.filter((l) => !l.startsWith("hint: "))).toHaveLength(1)
  if (typeof line === "string") expect(lines[0]).toBe(line)
  else expect(lines[0]).toMatch(line)
}

describe("numeric options: name, range and value; exit 2", () => {
  it("waf replay --limit", async () => {
    refused(
      await local(["waf", "replay", "--zone", "acme.com", "--traffic", sample, "--limit", "-1"]),
      2,
      'error: --limit: expected an integer from 0 to 1,000,000, got "-1"'
    )
    refused(
      await local(["waf", "replay", "--zone", "acme.com", "--traffic", sample, "--limit", "2.5"]),
      2,
      'error: --limit: expected an integer from 0 to 1,000,000, got "2.5"'
    )
    refused(
      await local(["waf", "replay", "--zone", "acme.com", "--traffic", sample, "--limit", "ten"]),
      2,
      'error: --limit: expected an integer from 0 to 1,000,000, got "ten"'
    )
    // Two problems on one command line: one `error:` line names both.
    refused(
      await local(["waf", "replay", "--zone", "acme.com", "--limit", "-1"]),
      2,
      `error: Expected to find option: '--traffic'; --limit: expected an integer from 0 to 1,000,000, got "-1"`
    )
    // The smallest value: only the counts, and how many disagreements were not shown.
    const zero = await local(["waf", "replay", "--zone", "acme.com", "--traffic", sample, "--limit", "0"])
    expect(zero.status).toBe(0)
    const total = Number(/(\d+) disagree/.exec(zero.stdout)?.[1])
    expect(zero.stdout).toContain(`... ${total} more (--limit N, or --json)`)
  })

  it("rules format --width and serve --port", async () => {
    refused(
      await run(["rules", "format", 'http.host eq "a"', "--width", "-5"]),
      2,
      'error: --width: expected an integer from 1 to 100,000, got "-5"'
    )
    refused(
      await run(["rules", "format", 'http.host eq "a"', "--width", "0"]),
      2,
      'error: --width: expected an integer from 1 to 100,000, got "0"'
    )
    const one = await run(["rules", "format", 'http.host eq "a" and ssl', "--width", "1"])
    expect(one.status).toBe(0)
    expect(one.stdout.split("\n").length).toBeGreaterThan(2)
    refused(
      await run(["serve", "--port", "70000"]),
      2,
      'error: --port: expected an integer from 0 to 65535, got "70000"'
    )
    refused(await run(["serve", "--port", "-1"]), 2, 'error: --port: expected an integer from 0 to 65535, got "-1"')
  })
})

describe("integer options (no @effect/cli integer option is left)", () => {
  it("name the option, the range and the value", async () => {
    const r = await run(["objects", "dev", "--port", "abc"])
    expect(r.status).toBe(2)
    expect(r.stderr).toBe('error: --port: expected an integer from 0 to 65535, got "abc"\n')
  })
})

describe("choices: the option, the choices and the value; exit 2", () => {
  it("every choice option says which option it is", async () => {
    const types =
      "A, AAAA, CAA, CERT, CNAME, DNSKEY, DS, HTTPS, LOC, MX, NAPTR, NS, OPENPGPKEY, PTR, SMIMEA, SRV, SSHFP, SVCB, TLSA, TXT, URI"
    refused(
      await local(["dns", "list", "acme.com", "--type", "BOGUS"]),
      2,
      `error: --type: expected one of ${types}, got "BOGUS"`
    )
    refused(
      await local(["zones", "list", "--status", "bogus"]),
      2,
      'error: --status: expected one of initializing, pending, active, moved, got "bogus"'
    )
    refused(
      await run(["rules", "check", 'http.host eq "a"', "--scheme", "bogus"]),
      2,
      'error: --scheme: expected one of http, network, got "bogus"'
    )
    refused(
      await run(["rules", "check", 'http.host eq "a"', "--plan", "gold"]),
      2,
      'error: --plan: expected one of free, pro, business, enterprise, got "gold"'
    )
    refused(
      await local(["waf", "replay", "--zone", "acme.com", "--traffic", sample, "--against", "nope"]),
      2,
      'error: --against: expected one of preview, deployed, got "nope"'
    )
    refused(
      await local(["waf", "migrate", "--zone", "acme.com", "--mode", "later", "--dry-run"]),
      2,
      'error: --mode: expected one of validation, pending, got "later"'
    )
    refused(
      await local(["esc", "enable", "--zone", "acme.com", "--only", "x"]),
      2,
      'error: --only: expected one of always, secret, got "x"'
    )
    refused(
      await run(["check", "--format", "xml", "x.rules"]),
      2,
      'error: --format: expected one of text, json, sarif, got "xml"'
    )
  })

  it("a DNS type in any case is the type", async () => {
    const mx = json<Array<{ type: string }>>(await local(["dns", "list", "acme.com", "--type", "mx", "--json"]))
    expect(mx.length).toBeGreaterThan(0)
    expect(new Set(mx.map((r) => r.type))).toEqual(new Set(["MX"]))
  })
})

describe("one exit-code rule", () => {
  it("a missing input file is exit 1 on every command that reads one", async () => {
    const kv = ["--namespace-id", "exit-codes", "--persist-to", state]
    const cases: Array<[ReadonlyArray<string>, RegExp]> = [
      [["kv", "bulk", "put", "nope.json", ...kv], /^error: kv bulk put: cannot read nope\.json: no such file/],
      [["kv", "bulk", "get", "nope.json", ...kv], /^error: kv bulk get: cannot read nope\.json: no such file/],
      [["kv", "bulk", "delete", "nope.json", ...kv], /^error: kv bulk delete: cannot read nope\.json: no such file/],
      [
        ["kv", "key", "put", "k", "--path", "nope.bin", ...kv],
        /^error: kv key put: cannot read nope\.bin: no such file/
      ],
      [["rules", "check", "--file", "nope.rules"], /^error: rules check: cannot read nope\.rules: no such file/],
      [
        ["rules", "eval", 'http.host eq "a"', "--request", "nope.json"],
        /^error: rules eval: cannot read nope\.json: no such file/
      ],
      [
        ["firewall", "test", "--zone", "acme.com", "--request", "nope.json", "--persist-to", state],
        /^error: firewall test: cannot read the request from nope\.json: no such file/
      ],
      [
        ["waf", "replay", "--zone", "acme.com", "--traffic", "nope.jsonl", "--persist-to", state],
        /^error: --traffic: nope\.jsonl: no such file\n$/
      ],
      [
        ["waf", "migrate", "--zone", "acme.com", "--config", "nope.json", "--dry-run", "--persist-to", state],
        /^error: --config: nope\.json: no such file\n$/
      ],
      [["check", "nope.rules"], /^error: check nope\.rules: cannot read it: no such file/]
    ]
    for (const [args, line] of cases) {
      const r = await run(args)
      expect({ args, status: r.status, stdout: r.stdout }).toEqual({ args, status: 1, stdout: "" })
      expect(r.stderr).toMatch(line)
    }
  })

  it("usage errors are exit 2: an unknown flag, a missing argument, options that exclude each other", async () => {
    for (const args of [
      ["zones", "list", "--bogus"],
      ["kv", "bulk", "put", "--namespace-id", "x"],
      ["kv", "bulk", "put", "f.json", "--namespace-id", "x", "--binding", "y"],
      ["rules", "check"],
      ["check", "--json", "--format", "sarif", "x.rules"]
    ]) {
      const r = await run(args)
      expect({ args, status: r.status, stdout: r.stdout }).toEqual({ args, status: 2, stdout: "" })
      expect(r.stderr).toMatch(/^error: /)
    }
  })
})

describe("dns list --proxied", () => {
  it("true, false and absent: the proxied records, the others, and all of them", async () => {
    const list = async (...extra: Array<string>) =>
      json<Array<{ id: string; proxied: boolean }>>(await local(["dns", "list", "acme.com", "--json", ...extra]))
    const all = await list()
    const proxied = await list("--proxied")
    const unproxied = await list("--proxied", "false")
    expect(proxied.length).toBeGreaterThan(0)
    expect(unproxied.length).toBeGreaterThan(0)
    expect(proxied.every((r) => r.proxied)).toBe(true)
    expect(unproxied.every((r) => !r.proxied)).toBe(true)
    expect(proxied.length + unproxied.length).toBe(all.length)
    expect((await list("--proxied=false")).length).toBe(unproxied.length)
    expect((await list("--proxied", "true")).length).toBe(proxied.length)
  })
})

describe("check --json", () => {
  it("is --format json", async () => {
    const file = path.join(cwd, "a.rules")
    fs.writeFileSync(file, 'http.host eq "a"\n')
    const viaJson = await run(["check", "--json", file])
    const viaFormat = await run(["check", "--format", "json", file])
    expect(viaJson.status).toBe(0)
    expect(viaJson.stdout).toBe(viaFormat.stdout)
    expect(JSON.parse(viaJson.stdout)).toMatchObject({ errors: 0, files: [{ path: file }] })
  })
})

describe("help", () => {
  it("the command list names each command once; a command's usage line is the whole command", async () => {
    const all = await run(["--help"])
    expect(all.status).toBe(0)
    const listed = all.stdout.split("\n").filter((l) => l.startsWith("  - "))
    expect(listed.filter((l) => /^ {2}- (\S+) \1 /.test(l))).toEqual([])
    for (const command of ["kv namespace create", "kv bulk put", "firewall rules create", "waf overrides delete"]) {
      expect(listed.some((l) => l.startsWith(`  - ${command} `))).toBe(true)
    }
    // @effect/cli pads every usage to the longest (about 300 columns): off a terminal the list fits
    // 100 columns, each description on the line under its usage.
    expect(all.stdout.split("\n").filter((l) => / {3,}\S/.test(l.trim()))).toEqual([])
    expect(all.stdout).toMatch(/^ {2}- zones list \[.*\]\n {6}list the zones the credentials can see$/m)
    // Every option that takes a value says what (ZONE, FILE, ID, …), not @effect/cli's type name.
    expect(all.stdout.match(/--[a-z-]+ (text|integer)(?=[\])])/g) ?? []).toEqual([])
    expect(all.stdout).toMatch(/^ {2}- firewall rules list \[.*--zone ZONE/m)

    for (const command of [["kv", "key", "put"], ["zones", "list"], ["check"], ["waf", "overrides", "delete"]]) {
      const help = await run([...command, "--help"])
      expect(help.stdout).toMatch(new RegExp(`^\\$ edgectl ${command.join(" ")}( |$)`, "m"))
      // Each option and argument reads its own description, without the library's sentence for its type above it.
      expect(help.stdout).not.toMatch(/^\s+(A user-defined piece of text|A true or false value|An integer)\.$/m)
    }
    expect((await run(["kv", "key", "get", "--help"])).stdout).toMatch(/^<key>\n\n {2}the key\n/m)
    // A key named like its command is an argument, not part of the command.
    expect((await run(["kv", "key", "put", "put", "--help"])).stdout).toMatch(/^\$ edgectl kv key put \[/m)
    expect((await run(["kv", "namespace", "list", "--help"])).stdout).toContain("{id, title, supports_url_encoding}")
  })
})
