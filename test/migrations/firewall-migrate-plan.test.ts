/**
 * The firewall migration's plan against the platform's limits and what a re-run finds: a Pro zone
 * with 5 custom rules and 20 firewall rules is planned to 20 custom rules (the rest left out with
 * a note) and applied without a refusal; a `matches` rule on a Pro zone is left out (`unmapped`)
 * instead of failing the apply with 10110; a migrated rule resumed by hand is paused by the
 * re-run; a --delete-old migration refuses --rollback with the reason; and the plan the TUI gets
 * from the service equals `--dry-run --json`, as whole JSON.
 */
import * as Effect from "effect/Effect"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientLayer } from "../../src/cli/environment.js"
import { journalBefore, planZoneMigration } from "../../src/services/custom-rules-migration-service.js"
import { MigrationTarget, remoteMigrationTarget } from "../../src/services/migration-journal.js"
import { resolveZone } from "../../src/services/zones-service.js"
import { edgectl, edgectlAsync, json, tempDir } from "../helpers/cli.js"
import { request, startPlatform, World, type Platform } from "../helpers/platform.js"

interface Plan {
  steps: Array<{ key: string; method: string; path: string; body?: { rules?: Array<{ expression: string }> } }>
  expected: { customRules: Array<unknown>; firewallRules: Array<{ id: string; paused: boolean }> }
  notes: Array<{ severity: string; code: string; rule?: string; message: string }>
  refused?: string
}

describe("firewall migrate against the platform's limits (--remote on edgectl serve)", () => {
  let platform: Platform
  let home: string
  const remote = (args: ReadonlyArray<string>) =>
    edgectlAsync([...args, "--remote"], {
      cwd: home,
      env: {
        CLOUDFLARE_API_BASE_URL: platform.baseUrl,
        CLOUDFLARE_API_TOKEN: World.allToken,
        CLOUDFLARE_API_KEY: undefined,
        CLOUDFLARE_EMAIL: undefined,
        XDG_STATE_HOME: path.join(home, "state")
      }
    })
  const zoneId = async (name: string) =>
    (await request<{ result: Array<{ id: string }> }>(platform.baseUrl, `/zones?name=${name}`)).body.result[0]!.id

  beforeAll(async () => {
    platform = await startPlatform()
    home = tempDir("edgectl-plan-")
  })
  afterAll(() => platform.close())

  it("a Pro zone with 5 custom rules and 20 firewall rules: 20 custom rules in all, 5 left out with a note, applied without a refusal", async () => {
    const id = await zoneId("initech.com")
    const fw = await request(platform.baseUrl, `/zones/${id}/firewall/rules`, {
      method: "POST",
      body: Array.from({ length: 19 }, (_, i) => ({
        action: "block",
        description: `block path ${i}`,
        filter: { expression: `http.request.uri.path eq "/p${i}"` }
      }))
    })
    expect(fw.status).toBe(200)
    const custom = await request(
      platform.baseUrl,
      `/zones/${id}/rulesets/phases/http_request_firewall_custom/entrypoint`,
      {
        method: "PUT",
        body: {
          rules: Array.from({ length: 5 }, (_, i) => ({
            action: "block",
            expression: `http.host eq "kept${i}.example"`,
            description: `kept ${i}`
          }))
        }
      }
    )
    expect(custom.status).toBe(200)
    const dry = await remote(["firewall", "migrate", "--zone", "initech.com", "--dry-run", "--json"])
    const plan = json<Plan>(dry)
    expect(plan.refused).toBeUndefined()
    expect(plan.expected.customRules).toHaveLength(20)
    expect(plan.steps[0]!.body!.rules).toHaveLength(20)
    const limited = plan.notes.filter((n) => n.code === "plan-limit")
    expect(limited).toHaveLength(5)
    expect(limited[0]!.message).toContain(
      "the pro plan allows at most 20 custom rules, the zone keeps 5 custom rule(s) already there, and the zone's firewall rules need 20"
    )
    // The rules left out are not paused: they keep running as firewall rules.
    const paused = plan.steps.filter((s) => s.key.startsWith("pause:")).map((s) => s.path.split("/").pop())
    expect(paused).toHaveLength(15)
    for (const n of limited) expect(paused).not.toContain(n.rule)

    const applied = await remote(["firewall", "migrate", "--zone", "initech.com", "--yes"])
    expect(applied.status, applied.stderr).toBe(0)
    const rules = json<Array<{ description: string }>>(
      await remote(["custom-rules", "list", "--zone", "initech.com", "--json"])
    )
    expect(rules).toHaveLength(20)
    expect(rules.slice(15).map((r) => r.description)).toEqual(["kept 0", "kept 1", "kept 2", "kept 3", "kept 4"])
  })

  it("a `matches` rule on a Pro zone is left out as unmapped in the plan the CLI and the TUI show alike, and the apply succeeds", async () => {
    const id = await zoneId("initech-payroll.com")
    const created = await request<{ result: Array<{ id: string }> }>(platform.baseUrl, `/zones/${id}/firewall/rules`, {
      method: "POST",
      body: [{ action: "block", description: "regex", filter: { expression: 'http.request.uri.path matches "^/x"' } }]
    })
    const regexRule = created.body.result[0]!.id
    const dry = await remote(["firewall", "migrate", "--zone", "initech-payroll.com", "--dry-run", "--json"])
    const plan = json<Plan>(dry)
    expect(plan.notes).toContainEqual({
      severity: "unmapped",
      code: "plan-gated",
      rule: regexRule,
      message: `rule ${regexRule}: \`matches\` (regex) needs the Business or Enterprise plan, this zone is on pro, and the rulesets API refuses such a rule (10110); it is left out`
    })
    expect(JSON.stringify(plan.steps)).not.toContain("matches")
    expect(plan.steps.map((s) => s.key)).not.toContain(`pause:${regexRule}`)

    // The TUI's plan: the same service function, in-process, on the same target.
    const runtime = ManagedRuntime.make(
      clientLayer({
        remote: true,
        env: { CLOUDFLARE_API_BASE_URL: platform.baseUrl, CLOUDFLARE_API_TOKEN: World.allToken }
      })
    )
    try {
      const tuiPlan = await runtime.runPromise(
        Effect.flatMap(resolveZone("initech-payroll.com"), (z) => planZoneMigration(z, false))
      )
      expect(JSON.parse(JSON.stringify(tuiPlan))).toEqual(plan)
    } finally {
      await runtime.dispose()
    }

    const text = await remote(["firewall", "migrate", "--zone", "initech-payroll.com", "--dry-run"])
    expect(text.stdout).toMatch(new RegExp(`- +${regexRule} +block +\\(not migrated\\) +regex`))
    const applied = await remote(["firewall", "migrate", "--zone", "initech-payroll.com", "--yes"])
    expect(applied.status, applied.stderr).toBe(0)
    expect(applied.stderr).toBe("")
    // The journal's "before" (what the replay of an applied migration compares with) is the plan's.
    const recorded = await ManagedRuntime.make(
      clientLayer({
        remote: true,
        env: { CLOUDFLARE_API_BASE_URL: platform.baseUrl, CLOUDFLARE_API_TOKEN: World.allToken }
      })
    ).runPromise(
      Effect.flatMap(resolveZone("initech-payroll.com"), journalBefore).pipe(
        Effect.provideService(MigrationTarget, remoteMigrationTarget({ XDG_STATE_HOME: path.join(home, "state") }))
      )
    )
    expect(JSON.parse(JSON.stringify(recorded))).toEqual((plan as unknown as { before: unknown }).before)
  })
})

describe("firewall migrate re-runs (local)", () => {
  it("a migrated rule resumed by hand is paused by the re-run, which says what it found", () => {
    const cwd = tempDir("edgectl-rerun-")
    const run = (args: ReadonlyArray<string>) => edgectl(args, { cwd })
    const z = ["--zone", "globex.com"]
    expect(run(["firewall", "migrate", ...z, "--yes"]).status).toBe(0)
    const rules = json<Array<{ id: string; paused: boolean }>>(run(["firewall", "rules", "list", ...z, "--json"]))
    const one = rules[1]!.id
    expect(run(["firewall", "rules", "update", one, ...z, "--resume"]).status).toBe(0)
    const again = run(["firewall", "migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain(
      `rule ${one}: migrated before (custom rule ref ${one}) but still active, so both run: the migration pauses it`
    )
    expect(again.stdout).toContain("1 firewall rule(s) paused")
    const after = json<Array<{ id: string; paused: boolean }>>(run(["firewall", "rules", "list", ...z, "--json"]))
    expect(after.every((r) => r.paused)).toBe(true)
    // The rollback restores the state before the first run, not the one before the re-run.
    expect(run(["firewall", "migrate", ...z, "--rollback", "--yes"]).status).toBe(0)
    expect(json<Array<{ id: string; paused: boolean }>>(run(["firewall", "rules", "list", ...z, "--json"]))).toEqual(
      rules.map((r) => ({ ...r, paused: false }))
    )
    expect(json<Array<unknown>>(run(["custom-rules", "list", ...z, "--json"]))).toEqual([])
  })

  it("--rollback of a --delete-old migration is refused with the reason; without a journal there is nothing to roll back", () => {
    const cwd = tempDir("edgectl-rerun-")
    const run = (args: ReadonlyArray<string>) => edgectl(args, { cwd })
    const z = ["--zone", "globex.com"]
    const none = run(["firewall", "migrate", ...z, "--rollback", "--yes"])
    expect([none.status, none.stderr]).toEqual([
      1,
      expect.stringContaining("zone globex.com has no migration journal on this target: nothing to roll back")
    ])
    expect(run(["firewall", "migrate", ...z, "--delete-old", "--yes"]).status).toBe(0)
    const refused = run(["firewall", "migrate", ...z, "--rollback", "--yes"])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(
      /cannot roll back: firewall rule \w{32} was deleted \(--delete-old\), and the platform gives a recreated rule a new id/
    )
  })

  it("one migration of a zone at a time: a live process's lock refuses, a dead one's is taken over", () => {
    const cwd = tempDir("edgectl-lock-")
    const run = (args: ReadonlyArray<string>) => edgectl(args, { cwd })
    const id = json<{ id: string }>(run(["zones", "get", "globex.com", "--json"])).id
    const dir = path.join(cwd, ".edgectl", "state", "migrations")
    fs.mkdirSync(dir, { recursive: true })
    const lock = path.join(dir, `${id}-firewall-custom-rules.lock`)
    fs.writeFileSync(lock, String(process.pid))
    const refused = run(["firewall", "migrate", "--zone", "globex.com", "--yes"])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain(
      `another edgectl (pid ${process.pid}) is migrating or rolling back zone globex.com`
    )
    expect(json<Array<unknown>>(run(["custom-rules", "list", "--zone", "globex.com", "--json"]))).toEqual([])
    fs.writeFileSync(lock, String(spawnSync(process.execPath, ["-e", "0"]).pid))
    expect(run(["firewall", "migrate", "--zone", "globex.com", "--yes"]).status).toBe(0)
    expect(fs.existsSync(lock)).toBe(false)
  })
})
