/**
 * Units: the migration of firewall rules to custom rules (src/firewall/custom-rules.ts), case by
 * case as custom-rules-migration.md lays them out: each action and its skip options, the order,
 * paused rules and filters, descriptions and refs, and every rule that has no equivalent.
 */
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { CustomRulesMigration } from "../../src/domain/custom-rule.js"
import type { Rule } from "../../src/domain/firewall.js"
import { migrateFirewallRules } from "../../src/firewall/custom-rules.js"

const rule = (
  id: string,
  action: string,
  extra: Partial<Omit<Rule, "filter">> & {
    expression?: string
    filter?: Rule["filter"]
    filterPaused?: boolean
    filterDescription?: string
  } = {}
): Rule => {
  const { expression, filter, filterPaused, filterDescription, ...fields } = extra
  return {
    id,
    paused: false,
    action,
    priority: null,
    description: `rule ${id}`,
    ...fields,
    filter: filter ?? {
      id: `f-${id}`,
      paused: filterPaused ?? false,
      expression: expression ?? `http.host eq "${id}.example.com"`,
      ...(filterDescription !== undefined ? { description: filterDescription } : {})
    }
  }
}

const one = (r: Rule, plan = "enterprise") => {
  const m = migrateFirewallRules([r], { plan })
  return { rule: m.rules[0], notes: m.notes.filter((n) => n.rule === r.id), migration: m }
}

describe("actions (reference §2)", () => {
  it.each([
    ["log", { action: "log" }],
    ["challenge", { action: "challenge" }],
    ["managed_challenge", { action: "managed_challenge" }],
    ["js_challenge", { action: "js_challenge" }],
    ["block", { action: "block" }],
    ["allow", { action: "skip", action_parameters: { ruleset: "current" }, logging: { enabled: true } }]
  ])("%s becomes %j", (action, expected) => {
    const { rule: r } = one(rule("a", action))
    expect(r).toEqual({
      ...expected,
      expression: 'http.host eq "a.example.com"',
      description: "rule a",
      enabled: true,
      ref: "a"
    })
  })

  it.each(["zoneLockdown", "uaBlock", "bic", "hot", "securityLevel", "rateLimit", "waf"])(
    "bypass of %s becomes a skip of the same product (no phase added)",
    (product) => {
      const { rule: r } = one(rule("b", "bypass", { products: [product] }))
      expect(r).toMatchObject({
        action: "skip",
        action_parameters: { products: [product] },
        logging: { enabled: true }
      })
      expect(r!.action_parameters).not.toHaveProperty("phases")
      expect(r!.action_parameters).not.toHaveProperty("ruleset")
    }
  )

  it("bypass of several products keeps them all, in the rule's order", () => {
    expect(one(rule("b", "bypass", { products: ["waf", "hot", "bic"] })).rule!.action_parameters).toEqual({
      products: ["waf", "hot", "bic"]
    })
  })

  it("says what waf and rateLimit skip and how to reach their successors", () => {
    const { notes } = one(rule("b", "bypass", { products: ["waf", "rateLimit"] }))
    expect(notes.map((n) => [n.severity, n.code])).toEqual([
      ["info", "waf-product"],
      ["info", "rate-limit-product"]
    ])
    expect(notes[0]!.message).toContain('phases: ["http_request_firewall_managed"]')
    expect(notes[1]!.message).toContain('phases: ["http_ratelimit"]')
  })

  it("a block notes that the 1020 error page becomes the WAF block page", () => {
    expect(one(rule("k", "block")).notes).toEqual([
      expect.objectContaining({ severity: "changed", code: "block-page", rule: "k" })
    ])
  })
})

describe("fields (reference §4)", () => {
  it("paused becomes enabled: false, description and a ref tracing the rule's id are kept", () => {
    expect(one(rule("p", "challenge", { paused: true, description: "Paused one" })).rule).toMatchObject({
      enabled: false,
      description: "Paused one",
      ref: "p"
    })
  })

  it("a paused filter keeps the rule from running: written disabled, and noted", () => {
    const { rule: r, notes } = one(rule("q", "challenge", { filterPaused: true }))
    expect(r!.enabled).toBe(false)
    expect(notes).toEqual([expect.objectContaining({ severity: "changed", code: "filter-paused" })])
    expect(notes[0]!.message).toContain("f-q is paused")
  })

  it("a rule without a description takes its filter's, and says so", () => {
    const { rule: r, notes } = one(rule("d", "log", { description: undefined, filterDescription: "from filter" }))
    expect(r!.description).toBe("from filter")
    expect(notes.map((n) => n.code)).toEqual(["filter-description"])
  })

  it("a rule without any description has none", () => {
    expect(one(rule("d", "log", { description: undefined })).rule).not.toHaveProperty("description")
  })

  it("the firewall rule's own ref is not carried over (the ref is the rule's id), and noted", () => {
    const { rule: r, notes } = one(rule("r1", "log", { ref: "legacy-ref" }))
    expect(r!.ref).toBe("r1")
    expect(notes.map((n) => n.code)).toEqual(["ref"])
    expect(notes[0]!.message).toContain('"legacy-ref"')
  })

  it("two rules on one filter each get the expression, noted on both", () => {
    const shared = { id: "shared", paused: false, expression: 'http.request.uri.path eq "/login"' }
    const m = migrateFirewallRules([rule("x", "log", { filter: shared }), rule("y", "block", { filter: shared })])
    expect(m.rules.map((r) => r.expression)).toEqual([shared.expression, shared.expression])
    expect(m.notes.filter((n) => n.code === "shared-filter").map((n) => n.rule)).toEqual(["x", "y"])
  })

  it("a field above the zone's plan is noted, the rule still written (the platform accepts it)", () => {
    const { rule: r, notes } = one(rule("m", "block", { expression: "http.request.body.size gt 100" }), "pro")
    expect(r).toBeDefined()
    expect(notes.map((n) => [n.severity, n.code])).toContainEqual(["changed", "plan-required"])
  })

  it("`matches` below Business is left out: the rulesets API refuses it (10110), as the server's own check says", () => {
    const { rule: r, notes } = one(rule("m", "block", { expression: 'http.request.uri.path matches "^/a"' }), "pro")
    expect(r).toBeUndefined()
    expect(notes.map((n) => [n.severity, n.code])).toEqual([["unmapped", "plan-gated"]])
    expect(
      one(rule("m", "block", { expression: 'http.request.uri.path matches "^/a"' }), "business").rule
    ).toBeDefined()
  })

  it("the output decodes with the domain's schema (the platform's JSON)", () => {
    const m = migrateFirewallRules([rule("a", "allow"), rule("b", "bypass", { products: ["waf"] }), rule("c", "block")])
    expect(Schema.decodeUnknownSync(CustomRulesMigration)(JSON.parse(JSON.stringify(m)))).toEqual(m)
  })
})

describe("order (reference §3, src/rules/firewall-eval.ts)", () => {
  it("priority first, rules without one last, then action precedence, then the order given", () => {
    const rules = [
      rule("none-block", "block"),
      rule("p2-block", "block", { priority: 2 }),
      rule("p1-block", "block", { priority: 1 }),
      rule("p1-allow", "allow", { priority: 1 }),
      rule("p1-log", "log", { priority: 1 }),
      rule("p1-bypass", "bypass", { priority: 1, products: ["hot"] }),
      rule("p1-js", "js_challenge", { priority: 1 }),
      rule("p1-managed", "managed_challenge", { priority: 1 }),
      rule("p1-challenge", "challenge", { priority: 1 }),
      rule("none-log", "log"),
      rule("p1-block-later", "block", { priority: 1 })
    ]
    const m = migrateFirewallRules(rules)
    expect(m.rules.map((r) => r.ref)).toEqual([
      "p1-log",
      "p1-bypass",
      "p1-allow",
      "p1-challenge",
      "p1-managed",
      "p1-js",
      "p1-block",
      "p1-block-later",
      "p2-block",
      "none-log",
      "none-block"
    ])
    // Each firewall rule, in the order given, points at its custom rule.
    expect(m.entries.map((e) => [e.firewall_rule, e.custom_rule])).toEqual(
      rules.map((r) => [r.id, m.rules.findIndex((c) => c.ref === r.id)])
    )
    expect(m.notes[0]).toMatchObject({ severity: "info", code: "order" })
  })

  it("paused rules keep their place in the order", () => {
    const m = migrateFirewallRules([
      rule("b", "block", { priority: 2 }),
      rule("a", "allow", { priority: 1, paused: true })
    ])
    expect(m.rules.map((r) => [r.ref, r.enabled])).toEqual([
      ["a", false],
      ["b", true]
    ])
  })

  it("no priorities: no note on the order", () => {
    expect(migrateFirewallRules([rule("a", "block")]).notes.map((n) => n.code)).not.toContain("order")
  })
})

describe("what has no equivalent: left out, with why", () => {
  const unmapped = (r: Rule, plan?: string) => {
    const m = migrateFirewallRules([r], plan !== undefined ? { plan } : {})
    expect(m.rules).toEqual([])
    expect(m.entries).toEqual([{ firewall_rule: r.id, custom_rule: null }])
    const n = m.notes.filter((x) => x.severity === "unmapped")
    expect(n).toHaveLength(1)
    expect(n[0]!.rule).toBe(r.id)
    return n[0]!
  }

  it("a deleted filter: no expression", () => {
    const n = unmapped(rule("g", "block", { filter: { id: "gone", deleted: true } }))
    expect(n).toMatchObject({ code: "filter-deleted" })
    expect(n.message).toContain("filter gone was deleted")
  })

  it("an action the firewall never had, named with the allowed ones", () => {
    const n = unmapped(rule("u", "rewrite"))
    expect(n.code).toBe("unknown-action")
    expect(n.message).toContain('got "rewrite"')
  })

  it("a bypass with no product, or a product skip cannot name", () => {
    expect(unmapped(rule("e", "bypass", { products: [] })).code).toBe("bypass-products")
    const n = unmapped(rule("e", "bypass", { products: ["waf", "botFightMode"] }))
    expect(n.message).toContain('got "botFightMode"')
  })

  it("log on a plan below Enterprise", () => {
    const n = unmapped(rule("l", "log"), "business")
    expect(n.code).toBe("log-plan")
    expect(n.message).toContain("plan is business")
  })

  it("an expression over 4,096 characters, with the limit and the length", () => {
    const long = `http.host eq "${"a".repeat(4090)}"`
    const n = unmapped(rule("t", "block", { expression: long }))
    expect(n.code).toBe("expression-too-long")
    expect(n.message).toContain(`at most 4096 characters, got ${long.length}`)
  })

  it("an expression that does not check", () => {
    expect(unmapped(rule("i", "block", { expression: "http.nope eq 1" })).code).toBe("expression-invalid")
  })

  it("rules beyond the plan's limit: paused ones go first, then the last active ones", () => {
    const rules = [
      ...Array.from({ length: 5 }, (_, i) => rule(`a${i}`, "block", { priority: i + 1 })),
      rule("paused", "block", { priority: 1, paused: true }),
      rule("last", "challenge")
    ]
    const m = migrateFirewallRules(rules, { plan: "free" })
    expect(m.rules.map((r) => r.ref)).toEqual(["a0", "a1", "a2", "a3", "a4"])
    const n = m.notes.filter((x) => x.code === "plan-limit")
    expect(n.map((x) => x.rule)).toEqual(["paused", "last"])
    expect(n[0]!.message).toContain("the free plan allows at most 5 custom rules, and the zone's firewall rules need 7")
  })
})
