/**
 * `edgectl firewall …` as a child process on the embedded platform: every command with --json
 * parsed and asserted; the two-step flow, --filter-id, --combined, the quota case saying which
 * filter exists and how to reuse or remove it, invalid expressions with carets, usage errors
 * (exit 2), refused deletes off a terminal, and `firewall test` naming the deciding rule.
 */
import Database from "better-sqlite3"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { newId, seedRule } from "../../src/store/firewall-rows.js"
import { hexId } from "../../src/domain/ids.js"
import { bin, edgectl, json, tempDir } from "../helpers/cli.js"

interface Filter {
  id: string
  paused: boolean
  expression: string
  description?: string
}
interface Rule {
  id: string
  paused: boolean
  action: string
  priority: number | null
  description?: string
  products?: Array<string>
  filter: Filter | { id: string; deleted: true }
}

let cwd: string
const fw = (args: ReadonlyArray<string>, input?: string) =>
  edgectl(["firewall", ...args], { cwd, ...(input !== undefined ? { input } : {}) })

beforeAll(() => {
  cwd = tempDir("edgectl-fw-cli-")
})

describe("edgectl firewall filters", () => {
  it("create, list, get, update and delete with --json", () => {
    const f = json<Filter>(
      fw([
        "filters",
        "create",
        "--zone",
        "acme.org",
        "--expression",
        'http.host eq "f.acme.org"',
        "--description",
        "f",
        "--json"
      ])
    )
    expect(f).toMatchObject({ paused: false, expression: 'http.host eq "f.acme.org"', description: "f" })
    expect(json<Array<Filter>>(fw(["filters", "list", "--zone", "acme.org", "--json"])).map((x) => x.id)).toContain(
      f.id
    )
    expect(json<Filter>(fw(["filters", "get", f.id, "--zone", "acme.org", "--json"]))).toEqual(f)
    const u = json<Filter>(
      fw([
        "filters",
        "update",
        f.id,
        "--zone",
        "acme.org",
        "--paused",
        "true",
        "--expression",
        'http.host eq "g.acme.org"',
        "--json"
      ])
    )
    expect(u).toMatchObject({ id: f.id, paused: true, expression: 'http.host eq "g.acme.org"', description: "f" })
    const refused = fw(["filters", "delete", f.id, "--zone", "acme.org"])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain("pass --yes")
    expect(json(fw(["filters", "delete", f.id, "--zone", "acme.org", "--yes", "--json"]))).toEqual({ id: f.id })
    expect(fw(["filters", "get", f.id, "--zone", "acme.org"]).status).toBe(1)
  })

  it("prints an invalid expression with carets and one error line (exit 1)", () => {
    const r = fw(["filters", "create", "--zone", "acme.org", "--expression", 'http.hots eq "x"'])
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    expect(r.stderr).toContain("error[unknown-field]")
    expect(r.stderr).toContain("^^^^^^^^^")
    expect(r.stderr).toMatch(
      /error: firewall filters create: invalid expression: unknown field `http.hots` \(at character 1\) \[code 10110\]/
    )
  })

  it("refuses usage errors with exit 2", () => {
    expect(fw(["filters", "create", "--zone", "acme.org"]).status).toBe(2)
    expect(fw(["filters", "update", "0".repeat(32), "--zone", "acme.org"]).status).toBe(2)
    expect(fw(["filters", "create", "--zone", "acme.org", "--expression", " "]).status).toBe(2)
  })
})

describe("edgectl firewall rules", () => {
  it("lists the demo rules in evaluation order (human and --json)", () => {
    const rules = json<Array<Rule>>(fw(["rules", "list", "--zone", "acme.com", "--json"]))
    expect(rules).toHaveLength(6)
    const table = fw(["rules", "list", "--zone", "acme.com"])
    expect(table.status).toBe(0)
    const lines = table.stdout.trim().split("\n")
    expect(lines[0]).toMatch(/^#\s+PRIORITY\s+ACTION\s+PAUSED\s+ID/)
    expect(lines[1]).toContain("allow office logins")
    expect(lines[6]).toContain("paused")
    expect(
      json<Array<Rule>>(fw(["rules", "list", "--zone", "acme.com", "--action", "bypass", "--json"]))[0]!.products
    ).toEqual(["waf"])
  })

  it("creates in two steps, reuses a filter with --filter-id, uses one call with --combined", () => {
    const r = json<Rule>(
      fw([
        "rules",
        "create",
        "--zone",
        "acme.io",
        "--expression",
        'http.request.uri.path eq "/two"',
        "--action",
        "block",
        "--priority",
        "5",
        "--description",
        "two",
        "--json"
      ])
    )
    expect(r).toMatchObject({
      action: "block",
      priority: 5,
      paused: false,
      description: "two",
      filter: { expression: 'http.request.uri.path eq "/two"' }
    })
    const again = json<Rule>(
      fw(["rules", "create", "--zone", "acme.io", "--filter-id", r.filter.id, "--action", "log", "--json"])
    )
    expect(again.filter.id).toBe(r.filter.id)
    expect(again.priority).toBeNull()
    const c = json<Rule>(
      fw([
        "rules",
        "create",
        "--zone",
        "acme.io",
        "--expression",
        'http.request.uri.path eq "/one"',
        "--action",
        "bypass",
        "--products",
        "waf,bic",
        "--combined",
        "--json"
      ])
    )
    expect(c).toMatchObject({ action: "bypass", products: ["waf", "bic"] })
    expect(json<Rule>(fw(["rules", "get", c.id, "--zone", "acme.io", "--json"]))).toEqual(c)
    const human = fw([
      "rules",
      "create",
      "--zone",
      "acme.io",
      "--expression",
      'http.request.uri.path eq "/human"',
      "--action",
      "allow"
    ])
    expect(human.stdout).toMatch(/^Created filter [0-9a-f]{32} and rule [0-9a-f]{32} \(allow\) on zone acme.io\./)
  })

  it("a duplicate expression says which filter exists and how to reuse it", () => {
    const r = fw([
      "rules",
      "create",
      "--zone",
      "acme.io",
      "--expression",
      'http.request.uri.path eq "/two"',
      "--action",
      "block"
    ])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(
      /^error: firewall rules create: filter [0-9a-f]{32} already has this expression \(config duplicates an already existing config\) \[code 10102\]\nhint: reuse it: edgectl firewall rules create --zone acme.io --filter-id [0-9a-f]{32} --action block\n$/
    )
  })

  it("checks the whole rule before creating its filter: a refused rule creates nothing (exit 2, one error line)", async () => {
    const filters = () => json<Array<Filter>>(fw(["filters", "list", "--zone", "acme.de", "--json"])).length
    const before = filters()
    const cases: Array<[ReadonlyArray<string>, string]> = [
      [
        ["--action", "bypass"],
        "--products is required with action bypass: one or more of zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf"
      ],
      [
        ["--action", "bypass", "--products", "waf,wafff"],
        '--products must contain only zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf, got string "wafff"'
      ],
      [
        ["--action", "block", "--products", "waf"],
        "--products is only allowed with action bypass (the action is block)"
      ],
      [
        ["--action", "block", "--priority", "-1"],
        '--priority must be an integer between 0 and 2147483647 or none, got "-1"'
      ],
      [
        ["--action", "block", "--priority", "2147483648"],
        '--priority must be an integer between 0 and 2147483647 or none, got "2147483648"'
      ],
      [["--action", "log", "--description", "d".repeat(501)], "--description must be at most 500 characters, got 501"]
    ]
    for (const combined of [[], ["--combined"]]) {
      for (const [args, message] of cases) {
        const r = fw([
          "rules",
          "create",
          "--zone",
          "acme.de",
          "--expression",
          'http.request.uri.path eq "/refused"',
          ...args,
          ...combined
        ])
        expect([r.status, r.stdout, r.stderr], args.join(" ")).toEqual([
          2,
          "",
          `error: firewall rules create: ${message}\n`
        ])
      }
    }
    expect(filters()).toBe(before)
  })

  it("a duplicate's hint repeats the whole rule, so following it creates the rule", () => {
    const expression = 'http.request.uri.path eq "/bypass-again"'
    fw(["filters", "create", "--zone", "acme.de", "--expression", expression])
    const r = fw([
      "rules",
      "create",
      "--zone",
      "acme.de",
      "--expression",
      expression,
      "--action",
      "bypass",
      "--products",
      "waf,bic",
      "--priority",
      "7",
      "--description",
      "Bob's uploads"
    ])
    expect(r.status).toBe(1)
    const hint = /^hint: reuse it: (edgectl firewall rules create .*)$/m.exec(r.stderr)?.[1]
    expect(hint).toMatch(
      /--filter-id [0-9a-f]{32} --action bypass --products waf,bic --priority 7 --description 'Bob'\\''s uploads'$/
    )
    const again = spawnSync(
      "sh",
      ["-c", `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} ${hint!.replace(/^edgectl /, "")} --json`],
      { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } }
    )
    expect(again.status, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout)).toMatchObject({
      action: "bypass",
      products: ["waf", "bic"],
      priority: 7,
      description: "Bob's uploads",
      filter: { expression }
    })
  })

  it("updates: pause, resume, priority none, action; a filter is never changed through a rule", () => {
    const r = json<Rule>(
      fw([
        "rules",
        "create",
        "--zone",
        "acme.io",
        "--expression",
        'http.request.uri.path eq "/upd"',
        "--action",
        "block",
        "--priority",
        "9",
        "--json"
      ])
    )
    expect(json<Rule>(fw(["rules", "update", r.id, "--zone", "acme.io", "--pause", "--json"])).paused).toBe(true)
    const u = json<Rule>(
      fw([
        "rules",
        "update",
        r.id,
        "--zone",
        "acme.io",
        "--resume",
        "--priority",
        "none",
        "--action",
        "managed_challenge",
        "--json"
      ])
    )
    expect(u).toMatchObject({ paused: false, priority: null, action: "managed_challenge", filter: r.filter })
    expect(fw(["rules", "update", r.id, "--zone", "acme.io"]).status).toBe(2)
    expect(fw(["rules", "update", r.id, "--zone", "acme.io", "--pause", "--resume"]).status).toBe(2)
    expect(fw(["rules", "update", r.id, "--zone", "acme.io", "--priority", "-3"]).status).toBe(2)
  })

  it("deletes a rule (its filter stays) with --yes; refuses off a terminal without it", () => {
    const r = json<Rule>(
      fw([
        "rules",
        "create",
        "--zone",
        "acme.io",
        "--expression",
        'http.request.uri.path eq "/del"',
        "--action",
        "block",
        "--json"
      ])
    )
    const refused = fw(["rules", "delete", r.id, "--zone", "acme.io"])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain("--yes")
    expect(json(fw(["rules", "delete", r.id, "--zone", "acme.io", "--yes", "--json"]))).toEqual({
      id: r.id,
      filter: { id: r.filter.id, deleted: false }
    })
    expect(json<Filter>(fw(["filters", "get", r.filter.id, "--zone", "acme.io", "--json"])).id).toBe(r.filter.id)
  })

  it("after a delete, suggests deleting the filter only when no other rule uses it", () => {
    const f = json<Filter>(
      fw(["filters", "create", "--zone", "acme.io", "--expression", 'http.request.uri.path eq "/shared"', "--json"])
    )
    const a = json<Rule>(
      fw(["rules", "create", "--zone", "acme.io", "--filter-id", f.id, "--action", "block", "--json"])
    )
    const b = json<Rule>(fw(["rules", "create", "--zone", "acme.io", "--filter-id", f.id, "--action", "log", "--json"]))
    const first = fw(["rules", "delete", a.id, "--zone", "acme.io", "--yes"])
    expect(first.stdout.trim()).toBe(`Deleted rule ${a.id}. Its filter ${f.id} stays: 1 other rule uses it.`)
    expect(first.stdout).not.toContain("filters delete")
    const last = fw(["rules", "delete", b.id, "--zone", "acme.io", "--yes"])
    expect(last.stdout.trim()).toBe(
      `Deleted rule ${b.id}. Its filter ${f.id} stays, used by no rule: reuse it with --filter-id ${f.id}, or delete it with: edgectl firewall filters delete ${f.id} --zone acme.io --yes`
    )
  })

  it("--delete-filter-if-unused deletes the filter with its last rule, and says so", () => {
    const f = json<Filter>(
      fw(["filters", "create", "--zone", "acme.io", "--expression", 'http.request.uri.path eq "/two-rules"', "--json"])
    )
    const a = json<Rule>(
      fw(["rules", "create", "--zone", "acme.io", "--filter-id", f.id, "--action", "block", "--json"])
    )
    const b = json<Rule>(fw(["rules", "create", "--zone", "acme.io", "--filter-id", f.id, "--action", "log", "--json"]))
    const first = fw(["rules", "delete", a.id, "--zone", "acme.io", "--yes", "--delete-filter-if-unused"])
    expect(first.status).toBe(0)
    expect(first.stdout.trim()).toBe(`Deleted rule ${a.id}. Its filter ${f.id} stays: 1 other rule uses it.`)
    const last = fw(["rules", "delete", b.id, "--zone", "acme.io", "--yes", "--delete-filter-if-unused"])
    expect(last.stdout.trim()).toBe(`Deleted rule ${b.id} and its filter ${f.id} (no other rule used it).`)
    expect(fw(["filters", "get", f.id, "--zone", "acme.io"]).status).toBe(1)
  })

  it("usage: a filter is needed, once", () => {
    expect(fw(["rules", "create", "--zone", "acme.io", "--action", "block"]).status).toBe(2)
    expect(
      fw(["rules", "create", "--zone", "acme.io", "--action", "block", "--expression", "ssl", "--filter-id", "x"])
        .status
    ).toBe(2)
    expect(fw(["rules", "create", "--zone", "acme.io", "--action", "deny", "--expression", "ssl"]).status).toBe(2)
  })

  it("over quota: the two-step flow says the filter exists and how to reuse or remove it", () => {
    // initech-dev.com is a pro zone (20 rules): filled through the store the CLI just created.
    const f = json<Filter>(
      fw([
        "filters",
        "create",
        "--zone",
        "initech-dev.com",
        "--expression",
        'http.request.uri.path eq "/fill"',
        "--json"
      ])
    )
    const db = new Database(path.join(cwd, ".edgectl", "state", "platform.sqlite"))
    for (let i = 0; i < 20; i++)
      seedRule(
        db,
        hexId("zone", "initech-dev.com"),
        newId(),
        { filter_id: f.id, action: "log", priority: null, paused: false, description: null, ref: null, products: null },
        "2024-07-01T00:00:00.000000Z"
      )
    db.close()
    const r = fw([
      "rules",
      "create",
      "--zone",
      "initech-dev.com",
      "--expression",
      'http.request.uri.path eq "/late"',
      "--action",
      "bypass",
      "--products",
      "waf",
      "--priority",
      "3"
    ])
    expect(r.status).toBe(1)
    const id = /filter ([0-9a-f]{32}) was created, the rule was not/.exec(r.stderr)?.[1]
    expect(id).toBeDefined()
    // One account of what exists: the filter of step 1, and no rule.
    expect(r.stderr).toBe(
      `error: firewall rules create: filter ${id} was created, the rule was not: firewall rule quota exceeded: the pro plan allows 20 rules per zone, the zone has 20 and the request adds 1 [code 10200]\n` +
        `hint: once a rule is deleted (edgectl firewall rules list --zone initech-dev.com), reuse it: edgectl firewall rules create --zone initech-dev.com --filter-id ${id} --action bypass --products waf --priority 3; or delete it: edgectl firewall filters delete ${id} --zone initech-dev.com --yes\n`
    )
    const combined = fw([
      "rules",
      "create",
      "--zone",
      "initech-dev.com",
      "--expression",
      'http.request.uri.path eq "/later"',
      "--action",
      "block",
      "--combined"
    ])
    expect(combined.status).toBe(1)
    const left = /filter ([0-9a-f]{32}) was created without its rule/.exec(combined.stderr)?.[1]
    expect(left).toBeDefined()
    expect(combined.stderr).not.toContain("no filter was created")
    expect(combined.stderr).toContain(
      `reuse it: edgectl firewall rules create --zone initech-dev.com --filter-id ${left} --action block; or delete it: edgectl firewall filters delete ${left} --zone initech-dev.com --yes\n`
    )
    // The hints' commands do what they say: deleting the filter works, and then nothing is left.
    expect(fw(["filters", "delete", left!, "--zone", "initech-dev.com", "--yes"]).status).toBe(0)
    expect(fw(["filters", "list", "--zone", "initech-dev.com", "--expression", "/later"]).stdout).toContain(
      "No filters"
    )
  }, 60_000)
})

describe("edgectl firewall validate", () => {
  it("asks the platform's validate-expr: valid exits 0; invalid prints the parsing error with its caret and exits 1", () => {
    const valid = fw(["validate", 'http.host eq "a.example" and ip.src in {10.0.0.0/8}'])
    expect([valid.status, valid.stdout.trim()]).toEqual([0, "valid"])
    const invalid = fw(["validate", "ip.src==34"])
    expect(invalid.status).toBe(1)
    expect(invalid.stdout).toBe("")
    expect(invalid.stderr).toContain("Filter parsing error:\n`ip.src==34`\n         ^^ ")
    expect(invalid.stderr.trim().split("\n").at(-1)).toBe("error: firewall validate: the expression is not valid")
    const asJson = fw(["validate", "ip.src==34", "--json"])
    expect(asJson.status).toBe(1)
    expect(JSON.parse(asJson.stdout)).toMatchObject({
      valid: false,
      message: expect.stringMatching(/^Filter parsing error:/)
    })
  })
})

describe("edgectl firewall test", () => {
  it("prints the deciding rule and action (human and --json)", () => {
    const file = path.join(cwd, "req.json")
    fs.writeFileSync(
      file,
      JSON.stringify({
        "http.request.uri.path": "/wp-login.php",
        "ip.src": "198.51.100.9",
        "http.user_agent": "Mozilla",
        "http.request.method": "GET"
      })
    )
    const d = json<{ action: string; rule: Rule; evaluated: number; rules: number }>(
      fw(["test", "--zone", "acme.com", "--request", file, "--json"])
    )
    expect(d.action).toBe("managed_challenge")
    expect(d.rule.description).toBe("challenge other logins")
    const office = path.join(cwd, "office.json")
    fs.writeFileSync(office, JSON.stringify({ "http.request.uri.path": "/wp-login.php", "ip.src": "203.0.113.7" }))
    const human = fw(["test", "--zone", "acme.com", "--request", office])
    expect(human.stdout).toMatch(
      /^ALLOW: rule [0-9a-f]{32} \(allow office logins\) decides this request to zone acme.com/
    )
    const api = path.join(cwd, "api.json")
    fs.writeFileSync(
      api,
      JSON.stringify({
        "http.request.uri.path": "/api/orders",
        "http.request.method": "POST",
        "http.user_agent": "Mozilla"
      })
    )
    const logged = json<{ action: string | null; logged: Array<Rule> }>(
      fw(["test", "--zone", "acme.com", "--request", api, "--json"])
    )
    expect(logged.action).toBeNull()
    expect(logged.logged.map((r) => r.description)).toEqual(["log api writes"])
    expect(fw(["test", "--zone", "acme.com", "--request", api]).stdout).toMatch(
      /^No rule decides this request to zone acme.com: it goes through[^\n]*\n[\s\S]*logged by:\s+[0-9a-f]{32} \(log api writes\)/
    )
  })

  it("numbers the deciding rule as `rules list` does, paused rules included", () => {
    const own = tempDir("edgectl-fw-test-")
    const run = (args: ReadonlyArray<string>) => edgectl(["firewall", ...args], { cwd: own })
    const office = json<Array<Rule>>(run(["rules", "list", "--zone", "acme.com", "--json"])).find(
      (r) => r.description === "allow office logins"
    )!
    expect(run(["rules", "update", office.id, "--zone", "acme.com", "--pause"]).status).toBe(0)
    const file = path.join(own, "bot.json")
    fs.writeFileSync(file, JSON.stringify({ "http.user_agent": "BadBot/2" }))
    const r = run(["test", "--zone", "acme.com", "--request", file])
    expect(r.stdout).toMatch(
      /^BLOCK: rule [0-9a-f]{32} \(block bad bots\) decides this request to zone acme.com \(#3 in `rules list`, the 2nd active rule evaluated\)\./
    )
    expect(run(["rules", "list", "--zone", "acme.com"]).stdout.split("\n")[3]).toMatch(/^3\s+10\s+block\s/)
  })

  it("refuses a request that is not JSON or has an unknown field", () => {
    const bad = path.join(cwd, "bad.json")
    fs.writeFileSync(bad, "{")
    const r = fw(["test", "--zone", "acme.com", "--request", bad])
    expect(r.status).toBe(1)
    expect(r.stderr).toContain("not valid JSON")
    fs.writeFileSync(bad, JSON.stringify({ "http.hots": "x" }))
    const u = fw(["test", "--zone", "acme.com", "--request", bad])
    expect(u.status).toBe(1)
    expect(u.stderr).toContain("request field http.hots")
  })
})
