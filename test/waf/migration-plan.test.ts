/**
 * The WAF migration's plan on the engine's types (src/waf/migration-plan.ts): one irreversible step,
 * in effect once the zone shows the state reached and the entry point the rules sent (whatever the
 * platform assigns: ids, versions, refs, times), and the differences named otherwise.
 */
import { describe, expect, it } from "vitest"
import { isIrreversible } from "../../src/domain/migration.js"
import { planWafMigration, wafStateDifferences, wafStepInEffect } from "../../src/waf/migration-plan.js"

const rules = [
  { action: "execute", expression: "true", action_parameters: { id: "efb7b8c949ac4650a09736fc376e9aee" } },
  { action: "skip", expression: 'http.request.uri.path eq "/admin"', enabled: false }
]
const plan = (mode: "validation" | "pending") =>
  planWafMigration({
    zone: { id: "z1", name: "example.com" },
    before: { migration_state: "start", rules: null },
    mode,
    body: { name: "default", rules },
    next: mode === "pending" ? "finished" : "validation"
  })

describe("the WAF migration plan", () => {
  it("one PUT of the managed entry point with its mode; the expected state is the state reached and the rules sent", () => {
    const p = plan("pending")
    expect(p.steps.map((s) => `${s.method} ${s.path}`)).toEqual([
      "PUT /zones/z1/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1"
    ])
    expect(p.expected).toEqual({ migration_state: "finished", rules })
    expect(p.before).toEqual({ migration_state: "start", rules: null })
  })

  it("no inverse: finishing cannot be reversed, validation has no documented way back", () => {
    const [finish] = plan("pending").steps
    const [validate] = plan("validation").steps
    expect(isIrreversible(finish!.inverse) && finish!.inverse.irreversible).toMatch(/cannot be reversed/)
    expect(isIrreversible(validate!.inverse) && validate!.inverse.irreversible).toMatch(/no documented way back/)
  })

  it("in effect once the state and the rules match, with what the platform assigns ignored", () => {
    const [step] = plan("pending").steps
    const saved = rules.map((r, i) => ({ ...r, id: `r${i}`, version: "1", ref: `r${i}`, last_updated: "now" }))
    expect(wafStepInEffect(step!, { migration_state: "finished", rules: saved })).toBe(true)
    expect(wafStepInEffect(step!, { migration_state: "start", rules: null })).toBe(false)
    expect(wafStateDifferences(step!.check, { migration_state: "validation", rules: saved })).toEqual([
      "the migration state is validation, the plan has finished"
    ])
    expect(
      wafStateDifferences(step!.check, {
        migration_state: "finished",
        rules: [saved[0]!, { ...saved[1]!, enabled: true }]
      })
    ).toEqual(['managed rule #2 (http.request.uri.path eq "/admin") differs from the plan\'s'])
    expect(wafStateDifferences(step!.check, { migration_state: "finished", rules: saved.slice(1) })).toEqual([
      "the managed entry point holds 1 rule(s), the plan has 2"
    ])
  })
})
