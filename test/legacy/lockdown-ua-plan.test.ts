/**
 * The Zone Lockdown + User Agent Blocking -> custom rules plan as a pure function: the reference's
 * ordered list (allow and block per lockdown in processing order, then UA rules, after the zone's
 * custom rules, and again before each that skips the rest, for what it matches), exemptions kept as
 * `and not (...)`, paused sources disabled, UA rules merged when
 * the plan's quota needs it, a plan that cannot fit refused whole, and a re-plan after the apply
 * that has nothing left to send.
 */
import { describe, expect, it } from "vitest"
import type { CustomRule } from "../../src/domain/custom-rule.js"
import type { Lockdown, UaRule } from "../../src/domain/legacy-security.js"
import { planLockdownUaMigration, type LockdownUaState } from "../../src/firewall/lockdown-ua-plan.js"
import { check } from "../../src/rules/index.js"

const lockdown = (id: string, over: Partial<Lockdown> = {}): Lockdown => ({
  id,
  created_on: "2024-01-01T00:00:00Z",
  modified_on: "2024-01-01T00:00:00Z",
  paused: false,
  description: `lock ${id}`,
  urls: [`example.com/${id}/*`],
  configurations: [{ target: "ip", value: "192.0.2.1" }],
  ...over
})
const ua = (id: string, value: string, over: Partial<UaRule> = {}): UaRule => ({
  id,
  paused: false,
  description: `ua ${id}`,
  mode: "block",
  configuration: { target: "ua", value },
  ...over
})
const state = (over: Partial<LockdownUaState>): LockdownUaState => ({
  lockdowns: [],
  uaRules: [],
  customRules: [],
  firewallRules: [],
  ...over
})
const zone = { id: "z1", name: "example.com" }

describe("planLockdownUaMigration", () => {
  it("orders lockdowns by priority (allow then block each), UA rules after, all after the zone's custom rules", () => {
    const kept: CustomRule = { action: "block", expression: 'http.host eq "x.example.com"', ref: "mine", enabled: true }
    const p = planLockdownUaMigration({
      zone,
      plan: "enterprise",
      deleteOld: false,
      before: state({
        lockdowns: [lockdown("b"), lockdown("a", { priority: 5 })],
        uaRules: [ua("u1", 'Bad "Bot"')],
        customRules: [kept]
      })
    })
    expect(p.refused).toBeUndefined()
    expect(p.expected.customRules.map((r) => r.ref)).toEqual([
      "mine",
      "lockdown:a:allow",
      "lockdown:a:block",
      "lockdown:b:allow",
      "lockdown:b:block",
      "ua:u1"
    ])
    const [, allow, block, , , uaRule] = p.expected.customRules
    expect(allow).toMatchObject({
      action: "skip",
      action_parameters: { ruleset: "current" },
      logging: { enabled: false },
      expression: '(http.host eq "example.com" and http.request.uri.path wildcard "/a/*") and ip.src in {192.0.2.1}'
    })
    expect(block!.expression).toBe(
      '(http.host eq "example.com" and http.request.uri.path wildcard "/a/*") and not ip.src in {192.0.2.1}'
    )
    expect(uaRule).toMatchObject({ action: "block", expression: 'http.user_agent eq "Bad \\"Bot\\""' })
    for (const r of p.expected.customRules) expect(check(r.expression).valid, r.expression).toBe(true)
    expect(p.steps.map((s) => s.key)).toEqual(["entrypoint", "pause:b", "pause:a", "pause:u1"])
    expect(p.expected.lockdowns.every((l) => l.paused)).toBe(true)
  })

  it("keeps each exemption (a custom skip rule, an active firewall bypass) as and not (...); a paused source is disabled", () => {
    const p = planLockdownUaMigration({
      zone,
      plan: "enterprise",
      deleteOld: false,
      before: state({
        lockdowns: [lockdown("a", { paused: true })],
        uaRules: [ua("u1", "curl")],
        customRules: [
          {
            action: "skip",
            expression: 'http.request.uri.path eq "/health"',
            action_parameters: { products: ["zoneLockdown"] },
            ref: "health"
          }
        ],
        firewallRules: [
          {
            id: "f1",
            paused: false,
            action: "bypass",
            priority: null,
            products: ["uaBlock"],
            filter: { id: "x", paused: false, expression: "ip.src eq 203.0.113.9" }
          }
        ]
      })
    })
    const [, allow, block, uaRule] = p.expected.customRules
    expect(allow!.enabled).toBe(false)
    expect(block!.expression.endsWith(' and not (http.request.uri.path eq "/health")')).toBe(true)
    expect(uaRule!.expression).toBe('http.user_agent eq "curl" and not (ip.src eq 203.0.113.9)')
    expect(p.steps.map((s) => s.key)).toEqual(["entrypoint", "pause:u1"])
  })

  it("places the rules again before each skip of the rest, for what it matches, exempted only by the skips before it", () => {
    const health: CustomRule = {
      action: "skip",
      expression: 'http.request.uri.path eq "/health"',
      action_parameters: { products: ["zoneLockdown"] },
      ref: "health"
    }
    const office: CustomRule = {
      action: "skip",
      expression: "ip.src in {192.0.2.0/24}",
      action_parameters: { ruleset: "current", products: ["waf"] },
      ref: "office"
    }
    const monitor: CustomRule = {
      action: "skip",
      expression: 'http.user_agent eq "Monitor"',
      action_parameters: { ruleset: "current", products: ["zoneLockdown"] },
      ref: "monitor"
    }
    const late: CustomRule = {
      action: "skip",
      expression: 'http.host eq "late.example.com"',
      action_parameters: { products: ["uaBlock"] },
      ref: "late"
    }
    const before = state({
      lockdowns: [lockdown("a")],
      uaRules: [ua("u1", "curl")],
      customRules: [health, office, monitor, late]
    })
    const p = planLockdownUaMigration({ zone, plan: "enterprise", deleteOld: false, before })
    expect(p.expected.customRules.map((r) => r.ref)).toEqual([
      "health",
      "lockdown:a:allow@office",
      "lockdown:a:block@office",
      "ua:u1@office",
      "office",
      // The monitor's requests were exempt from Zone Lockdown: only the UA rule is placed before it.
      "ua:u1@monitor",
      "monitor",
      "late",
      "lockdown:a:allow",
      "lockdown:a:block",
      "ua:u1"
    ])
    const rule = (ref: string) => p.expected.customRules.find((r) => r.ref === ref)!
    // The allow skips what the gate would have skipped; only the skips before the gate exempt.
    expect(rule("lockdown:a:allow@office")).toMatchObject({
      action: "skip",
      action_parameters: { ruleset: "current", products: ["waf"] },
      expression:
        '(http.host eq "example.com" and http.request.uri.path wildcard "/a/*") and ip.src in {192.0.2.1} and not (http.request.uri.path eq "/health") and (ip.src in {192.0.2.0/24})'
    })
    expect(rule("ua:u1@office").expression).toBe('http.user_agent eq "curl" and (ip.src in {192.0.2.0/24})')
    expect(rule("ua:u1").expression).toBe('http.user_agent eq "curl" and not (http.host eq "late.example.com")')
    for (const r of p.expected.customRules) expect(check(r.expression).valid, r.expression).toBe(true)
    expect(p.mapping).toEqual([
      {
        product: "lockdowns",
        rule: "a",
        refs: ["lockdown:a:allow@office", "lockdown:a:block@office", "lockdown:a:allow", "lockdown:a:block"]
      },
      { product: "ua_rules", rule: "u1", refs: ["ua:u1@office", "ua:u1@monitor", "ua:u1"] }
    ])
    expect(p.notes.filter((n) => n.code === "placed-before-skip")).toHaveLength(2)

    // A re-plan keeps every copy.
    const again = planLockdownUaMigration({ zone, plan: "enterprise", deleteOld: false, before: p.expected })
    expect([again.steps, again.expected.customRules]).toEqual([[], p.expected.customRules])
  })

  it("a skip of the rest added after the migration: the paused sources are converted again before it; deleted ones are said in a note", () => {
    const before = state({
      lockdowns: [lockdown("a")],
      uaRules: [ua("u1", "curl"), ua("u2", "wget", { paused: true })]
    })
    const p = planLockdownUaMigration({ zone, plan: "enterprise", deleteOld: false, before })
    const added: CustomRule = {
      action: "skip",
      expression: "ip.src eq 198.51.100.1",
      action_parameters: { ruleset: "current" },
      ref: "added"
    }
    // What the firewall migration does: its rules (here a migrated allow) before the custom rules it keeps.
    const later = { ...p.expected, customRules: [added, ...p.expected.customRules] }
    const again = planLockdownUaMigration({ zone, plan: "enterprise", deleteOld: false, before: later })
    expect(again.expected.customRules.map((r) => [r.ref, r.enabled])).toEqual([
      ["lockdown:a:allow@added", true],
      ["lockdown:a:block@added", true],
      ["ua:u1@added", true],
      ["ua:u2@added", false],
      ["added", undefined],
      ...p.expected.customRules.map((r) => [r.ref, r.enabled])
    ])
    expect(again.expected.customRules[0]).toMatchObject({
      action_parameters: { ruleset: "current" },
      expression:
        '(http.host eq "example.com" and http.request.uri.path wildcard "/a/*") and ip.src in {192.0.2.1} and (ip.src eq 198.51.100.1)'
    })
    expect(again.expected.customRules[0]!.logging).toBeUndefined()
    expect(again.steps.map((s) => s.key)).toEqual(["entrypoint"])
    expect(again.notes.map((n) => n.code)).not.toContain("skip-current-covers-migrated")
    expect(again.notes.find((n) => n.code === "placed-again-before-skip")).toMatchObject({
      rule: "added",
      severity: "changed"
    })
    const settled = planLockdownUaMigration({ zone, plan: "enterprise", deleteOld: false, before: again.expected })
    expect(settled.steps).toEqual([])
    expect(settled.notes.map((n) => n.code)).toContain("placed-before-skip")
    expect(settled.notes.map((n) => n.code)).not.toContain("placed-again-before-skip")

    // Deleted sources cannot be converted again: the note names the gate and the rules it now covers.
    const gone = planLockdownUaMigration({
      zone,
      plan: "enterprise",
      deleteOld: false,
      before: { ...later, lockdowns: [], uaRules: [] }
    })
    expect(gone.expected.customRules.map((r) => r.ref)).toEqual(["added", "ua:u1", "ua:u2"])
    expect(gone.notes.find((n) => n.code === "skip-current-covers-migrated")).toMatchObject({
      rule: "added",
      severity: "changed",
      message: expect.stringContaining("the migrated rules ua:u1, ua:u2, which it did not exempt from before") as string
    })
  })

  it("merges UA rules per mode and state when the quota needs it, and refuses a plan that still does not fit", () => {
    const many = Array.from({ length: 8 }, (_, i) =>
      ua(`u${i}`, `Agent${i}`, { mode: i % 2 === 0 ? "block" : "challenge" })
    )
    const p = planLockdownUaMigration({ zone, plan: "free", deleteOld: false, before: state({ uaRules: many }) })
    expect(p.refused).toBeUndefined()
    expect(p.expected.customRules.map((r) => r.expression)).toEqual([
      'http.user_agent in {"Agent0" "Agent2" "Agent4" "Agent6"}',
      'http.user_agent in {"Agent1" "Agent3" "Agent5" "Agent7"}'
    ])
    expect(p.notes.map((n) => n.code)).toContain("ua-merged")
    const full = planLockdownUaMigration({
      zone,
      plan: "pro",
      deleteOld: false,
      before: state({
        lockdowns: [lockdown("a"), lockdown("b"), lockdown("c")],
        customRules: Array.from({ length: 16 }, (_, i) => ({
          action: "block" as const,
          expression: "true",
          ref: `r${i}`
        }))
      })
    })
    expect(full.refused).toBe(
      "zone example.com would need 22 custom rules (16 there now, 6 for Zone Lockdown and User Agent Blocking), more than the 20 its pro plan allows: delete some, or upgrade the plan"
    )
    expect(full.steps).toEqual([])
    // The rules placed before a skip of the rest count too, and the refusal says so.
    const office: CustomRule = {
      action: "skip",
      expression: "ip.src in {192.0.2.0/24}",
      action_parameters: { ruleset: "current" },
      ref: "office"
    }
    const gated = planLockdownUaMigration({
      zone,
      plan: "free",
      deleteOld: false,
      before: state({ lockdowns: [lockdown("a"), lockdown("b")], customRules: [office] })
    })
    expect(gated.refused).toBe(
      "zone example.com would need 9 custom rules (1 there now, 8 for Zone Lockdown and User Agent Blocking, 4 of them placed before the rules that skip the rest), more than the 5 its free plan allows: delete some, or upgrade the plan"
    )
  })

  it("after the apply, the re-plan keeps the migrated rules and sends nothing; --delete-old deletes, irreversibly", () => {
    const before = state({ lockdowns: [lockdown("a")], uaRules: [ua("u1", "x")] })
    const p = planLockdownUaMigration({ zone, plan: "business", deleteOld: false, before })
    const again = planLockdownUaMigration({ zone, plan: "business", deleteOld: false, before: p.expected })
    expect(again.steps).toEqual([])
    expect(again.expected.customRules).toEqual(p.expected.customRules)
    const del = planLockdownUaMigration({ zone, plan: "business", deleteOld: true, before })
    expect(del.steps.map((s) => `${s.method} ${s.path}`)).toEqual([
      "PUT /zones/z1/rulesets/phases/http_request_firewall_custom/entrypoint",
      "DELETE /zones/z1/firewall/lockdowns/a",
      "DELETE /zones/z1/firewall/ua_rules/u1"
    ])
    expect(del.steps.slice(1).every((s) => "irreversible" in s.inverse)).toBe(true)
  })
})
