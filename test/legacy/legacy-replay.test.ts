/**
 * `firewall lockdowns migrate --replay` and `firewall rate-limits migrate --replay` as child processes
 * on the embedded platform (and `--remote` against a served one): the zone now against the plan's
 * end state with one evaluator per kind; a difference is exit 1, listed with the request, both
 * decisions, the rules that decided and the plan note that explains it; after an apply the journal's
 * "before" against the zone now, and without the journal nothing to compare (exit 1); a file of no
 * request is exit 1; `-` reads stdin; bad lines are named by number and field; the rate limits are
 * counted with the lines' times.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectl, edgectlAsync, json, root, tempDir } from "../helpers/cli.js"
import { request, startPlatform, World, type Platform } from "../helpers/platform.js"

const fixture = (name: string) => path.join(root, "test", "fixtures", "replay", name)
const lockdownTraffic = fixture("lockdown-ua-agree.jsonl")
const rateTraffic = fixture("rate-limits-agree.jsonl")
const rateDiffer = fixture("rate-limits-differ.jsonl")

interface Report {
  kind: string
  file: string
  compared: string
  requests: number
  agreed: number
  explained: number
  assumptions: string[]
  decided: { before: Record<string, number>; after: Record<string, number> }
  problems: Array<{ line: number; message: string }>
  disagreements: Array<{
    line: number
    id: string
    differences: string[]
    before: { action: string | null; rule: { kind: string; id: string } | null }
    after: { action: string | null; rule: { kind: string; id: string } | null }
    explainedBy: Array<{ code: string }>
  }>
}

const cli = (cwd: string) => (args: ReadonlyArray<string>, input?: string) =>
  edgectl(args, { cwd, ...(input !== undefined ? { input } : {}) })

describe("firewall lockdowns migrate --replay", () => {
  const lockdowns = (run: ReturnType<typeof cli>, ...more: string[]) =>
    run(["firewall", "lockdowns", "migrate", "--zone", "acme-mail.com", ...more])

  it("agrees on every request of the fixture: lockdown allow skips UA rules, paused rules run on neither side", () => {
    const run = cli(tempDir("edgectl-legreplay-"))
    const r = lockdowns(run, "--replay", lockdownTraffic)
    expect([r.status, r.stderr]).toEqual([0, ""])
    expect(r.stdout.split("\n").slice(0, 4)).toEqual([
      `Replay of ${lockdownTraffic}: the zone now (before) against the zone as the migration leaves it (after)`,
      "11 request(s): 11 decided alike, 0 differently (action 0, skipped 0, logged 0)",
      "decided: before: 3 allow, 4 block, 1 managed_challenge, 3 none; after: 3 allow, 4 block, 1 managed_challenge, 3 none",
      "explained by the plan's notes: 0 of 0 difference(s)"
    ])
    // The derived readings of the "before" side are said with the report.
    expect(r.stdout).toContain(
      "note: lockdown URLs match host and path without case; a URL without a path covers every path of its host (derived)"
    )
    const report = json<Report>(lockdowns(run, "--replay", lockdownTraffic, "--json"))
    expect([report.kind, report.compared, report.requests, report.agreed]).toEqual(["lockdown-ua", "planned", 11, 11])
    expect(report.assumptions.every((a) => a.endsWith("(derived)"))).toBe(true)
  })

  it("a custom rule that skips the rest did not exempt from the lockdown: the migrated rules are placed before it too, and the replay agrees", () => {
    const run = cli(tempDir("edgectl-legreplay-"))
    const added = run([
      "custom-rules",
      "add",
      "--zone",
      "acme-mail.com",
      "--expression",
      'http.request.uri.path eq "/partner/health"',
      "--action",
      "skip",
      "--skip-rest",
      "--json"
    ])
    expect(added.status, added.stderr).toBe(0)
    const skip = json<{ id: string; ref: string }>(added)
    const text = [
      '{"id": "partner-health", "request": {"http.host": "api.acme-mail.com", "http.request.uri.path": "/partner/health", "ip.src": "203.0.113.50"}}',
      '{"id": "partner-health-allowed", "request": {"http.host": "api.acme-mail.com", "http.request.uri.path": "/partner/health", "ip.src": "198.51.100.9", "http.request.headers": {"user-agent": ["curl/7.88.1"]}}}',
      '{"id": "partner-stranger", "request": {"http.host": "api.acme-mail.com", "http.request.uri.path": "/partner/orders", "ip.src": "203.0.113.52"}}'
    ].join("\n")
    // An empty stdin compares nothing.
    expect(lockdowns(run, "--replay", "-").stderr).toBe(
      "error: firewall lockdowns migrate --replay: -: no request to replay (0 lines)\n"
    )
    const same = run(["firewall", "lockdowns", "migrate", "--zone", "acme-mail.com", "--replay", "-", "--json"], text)
    expect([same.status, same.stderr]).toEqual([0, ""])
    const report = JSON.parse(same.stdout) as Report
    expect([report.requests, report.agreed, report.decided.before]).toEqual([3, 3, { block: 2, allow: 1 }])
    // The plan: the lockdowns' and UA rules' copies, limited to what the skip matches, right before it.
    const plan = json<{
      expected: { customRules: Array<{ ref: string; expression: string }> }
      notes: Array<{ code: string; message: string }>
    }>(lockdowns(run, "--dry-run", "--json"))
    const refs = plan.expected.customRules.map((r) => r.ref)
    const at = refs.indexOf(skip.ref)
    expect(refs.slice(0, at).every((r) => r.endsWith(`@${skip.ref}`))).toBe(true)
    expect(refs.slice(0, at).map((r) => r.split("@")[0])).toEqual(refs.slice(at + 1))
    expect(
      plan.expected.customRules
        .slice(0, at)
        .every((r) => r.expression.endsWith(' and (http.request.uri.path eq "/partner/health")'))
    ).toBe(true)
    expect(plan.notes.find((n) => n.code === "placed-before-skip")?.message).toContain(
      `custom rule ${skip.ref} skips the rest of the custom phase`
    )
  })

  it("an active firewall allow runs before every custom rule: its difference is explained by the plan's note, which names the commands that keep the order", () => {
    const run = cli(tempDir("edgectl-legreplay-"))
    const traffic = path.join(root, "fixtures", "firewall", "custom-rules-traffic.jsonl")
    const r = lockdowns(run, "--replay", traffic, "--json")
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(
      `firewall lockdowns migrate --replay: 1 request(s) of ${traffic} decided differently (1 explained by the plan's notes)\n`
    )
    const report = JSON.parse(r.stdout) as Report
    expect(
      report.disagreements.map((d) => [d.id, d.before.action, d.after.action, d.after.rule?.kind, d.explainedBy])
    ).toEqual([
      [
        "office-admin",
        "block",
        "allow",
        "firewall",
        [
          {
            code: "firewall-allow-covers-migrated",
            message:
              "firewall rule 273d82f59cb78511f7c81944baabf441 (allow office network) allows the requests it matches past every custom rule, so they now also skip the migrated Zone Lockdown and UA rules, which a firewall allow did not exempt them from; no custom rule can be placed before a firewall rule: migrate the firewall rules first (`firewall migrate`) or the whole zone at once (`migrate --zone`), and the migrated rules are placed before the skip it becomes (derived)"
          }
        ]
      ]
    ])
  })

  it("after an apply: the journal's before against the zone now; without the journal, nothing to compare (exit 1)", () => {
    const dir = tempDir("edgectl-legreplay-")
    const run = cli(dir)
    expect(lockdowns(run, "--yes").status).toBe(0)
    const r = lockdowns(run, "--replay", lockdownTraffic, "--json")
    expect([r.status, r.stderr]).toEqual([0, ""])
    const report = JSON.parse(r.stdout) as Report
    expect([report.compared, report.requests, report.agreed]).toEqual(["journal", 11, 11])
    expect(lockdowns(run, "--replay", lockdownTraffic).stdout.split("\n")[0]).toBe(
      `Replay of ${lockdownTraffic}: the zone before the migration (its journal) against the zone now (after)`
    )
    fs.rmSync(path.join(dir, ".edgectl", "state", "migrations"), { recursive: true })
    const none = lockdowns(run, "--replay", lockdownTraffic)
    expect([none.status, none.stdout]).toEqual([1, ""])
    expect(none.stderr).toBe(
      `error: firewall lockdowns migrate --replay: nothing to compare: the zone's Zone Lockdown and User Agent Blocking rules were migrated and no journal of the migration's "before" is kept\n`
    )
  })

  it("bad lines are named by number and field; a file of no request is exit 1; --replay only compares", () => {
    const dir = tempDir("edgectl-legreplay-")
    const run = cli(dir)
    const bad = path.join(dir, "bad.jsonl")
    fs.writeFileSync(
      bad,
      [
        '{"http.host": "acme-mail.com", "http.request.uri.path": "/admin/x", "ip.src": "203.0.113.50"}',
        '{"ip.src": 12}',
        '{"at": "noon", "ip.src": "192.0.2.1"}'
      ].join("\n")
    )
    const r = lockdowns(run, "--replay", bad)
    expect(r.status).toBe(0)
    expect(r.stderr).toBe(
      [
        "warning: 2 lines not read",
        "warning: line 2: ip.src: expected an IP address string, got number 12",
        'warning: line 3: at: expected an ISO time ("2026-11-28T08:00:00Z"), milliseconds since 1970 (>= 0) or "+ms" after the previous request, got "noon"',
        ""
      ].join("\n")
    )
    const empty = path.join(dir, "empty.jsonl")
    fs.writeFileSync(empty, "# nothing\n\n")
    const none = lockdowns(run, "--replay", empty)
    expect([none.status, none.stdout, none.stderr]).toEqual([
      1,
      "",
      `error: firewall lockdowns migrate --replay: ${empty}: no request to replay (2 lines, only blank lines and comments)\n`
    ])
    const usage = lockdowns(run, "--replay", empty, "--yes")
    expect(usage.status).toBe(2)
    expect(usage.stderr).toContain(
      "--replay only compares; it cannot be used with --dry-run, --delete-old, --rollback or --yes"
    )
  })
})

describe("firewall rate-limits migrate --replay (with time)", () => {
  it("agrees on the enterprise zone: a login banned after its 6th counted failure, until the timeout ends", () => {
    const run = cli(tempDir("edgectl-legreplay-"))
    const r = run(["firewall", "rate-limits", "migrate", "--zone", "acme-mail.com", "--replay", rateTraffic, "--json"])
    expect([r.status, r.stderr]).toEqual([0, ""])
    const report = JSON.parse(r.stdout) as Report
    expect([report.kind, report.requests, report.agreed, report.decided]).toEqual([
      "rate-limits",
      12,
      12,
      { before: { none: 11, block: 1 }, after: { none: 11, block: 1 } }
    ])
    // From stdin too, with a line out of time order named and left out.
    const lines = fs.readFileSync(rateTraffic, "utf8").trimEnd().split("\n")
    const late = '{"id": "late", "at": "2026-11-28T07:00:00Z", "request": {"ip.src": "192.0.2.1"}}'
    const s = run(
      ["firewall", "rate-limits", "migrate", "--zone", "acme-mail.com", "--replay", "-"],
      [...lines, late].join("\n")
    )
    expect(s.status).toBe(0)
    expect(s.stdout.split("\n")[1]).toBe(
      "12 request(s): 12 decided alike, 0 differently (action 0, skipped 0, logged 0)"
    )
    expect(s.stderr).toBe(
      `warning: 1 line not read\nwarning: line ${lines.length + 1}: at: 2026-11-28T07:00:00.000Z is before line ${lines.length}'s 2026-11-28T08:15:10.000Z: requests come in time order\n`
    )
  })

  it("a refused plan has no after: nothing to compare (exit 1)", () => {
    const run = cli(tempDir("edgectl-legreplay-"))
    const r = run(["firewall", "rate-limits", "migrate", "--zone", "initech-payroll.com", "--replay", rateTraffic])
    expect([r.status, r.stdout, r.stderr]).toEqual([
      1,
      "",
      "error: firewall rate-limits migrate --replay: nothing to compare: the migration is refused: zone initech-payroll.com would need 3 rate limiting rules (0 there now, 3 for the previous rate limits), more than the 2 its pro plan allows: delete some rate limits, or upgrade the plan\n"
    ])
  })

  it("a firewall bypass of rateLimit exempted requests from the previous version only: the new rule counts them (the plan's exemptions note)", () => {
    const run = cli(tempDir("edgectl-legreplay-"))
    // 601 requests in 6 s to /api/sync: over the sync rate limit's 600 per minute, which the zone's
    // firewall rule "sync skips rate limiting" bypassed; the rate limiting rule it becomes is not.
    const sync = Array.from({ length: 601 }, (_, i) =>
      JSON.stringify({
        id: `sync-${i + 1}`,
        at: i === 0 ? "2026-11-28T08:00:00Z" : "+10",
        request: { "http.host": "acme-mail.com", "http.request.uri.path": "/api/sync/inbox", "ip.src": "192.0.2.90" }
      })
    ).join("\n")
    const r = run(["firewall", "rate-limits", "migrate", "--zone", "acme-mail.com", "--replay", "-", "--json"], sync)
    expect(r.status).toBe(1)
    const report = JSON.parse(r.stdout) as Report
    expect(
      report.disagreements.map((d) => [
        d.id,
        d.before.action,
        d.after.action,
        d.after.rule?.id,
        d.explainedBy.map((e) => e.code)
      ])
    ).toEqual([["sync-601", null, "block", "rate_limit:b5db7a755a50963faace5e1fe9f4d6b0", ["exemptions"]]])
  })

  it("after an apply: the journal's before (the rate limits) against the zone now (the rules), with the same counts", () => {
    const dir = tempDir("edgectl-legreplay-")
    const run = cli(dir)
    const z = ["firewall", "rate-limits", "migrate", "--zone", "acme-mail.com"]
    expect(run([...z, "--yes"]).status).toBe(0)
    const r = run([...z, "--replay", rateTraffic, "--json"])
    expect([r.status, r.stderr]).toEqual([0, ""])
    const report = JSON.parse(r.stdout) as Report
    expect([report.compared, report.requests, report.agreed, report.decided.before]).toEqual([
      "journal",
      12,
      12,
      { none: 11, block: 1 }
    ])
    fs.rmSync(path.join(dir, ".edgectl", "state", "migrations"), { recursive: true })
    expect(run([...z, "--replay", rateTraffic]).stderr).toBe(
      `error: firewall rate-limits migrate --replay: nothing to compare: the zone's rate limits were migrated and no journal of the migration's "before" is kept\n`
    )
  })

  describe("--remote, a pro zone whose plan rounds and drops", () => {
    let p: Platform
    let env: Record<string, string | undefined>
    beforeAll(async () => {
      p = await startPlatform()
      env = {
        CLOUDFLARE_API_BASE_URL: p.baseUrl,
        CLOUDFLARE_API_TOKEN: World.allToken,
        CLOUDFLARE_API_KEY: undefined,
        CLOUDFLARE_EMAIL: undefined,
        // Its own `--remote` journals: the demo world's zone ids are the same in every test file.
        XDG_STATE_HOME: tempDir("edgectl-xdg-state-")
      }
      // The pro plan allows 2 rate limiting rules: the homepage rate limit goes, so the plan fits.
      const z = (await request(p.baseUrl, "/zones?name=initech-payroll.com")).body.result[0].id as string
      const list = await request(p.baseUrl, `/zones/${z}/rate_limits`)
      const home = list.body.result.find((r: { description: string }) => r.description === "homepage").id as string
      expect((await request(p.baseUrl, `/zones/${z}/rate_limits/${home}`, { method: "DELETE" })).status).toBe(200)
    })
    afterAll(async () => p?.close())

    it("each difference names the note that explains it: the period rounded, the method dropped", async () => {
      // Async: the served platform runs in this worker, which a synchronous child would block.
      const r = await edgectlAsync(
        [
          "firewall",
          "rate-limits",
          "migrate",
          "--zone",
          "initech-payroll.com",
          "--replay",
          rateDiffer,
          "--remote",
          "--json"
        ],
        { cwd: tempDir(), env }
      )
      expect(r.status).toBe(1)
      expect(r.stderr).toBe(
        `firewall rate-limits migrate --replay: 2 request(s) of ${rateDiffer} decided differently (2 explained by the plan's notes)\n`
      )
      const report = JSON.parse(r.stdout) as Report
      expect(
        report.disagreements.map((d) => [
          d.id,
          d.before.action,
          d.before.rule?.kind,
          d.after.action,
          d.after.rule?.kind,
          d.explainedBy.map((e) => e.code)
        ])
      ).toEqual([
        ["export-11", "block", "rate_limit", null, undefined, ["period-rounded"]],
        ["login-get-6", null, undefined, "block", "ratelimit", ["method-dropped"]]
      ])
    })
  })
})
