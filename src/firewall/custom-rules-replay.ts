/**
 * Replay of a traffic file through a zone's firewall rules and its custom rules: the requests they
 * decide differently, with the rules responsible. A former `allow` decides as a skip of the rest of
 * the phase, a former bypass's products as a skip's products and phases; so a faithful migration
 * shows no difference. Pure: the caller feeds lines (the format of src/rules/traffic-line.ts).
 */
import type { CustomRule } from "../domain/custom-rule.js"
import type { Rule } from "../domain/firewall.js"
import { EVALUATE, REQUIRES } from "../rules/compile.js"
import {
  check,
  compile,
  customPhase,
  firewall,
  HTTP_SCHEME,
  RequestContext,
  type CompiledExpression,
  type FirewallRule,
  type Request
} from "../rules/index.js"
import { parseTrafficLine, requestSummary } from "../rules/traffic-line.js"
import { asFirewallRule } from "./evaluated-rule.js"

/** What differs: the deciding action, the products (and phases) skipped, or the rules that logged. */
export type ReplayDifference = "action" | "skipped" | "logged"

/** A rule in a verdict: the firewall rule's id, or the custom rule's ref (else its id, else its index). */
export interface ReplayRule {
  readonly id: string
  readonly description?: string
}

export interface ReplayVerdict {
  /** allow (for custom rules: a skip of the rest), block, a challenge, or null when nothing decided. */
  readonly action: string | null
  readonly rule: ReplayRule | null
  /** Products and phases skipped, sorted. */
  readonly skipped: ReadonlyArray<string>
  readonly skippedBy: ReadonlyArray<ReplayRule>
  readonly logged: ReadonlyArray<ReplayRule>
}

export interface ReplayDisagreement {
  /** 1-based line of the traffic file. */
  readonly line: number
  readonly id?: string
  readonly summary: string
  readonly differences: ReadonlyArray<ReplayDifference>
  readonly firewall: ReplayVerdict
  readonly custom: ReplayVerdict
}

export interface CustomRulesReplayReport {
  readonly requests: number
  readonly agreed: number
  readonly disagreements: ReadonlyArray<ReplayDisagreement>
  readonly counts: Readonly<Record<ReplayDifference, number>>
  readonly problems: ReadonlyArray<{ readonly line: number; readonly message: string }>
}

export interface CustomRulesReplayer {
  line(text: string, line: number): void
  request(request: Request, line: number, id?: string): ReplayDisagreement | undefined
  report(): CustomRulesReplayReport
}

const fromFirewall = (r: FirewallRule): ReplayRule => ({
  id: r.id,
  ...(r.description !== undefined ? { description: r.description } : {})
})

const sameList = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) =>
  a.length === b.length && a.every((x, i) => x === b[i])

const sortedUnique = (xs: ReadonlyArray<string>) => [...new Set(xs)].sort()

/**
 * The expressions of both rule sets, each compiled once and evaluated at most once per request: a
 * migrated rule has its firewall rule's expression, so the replay costs about one evaluation, not two.
 * Undefined for an expression that does not check (each evaluator then reports it as invalid).
 */
const sharedExpressions = () => {
  const bySource = new Map<string, CompiledExpression | null>()
  const last: Array<RequestContext | undefined> = []
  const value: Array<boolean> = []
  return (source: string): CompiledExpression | undefined => {
    const known = bySource.get(source)
    if (known !== undefined) return known ?? undefined
    const checked = check(source).checked
    if (checked === undefined) {
      bySource.set(source, null)
      return undefined
    }
    const c = compile(checked)
    const ev = (c as unknown as Record<typeof EVALUATE, (ctx: RequestContext) => boolean>)[EVALUATE]
    const slot = last.length
    last.push(undefined)
    value.push(false)
    const once = (ctx: RequestContext) => {
      if (last[slot] === ctx) return value[slot]!
      const v = ev(ctx)
      last[slot] = ctx
      value[slot] = v
      return v
    }
    // The compiled expression, evaluating through `once` when given a context of its scheme.
    const shared = ((r: Request | RequestContext) =>
      r instanceof RequestContext && r.scheme === c.scheme ? once(r) : c(r)) as CompiledExpression
    Object.defineProperties(shared, {
      [EVALUATE]: { value: once },
      [REQUIRES]: { get: () => (c as { [REQUIRES]?: unknown })[REQUIRES] },
      source: { value: c.source },
      fields: { value: c.fields },
      scheme: { value: c.scheme },
      context: { value: c.context }
    })
    bySource.set(source, shared)
    return shared
  }
}

/** `keep`: how many disagreements to keep in the report (all are counted); 1,000 by default. */
export const makeCustomRulesReplayer = (
  firewallRules: ReadonlyArray<Rule>,
  customRules: ReadonlyArray<CustomRule>,
  options: { readonly keep?: number } = {}
): CustomRulesReplayer => {
  const compiled = sharedExpressions()
  const old = firewall(
    firewallRules.map((r) => {
      const rule = asFirewallRule(r)
      const c = compiled(rule.expression!)
      return c !== undefined ? { ...rule, compiled: c } : rule
    })
  )
  const next = customPhase(customRules, { compiled })
  const names = new Map(customRules.map((r, i) => [r, r.ref ?? r.id ?? `#${i + 1}`]))
  const fromCustom = (r: CustomRule): ReplayRule => ({
    id: names.get(r)!,
    ...(r.description !== undefined ? { description: r.description } : {})
  })
  const keep = options.keep ?? 1000
  const disagreements: Array<ReplayDisagreement> = []
  const problems: Array<{ line: number; message: string }> = []
  const counts: Record<ReplayDifference, number> = { action: 0, skipped: 0, logged: 0 }
  let requests = 0
  let agreed = 0

  const none: ReadonlyArray<never> = []
  const sameLogged = (a: ReadonlyArray<FirewallRule>, b: ReadonlyArray<CustomRule>) =>
    a.length === b.length && a.every((x, i) => x.id === names.get(b[i]!))
  const request = (r: Request, line: number, id?: string): ReplayDisagreement | undefined => {
    requests++
    const ctx = new RequestContext(r, HTTP_SCHEME)
    const p = old.decideContext(ctx)
    const n = next.decideContext(ctx)
    const pAction = p.action ?? null
    const nAction = n.action === "skip" ? "allow" : (n.action ?? null)
    // Most requests skip and log nothing: no lists are built for them.
    const pSkipped = p.bypassed.length === 0 ? none : sortedUnique(p.bypassed.flatMap((b) => b.products))
    const nSkipped =
      n.skipped.length === 0 ? none : sortedUnique(n.skipped.flatMap((s) => [...s.products, ...s.phases]))
    const differences: Array<ReplayDifference> = []
    if (pAction !== nAction) differences.push("action")
    if (!sameList(pSkipped, nSkipped)) differences.push("skipped")
    if (!sameLogged(p.logged, n.logged)) differences.push("logged")
    if (differences.length === 0) {
      agreed++
      return undefined
    }
    for (const d of differences) counts[d]++
    const pLogged = p.logged.map(fromFirewall)
    const nLogged = n.logged.map(fromCustom)
    const d: ReplayDisagreement = {
      line,
      ...(id !== undefined ? { id } : {}),
      summary: requestSummary(r),
      differences,
      firewall: {
        action: pAction,
        rule: p.rule !== undefined ? fromFirewall(p.rule) : null,
        skipped: pSkipped,
        skippedBy: p.bypassed.map((b) => fromFirewall(b.rule)),
        logged: pLogged
      },
      custom: {
        action: nAction,
        rule: n.rule !== undefined ? fromCustom(n.rule) : null,
        skipped: nSkipped,
        skippedBy: n.skipped.map((s) => fromCustom(s.rule)),
        logged: nLogged
      }
    }
    if (disagreements.length < keep) disagreements.push(d)
    return d
  }

  return {
    request,
    line(text, line) {
      const parsed = parseTrafficLine(text)
      if (parsed === undefined) return
      if ("problem" in parsed) problems.push({ line, message: parsed.problem })
      else request(parsed.request, line, parsed.id)
    },
    report: () => ({ requests, agreed, disagreements, counts, problems })
  }
}

/** Replays a whole text (tests, the TUI's sample file). */
export const replayCustomRules = (
  firewallRules: ReadonlyArray<Rule>,
  customRules: ReadonlyArray<CustomRule>,
  text: string
): CustomRulesReplayReport => {
  const r = makeCustomRulesReplayer(firewallRules, customRules)
  text.split("\n").forEach((l, i) => r.line(l, i + 1))
  return r.report()
}
