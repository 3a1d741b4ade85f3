/** Units: firewall rule ordering (priority, then action) and decisions (log and bypass go on). */
import { describe, expect, it } from "vitest"
import {
  ACTION_ORDER,
  check,
  compile,
  firewall,
  orderRules,
  type FirewallAction,
  type FirewallRule
} from "../../src/rules/index.js"

const rule = (
  id: string,
  action: FirewallAction,
  expression: string,
  priority: number | null = null,
  extra: Partial<FirewallRule> = {}
): FirewallRule => ({
  id,
  action,
  expression,
  priority,
  paused: false,
  ...extra
})

describe("firewall", () => {
  it("orders by priority (null last), then by action, then as given", () => {
    const actions = [...ACTION_ORDER].reverse()
    const rules = [
      ...actions.map((a, i) => rule(`n-${a}`, a, "true", null, { description: String(i) })),
      rule("p10", "block", "true", 10),
      rule("p2-block", "block", "true", 2),
      rule("p2-log", "log", "true", 2),
      rule("p2-log-b", "log", "true", 2),
      rule("p0", "allow", "true", 0)
    ]
    expect(orderRules(rules).map((r) => r.id)).toEqual([
      "p0",
      "p2-log",
      "p2-log-b",
      "p2-block",
      "p10",
      "n-log",
      "n-bypass",
      "n-allow",
      "n-challenge",
      "n-managed_challenge",
      "n-js_challenge",
      "n-block"
    ])
  })

  it("returns the first deciding rule, with the log and bypass rules that ran before it", () => {
    const fw = firewall([
      rule("block-admin", "block", 'http.request.uri.path contains "/admin"'),
      rule("log-all", "log", "true"),
      rule("office", "allow", "ip.src in {10.0.0.0/8}", 5),
      rule("bypass-waf", "bypass", "ssl", 5, { products: ["waf", "rateLimit"] }),
      rule("paused", "block", "true", 1, { paused: true }),
      rule("challenge-bots", "managed_challenge", "cf.bot_management.score lt 30", 20)
    ])
    expect(fw.order.map((r) => r.id)).toEqual(["bypass-waf", "office", "challenge-bots", "log-all", "block-admin"])
    expect(fw.paused.map((r) => r.id)).toEqual(["paused"])

    const admin = fw.decide({ "http.request.uri.path": "/admin", "ip.src": "203.0.113.1", ssl: true })
    expect(admin.rule?.id).toBe("block-admin")
    expect(admin.action).toBe("block")
    expect(admin.logged.map((r) => r.id)).toEqual(["log-all"])
    expect(admin.bypassed).toEqual([
      { rule: expect.objectContaining({ id: "bypass-waf" }), products: ["waf", "rateLimit"] }
    ])
    expect(admin.evaluated).toBe(5)

    const office = fw.decide({ "http.request.uri.path": "/admin", "ip.src": "10.1.2.3" })
    expect([office.rule?.id, office.action, office.logged.length, office.evaluated]).toEqual(["office", "allow", 0, 2])

    const bot = fw.decide({ "cf.bot_management.score": 5, "ip.src": "203.0.113.1" })
    expect(bot.action).toBe("managed_challenge")

    const nothing = firewall([rule("x", "block", "ssl")]).decide({ ssl: false })
    expect(nothing).toMatchObject({ rule: undefined, action: undefined, logged: [], bypassed: [], evaluated: 1 })
  })

  it("keeps rules with invalid expressions out, with their diagnostics, and takes compiled ones", () => {
    const compiled = compile(check("ssl").checked!)
    const fw = firewall([
      rule("bad", "block", 'http.hots eq "a"'),
      { id: "c", priority: 1, paused: false, action: "challenge", compiled }
    ])
    expect(fw.invalid.map((i) => [i.rule.id, i.diagnostics[0]?.code])).toEqual([["bad", "unknown-field"]])
    expect(fw.decide({ ssl: true }).rule?.id).toBe("c")
  })

  it("uses the lists given to it", () => {
    const fw = firewall([rule("l", "block", "ip.src in $bad")], { listItems: { bad: ["198.51.100.0/24"] } })
    expect(fw.decide({ "ip.src": "198.51.100.7" }).action).toBe("block")
    expect(fw.decide({ "ip.src": "198.51.101.7" }).action).toBeUndefined()
  })
})
