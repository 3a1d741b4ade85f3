/**
 * Editing the proposed configuration's overrides (the TUI wizard's override step): per rule of the
 * Cloudflare Managed Ruleset, enabled and action; for the OWASP ruleset, the paranoia level and the
 * score threshold and action of its last rule. Pure: each edit returns a new configuration.
 */
import type { RuleOverride, RulesetRule, WafConfig } from "../domain/waf.js"
import {
  CATALOG,
  CLOUDFLARE_MANAGED_RULESET,
  OWASP_RULESET,
  OWASP_SCORE_RULE,
  PARANOIA_CATEGORIES,
  type Catalog
} from "./catalog.js"
import { paranoiaOverrides } from "./mapping.js"

export const ACTIONS = ["block", "managed_challenge", "js_challenge", "challenge", "log"] as const
export const THRESHOLDS = [25, 40, 60] as const

const executeOf = (c: WafConfig, rulesetId: string) =>
  c.rules.findIndex((r) => r.action === "execute" && r.action_parameters?.id === rulesetId)

const withRule = (c: WafConfig, index: number, f: (r: RulesetRule) => RulesetRule): WafConfig => ({
  ...c,
  rules: c.rules.map((r, i) => (i === index ? f(r) : r))
})

const setRuleOverride = (
  r: RulesetRule,
  id: string,
  f: (o: RuleOverride | undefined) => RuleOverride | undefined
): RulesetRule => {
  const list = r.action_parameters?.overrides?.rules ?? []
  const current = list.find((o) => o.id === id)
  const next = f(current)
  const rest = list.filter((o) => o.id !== id)
  const rules = next === undefined || Object.keys(next).length === 1 ? rest : [...rest, next]
  const { rules: _, ...others } = r.action_parameters?.overrides ?? {}
  const overrides = rules.length > 0 ? { ...others, rules } : others
  return { ...r, action_parameters: { ...r.action_parameters, overrides } }
}

export interface ManagedRuleView {
  readonly id: string
  readonly description: string
  readonly defaultAction: string
  readonly enabled: boolean
  readonly action: string
  readonly overridden: boolean
}

/** The Cloudflare Managed Ruleset's rules as the proposed configuration runs them. */
export const managedRules = (c: WafConfig, catalog: Catalog = CATALOG): ReadonlyArray<ManagedRuleView> => {
  const rs = catalog.ruleset(CLOUDFLARE_MANAGED_RULESET)!
  const exec = c.rules[executeOf(c, CLOUDFLARE_MANAGED_RULESET)]
  const ov = new Map((exec?.action_parameters?.overrides?.rules ?? []).map((o) => [o.id, o]))
  return rs.rules.map((r) => {
    const o = ov.get(r.id)
    return {
      id: r.id,
      description: r.description,
      defaultAction: r.action,
      enabled: o?.enabled ?? r.enabled,
      action: o?.action ?? r.action,
      overridden: o !== undefined
    }
  })
}

export const toggleRule = (c: WafConfig, id: string): WafConfig => {
  const i = executeOf(c, CLOUDFLARE_MANAGED_RULESET)
  if (i < 0) return c
  return withRule(c, i, (r) =>
    setRuleOverride(r, id, (o) => {
      const enabled = !(o?.enabled ?? true)
      const { enabled: _, ...rest } = o ?? { id }
      return enabled ? { ...rest, id } : { ...rest, id, enabled: false }
    })
  )
}

export const cycleAction = (c: WafConfig, id: string, catalog: Catalog = CATALOG): WafConfig => {
  const i = executeOf(c, CLOUDFLARE_MANAGED_RULESET)
  if (i < 0) return c
  const def = catalog.ruleset(CLOUDFLARE_MANAGED_RULESET)!.rules.find((r) => r.id === id)?.action
  return withRule(c, i, (r) =>
    setRuleOverride(r, id, (o) => {
      const now = o?.action ?? def ?? "block"
      const next = ACTIONS[(ACTIONS.indexOf(now as (typeof ACTIONS)[number]) + 1) % ACTIONS.length]!
      const { action: _, ...rest } = o ?? { id }
      return next === def ? { ...rest, id } : { ...rest, id, action: next }
    })
  )
}

export interface OwaspView {
  readonly paranoia: number
  readonly threshold: number
  readonly action: string
}

export const owaspSettings = (c: WafConfig): OwaspView | undefined => {
  const exec = c.rules[executeOf(c, OWASP_RULESET)]
  if (exec === undefined) return undefined
  const disabled = new Set(
    (exec.action_parameters?.overrides?.categories ?? []).filter((x) => x.enabled === false).map((x) => x.category)
  )
  const paranoia = PARANOIA_CATEGORIES.findIndex((p) => disabled.has(p))
  const last = exec.action_parameters?.overrides?.rules?.find((o) => o.id === OWASP_SCORE_RULE)
  return {
    paranoia: paranoia < 0 ? 4 : paranoia,
    threshold: last?.score_threshold ?? 40,
    action: last?.action ?? "block"
  }
}

const editOwasp = (c: WafConfig, f: (v: OwaspView) => OwaspView): WafConfig => {
  const i = executeOf(c, OWASP_RULESET)
  const v = owaspSettings(c)
  if (i < 0 || v === undefined) return c
  const n = f(v)
  return withRule(c, i, (r) => {
    const others = (r.action_parameters?.overrides?.categories ?? []).filter(
      (x) => !(PARANOIA_CATEGORIES as ReadonlyArray<string>).includes(x.category)
    )
    const rules = (r.action_parameters?.overrides?.rules ?? []).filter((o) => o.id !== OWASP_SCORE_RULE)
    return {
      ...r,
      action_parameters: {
        ...r.action_parameters,
        overrides: {
          ...r.action_parameters?.overrides,
          categories: [...others, ...paranoiaOverrides(n.paranoia)],
          rules: [...rules, { id: OWASP_SCORE_RULE, score_threshold: n.threshold, action: n.action }]
        }
      }
    }
  })
}

export const cycleParanoia = (c: WafConfig) => editOwasp(c, (v) => ({ ...v, paranoia: (v.paranoia % 4) + 1 }))
export const cycleThreshold = (c: WafConfig) =>
  editOwasp(c, (v) => ({
    ...v,
    threshold: THRESHOLDS[(THRESHOLDS.indexOf(v.threshold as (typeof THRESHOLDS)[number]) + 1) % THRESHOLDS.length]!
  }))
export const cycleOwaspAction = (c: WafConfig) =>
  editOwasp(c, (v) => ({
    ...v,
    action: ACTIONS[(ACTIONS.indexOf(v.action as (typeof ACTIONS)[number]) + 1) % ACTIONS.length]!
  }))
