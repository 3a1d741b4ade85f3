/**
 * Units: the custom phase's evaluator (src/rules/custom-eval.ts) and its agreement with the
 * firewall's: for random firewall rule sets with nothing unmappable, the migrated custom rules
 * decide every random request as the firewall rules did (action, deciding rule, logged rules,
 * skipped products).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { CustomRule } from "../../src/domain/custom-rule.js"
import { FirewallActions, type Rule } from "../../src/domain/firewall.js"
import { migrateFirewallRules } from "../../src/firewall/custom-rules.js"
import { asFirewallRule } from "../../src/firewall/evaluated-rule.js"
import { customPhase, firewall } from "../../src/rules/index.js"

const custom = (ref: string, action: CustomRule["action"], expression: string, extra: Partial<CustomRule> = {}) =>
  ({ ref, action, expression, ...extra }) as CustomRule

const admin = 'starts_with(http.request.uri.path, "/admin")'
const office = "ip.src in {192.0.2.0/24}"
const request = (path: string, ip = "198.51.100.1") => ({ "http.request.uri.path": path, "ip.src": ip })

describe("custom phase", () => {
  it("runs in list order: the first terminating rule decides, log goes on", () => {
    const phase = customPhase([
      custom("log", "log", admin),
      custom("block", "block", admin),
      custom("challenge", "managed_challenge", "true")
    ])
    const d = phase.decide(request("/admin/x"))
    expect([d.action, d.rule?.ref, d.logged.map((r) => r.ref), d.evaluated]).toEqual(["block", "block", ["log"], 2])
    expect(phase.decide(request("/")).rule?.ref).toBe("challenge")
  })

  it("a skip of the rest of the ruleset (or phase) ends the phase with nothing blocked", () => {
    for (const parameters of [{ ruleset: "current" as const }, { phase: "current" as const }]) {
      const phase = customPhase([
        custom("office", "skip", office, { action_parameters: parameters }),
        custom("block", "block", admin)
      ])
      const d = phase.decide(request("/admin", "192.0.2.9"))
      expect([d.action, d.rule?.ref, d.skipped]).toEqual(["skip", "office", []])
      expect(phase.decide(request("/admin")).action).toBe("block")
    }
  })

  it("a skip of products and phases is noted and evaluation goes on", () => {
    const phase = customPhase([
      custom("skip", "skip", admin, {
        action_parameters: { products: ["waf"], phases: ["http_request_firewall_managed"] }
      }),
      custom("block", "block", admin)
    ])
    const d = phase.decide(request("/admin"))
    expect(d.action).toBe("block")
    expect(d.skipped.map((s) => [s.rule.ref, s.products, s.phases])).toEqual([
      ["skip", ["waf"], ["http_request_firewall_managed"]]
    ])
  })

  it("a skip of the rest and of products does both", () => {
    const d = customPhase([
      custom("both", "skip", admin, { action_parameters: { ruleset: "current", products: ["uaBlock"] } }),
      custom("block", "block", "true")
    ]).decide(request("/admin"))
    expect([d.action, d.skipped.map((s) => s.products)]).toEqual(["skip", [["uaBlock"]]])
  })

  it("disabled rules do not run; invalid ones are reported and never run", () => {
    const phase = customPhase([custom("off", "block", "true", { enabled: false }), custom("bad", "block", "http.x eq")])
    expect(phase.decide(request("/")).action).toBeUndefined()
    expect(phase.order).toEqual([])
    expect(phase.invalid.map((i) => i.rule.ref)).toEqual(["bad"])
  })
})

// ---- agreement with the firewall ----

const expressions = [
  "true",
  admin,
  office,
  'http.request.method eq "POST"',
  'http.user_agent contains "bot"',
  'starts_with(http.request.uri.path, "/api/") and not ip.src in {192.0.2.0/24}',
  'http.request.uri.path eq "/login" or http.request.method eq "PUT"'
]
const products = ["zoneLockdown", "uaBlock", "bic", "hot", "securityLevel", "rateLimit", "waf"]

const arbRule = fc.record({
  action: fc.constantFrom(...FirewallActions),
  priority: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  paused: fc.boolean(),
  filterPaused: fc.boolean(),
  expression: fc.integer({ min: 0, max: expressions.length - 1 }),
  products: fc.subarray(products, { minLength: 1 })
})

type ArbRule = typeof arbRule extends fc.Arbitrary<infer A> ? A : never

const arbRequest = fc.record({
  "http.request.uri.path": fc.constantFrom("/", "/admin/x", "/api/v1", "/login"),
  "ip.src": fc.constantFrom("192.0.2.5", "198.51.100.3"),
  "http.request.method": fc.constantFrom("GET", "POST", "PUT"),
  "http.user_agent": fc.constantFrom("Mozilla/5.0", "somebot/1")
})

const asRules = (xs: ReadonlyArray<ArbRule>): Array<Rule> =>
  xs.map((x, i) => ({
    id: `r${i}`,
    paused: x.paused,
    action: x.action,
    priority: x.priority,
    ...(x.action === "bypass" ? { products: x.products } : {}),
    // Rules may share a filter (same expression): one filter per expression, as the platform keeps them.
    filter: {
      id: `f${x.expression}${x.filterPaused ? "p" : ""}`,
      paused: x.filterPaused,
      expression: expressions[x.expression]!
    }
  }))

describe("custom rules decide like the firewall rules they came from", () => {
  it("for random rule sets and requests (action, deciding rule, logged, skipped products)", () => {
    fc.assert(
      fc.property(
        fc.array(arbRule, { maxLength: 12 }),
        fc.array(arbRequest, { minLength: 1, maxLength: 8 }),
        (xs, requests) => {
          const rules = asRules(xs)
          const m = migrateFirewallRules(rules, { plan: "enterprise" })
          expect(m.notes.filter((n) => n.severity === "unmapped")).toEqual([])
          const old = firewall(rules.map(asFirewallRule))
          const next = customPhase(m.rules)
          for (const r of requests) {
            const p = old.decide(r)
            const n = next.decide(r)
            expect(n.action === "skip" ? "allow" : n.action).toBe(p.action)
            expect(n.rule?.ref).toBe(p.rule?.id)
            expect(n.logged.map((x) => x.ref)).toEqual(p.logged.map((x) => x.id))
            expect(n.skipped.map((s) => [s.rule.ref, s.products])).toEqual(
              p.bypassed.map((b) => [b.rule.id, b.products])
            )
          }
        }
      ),
      { numRuns: 500, seed: 21 }
    )
  })
})
