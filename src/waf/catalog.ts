/**
 * The managed-rules catalog (fixtures/waf/catalog.json): the previous WAF's packages, groups and
 * rules, the new managed rulesets and the mapping from previous Cloudflare rule ids to new ones.
 * Every rule carries its match expression in the rules language.
 */
import data from "../../fixtures/waf/catalog.json" with { type: "json" }

export const CLOUDFLARE_MANAGED_RULESET = "efb7b8c949ac4650a09736fc376e9aee"
export const OWASP_RULESET = "4814384a9e5d4991b9815dcfc25d2f1f"
/** The OWASP ruleset's last rule, "949110: Inbound Anomaly Score Exceeded": its override carries the threshold and action. */
export const OWASP_SCORE_RULE = "6179ae15870a4bb7b2d480d4843b323c"
export const PREVIOUS_CLOUDFLARE_PACKAGE = "1e334934fd7ae32ad705667f8c1057aa"
export const PREVIOUS_OWASP_PACKAGE = "c504870194831cd12c3fc0284f294abb"
export const PARANOIA_CATEGORIES = [
  "paranoia-level-1",
  "paranoia-level-2",
  "paranoia-level-3",
  "paranoia-level-4"
] as const

interface PreviousPackage {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly detection_mode: "traditional" | "anomaly"
}
interface PreviousGroup {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly package_id: string
  /** The new Cloudflare Managed Ruleset's category (tag) the group's rules carry. */
  readonly category?: string
}
interface PreviousRule {
  readonly id: string
  readonly description: string
  readonly priority: string
  readonly group: { readonly id: string; readonly name: string }
  readonly package_id: string
  readonly default_mode?: "disable" | "simulate" | "block" | "challenge"
  readonly allowed_modes: ReadonlyArray<string>
  /** OWASP (anomaly) rules: what a match adds to the request's score. */
  readonly score?: number
  readonly expression: string
}
interface ManagedRule {
  readonly id: string
  readonly description: string
  readonly categories: ReadonlyArray<string>
  /** The default action; `score` for OWASP rules that only add to the anomaly score. */
  readonly action: string
  readonly enabled: boolean
  readonly score?: number
  readonly score_threshold?: number
  readonly expression: string
}
export interface ManagedRuleset {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly version: string
  readonly rules: ReadonlyArray<ManagedRule>
}

export interface Catalog {
  readonly packages: ReadonlyArray<PreviousPackage>
  readonly groups: ReadonlyArray<PreviousGroup>
  readonly rules: ReadonlyArray<PreviousRule>
  /** Legacy OWASP thresholds by sensitivity (score at or above which the package acts). */
  readonly owaspThresholds: Readonly<Record<"high" | "medium" | "low", number>>
  /** The rule id the previous OWASP package reports its decisions under. */
  readonly owaspBlockRuleId: string
  readonly managed: ReadonlyArray<ManagedRuleset>
  /** Previous Cloudflare rule id → new Cloudflare Managed Ruleset rule id. */
  readonly ruleMap: Readonly<Record<string, string>>
  readonly ruleset: (id: string) => ManagedRuleset | undefined
  readonly group: (id: string) => PreviousGroup | undefined
  readonly rule: (id: string) => PreviousRule | undefined
}

const raw = data as unknown as {
  previous: {
    packages: Array<PreviousPackage>
    groups: Array<PreviousGroup>
    rules: Array<PreviousRule>
    owasp_thresholds: Record<"high" | "medium" | "low", number>
    owasp_block_rule_id: string
  }
  managed: Array<ManagedRuleset>
  rule_map: Record<string, string>
}

const make = (): Catalog => {
  const rulesets = new Map(raw.managed.map((r) => [r.id, r]))
  const groups = new Map(raw.previous.groups.map((g) => [g.id, g]))
  const rules = new Map(raw.previous.rules.map((r) => [r.id, r]))
  return {
    packages: raw.previous.packages,
    groups: raw.previous.groups,
    rules: raw.previous.rules,
    owaspThresholds: raw.previous.owasp_thresholds,
    owaspBlockRuleId: raw.previous.owasp_block_rule_id,
    managed: raw.managed,
    ruleMap: raw.rule_map,
    ruleset: (id) => rulesets.get(id),
    group: (id) => groups.get(id),
    rule: (id) => rules.get(id)
  }
}

/** The catalog of this platform (one instance; it is immutable). */
export const CATALOG: Catalog = make()

export const isOwaspPackage = (packageId: string) => packageId === PREVIOUS_OWASP_PACKAGE
