/**
 * `edgectl firewall migrate` and `edgectl custom-rules` as child processes on the embedded platform
 * (and `--remote` against `edgectl serve`): the preview, the dry run equal to what the apply stores,
 * the apply pausing or (--delete-old) deleting the old rules, the replay of the demo traffic (none
 * on acme-mail.com, the log rule left live logging one more request on initech-payroll.com), and
 * bad input naming the option.
 */
import { spawn, type ChildProcess } from "node:child_process"
import * as path from "node:path"
import * as readline from "node:readline"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, edgectl, json, root, tempDir } from "../helpers/cli.js"

const traffic = path.join(root, "fixtures/firewall/custom-rules-traffic.jsonl")

interface Request {
  method: string
  path: string
  body?: { rules?: Array<Record<string, unknown>> } & Record<string, unknown>
}
interface Plan {
  kind: string
  steps: Array<Request & { key: string }>
  expected: { customRules: Array<Record<string, unknown>>; firewallRules: Array<FwRule> }
  migration: { entries: Array<{ firewall_rule: string; custom_rule: number | null }> }
  refused?: string
}
const left = (p: Plan) => p.migration.entries.filter((e) => e.custom_rule === null).map((e) => e.firewall_rule)
interface CustomRule {
  id: string
  action: string
  expression: string
  enabled: boolean
  ref: string
  description?: string
  version: string
  last_updated: string
}
interface FwRule {
  id: string
  paused: boolean
  filter: { id: string }
}

const cli = (cwd: string) => (args: ReadonlyArray<string>) => edgectl(args, { cwd })

/** A stored custom rule as it was written: without what the platform assigns. */
const asWritten = (r: CustomRule) => {
  const { id: _id, version: _v, last_updated: _l, ...rest } = r
  return rest
}

describe("edgectl firewall migrate", () => {
  it("previews old rule -> new rule with the notes, and refuses to apply off a terminal without --yes", () => {
    const run = cli(tempDir("edgectl-migrate-"))
    const r = run(["firewall", "migrate", "--zone", "initech-payroll.com"])
    expect(r.stdout).toContain("Migration of zone initech-payroll.com: 2 firewall rule(s) -> 1 custom rule(s)")
    expect(r.stdout).toMatch(/1 +\w{32} +block, priority 1 +block +block exports from outside/)
    expect(r.stdout).toMatch(/- +\w{32} +log +\(not migrated\) +log payroll pages/)
    expect(r.stdout).toContain("unmapped: rule ")
    expect(r.status).toBe(1)
    expect(r.stderr).toContain("pass --yes to migrate, or --dry-run")
    expect(json<Array<CustomRule>>(run(["custom-rules", "list", "--zone", "initech-payroll.com", "--json"]))).toEqual(
      []
    )
  })

  it("--dry-run prints the very requests the apply sends, and changes nothing", () => {
    const run = cli(tempDir("edgectl-migrate-"))
    const zone = ["--zone", "acme-mail.com"]
    const before = json<Array<FwRule>>(run(["firewall", "rules", "list", ...zone, "--json"]))
    const dry = json<Plan>(run(["firewall", "migrate", ...zone, "--dry-run", "--json"]))
    expect(dry.kind).toBe("firewall-custom-rules")
    expect(json<Array<FwRule>>(run(["firewall", "rules", "list", ...zone, "--json"]))).toEqual(before)
    expect(json<Array<CustomRule>>(run(["custom-rules", "list", ...zone, "--json"]))).toEqual([])
    const [put, ...pauses] = dry.steps
    expect(put!.method).toBe("PUT")
    expect(put!.path).toMatch(/^\/zones\/\w{32}\/rulesets\/phases\/http_request_firewall_custom\/entrypoint$/)
    expect(put!.body!.rules!.length).toBe(16)
    const active = before.filter((r) => !r.paused).map((r) => r.id)
    // The one rule on a deleted filter is not migrated, so it is not paused either.
    expect(pauses.map((p) => p.path.split("/").pop()).sort()).toEqual(
      active.filter((id) => !left(dry).includes(id)).sort()
    )
    expect(pauses.every((p) => p.method === "PUT" && p.body!.paused === true)).toBe(true)

    const text = run(["firewall", "migrate", ...zone, "--dry-run"])
    expect(text.status).toBe(0)
    expect(text.stdout).toContain(
      `Dry run: nothing was changed. The migration would send ${dry.steps.length} request(s):`
    )
    expect(text.stdout).toContain(`${put!.method} ${put!.path}\n${JSON.stringify(put!.body, null, 2)}`)

    const done = json<{ plan: Plan }>(run(["firewall", "migrate", ...zone, "--yes", "--json"]))
    expect(done.plan.steps).toEqual(dry.steps)
    const stored = json<Array<CustomRule>>(run(["custom-rules", "list", ...zone, "--json"]))
    expect(stored.map(asWritten)).toEqual(put!.body!.rules)
    const after = json<Array<FwRule & Record<string, unknown>>>(run(["firewall", "rules", "list", ...zone, "--json"]))
    for (const p of pauses) {
      const r = after.find((x) => x.id === p.path.split("/").pop())!
      const { modified_on: _m, created_on: _c, filter, ...rest } = r as Record<string, unknown>
      expect(rest).toEqual(Object.fromEntries(Object.entries(p.body!).filter(([k]) => k !== "filter")))
      expect((filter as { id: string }).id).toBe((p.body!.filter as { id: string }).id)
    }
    // The rule that was not migrated is left as it was.
    for (const id of left(dry))
      expect(after.find((x) => x.id === id)!.paused).toBe(before.find((x) => x.id === id)!.paused)

    // A second run leaves the rules migrated before (a custom rule has their id as ref) out: mapped
    // again, paused by the first run, they would replace the live custom rules with disabled ones.
    // Everything is in effect: it sends nothing.
    const again = json<Plan>(run(["firewall", "migrate", ...zone, "--dry-run", "--json"]))
    expect(again.expected.customRules).toHaveLength(16)
    expect(again.steps).toEqual([])
    const second = run(["firewall", "migrate", ...zone, "--yes"])
    expect(second.status, second.stderr).toBe(0)
    expect(second.stdout).toContain("16 firewall rule(s) were migrated before")
    expect(second.stdout).toContain("Nothing to do")
    const kept = json<Array<CustomRule>>(run(["custom-rules", "list", ...zone, "--json"]))
    expect(kept).toEqual(stored)
  })

  it("--delete-old deletes the migrated rules and the filters no other rule uses", () => {
    const run = cli(tempDir("edgectl-migrate-"))
    const zone = ["--zone", "acme-mail.com"]
    const before = json<Array<FwRule>>(run(["firewall", "rules", "list", ...zone, "--json"]))
    const dry = json<Plan>(run(["firewall", "migrate", ...zone, "--delete-old", "--dry-run", "--json"]))
    const deletes = dry.steps.slice(1)
    expect(deletes.every((d) => d.method === "DELETE" && d.path.endsWith("?delete_filter_if_unused=true"))).toBe(true)
    expect(deletes.length).toBe(16)
    const r = run(["firewall", "migrate", ...zone, "--delete-old", "--yes"])
    expect(r.status).toBe(0)
    expect(r.stdout).toContain("16 firewall rule(s) deleted")
    const rest = json<Array<FwRule>>(run(["firewall", "rules", "list", ...zone, "--json"]))
    expect(rest.map((x) => x.id)).toEqual(left(dry))
    const filters = json<Array<{ id: string }>>(run(["firewall", "filters", "list", ...zone, "--json"])).map(
      (f) => f.id
    )
    const gone = before.filter((x) => !rest.some((l) => l.id === x.id)).map((x) => x.filter.id)
    expect(filters.filter((f) => gone.includes(f))).toEqual([])
    expect(json<Array<CustomRule>>(run(["custom-rules", "list", ...zone, "--json"])).length).toBe(16)
  })

  it("--replay: no difference on acme-mail.com (exit 0); on initech-payroll.com the log rule left live now runs before the migrated block (exit 1)", () => {
    const run = cli(tempDir("edgectl-migrate-"))
    const ok = run(["firewall", "migrate", "--zone", "acme-mail.com", "--replay", traffic])
    expect(ok.status).toBe(0)
    expect(ok.stdout).toContain("29 request(s): 29 decided alike, 0 differently (action 0, skipped 0, logged 0)\n")
    const diff = run(["firewall", "migrate", "--zone", "initech-payroll.com", "--replay", traffic])
    expect(diff.status).toBe(1)
    expect(diff.stderr).toBe(`firewall migrate --replay: 1 request(s) of ${traffic} decided differently\n`)
    expect(diff.stdout).toMatch(
      /28 +payroll-export: GET initech-payroll.com\/payroll\/export +logged +block by firewall rule (\w{32}) +block by custom rule \1; logged by firewall rule \w{32}/
    )
    const report = json<{ disagreements: Array<{ id: string; after: { logged: Array<{ description: string }> } }> }>({
      ...run(["firewall", "migrate", "--zone", "initech-payroll.com", "--replay", traffic, "--json"]),
      status: 0
    })
    expect(report.disagreements.map((d) => [d.id, d.after.logged.map((l) => l.description)])).toEqual([
      ["payroll-export", ["log payroll pages"]]
    ])
  })

  it("bad input: unknown zone, missing replay file, replay with --yes", () => {
    const run = cli(tempDir("edgectl-migrate-"))
    const unknown = run(["firewall", "migrate", "--zone", "nozone.example", "--dry-run"])
    expect([unknown.status, unknown.stderr]).toEqual([1, expect.stringContaining("no zone named nozone.example")])
    const missing = run(["firewall", "migrate", "--zone", "acme-mail.com", "--replay", "nope.jsonl"])
    expect([missing.status, missing.stderr]).toEqual([
      1,
      "error: firewall migrate --replay: nope.jsonl: no such file\n"
    ])
    const both = run(["firewall", "migrate", "--zone", "acme-mail.com", "--replay", traffic, "--yes"])
    expect([both.status, both.stderr]).toEqual([2, expect.stringContaining("--replay only compares")])
  })
})

describe("edgectl custom-rules", () => {
  it("add, list, update, move and delete, with the house's errors", () => {
    const run = cli(tempDir("edgectl-custom-"))
    const z = ["--zone", "acme.com"]
    const a = json<CustomRule>(
      run([
        "custom-rules",
        "add",
        ...z,
        "--expression",
        'http.request.uri.path contains "/admin"',
        "--action",
        "block",
        "--json"
      ])
    )
    const b = json<CustomRule & { action_parameters: unknown }>(
      run([
        "custom-rules",
        "add",
        ...z,
        "--expression",
        "ip.src eq 10.1.2.3",
        "--action",
        "skip",
        "--skip-rest",
        "--index",
        "1",
        "--json"
      ])
    )
    expect(b.action_parameters).toEqual({ ruleset: "current" })
    const ids = () => json<Array<CustomRule>>(run(["custom-rules", "list", ...z, "--json"])).map((r) => r.id)
    expect(ids()).toEqual([b.id, a.id])
    const table = run(["custom-rules", "list", ...z])
    expect(table.stdout).toMatch(/^# +ID +ACTION +ENABLED +DESCRIPTION +EXPRESSION\n1 +\w{32} +skip \(rest\) +yes/)
    expect(json<CustomRule>(run(["custom-rules", "move", b.id, ...z, "--after", a.id, "--json"])).id).toBe(b.id)
    expect(ids()).toEqual([a.id, b.id])
    const u = json<CustomRule>(
      run(["custom-rules", "update", a.id, ...z, "--disable", "--description", "off", "--json"])
    )
    expect(u).toMatchObject({
      id: a.id,
      enabled: false,
      description: "off",
      expression: 'http.request.uri.path contains "/admin"'
    })
    const refused = run(["custom-rules", "delete", a.id, ...z])
    expect([refused.status, refused.stderr]).toEqual([1, expect.stringContaining("pass --yes")])
    expect(json(run(["custom-rules", "delete", a.id, ...z, "--yes", "--json"]))).toEqual({ id: a.id })
    expect(ids()).toEqual([b.id])
  })

  it("bad input names the option, the limit and the value", () => {
    const run = cli(tempDir("edgectl-custom-"))
    const z = ["--zone", "globex.com"]
    const add = (...more: Array<string>) =>
      run(["custom-rules", "add", ...z, "--expression", 'http.host eq "x"', "--action", "block", ...more])
    expect(add("--index", "0")).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('--index: expected an integer from 1 to 1,000,000, got "0"')
    })
    expect(add("--before", "a", "--after", "b")).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("give one position")
    })
    expect(add("--products", "waf")).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("--products applies to --action skip only, got --action block")
    })
    expect(
      run(["custom-rules", "add", ...z, "--expression", "true", "--action", "skip", "--products", "WAF"])
    ).toMatchObject({
      status: 2,
      stderr: expect.stringContaining(
        '--products: expected some of zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf (case-sensitive), got "WAF"'
      )
    })
    expect(run(["custom-rules", "add", ...z, "--expression", "true", "--action", "skip"])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("--action skip needs what to skip: --skip-rest")
    })
    const first = json<CustomRule>(add("--json"))
    expect(add("--index", "9")).toMatchObject({
      status: 1,
      stderr: expect.stringContaining("position.index: expected an integer from 1 to 2")
    })
    expect(run(["custom-rules", "move", "nosuch", ...z, "--index", "1"])).toMatchObject({
      status: 1,
      stderr: expect.stringContaining("zone globex.com has no custom rule nosuch")
    })
    expect(run(["custom-rules", "move", first.id, ...z])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("say where")
    })
    const bad = run(["custom-rules", "add", ...z, "--expression", 'http.hostt eq "x"', "--action", "block"])
    expect([bad.status, bad.stderr]).toEqual([
      1,
      expect.stringContaining("expression: invalid expression: unknown field `http.hostt`")
    ])
    const nozone = run(["custom-rules", "list", "--zone", "nozone.example"])
    expect([nozone.status, nozone.stderr]).toEqual([
      1,
      expect.stringContaining("hint: see the zones with `edgectl zones list`")
    ])
  })
})

describe("edgectl custom-rules --remote against edgectl serve", () => {
  let child: ChildProcess
  let ready: { baseUrl: string; token: string; accountId: string }
  let cwd: string
  beforeAll(async () => {
    cwd = tempDir("edgectl-custom-remote-")
    child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", path.join(cwd, "served")], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    const lines = readline.createInterface({ input: child.stdout! })
    ready = await new Promise((resolve, reject) => {
      lines.once("line", (l) => resolve(JSON.parse(l)))
      child.once("exit", (code) => reject(new Error(`serve exited with ${code}`)))
    })
  })
  afterAll(() => {
    child.kill("SIGTERM")
  })

  it("migrates a zone and lists its custom rules over HTTP", () => {
    const env = {
      CLOUDFLARE_API_BASE_URL: ready.baseUrl,
      CLOUDFLARE_API_TOKEN: ready.token,
      CLOUDFLARE_ACCOUNT_ID: ready.accountId,
      CLOUDFLARE_API_KEY: undefined,
      CLOUDFLARE_EMAIL: undefined
    }
    const remote = (args: ReadonlyArray<string>) => edgectl([...args, "--remote"], { cwd, env })
    const z = ["--zone", "initech-payroll.com"]
    expect(remote(["firewall", "migrate", ...z, "--yes"]).status).toBe(0)
    const rules = json<Array<CustomRule>>(remote(["custom-rules", "list", ...z, "--json"]))
    expect(rules.map((r) => [r.action, r.description])).toEqual([["block", "block exports from outside"]])
    // Nothing was written to the local platform of the same directory.
    expect(json<Array<CustomRule>>(edgectl(["custom-rules", "list", ...z, "--json"], { cwd }))).toEqual([])
  })
})
