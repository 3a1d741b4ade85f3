/**
 * Evaluation of a zone's custom phase (`http_request_firewall_custom`): the rules run strictly in
 * list order, disabled ones do not run. `block` and the challenges end the phase and decide; `log`
 * records and goes on; `skip` records the products and phases it skips and goes on, unless it skips
 * the rest of the ruleset or phase (`ruleset: "current"` / `phase: "current"`), which ends the phase
 * with nothing blocked (the former firewall `allow`).
 */
import type { CustomRule } from "../domain/custom-rule.js"
import type { Diagnostic } from "./ast.js"
import { check, type CheckOptions } from "./check.js"
import { compile, EVALUATE, REQUIRES, type CompiledExpression } from "./compile.js"
import type { CompileOptions } from "./predicates.js"
import { compileList, RequestContext, type ListContents, type Request } from "./context.js"
import { ruleIndex, type IndexOptions, type RuleKeys } from "./rule-index.js"
import { HTTP_SCHEME } from "./scheme.js"

/** What ended the phase: a terminating action, `skip` of the rest, or undefined when none did. */
type CustomPhaseAction = "block" | "challenge" | "js_challenge" | "managed_challenge" | "skip"

interface CustomSkip {
  readonly rule: CustomRule
  readonly products: ReadonlyArray<string>
  readonly phases: ReadonlyArray<string>
}

export interface CustomOutcome {
  readonly rule: CustomRule | undefined
  readonly action: CustomPhaseAction | undefined
  /** Matching `log` rules, in list order. */
  readonly logged: ReadonlyArray<CustomRule>
  /** Matching skip rules that skip products or phases (the request goes on past them). */
  readonly skipped: ReadonlyArray<CustomSkip>
  readonly evaluated: number
}

export interface CustomPhase {
  /** The enabled rules that run, in list order. */
  readonly order: ReadonlyArray<CustomRule>
  /** Enabled rules whose expression does not check; they never run (the API refuses them). */
  readonly invalid: ReadonlyArray<{ readonly rule: CustomRule; readonly diagnostics: ReadonlyArray<Diagnostic> }>
  decide(request: Request): CustomOutcome
  /** The same, on a context shared with other evaluators of the same request. */
  decideContext(ctx: RequestContext): CustomOutcome
}

const endsPhase = (r: CustomRule) =>
  r.action_parameters?.ruleset === "current" || r.action_parameters?.phase === "current"

interface CustomPhaseOptions extends CheckOptions, CompileOptions, IndexOptions {
  /** An expression already compiled (shared with another evaluator), or undefined to compile it here. */
  readonly compiled?: (expression: string) => CompiledExpression | undefined
}

/** Compiles the phase's rules once; `decide()` then evaluates requests against them. */
export const customPhase = (rules: ReadonlyArray<CustomRule>, options: CustomPhaseOptions = {}): CustomPhase => {
  const invalid: Array<{ rule: CustomRule; diagnostics: ReadonlyArray<Diagnostic> }> = []
  const active: Array<{ rule: CustomRule; run: (ctx: RequestContext) => boolean; ends: boolean; skip?: CustomSkip }> =
    []
  const expressions: Array<CompiledExpression> = []
  const none: ReadonlyArray<never> = []
  for (const rule of rules) {
    if (rule.enabled === false) continue
    let c = options.compiled?.(rule.expression)
    if (c === undefined) {
      const r = check(rule.expression, options)
      if (r.checked === undefined) {
        invalid.push({ rule, diagnostics: r.diagnostics })
        continue
      }
      c = compile(r.checked, options)
    }
    const ev = (c as unknown as Record<typeof EVALUATE, ((ctx: RequestContext) => boolean) | undefined>)[EVALUATE]
    const products = rule.action_parameters?.products ?? none
    const phases = rule.action_parameters?.phases ?? none
    active.push({
      rule,
      run: c.scheme === HTTP_SCHEME && ev !== undefined ? ev : (ctx) => c(ctx),
      ends: rule.action !== "log" && (rule.action !== "skip" || endsPhase(rule)),
      ...(rule.action === "skip" && products.length + phases.length > 0 ? { skip: { rule, products, phases } } : {})
    })
    expressions.push(c)
  }
  // Only rules that can match the request run, in the same order (rule-index.ts).
  const index = ruleIndex(
    expressions.length,
    (i) =>
      expressions[i]!.scheme === HTTP_SCHEME ? (expressions[i] as { [REQUIRES]?: RuleKeys })[REQUIRES] : undefined,
    options
  )
  const all = Int32Array.from(active.keys())
  const decideContext = (ctx: RequestContext): CustomOutcome => {
    let logged: Array<CustomRule> | undefined
    let skipped: Array<CustomSkip> | undefined
    const run = index?.candidates(ctx) ?? all
    for (let k = 0; k < run.length; k++) {
      const i = run[k]!
      const a = active[i]!
      if (!a.run(ctx)) continue
      if (a.rule.action === "log") (logged ??= []).push(a.rule)
      if (a.skip !== undefined) (skipped ??= []).push(a.skip)
      if (a.ends)
        return {
          rule: a.rule,
          action: a.rule.action as CustomPhaseAction,
          logged: logged ?? none,
          skipped: skipped ?? none,
          evaluated: i + 1
        }
    }
    return {
      rule: undefined,
      action: undefined,
      logged: logged ?? none,
      skipped: skipped ?? none,
      evaluated: active.length
    }
  }
  const lists = new Map<string, ListContents>()
  for (const [name, items] of Object.entries(options.listItems ?? {})) {
    const l = compileList(items)
    if (l !== undefined) lists.set(name, l)
  }
  return {
    order: active.map((a) => a.rule),
    invalid,
    decideContext,
    decide: (request) => decideContext(new RequestContext(request, HTTP_SCHEME, lists))
  }
}
