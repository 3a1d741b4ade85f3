/**
 * The firewall migration's plan as data (src/firewall/custom-rules-plan.ts): the steps, the end
 * state, the inverses, and the refusal when the kept custom rules alone break the platform's rules
 * (more than the plan allows, a `matches` or a log rule below its plan): nothing would be sent.
 */
import { describe, expect, it } from "vitest"
import type { CustomRule } from "../../src/domain/custom-rule.js"
import type { Rule } from "../../src/domain/firewall.js"
import { inEffect, planFirewallMigration, stateDifferences } from "../../src/firewall/custom-rules-plan.js"

const fw = (id: string, paused = false): Rule => ({
  id,
  paused,
  action: "block",
  priority: null,
  description: `rule ${id}`,
  filter: { id: `f-${id}`, paused: false, expression: `http.host eq "${id}.example"` }
})
const custom = (ref: string, expression = `http.host eq "${ref}.kept"`): CustomRule => ({
  id: `id-${ref}`,
  version: "1",
  action: "block",
  expression,
  enabled: true,
  ref,
  last_updated: "2026-01-01T00:00:00Z"
})
const zone = { id: "z1", name: "example.com" }

describe("planFirewallMigration", () => {
  it("PUT of the entry point (migrated, then kept), a pause per active migrated rule, each with its inverse", () => {
    const p = planFirewallMigration({
      zone,
      plan: "pro",
      before: { firewallRules: [fw("a"), fw("b", true)], customRules: [custom("k")] },
      deleteOld: false
    })
    expect(p.refused).toBeUndefined()
    expect(p.steps.map((s) => s.key)).toEqual(["entrypoint", "pause:a"])
    expect(p.expected.customRules.map((r) => r.ref)).toEqual(["a", "b", "k"])
    expect(p.expected.firewallRules.map((r) => r.paused)).toEqual([true, true])
    const inverse = p.steps[1]!.inverse as { key: string; body: { paused: boolean } }
    expect([inverse.key, inverse.body.paused]).toEqual(["resume:a", false])
    expect(inEffect(p.steps[0]!, p.before)).toBe(false)
    expect(inEffect(p.steps[0]!, p.expected)).toBe(true)
    expect(stateDifferences(p.expected, p.before)).toEqual([
      "the custom rules entry point has 1 rule(s), the plan has 3",
      'custom rule #1 (ref k) differs in expression: "http.host eq \\"k.kept\\"", the plan has "http.host eq \\"a.example\\""; description: none, the plan has "rule a"; ref: "k", the plan has "a"',
      "firewall rule a is active, the plan has it paused"
    ])
  })

  it("refused, with nothing to send, when the kept custom rules are beyond the plan's limit or use what the plan lacks", () => {
    const many = Array.from({ length: 21 }, (_, i) => custom(`k${i}`))
    const over = planFirewallMigration({
      zone,
      plan: "pro",
      before: { firewallRules: [fw("a")], customRules: many },
      deleteOld: false
    })
    expect(over.refused).toContain("zone example.com has 21 custom rules, more than the 20 its pro plan allows")
    expect(over.steps).toEqual([])
    const regex = planFirewallMigration({
      zone,
      plan: "pro",
      before: { firewallRules: [fw("a")], customRules: [custom("r", 'http.request.uri.path matches "^/a"')] },
      deleteOld: false
    })
    expect(regex.refused).toBe(
      "custom rule r: `matches` (regex) needs the Business or Enterprise plan, this zone is on pro: the platform would refuse the entry point with it"
    )
  })
})
