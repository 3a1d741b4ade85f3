/**
 * Firewall rule evaluation: which rule of a zone decides a request, in the platform's order.
 * Rules run by priority (lower first, rules without a priority last); rules of equal priority by
 * action: log, bypass, allow, challenge, managed_challenge, js_challenge, block; then in the order
 * given. Paused rules do not run. `log` and `bypass` do not stop evaluation; the first matching
 * rule with any other action decides.
 */
import type { Diagnostic } from "./ast.js"
import { check, type CheckOptions } from "./check.js"
import { compile, EVALUATE, REQUIRES, type CompiledExpression } from "./compile.js"
import type { CompileOptions } from "./predicates.js"
import { compileList, RequestContext, type ListContents, type Request } from "./context.js"
import { ruleIndex, type IndexOptions, type RuleKeys } from "./rule-index.js"
import { HTTP_SCHEME, NETWORK_SCHEME } from "./scheme.js"

export type FirewallAction = "block" | "challenge" | "js_challenge" | "managed_challenge" | "allow" | "log" | "bypass"

/** The order of actions among rules of equal priority. */
export const ACTION_ORDER: ReadonlyArray<FirewallAction> = [
  "log",
  "bypass",
  "allow",
  "challenge",
  "managed_challenge",
  "js_challenge",
  "block"
]

/** What `bypass` may skip. */
export const BYPASS_PRODUCTS: ReadonlyArray<string> = [
  "zoneLockdown",
  "uaBlock",
  "bic",
  "hot",
  "securityLevel",
  "rateLimit",
  "waf"
]

export interface FirewallRule {
  readonly id: string
  /** Lower runs first; null runs after every rule with a priority. */
  readonly priority: number | null
  readonly paused: boolean
  readonly action: FirewallAction
  /** For `bypass`: the products it skips. */
  readonly products?: ReadonlyArray<string>
  readonly description?: string
  /** The filter expression; or give `compiled`. */
  readonly expression?: string
  readonly compiled?: CompiledExpression
}

export interface Decision {
  /** The rule whose action decides, when one matched. */
  readonly rule: FirewallRule | undefined
  /** allow, challenge, js_challenge, managed_challenge or block; undefined when no rule decided. */
  readonly action: FirewallAction | undefined
  /** Matching `log` rules that ran before the decision, in evaluation order. */
  readonly logged: ReadonlyArray<FirewallRule>
  /** Matching `bypass` rules that ran before the decision, with the products they skip. */
  readonly bypassed: ReadonlyArray<{ readonly rule: FirewallRule; readonly products: ReadonlyArray<string> }>
  /** How many rules were evaluated. */
  readonly evaluated: number
}

export interface Firewall {
  /** The active rules in evaluation order. */
  readonly order: ReadonlyArray<FirewallRule>
  readonly paused: ReadonlyArray<FirewallRule>
  /** Rules whose expression does not check; they never run. */
  readonly invalid: ReadonlyArray<{ readonly rule: FirewallRule; readonly diagnostics: ReadonlyArray<Diagnostic> }>
  decide(request: Request): Decision
  /** The same, on a context shared with other evaluators of the same request (of the firewall's scheme). */
  decideContext(ctx: RequestContext): Decision
}

/** The rules in evaluation order (paused ones included; `firewall()` leaves them out). */
export const orderRules = <R extends Pick<FirewallRule, "priority" | "action">>(rules: ReadonlyArray<R>): Array<R> =>
  rules
    .map((rule, index) => ({ rule, index, rank: ACTION_ORDER.indexOf(rule.action) }))
    .sort((a, b) => {
      const pa = a.rule.priority
      const pb = b.rule.priority
      if (pa !== pb) {
        if (pa === null) return 1
        if (pb === null) return -1
        return pa - pb
      }
      return a.rank - b.rank || a.index - b.index
    })
    .map((x) => x.rule)

/**
 * Prepares a zone's rules once (checks and compiles each expression); `decide()` then evaluates a
 * request against them. `options` are the check and compile options for every expression.
 */
export const firewall = (
  rules: ReadonlyArray<FirewallRule>,
  options: CheckOptions & CompileOptions & IndexOptions = {}
): Firewall => {
  const scheme = options.scheme === "network" ? NETWORK_SCHEME : HTTP_SCHEME
  // The closure itself when the expression is of the firewall's scheme (one shared context); the
  // wrapper otherwise, which makes its own.
  function direct(c: CompiledExpression): (ctx: RequestContext) => boolean {
    const ev = (c as unknown as Record<typeof EVALUATE, ((ctx: RequestContext) => boolean) | undefined>)[EVALUATE]
    return c.scheme === scheme && ev !== undefined ? ev : (ctx) => c(ctx)
  }
  const invalid: Array<{ rule: FirewallRule; diagnostics: ReadonlyArray<Diagnostic> }> = []
  const active: Array<{ rule: FirewallRule; run: (ctx: RequestContext) => boolean }> = []
  const expressions: Array<CompiledExpression> = []
  for (const rule of orderRules(rules.filter((r) => !r.paused))) {
    let c = rule.compiled
    if (c === undefined) {
      const r = check(rule.expression ?? "", options)
      if (r.checked === undefined) {
        invalid.push({ rule, diagnostics: r.diagnostics })
        continue
      }
      c = compile(r.checked, options)
    }
    active.push({ rule, run: direct(c) })
    expressions.push(c)
  }
  // Only rules that can match the request run, in the same order (rule-index.ts).
  const index = ruleIndex(
    expressions.length,
    (i) => (expressions[i]!.scheme === scheme ? (expressions[i] as { [REQUIRES]?: RuleKeys })[REQUIRES] : undefined),
    options
  )
  const all = Int32Array.from(active.keys())
  const lists = new Map<string, ListContents>()
  for (const [name, items] of Object.entries(options.listItems ?? {})) {
    const l = compileList(items)
    if (l !== undefined) lists.set(name, l)
  }
  const none: ReadonlyArray<never> = []
  const decideContext = (ctx: RequestContext): Decision => {
    let logged: Array<FirewallRule> | undefined
    let bypassed: Array<{ rule: FirewallRule; products: ReadonlyArray<string> }> | undefined
    const run = index?.candidates(ctx) ?? all
    for (let k = 0; k < run.length; k++) {
      const i = run[k]!
      const a = active[i]!
      if (!a.run(ctx)) continue
      const action = a.rule.action
      if (action === "log") (logged ??= []).push(a.rule)
      else if (action === "bypass") (bypassed ??= []).push({ rule: a.rule, products: a.rule.products ?? none })
      else return { rule: a.rule, action, logged: logged ?? none, bypassed: bypassed ?? none, evaluated: i + 1 }
    }
    return {
      rule: undefined,
      action: undefined,
      logged: logged ?? none,
      bypassed: bypassed ?? none,
      evaluated: active.length
    }
  }
  return {
    order: active.map((a) => a.rule),
    paused: rules.filter((r) => r.paused),
    invalid,
    decide: (request) => decideContext(new RequestContext(request, scheme, lists)),
    decideContext
  }
}
