/**
 * Both WAF versions as evaluators of a request: the previous one (zone switch, page rules, firewall
 * rules that bypass it, URI-based overrides, the Cloudflare package's rule modes, the OWASP
 * package's anomaly score) and the new one (the managed-phase entry point: skip rules, execute
 * rules with their category and rule overrides, the OWASP score threshold). Every expression is
 * checked and compiled by src/rules; a request is evaluated through one shared RequestContext.
 */
import type { PreviousWaf, RulesetRule, WafConfig } from "../domain/waf.js"
import { EVALUATE } from "../rules/compile.js"
import { check, compile, type CompiledExpression, type RequestContext } from "../rules/index.js"
import {
  CATALOG,
  OWASP_SCORE_RULE,
  PREVIOUS_CLOUDFLARE_PACKAGE,
  PREVIOUS_OWASP_PACKAGE,
  type Catalog
} from "./catalog.js"
import { pageRuleWafEffect, wafBypassRules } from "./previous.js"
import { anyUrlExpression, urlPatternExpression } from "../rules/url-pattern.js"

type WafAction = "block" | "challenge" | "managed_challenge" | "js_challenge" | "log" | "pass"

export interface RuleRef {
  /** The package or ruleset (or `firewall rule`, `page rule`, `skip rule`). */
  readonly source: string
  readonly id: string
  readonly description: string
}

export interface Verdict {
  /** `pass` when nothing acted (logged rules may remain). */
  readonly action: WafAction
  /** Blocked or challenged. */
  readonly acted: boolean
  /** The rules that decided (for OWASP: every matching rule that added to the score, then the score rule). */
  readonly rules: ReadonlyArray<RuleRef>
  readonly logged: ReadonlyArray<RuleRef>
  /** Why the WAF did not run for the request. */
  readonly skippedBy?: RuleRef
  readonly score?: number
}

export interface Engine {
  /** `memo`: the pool's per-request results (zeroed per request); shared by engines of one pool. */
  decide(ctx: RequestContext, memo?: Int8Array): Verdict
}

type Match = (ctx: RequestContext, memo: Int8Array) => boolean

/**
 * Compiled expressions shared by both versions: the previous WAF's bypass rules and the new
 * version's skip rules are the same expressions, evaluated once per request (results memoized in
 * `memo`, one slot per distinct expression).
 */
export class ExpressionPool {
  private readonly slots = new Map<string, number>()
  private readonly fns: Array<(ctx: RequestContext) => boolean> = []
  get size() {
    return this.fns.length
  }
  match(source: string): Match {
    let slot = this.slots.get(source)
    if (slot === undefined) {
      const c = compileExpression(source)
      const direct = (c as unknown as Record<typeof EVALUATE, ((ctx: RequestContext) => boolean) | undefined>)[EVALUATE]
      slot = this.fns.length
      this.fns.push(direct ?? ((ctx) => c(ctx)))
      this.slots.set(source, slot)
    }
    const s = slot
    const fns = this.fns
    return (ctx, memo) => {
      const m = memo[s]
      if (m !== 0 && m !== undefined) return m === 1
      const r = fns[s]!(ctx)
      memo[s] = r ? 1 : -1
      return r
    }
  }
}

/** Compiles an expression that is known to check (catalog, generated or validated input). */
const compileExpression = (source: string): CompiledExpression => {
  const c = check(source, { maxLength: false })
  if (c.checked === undefined) {
    const d = c.diagnostics.find((x) => x.severity === "error")
    throw new Error(`expression does not check: ${d?.message ?? "invalid"}: ${source.slice(0, 120)}`)
  }
  return compile(c.checked)
}

const NONE: ReadonlyArray<RuleRef> = []
const pass = (logged: ReadonlyArray<RuleRef>, skippedBy?: RuleRef): Verdict => ({
  action: "pass",
  acted: false,
  rules: NONE,
  logged,
  ...(skippedBy ? { skippedBy } : {})
})

// ---------------------------------------------------------------------------------------------
// Previous version

export const previousEngine = (
  previous: PreviousWaf,
  catalog: Catalog = CATALOG,
  pool: ExpressionPool = new ExpressionPool()
): Engine => {
  const pages = previous.page_rules
    .filter((p) => p.status === "active")
    .sort((a, b) => b.priority - a.priority)
    .map((p) => {
      const url = p.targets[0]?.constraint.value ?? "*"
      return {
        ref: { source: "page rule", id: p.id, description: url },
        effect: pageRuleWafEffect(p),
        match: pool.match(urlPatternExpression(url))
      }
    })
  const bypass = wafBypassRules(previous.firewall_rules)
    .filter((r) => !r.paused)
    .map((r) => ({
      ref: { source: "firewall rule", id: r.id, description: r.description ?? "bypass waf" },
      match: pool.match(r.expression)
    }))
  const overrides = previous.overrides
    .filter((o) => !o.paused)
    .sort((a, b) => a.priority - b.priority)
    .map((o) => ({ o, match: pool.match(anyUrlExpression(o.urls)) }))
  const groupMode = new Map(previous.groups.map((g) => [g.id, g.mode as string]))
  const ruleMode = new Map(previous.rules.map((r) => [r.id, r.mode as string]))
  const byPriority = (a: { priority: string }, b: { priority: string }) => Number(a.priority) - Number(b.priority)
  const cf = catalog.rules
    .filter((r) => r.package_id === PREVIOUS_CLOUDFLARE_PACKAGE)
    .sort(byPriority)
    .map((r) => ({
      r,
      ref: { source: "CloudFlare package", id: r.id, description: r.description },
      match: pool.match(r.expression)
    }))
  const owaspPkg = previous.packages.find((p) => p.id === PREVIOUS_OWASP_PACKAGE)
  const sensitivity = owaspPkg?.sensitivity ?? "high"
  const owaspOn = owaspPkg !== undefined && sensitivity !== "off"
  const threshold = sensitivity === "off" ? Infinity : catalog.owaspThresholds[sensitivity]
  const owaspAction = owaspPkg?.action_mode ?? "challenge"
  const owasp = catalog.rules
    .filter((r) => r.package_id === PREVIOUS_OWASP_PACKAGE)
    .sort(byPriority)
    .map((r) => ({
      r,
      ref: { source: "OWASP package", id: r.id, description: r.description },
      match: pool.match(r.expression)
    }))
  const scoreRef: RuleRef = {
    source: "OWASP package",
    id: catalog.owaspBlockRuleId,
    description: `anomaly score at or above ${threshold} (sensitivity ${sensitivity})`
  }

  return {
    decide(ctx, memo = new Int8Array(pool.size)) {
      let active = previous.waf === "on"
      for (const p of pages) {
        if (!p.match(ctx, memo)) continue
        if (p.effect === "off" || p.effect === "disable_security") return pass(NONE, p.ref)
        if (p.effect === "on") active = true
        break
      }
      if (!active) return pass(NONE, { source: "zone setting", id: "waf", description: "the WAF is off" })
      for (const b of bypass) if (b.match(ctx, memo)) return pass(NONE, b.ref)
      let ov: (typeof overrides)[number]["o"] | undefined
      for (const o of overrides) {
        if (o.match(ctx, memo)) {
          ov = o.o
          break
        }
      }
      let logged: Array<RuleRef> | undefined
      for (const c of cf) {
        const g = ov?.groups?.[c.r.group.id] ?? groupMode.get(c.r.group.id) ?? "on"
        if (g === "off" || g === "disable") continue
        let mode = ov?.rules?.[c.r.id] ?? ruleMode.get(c.r.id) ?? "default"
        if (mode === "default") mode = c.r.default_mode ?? "block"
        if (mode === "disable" || mode === "off") continue
        if (!c.match(ctx, memo)) continue
        if (mode === "simulate") (logged ??= []).push(c.ref)
        else
          return {
            action: mode === "challenge" ? "challenge" : "block",
            acted: true,
            rules: [c.ref],
            logged: logged ?? NONE
          }
      }
      if (owaspOn) {
        let score = 0
        let matched: Array<RuleRef> | undefined
        for (const o of owasp) {
          const g = ov?.groups?.[o.r.group.id] ?? groupMode.get(o.r.group.id) ?? "on"
          if (g === "off" || g === "disable") continue
          const m = ov?.rules?.[o.r.id] ?? ruleMode.get(o.r.id) ?? "on"
          if (m === "off" || m === "disable") continue
          if (!o.match(ctx, memo)) continue
          score += o.r.score ?? 0
          ;(matched ??= []).push(o.ref)
        }
        if (score >= threshold) {
          const rules = [...matched!, scoreRef]
          if (owaspAction === "simulate") return { ...pass([...(logged ?? NONE), ...rules]), score }
          return { action: owaspAction, acted: true, rules, logged: logged ?? NONE, score }
        }
      }
      return pass(logged ?? NONE)
    }
  }
}

// ---------------------------------------------------------------------------------------------
// New version

interface Effective {
  readonly ref: RuleRef
  readonly match: Match
  readonly action: string
  readonly score: number
}

interface Step {
  readonly rule: RulesetRule
  readonly match: Match
  readonly ref: RuleRef
  readonly skip?: {
    readonly current: boolean
    readonly rulesets: ReadonlySet<string>
    readonly rules: ReadonlySet<string>
  }
  readonly execute?: {
    readonly rulesetId: string
    readonly rules: ReadonlyArray<Effective>
    readonly scoring: boolean
    readonly threshold: number
    readonly scoreRule?: Effective
  }
}

/** A managed ruleset's rules with the execute rule's overrides applied (rule > category > ruleset). */
const effectiveRules = (rule: RulesetRule, catalog: Catalog, pool: ExpressionPool) => {
  const id = rule.action_parameters?.id ?? ""
  const ruleset = catalog.ruleset(id)
  if (ruleset === undefined) throw new Error(`unknown managed ruleset ${id}`)
  const ov = rule.action_parameters?.overrides
  const byRule = new Map((ov?.rules ?? []).map((r) => [r.id, r]))
  const rules: Array<Effective> = []
  let scoreRule: Effective | undefined
  let threshold = Infinity
  for (const r of ruleset.rules) {
    const ro = byRule.get(r.id)
    let enabled = ov?.enabled ?? r.enabled
    let action = ov?.action ?? r.action
    for (const c of ov?.categories ?? []) {
      if (!r.categories.includes(c.category)) continue
      if (c.enabled !== undefined) enabled = c.enabled
      if (c.action !== undefined) action = c.action
    }
    if (ro?.enabled !== undefined) enabled = ro.enabled
    if (ro?.action !== undefined) action = ro.action
    // OWASP rules only add to the score; an action override applies to the score rule.
    if (r.action === "score") action = "score"
    if (!enabled) continue
    const match = pool.match(r.expression)
    const e: Effective = {
      ref: { source: ruleset.name, id: r.id, description: r.description },
      match,
      action,
      score: r.score ?? 0
    }
    if (r.score_threshold !== undefined || r.id === OWASP_SCORE_RULE) {
      scoreRule = e
      threshold = ro?.score_threshold ?? r.score_threshold ?? 40
    } else rules.push(e)
  }
  const scoring = ruleset.rules.some((r) => r.action === "score")
  return { rulesetId: id, rules, scoring, threshold, ...(scoreRule ? { scoreRule } : {}) }
}

export const newEngine = (
  config: WafConfig,
  catalog: Catalog = CATALOG,
  pool: ExpressionPool = new ExpressionPool()
): Engine => {
  const steps: Array<Step> = []
  config.rules.forEach((rule, i) => {
    if (rule.enabled === false) return
    const ref: RuleRef = {
      source: `entry point rule ${i + 1}`,
      id: rule.id || `#${i + 1}`,
      description: rule.description || rule.action
    }
    const match = pool.match(rule.expression)
    if (rule.action === "skip") {
      const p = rule.action_parameters ?? {}
      steps.push({
        rule,
        match,
        ref,
        skip: {
          current: p.ruleset === "current",
          rulesets: new Set(p.rulesets ?? []),
          rules: new Set(Object.values(p.rules ?? {}).flat())
        }
      })
    } else if (rule.action === "execute") {
      steps.push({ rule, match, ref, execute: effectiveRules(rule, catalog, pool) })
    }
  })
  return {
    decide(ctx, memo = new Int8Array(pool.size)) {
      let logged: Array<RuleRef> | undefined
      let skippedRulesets: Set<string> | undefined
      let skippedRules: Set<string> | undefined
      for (const s of steps) {
        if (!s.match(ctx, memo)) continue
        if (s.skip) {
          if (s.skip.current) return pass(logged ?? NONE, s.ref)
          for (const r of s.skip.rulesets) (skippedRulesets ??= new Set()).add(r)
          for (const r of s.skip.rules) (skippedRules ??= new Set()).add(r)
          continue
        }
        const x = s.execute!
        if (skippedRulesets?.has(x.rulesetId)) continue
        if (x.scoring) {
          let score = 0
          let matched: Array<RuleRef> | undefined
          for (const r of x.rules) {
            if (skippedRules?.has(r.ref.id) || !r.match(ctx, memo)) continue
            if (r.action === "score") {
              score += r.score
              ;(matched ??= []).push(r.ref)
            } else if (r.action === "log") (logged ??= []).push(r.ref)
            else return { action: r.action as WafAction, acted: true, rules: [r.ref], logged: logged ?? NONE }
          }
          const sr = x.scoreRule
          if (sr !== undefined && score > 0 && score >= x.threshold && !skippedRules?.has(sr.ref.id)) {
            const rules = [
              ...matched!,
              { ...sr.ref, description: `${sr.ref.description} (score ${score} >= ${x.threshold})` }
            ]
            if (sr.action === "log") (logged ??= []).push(...rules)
            else return { action: sr.action as WafAction, acted: true, rules, logged: logged ?? NONE, score }
          }
          continue
        }
        for (const r of x.rules) {
          if (skippedRules?.has(r.ref.id) || !r.match(ctx, memo)) continue
          if (r.action === "log") (logged ??= []).push(r.ref)
          else return { action: r.action as WafAction, acted: true, rules: [r.ref], logged: logged ?? NONE }
        }
      }
      return pass(logged ?? NONE)
    }
  }
}
