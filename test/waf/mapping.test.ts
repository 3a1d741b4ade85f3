/** Units: the migration mapping (spec's sensitivity table, actions, skip rules first, what is not migrated), limits and the state machine. */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import type { BypassFirewallRule, PageRule } from "../../src/domain/waf.js"
import { check } from "../../src/rules/index.js"
import {
  CATALOG,
  CLOUDFLARE_MANAGED_RULESET,
  OWASP_RULESET,
  OWASP_SCORE_RULE,
  PREVIOUS_OWASP_PACKAGE
} from "../../src/waf/catalog.js"
import { planMigration, sensitivityLabel } from "../../src/waf/mapping.js"
import { checkLimits, phaseOneReasons } from "../../src/waf/limits.js"
import { dashboardDeploy, parseMode, transition } from "../../src/waf/state.js"
import { previousWaf } from "../helpers/waf.js"
import { urlPatternExpression } from "../../src/rules/url-pattern.js"

const owaspRule = (plan: ReturnType<typeof planMigration>) =>
  plan.config.rules.find((r) => r.action_parameters?.id === OWASP_RULESET)
const fw = (id: string, expression: string, extra: Partial<BypassFirewallRule> = {}): BypassFirewallRule => ({
  id,
  expression,
  action: "bypass",
  products: ["waf"],
  priority: null,
  paused: false,
  ...extra
})
const page = (id: string, url: string, action: { id: string; value?: string }, priority = 1): PageRule => ({
  id,
  targets: [{ target: "url", constraint: { operator: "matches", value: url } }],
  actions: [action],
  priority,
  status: "active"
})

describe("sensitivity and action mapping (the spec's table)", () => {
  const table = [
    ["high", 2, 40, ["paranoia-level-3", "paranoia-level-4"]],
    ["medium", 1, 25, ["paranoia-level-2", "paranoia-level-3", "paranoia-level-4"]],
    ["low", 1, 40, ["paranoia-level-2", "paranoia-level-3", "paranoia-level-4"]]
  ] as const
  for (const [sensitivity, pl, threshold, disabled] of table) {
    it(`${sensitivity} -> PL${pl}, threshold ${threshold}`, () => {
      const rule = owaspRule(planMigration(previousWaf({ sensitivity, action: "block" })))!
      expect(rule.action_parameters!.overrides!.categories).toEqual(
        disabled.map((category) => ({ category, enabled: false }))
      )
      expect(rule.action_parameters!.overrides!.rules).toEqual([
        { id: OWASP_SCORE_RULE, score_threshold: threshold, action: "block" }
      ])
    })
  }
  it("Default (no sensitivity set) -> PL2, threshold 40", () => {
    const prev = previousWaf()
    const pkg = prev.packages.find((p) => p.id === PREVIOUS_OWASP_PACKAGE)!
    const { sensitivity: _, ...rest } = pkg
    const plan = planMigration({ ...prev, packages: [rest as typeof pkg] })
    expect(plan.owasp).toMatchObject({ sensitivity: "default", level: { paranoia: 2, threshold: 40 } })
    expect(owaspRule(plan)!.action_parameters!.overrides!.categories!.map((c) => c.category)).toEqual([
      "paranoia-level-3",
      "paranoia-level-4"
    ])
  })
  it("labels read as the preview shows them", () => {
    expect(sensitivityLabel("high")).toBe("High -> PL2, threshold 40 (Medium)")
    expect(sensitivityLabel("medium")).toBe("Medium -> PL1, threshold 25 (High)")
    expect(sensitivityLabel("low")).toBe("Low -> PL1, threshold 40 (Medium)")
    expect(sensitivityLabel("default")).toBe("Default -> PL2, threshold 40 (Medium)")
  })
  for (const [action, expected] of [
    ["simulate", "log"],
    ["block", "block"],
    ["challenge", "challenge"]
  ] as const) {
    it(`action ${action} -> ${expected}`, () => {
      const rule = owaspRule(planMigration(previousWaf({ sensitivity: "high", action })))!
      expect(rule.action_parameters!.overrides!.rules![0]!.action).toBe(expected)
    })
  }
  it("sensitivity off: the OWASP ruleset is not deployed", () => {
    const plan = planMigration(previousWaf({ sensitivity: "off" }))
    expect(owaspRule(plan)).toBeUndefined()
    expect(plan.config.rules.map((r) => r.action_parameters?.id)).toEqual([CLOUDFLARE_MANAGED_RULESET])
  })
})

describe("config generation", () => {
  it("has the config operation's shape: empty id, version, ref; execute true", () => {
    const plan = planMigration(previousWaf({ sensitivity: "off" }))
    expect(plan.config).toEqual({
      name: "default",
      rules: [
        {
          id: "",
          version: "",
          description: "",
          ref: "",
          action: "execute",
          expression: "true",
          enabled: true,
          action_parameters: { id: CLOUDFLARE_MANAGED_RULESET }
        }
      ]
    })
  })
  it("maps Cloudflare rule modes to rule overrides on the new ids and groups off to enabled false", () => {
    const plan = planMigration(
      previousWaf({
        rules: { "100043A": "disable", "100000": "simulate", "100030": "challenge" },
        groups: { "8df6c9aaddcbdf0eceb047bc50873697": "off" }
      })
    )
    const cf = plan.config.rules.find((r) => r.action_parameters?.id === CLOUDFLARE_MANAGED_RULESET)!
    const ov = cf.action_parameters!.overrides!.rules!
    expect(ov).toContainEqual({ id: "23ee7cebe6e8443e99ecf932ab579455", enabled: false })
    expect(ov).toContainEqual({ id: CATALOG.ruleMap["100000"], action: "log" })
    expect(ov).toContainEqual({ id: CATALOG.ruleMap["100030"], action: "challenge" })
    expect(ov).toContainEqual({ id: CATALOG.ruleMap["D0001"], enabled: false })
    expect(ov).toContainEqual({ id: CATALOG.ruleMap["D0003"], enabled: false })
  })
  it("places skip rules first: bypass firewall rules, then WAF-off and disable-security page rules", () => {
    const plan = planMigration(
      previousWaf({
        firewall: [
          fw("f1", 'http.request.uri.path contains "/webhooks/"'),
          fw("f2", "ip.src in {192.0.2.0/24}", { paused: true }),
          fw("f3", "true", { products: ["uaBlock"] })
        ],
        pages: [
          page("p1", "globex.com/legacy/*", { id: "waf", value: "off" }),
          page("p2", "*globex.com/admin*", { id: "disable_security" }, 2)
        ]
      })
    )
    const kinds = plan.config.rules.map((r) => r.action)
    expect(kinds).toEqual(["skip", "skip", "skip", "execute", "execute"])
    expect(plan.config.rules[0]!.expression).toBe('http.request.uri.path contains "/webhooks/"')
    expect(plan.config.rules[1]!.expression).toBe(
      'http.host wildcard "*globex.com" and http.request.uri.path strict wildcard "/admin*"'
    )
    expect(plan.config.rules[2]!.expression).toBe(
      'http.host eq "globex.com" and http.request.uri.path strict wildcard "/legacy/*"'
    )
    for (const r of plan.config.rules.slice(0, 3)) expect(r.action_parameters).toEqual({ ruleset: "current" })
    expect(plan.notMigrated.map((n) => n.what)).toContain("firewall rule f2")
    for (const r of plan.config.rules) expect(check(r.expression).valid).toBe(true)
  })
  it("does not migrate OWASP group and rule overrides, and says why", () => {
    const plan = planMigration(
      previousWaf({ groups: { "07d700cf30fda7548be94ff01087d0c4": "off" }, rules: { "950001": "off" } })
    )
    expect(plan.notMigrated.map((n) => n.what)).toEqual([
      "OWASP group OWASP Bad Robots off",
      "OWASP rule 950001 (SQL Injection Attack: common DB names) off"
    ])
    expect(plan.notMigrated.every((n) => /not migrated/.test(n.why))).toBe(true)
  })
  it("zone waf off: execute rules deployed disabled; WAF-on page rules enable them where they match", () => {
    expect(planMigration(previousWaf({ waf: "off" })).config.rules.every((r) => r.enabled === false)).toBe(true)
    const plan = planMigration(
      previousWaf({ waf: "off", pages: [page("p", "globex.com/login*", { id: "waf", value: "on" })] })
    )
    expect(
      plan.config.rules.every(
        (r) =>
          r.enabled === true &&
          r.expression === '(http.host eq "globex.com" and http.request.uri.path strict wildcard "/login*")'
      )
    ).toBe(true)
  })
})

describe("blockers and eligibility", () => {
  it("URI-based overrides block", () => {
    const l = checkLimits(
      previousWaf({
        overrides: [
          {
            id: "o1",
            description: null,
            urls: ["globex.com/api/*"],
            priority: 1,
            paused: false,
            rules: { "100000": "disable" }
          }
        ]
      })
    )
    expect(l.blockers.map((b) => b.code)).toEqual(["uri_override"])
  })
  it("more than 200 firewall rules to migrate need support; 200 do not", () => {
    const rules = (n: number) => Array.from({ length: n }, (_, i) => fw(`r${i}`, `ip.src eq 192.0.2.${i % 250}`))
    expect(checkLimits(previousWaf({ firewall: rules(200) })).blockers).toEqual([])
    const b = checkLimits(previousWaf({ firewall: rules(201) })).blockers
    expect(b.map((x) => x.code)).toEqual(["too_many_rules"])
    expect(b[0]!.message).toMatch(/201.*exceeds 200.*contact support/)
  })
  it("an expression over 4 KB needs support", () => {
    const long = `ip.src in {${Array.from({ length: 400 }, (_, i) => `10.0.${i >> 8}.${i & 255}`).join(" ")}}`
    expect(long.length).toBeGreaterThan(4096)
    const b = checkLimits(previousWaf({ firewall: [fw("big", long)] })).blockers
    expect(b[0]).toMatchObject({ code: "expression_too_long" })
    expect(b[0]!.message).toMatch(/longer than 4 KB.*contact support/)
  })
  it("phase 1 reasons: OWASP on, bypass rules, WAF page rules", () => {
    expect(phaseOneReasons(previousWaf({ sensitivity: "off" }))).toEqual([])
    expect(
      phaseOneReasons(
        previousWaf({
          sensitivity: "high",
          firewall: [fw("f", "true")],
          pages: [page("p", "x.com/*", { id: "waf", value: "off" })]
        })
      ).map((r) => r.code)
    ).toEqual(["owasp_enabled", "firewall_bypass", "page_rules"])
  })
  it("page-rule URL patterns become expressions", () => {
    expect(urlPatternExpression("https://www.globex.com/a/*")).toBe(
      'http.host eq "www.globex.com" and http.request.uri.path strict wildcard "/a/*"'
    )
    expect(urlPatternExpression("*globex.com/*")).toBe('http.host wildcard "*globex.com"')
    expect(urlPatternExpression("*")).toBe("true")
  })
})

describe("state machine (the spec's WAF state table)", () => {
  const ok = { plan: "enterprise", reasons: [] }
  const right = (e: Either.Either<string, any>) => Either.getOrThrowWith(e, (x) => new Error(x._tag))
  const left = (e: Either.Either<string, any>) =>
    Either.match(e, { onLeft: (x) => x._tag as string, onRight: () => "none" })
  it("start + validation on enterprise -> validation", () =>
    expect(right(transition("z", "start", "validation", ok))).toBe("validation"))
  it("start + validation on pro or business -> ValidationModeNotAllowed", () => {
    expect(left(transition("z", "start", "validation", { plan: "pro", reasons: [] }))).toBe("ValidationModeNotAllowed")
    expect(left(transition("z", "start", "validation", { plan: "business", reasons: [] }))).toBe(
      "ValidationModeNotAllowed"
    )
  })
  it("start + pending when compatible -> finished", () =>
    expect(right(transition("z", "start", "pending", { plan: "pro", reasons: [] }))).toBe("finished"))
  it("start + pending with a blocker -> the blocker's error", () => {
    expect(
      left(
        transition("z", "start", "pending", {
          plan: "pro",
          reasons: [{ code: "uri_override", message: "x", blocking: true }]
        })
      )
    ).toBe("UriOverridePresent")
    expect(
      left(
        transition("z", "start", "pending", {
          plan: "pro",
          reasons: [{ code: "too_many_rules", message: "x", blocking: true }]
        })
      )
    ).toBe("TooManyRules")
    expect(
      left(
        transition("z", "start", "pending", {
          plan: "pro",
          reasons: [{ code: "expression_too_long", message: "x", blocking: true }]
        })
      )
    ).toBe("ExpressionTooLong")
    expect(
      left(
        transition("z", "start", "pending", {
          plan: "pro",
          reasons: [{ code: "owasp_enabled", message: "x", blocking: false }]
        })
      )
    ).toBe("Incompatible")
  })
  it("validation + pending -> finished", () =>
    expect(right(transition("z", "validation", "pending", ok))).toBe("finished"))
  it("finished + anything -> MigrationFinished", () => {
    expect(left(transition("z", "finished", "pending", ok))).toBe("MigrationFinished")
    expect(left(transition("z", "finished", "validation", ok))).toBe("MigrationFinished")
  })
  it("dashboard Deploy: pro/business finish, enterprise validates; Turn off previous version finishes", () => {
    expect(dashboardDeploy("pro", "start")).toBe("pending")
    expect(dashboardDeploy("business", "start")).toBe("pending")
    expect(dashboardDeploy("enterprise", "start")).toBe("validation")
    expect(dashboardDeploy("enterprise", "validation")).toBe("pending")
  })
  it("modes: pending or 1, validation or 2", () => {
    expect([parseMode("pending"), parseMode("1"), parseMode("validation"), parseMode("2"), parseMode("3")]).toEqual([
      "pending",
      "pending",
      "validation",
      "validation",
      undefined
    ])
  })
})
