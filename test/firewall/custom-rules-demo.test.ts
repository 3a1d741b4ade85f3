/**
 * The demo world's migration to custom rules, read as a client reads it (the firewall rules and the
 * zone's plan over HTTP from the embedded platform): acme-mail.com and initech-payroll.com cover
 * every case of the mapping; replaying the demo traffic (fixtures/firewall/custom-rules-traffic.jsonl)
 * through the zone now and the zone as the migration leaves it finds no difference for the faithful
 * cases and exactly the expected ones for the rule that has no equivalent (left live, it now runs
 * before every custom rule). The zones seeded before keep their rules.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { CustomRulesMigration } from "../../src/domain/custom-rule.js"
import type { Rule } from "../../src/domain/firewall.js"
import { hexId } from "../../src/domain/ids.js"
import { replayStatesText } from "../../src/firewall/custom-rules-replay.js"
import { migrateFirewallRules } from "../../src/firewall/custom-rules.js"
import { planFirewallMigration, type ZoneRulesState } from "../../src/firewall/custom-rules-plan.js"
import { statesToCompare } from "../../src/services/migration-replay-service.js"

/** The migration's pure plan for a zone's rules (the zone and account only name the journal). */
const planOf = (before: ZoneRulesState, plan: string) =>
  planFirewallMigration({
    zone: { id: "z", name: "z" },
    account: { id: "a", name: "a" },
    plan,
    before,
    deleteOld: false
  })
import { request, startPlatform, type Platform } from "../helpers/platform.js"

const traffic = fs.readFileSync(
  path.resolve(import.meta.dirname, "../../fixtures/firewall/custom-rules-traffic.jsonl"),
  "utf8"
)

let p: Platform
beforeAll(async () => {
  p = await startPlatform()
})
afterAll(async () => {
  await p?.close()
})

const zoneOf = async (name: string) => {
  const z = `/zones/${hexId("zone", name)}`
  const rules = (await request<{ result: Array<Rule> }>(p.baseUrl, `${z}/firewall/rules?per_page=100`)).body.result!
  const plan = (await request<{ result: { plan: { legacy_id: string } } }>(p.baseUrl, z)).body.result!.plan.legacy_id
  return { rules, plan, migration: migrateFirewallRules(rules, { plan }) }
}

/** The replay `firewall migrate --replay` runs on a zone with no custom rule: the zone now against the planned end state. */
const replayPlanned = (rules: ReadonlyArray<Rule>, plan: string) => {
  const states = statesToCompare(planOf({ firewallRules: rules, customRules: [] }, plan))
  if ("nothing" in states) throw new Error(states.nothing)
  return replayStatesText(states.before, states.after, traffic)
}

const byDescription = (rules: ReadonlyArray<Rule>, m: CustomRulesMigration, description: string) => {
  const old = rules.find((r) => r.description === description)!
  const entry = m.entries.find((e) => e.firewall_rule === old.id)!
  return entry.custom_rule === null ? null : m.rules[entry.custom_rule]!
}

describe("acme-mail.com: every faithful case", () => {
  it("has each action, a bypass of each product, priorities and none, paused, shared and deleted filters", async () => {
    const { rules } = await zoneOf("acme-mail.com")
    expect(new Set(rules.map((r) => r.action))).toEqual(
      new Set(["log", "bypass", "allow", "challenge", "managed_challenge", "js_challenge", "block"])
    )
    expect(new Set(rules.flatMap((r) => r.products ?? []))).toEqual(
      new Set(["zoneLockdown", "uaBlock", "bic", "hot", "securityLevel", "rateLimit", "waf"])
    )
    expect(rules.some((r) => r.priority === null) && rules.some((r) => r.priority !== null)).toBe(true)
    expect(rules.some((r) => r.paused)).toBe(true)
    expect(rules.some((r) => "paused" in r.filter && r.filter.paused)).toBe(true)
    expect(rules.some((r) => "deleted" in r.filter)).toBe(true)
    const filters = rules.map((r) => r.filter.id)
    expect(new Set(filters).size).toBeLessThan(filters.length)
  })

  it("maps them in the firewall's order, paused ones disabled, the deleted filter's rule left out", async () => {
    const { rules, migration: m } = await zoneOf("acme-mail.com")
    expect(m.rules.length).toBe(rules.length - 1)
    expect(byDescription(rules, m, "allow office network")).toMatchObject({
      action: "skip",
      action_parameters: { ruleset: "current" }
    })
    expect(byDescription(rules, m, "block spam relays")!.enabled).toBe(false)
    expect(byDescription(rules, m, "block executables")!.enabled).toBe(false)
    expect(byDescription(rules, m, "block the old host")).toBeNull()
    // Same priority (10): log, then allow, then the challenge, then block.
    const at = (d: string) => m.rules.indexOf(byDescription(rules, m, d)!)
    expect(["log webmail logins", "allow office network", "challenge webmail logins", "block admin"].map(at)).toEqual(
      [...["log webmail logins", "allow office network", "challenge webmail logins", "block admin"].map(at)].sort(
        (a, b) => a - b
      )
    )
    expect(m.notes.filter((n) => n.severity === "unmapped").map((n) => n.code)).toEqual(["filter-deleted"])
  })

  it("replays the demo traffic with no disagreement", async () => {
    const { rules, plan } = await zoneOf("acme-mail.com")
    const report = replayPlanned(rules, plan)
    expect(report.problems).toEqual([])
    expect(report.requests).toBe(29)
    expect(report.disagreements).toEqual([])
    expect(report.agreed).toBe(29)
  })
})

describe("initech-payroll.com: a rule that cannot be migrated", () => {
  it("leaves the log rule out on a Pro zone and says why", async () => {
    const { migration: m } = await zoneOf("initech-payroll.com")
    expect(m.rules.map((r) => r.action)).toEqual(["block"])
    expect(m.notes.filter((n) => n.severity === "unmapped")).toEqual([
      expect.objectContaining({ code: "log-plan", message: expect.stringContaining("plan is pro") })
    ])
  })

  it("the custom rules alone lose the log rule's two requests; the zone after keeps it live, ahead of them", async () => {
    const { rules, plan, migration: m } = await zoneOf("initech-payroll.com")
    const alone = replayStatesText(
      { firewallRules: rules, customRules: [] },
      { firewallRules: [], customRules: m.rules },
      traffic
    )
    // payroll-export from outside is blocked (priority 1) before the log rule (no priority) runs: no difference.
    expect(alone.counts).toEqual({ action: 0, skipped: 0, logged: 2 })
    expect(alone.disagreements.map((d) => [d.id, d.differences, d.before.logged.map((r) => r.description)])).toEqual([
      ["payroll", ["logged"], ["log payroll pages"]],
      ["payroll-export-inside", ["logged"], ["log payroll pages"]]
    ])
    const inside = alone.disagreements[1]!
    expect([inside.before.action, inside.after.action, inside.after.logged]).toEqual([null, null, []])
    expect(inside.summary).toBe("GET initech-payroll.com/payroll/export")
    // Left as it is, the log rule still runs, now before the migrated block: it logs the blocked export too.
    const planned = replayPlanned(rules, plan)
    expect(planned.disagreements.map((d) => [d.id, d.differences, d.after.logged.map((r) => r.description)])).toEqual([
      ["payroll-export", ["logged"], ["log payroll pages"]]
    ])
    expect(planned.disagreements[0]!.after.rule).toMatchObject({
      kind: "custom",
      description: "block exports from outside"
    })
  })
})

describe("the zones seeded before are unchanged", () => {
  it("acme.com, globex.com and initech.com keep their rules", async () => {
    const count = async (z: string) => (await zoneOf(z)).rules.length
    expect([await count("acme.com"), await count("globex.com"), await count("initech.com")]).toEqual([6, 3, 1])
  })
})
