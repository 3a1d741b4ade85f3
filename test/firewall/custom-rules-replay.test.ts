/**
 * Units: the replay through two states of a zone's rules (src/firewall/custom-rules-replay.ts): each
 * kind of difference with the rules responsible, expressions shared by both sides evaluated apart
 * when they differ, the custom rules a migration keeps evaluated on both sides (after the firewall
 * rules: the derived order), and the traffic file's bad lines reported by line.
 */
import { describe, expect, it } from "vitest"
import type { CustomRule } from "../../src/domain/custom-rule.js"
import type { Rule } from "../../src/domain/firewall.js"
import { replayStatesText, type ZoneRulesState } from "../../src/firewall/custom-rules-replay.js"
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

/** The zone with its firewall rules only, and after a migration to `custom` (the firewall rules paused). */
const replayCustomRules = (fw: ReadonlyArray<Rule>, custom: ReadonlyArray<CustomRule>, text: string) =>
  replayStatesText(
    { firewallRules: fw, customRules: [] },
    { firewallRules: fw.map((r) => ({ ...r, paused: true })), customRules: custom },
    text
  )

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
    expect(d.before).toEqual({
      action: "block",
      rule: { kind: "firewall", id: "block-admin", description: "block-admin" },
      skipped: ["waf"],
      skippedBy: [{ kind: "firewall", id: "bypass-admin", description: "bypass-admin" }],
      logged: [{ kind: "firewall", id: "log-admin", description: "log-admin" }]
    })
    expect(d.after).toEqual({
      action: "managed_challenge",
      rule: { kind: "custom", id: "block-admin", description: "block-admin" },
      skipped: ["hot", "waf"],
      skippedBy: [{ kind: "custom", id: "bypass-admin", description: "bypass-admin" }],
      logged: []
    })
  })

  it("a custom rule whose expression was edited is evaluated on its own expression", () => {
    const custom = migrateFirewallRules(rules).rules.map((c): CustomRule =>
      c.ref === "allow-api" ? { ...c, expression: 'http.request.uri.path eq "/"' } : c
    )
    const r = replayCustomRules(rules, custom, traffic)
    expect(r.disagreements.map((d) => [d.id, d.before.action, d.after.action])).toEqual([
      ["api", "allow", null],
      ["home", null, "allow"]
    ])
  })

  it("a custom rule that is not a migrated one is named by its id, else its position", () => {
    const custom: Array<CustomRule> = [{ action: "block", expression: 'http.request.uri.path eq "/"' }]
    const r = replayCustomRules([], custom, traffic)
    expect(r.disagreements.map((d) => d.after.rule)).toEqual([{ kind: "custom", id: "#1" }])
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

describe("the two states whole: firewall rules, then the custom rules (the derived order)", () => {
  const kept: CustomRule = {
    id: "c1",
    ref: "block-private",
    action: "block",
    expression: 'starts_with(http.request.uri.path, "/private")',
    enabled: true
  }
  const allowApi = rule("allow-api", "allow", 'starts_with(http.request.uri.path, "/api")')
  const both = [line("private", "/private/x"), line("api", "/api/private"), line("home", "/")].join("\n")
  const planned = (fw: ReadonlyArray<Rule>, keptRules: ReadonlyArray<CustomRule>): ZoneRulesState => ({
    firewallRules: fw.map((r) => ({ ...r, paused: true })),
    customRules: [...migrateFirewallRules(fw).rules, ...keptRules]
  })

  it("a kept custom rule decides on both sides, and a firewall allow ends the custom rules after it", () => {
    const r = replayStatesText({ firewallRules: [allowApi], customRules: [kept] }, planned([allowApi], [kept]), both)
    expect([r.requests, r.agreed, r.disagreements]).toEqual([3, 3, []])
    expect(r.decided).toEqual({ before: { block: 1, allow: 1, none: 1 }, after: { block: 1, allow: 1, none: 1 } })
  })

  it("a kept block rule makes a difference: the zone before without it, after with it (or changed to block)", () => {
    const r = replayStatesText({ firewallRules: [allowApi], customRules: [] }, planned([allowApi], [kept]), both)
    expect(r.disagreements.map((d) => [d.id, d.differences, d.before.action, d.after.action, d.after.rule])).toEqual([
      ["private", ["action"], null, "block", { kind: "custom", id: "block-private" }]
    ])
    const logged: CustomRule = { ...kept, action: "skip", action_parameters: { products: ["waf"] } }
    const changed = replayStatesText(
      { firewallRules: [allowApi], customRules: [logged] },
      planned([allowApi], [kept]),
      both
    )
    expect(changed.disagreements.map((d) => [d.id, d.differences])).toEqual([["private", ["action", "skipped"]]])
  })

  it("a firewall rule the migration leaves live runs before every custom rule, so it may log what it did not", () => {
    const block = rule("block-p", "block", 'http.request.uri.path eq "/p"', { priority: 1 })
    const log = rule("log-p", "log", 'http.request.uri.path eq "/p"')
    const after: ZoneRulesState = {
      firewallRules: [{ ...block, paused: true }, log],
      customRules: migrateFirewallRules([block]).rules
    }
    const r = replayStatesText({ firewallRules: [block, log], customRules: [] }, after, line("p", "/p"))
    expect(r.disagreements.map((d) => [d.differences, d.before.logged, d.after.logged, d.after.rule])).toEqual([
      [
        ["logged"],
        [],
        [{ kind: "firewall", id: "log-p", description: "log-p" }],
        { kind: "custom", id: "block-p", description: "block-p" }
      ]
    ])
  })

  it("counts the lines read, blank ones and comments included", () => {
    const r = replayStatesText(
      { firewallRules: [], customRules: [] },
      { firewallRules: [], customRules: [] },
      "# c\n\n{"
    )
    expect([r.lines, r.requests, r.problems.length]).toEqual([3, 0, 1])
  })
})
