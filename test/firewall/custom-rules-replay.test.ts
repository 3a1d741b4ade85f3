/**
 * Units: the replay through firewall rules and custom rules (src/firewall/custom-rules-replay.ts):
 * each kind of difference with the rules responsible, expressions shared by both sides evaluated
 * apart when they differ, and the traffic file's bad lines reported by line.
 */
import { describe, expect, it } from "vitest"
import type { CustomRule } from "../../src/domain/custom-rule.js"
import type { Rule } from "../../src/domain/firewall.js"
import { replayCustomRules } from "../../src/firewall/custom-rules-replay.js"
import { migrateFirewallRules } from "../../src/firewall/custom-rules.js"

const rule = (id: string, action: string, expression: string, extra: Partial<Rule> = {}): Rule => ({
  id,
  paused: false,
  action,
  priority: null,
  description: id,
  ...extra,
  filter: { id: `f-${id}`, paused: false, expression }
})

const line = (id: string, path: string) =>
  JSON.stringify({ id, request: { "http.request.uri.path": path, "ip.src": "198.51.100.1" } })

const admin = 'starts_with(http.request.uri.path, "/admin")'
const rules = [
  rule("log-admin", "log", admin),
  rule("bypass-admin", "bypass", admin, { products: ["waf"] }),
  rule("block-admin", "block", admin),
  rule("allow-api", "allow", 'starts_with(http.request.uri.path, "/api")')
]
const traffic = [line("admin", "/admin/x"), line("api", "/api/v1"), line("home", "/")].join("\n")

describe("replay of firewall rules and custom rules", () => {
  it("a faithful migration: every request agrees", () => {
    const r = replayCustomRules(rules, migrateFirewallRules(rules).rules, traffic)
    expect([r.requests, r.agreed, r.disagreements]).toEqual([3, 3, []])
  })

  it("names each difference and the rules responsible on both sides", () => {
    const custom = migrateFirewallRules(rules).rules.map((c): CustomRule =>
      c.ref === "block-admin"
        ? { ...c, action: "managed_challenge" }
        : c.ref === "bypass-admin"
          ? { ...c, action_parameters: { products: ["waf", "hot"] } }
          : c.ref === "log-admin"
            ? { ...c, enabled: false }
            : c
    )
    const r = replayCustomRules(rules, custom, traffic)
    expect(r.counts).toEqual({ action: 1, skipped: 1, logged: 1 })
    expect(r.disagreements).toHaveLength(1)
    const d = r.disagreements[0]!
    expect([d.line, d.id, d.summary, d.differences]).toEqual([
      1,
      "admin",
      "GET /admin/x",
      ["action", "skipped", "logged"]
    ])
    expect(d.firewall).toEqual({
      action: "block",
      rule: { id: "block-admin", description: "block-admin" },
      skipped: ["waf"],
      skippedBy: [{ id: "bypass-admin", description: "bypass-admin" }],
      logged: [{ id: "log-admin", description: "log-admin" }]
    })
    expect(d.custom).toEqual({
      action: "managed_challenge",
      rule: { id: "block-admin", description: "block-admin" },
      skipped: ["hot", "waf"],
      skippedBy: [{ id: "bypass-admin", description: "bypass-admin" }],
      logged: []
    })
  })

  it("a custom rule whose expression was edited is evaluated on its own expression", () => {
    const custom = migrateFirewallRules(rules).rules.map((c): CustomRule =>
      c.ref === "allow-api" ? { ...c, expression: 'http.request.uri.path eq "/"' } : c
    )
    const r = replayCustomRules(rules, custom, traffic)
    expect(r.disagreements.map((d) => [d.id, d.firewall.action, d.custom.action])).toEqual([
      ["api", "allow", null],
      ["home", null, "allow"]
    ])
  })

  it("a custom rule that is not a migrated one is named by its id, else its position", () => {
    const custom: Array<CustomRule> = [{ action: "block", expression: 'http.request.uri.path eq "/"' }]
    const r = replayCustomRules([], custom, traffic)
    expect(r.disagreements.map((d) => d.custom.rule)).toEqual([{ id: "#1" }])
  })

  it("reports the lines it cannot read, by line, and replays the others", () => {
    const r = replayCustomRules(
      rules,
      migrateFirewallRules(rules).rules,
      `# comment\n{nope\n[1]\n\n${line("home", "/")}`
    )
    expect(r.requests).toBe(1)
    expect(r.problems.map((p) => p.line)).toEqual([2, 3])
    expect(r.problems[0]!.message).toMatch(/^not JSON: /)
    expect(r.problems[1]!.message).toBe("expected a JSON object (a request, or {id, request})")
  })
})
