/**
 * The rule index (src/rules/rule-index.ts): the firewall's and the custom phase's evaluators decide
 * exactly as their plain in-order loop when they look rules up by the keys their expressions
 * require — for random rule sets (rules sharing a key, keyless rules, paused and disabled rules,
 * log, bypass and skip rules, IPv4 and IPv6 blocks, integer ranges) and random requests — and the
 * keys are what the expression needs.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { CustomRule } from "../../src/domain/custom-rule.js"
import { EVALUATE, REQUIRES } from "../../src/rules/compile.js"
import {
  ACTION_ORDER,
  check,
  compile,
  customPhase,
  firewall,
  type CompiledExpression,
  type FirewallAction,
  type FirewallRule,
  type Request,
  type RequestContext
} from "../../src/rules/index.js"
import { requiredKeys } from "../../src/rules/rule-index.js"

// Comparisons that give keys (several rules share each value) and ones that do not.
const keyed = fc.oneof(
  fc.constantFrom("h0", "h1", "h2").map((h) => `http.host eq "${h}"`),
  fc
    .subarray(["h0", "h1", "h2", "h3"], { minLength: 1 })
    .map((hs) => `http.host in {${hs.map((h) => `"${h}"`).join(" ")}}`),
  fc.constantFrom("10.0.0.1", "10.0.0.2", "2001:db8::1").map((ip) => `ip.src eq ${ip}`),
  fc
    .subarray(["10.0.0.0/24", "10.0.1.0/25", "10.0.0.2", "10.0.0.1..10.0.0.9", "0.0.0.0/0", "2001:db8::/32"], {
      minLength: 1
    })
    .map((xs) => `ip.src in {${xs.join(" ")}}`),
  fc.constantFrom(80, 443).map((p) => `cf.edge.server_port eq ${p}`),
  fc.constantFrom("{80 443}", "{8000..8010}", "{1..65535}").map((s) => `cf.edge.server_port in ${s}`),
  fc.constantFrom("GET", "POST").map((m) => `http.request.method eq "${m}"`)
)
const keyless = fc.constantFrom(
  'http.request.uri.path contains "/a"',
  'starts_with(http.request.uri.path, "/b")',
  'http.host ne "h0"',
  "ip.src ne 10.0.0.1",
  'lower(http.host) eq "h1"',
  "true",
  "false"
)
const { expression } = fc.letrec((tie) => ({
  expression: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    keyed,
    keyless,
    fc.tuple(tie("expression"), tie("expression")).map(([a, b]) => `(${a} and ${b})`),
    fc.tuple(tie("expression"), tie("expression")).map(([a, b]) => `(${a} or ${b})`),
    fc.tuple(tie("expression"), tie("expression")).map(([a, b]) => `(${a} xor ${b})`),
    tie("expression").map((a) => `not (${a})`)
  )
})) as { expression: fc.Arbitrary<string> }

const request = fc.record(
  {
    "http.host": fc.constantFrom("h0", "h1", "h2", "h3", "H1"),
    "ip.src": fc.constantFrom(
      "10.0.0.1",
      "10.0.0.2",
      "10.0.0.200",
      "10.0.1.7",
      "10.0.1.200",
      "2001:db8::1",
      "2001:db9::1"
    ),
    "cf.edge.server_port": fc.constantFrom(80, 443, 8005, 9000),
    "http.request.method": fc.constantFrom("GET", "POST"),
    "http.request.uri.path": fc.constantFrom("/", "/a", "/b/c")
  },
  { requiredKeys: [] }
)

// Every action (the platform's order of equal priorities lists each once).
const actions: ReadonlyArray<FirewallAction> = ACTION_ORDER
const firewallRules = fc.array(
  fc.record({
    expression,
    priority: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
    paused: fc.constantFrom(false, false, true),
    action: fc.constantFrom(...actions),
    products: fc.subarray(["waf", "rateLimit", "uaBlock"], { minLength: 1 })
  }),
  { maxLength: 40 }
)
const customRules = fc.array(
  fc.record({
    expression,
    enabled: fc.constantFrom(true, true, true, false),
    action: fc.constantFrom("block", "challenge", "js_challenge", "managed_challenge", "log", "skip"),
    parameters: fc.constantFrom<CustomRule["action_parameters"]>(
      { ruleset: "current" },
      { phase: "current" },
      { products: ["waf"] },
      { phases: ["http_ratelimit"] },
      { products: ["uaBlock"], phases: ["http_request_firewall_managed"] }
    )
  }),
  { maxLength: 40 }
)

describe("rule index", () => {
  it("the firewall decides every request as its plain in-order loop does", () => {
    fc.assert(
      fc.property(firewallRules, fc.array(request, { minLength: 1, maxLength: 8 }), (specs, requests) => {
        const rules: Array<FirewallRule> = specs.map((s, i) => ({
          id: `r${i}`,
          priority: s.priority,
          paused: s.paused,
          action: s.action,
          expression: s.expression,
          ...(s.action === "bypass" ? { products: s.products } : {})
        }))
        const plain = firewall(rules, { index: false })
        const indexed = firewall(rules, { index: true })
        for (const r of requests) expect(indexed.decide(r)).toEqual(plain.decide(r))
      }),
      { numRuns: 300 }
    )
  })

  it("the custom phase decides every request as its plain in-order loop does", () => {
    fc.assert(
      fc.property(customRules, fc.array(request, { minLength: 1, maxLength: 8 }), (specs, requests) => {
        const rules = specs.map((s, i): CustomRule => ({
          ref: `c${i}`,
          action: s.action as CustomRule["action"],
          expression: s.expression,
          enabled: s.enabled,
          ...(s.action === "skip" ? { action_parameters: s.parameters } : {})
        }))
        const plain = customPhase(rules, { index: false })
        const indexed = customPhase(rules, { index: true })
        for (const r of requests) expect(indexed.decide(r)).toEqual(plain.decide(r))
      }),
      { numRuns: 300 }
    )
  })

  it("a rule that cannot match the request is not evaluated, and the count of evaluated rules is the plain loop's", () => {
    // 40 rules on distinct hosts, then a keyless rule: for another host only the keyless one runs.
    const runs: Array<string> = []
    const counted = (id: string, source: string): CompiledExpression => {
      const c = compile(check(source).checked!)
      const ev = (c as unknown as Record<typeof EVALUATE, (ctx: RequestContext) => boolean>)[EVALUATE]
      return Object.defineProperties(((r: Request) => c(r)) as CompiledExpression, {
        [EVALUATE]: { value: (ctx: RequestContext) => (runs.push(id), ev(ctx)) },
        [REQUIRES]: { get: () => (c as unknown as Record<typeof REQUIRES, unknown>)[REQUIRES] },
        scheme: { value: c.scheme }
      })
    }
    const rules: Array<FirewallRule> = [
      ...Array.from({ length: 40 }, (_, i) => ({
        id: `host${i}`,
        priority: null,
        paused: false,
        action: "block" as const,
        compiled: counted(`host${i}`, `http.host eq "h${i}.example" and http.request.uri.path contains "/x"`)
      })),
      { id: "last", priority: null, paused: false, action: "block", compiled: counted("last", "true") }
    ]
    const fw = firewall(rules, { index: true })
    const d = fw.decide({ "http.host": "other.example", "http.request.uri.path": "/x" })
    expect([d.rule?.id, d.action, d.evaluated, runs]).toEqual(["last", "block", 41, ["last"]])
    runs.length = 0
    expect(fw.decide({ "http.host": "h7.example", "http.request.uri.path": "/x" }).rule?.id).toBe("host7")
    expect(runs).toEqual(["host7"])
  })

  it("keys: a conjunction needs one operand's (the narrower), a disjunction all of theirs", () => {
    const keysOf = (source: string) => {
      const checked = check(source).checked!
      return requiredKeys(checked)?.map((k) =>
        k.kind === "value"
          ? `${checked.scheme.fields[k.field]!.name}=${k.value}`
          : `${checked.scheme.fields[k.field]!.name}~${String(k.base)}/${k.prefix}`
      )
    }
    expect(keysOf('http.request.method eq "POST" and http.host eq "a"')).toEqual(["http.host=a"])
    expect(keysOf('http.host in {"a" "b"} or ip.src in {10.0.0.0/8}')).toEqual([
      "http.host=a",
      "http.host=b",
      `ip.src~${10 * 2 ** 24}/8`
    ])
    expect(keysOf("ip.src in {10.0.0.1..10.0.0.3}")).toEqual([
      `ip.src~${10 * 2 ** 24 + 1}/32`,
      `ip.src~${10 * 2 ** 24 + 2}/31`
    ])
    expect(keysOf('http.host eq "a" or http.request.uri.path contains "/x"')).toBeUndefined()
    expect(keysOf('not http.host eq "a"')).toBeUndefined()
    // A long set is indexed item by item; a wide integer range is not enumerated.
    expect(keysOf(`ip.src in {${Array.from({ length: 200 }, (_, i) => `10.1.0.${i}`).join(" ")}}`)).toHaveLength(200)
    expect(keysOf("cf.edge.server_port in {1..65535}")).toBeUndefined()
    expect(keysOf("ip.src in {10.0.0.1..10.255.255.254}")).toHaveLength(46) // its CIDR blocks
    expect(keysOf('false and http.request.uri.path contains "/x"')).toEqual([])
  })
})
