/**
 * The migration mapping, pure: a zone's previous WAF → the equivalent new configuration (the
 * managed-phase entry point), with what is not migrated and why. The server's config operation,
 * the CLI's preview and dry run, the TUI and the replay all call `planMigration`, so they cannot
 * disagree.
 *
 * The spec's table: High → PL2 + threshold 40 (Medium); Medium → PL1 + 25 (High); Low → PL1 + 40
 * (Medium); Default → PL2 + 40 (Medium). Simulate → log. Skip rules for firewall rules that bypass
 * the WAF and for page rules that disable security or turn the WAF off come first. OWASP group and
 * rule overrides are not migrated.
 */
import type { CompatibilityReason, PreviousWaf, RuleOverride, RulesetRule, WafConfig } from "../domain/waf.js"
import { check, orderRules, type FirewallAction } from "../rules/index.js"
import {
  CATALOG,
  CLOUDFLARE_MANAGED_RULESET,
  OWASP_RULESET,
  OWASP_SCORE_RULE,
  PARANOIA_CATEGORIES,
  PREVIOUS_CLOUDFLARE_PACKAGE,
  PREVIOUS_OWASP_PACKAGE,
  type Catalog
} from "./catalog.js"
import { checkLimits } from "./limits.js"
import { pageRuleWafEffect, wafBypassRules } from "./previous.js"
import { urlPatternExpression } from "../rules/url-pattern.js"

export type SensitivityKey = "high" | "medium" | "low" | "default"
export interface OwaspLevel {
  readonly paranoia: 1 | 2 | 3 | 4
  readonly threshold: number
  readonly thresholdName: "High" | "Medium" | "Low"
}

/** The spec's sensitivity table, exactly. */
export const SENSITIVITY_MAP: Readonly<Record<SensitivityKey, OwaspLevel>> = {
  high: { paranoia: 2, threshold: 40, thresholdName: "Medium" },
  medium: { paranoia: 1, threshold: 25, thresholdName: "High" },
  low: { paranoia: 1, threshold: 40, thresholdName: "Medium" },
  default: { paranoia: 2, threshold: 40, thresholdName: "Medium" }
}

/** Previous OWASP action → the new last-rule action ("almost direct"; Simulate becomes Log). */
export const ACTION_MAP: Readonly<Record<"simulate" | "block" | "challenge", string>> = {
  simulate: "log",
  block: "block",
  challenge: "challenge"
}

/** Previous Cloudflare rule mode → the rule override in the new ruleset (`default`: none). */
const RULE_MODE_MAP: Readonly<Record<string, Omit<RuleOverride, "id"> | undefined>> = {
  default: undefined,
  disable: { enabled: false },
  simulate: { action: "log" },
  block: { action: "block" },
  challenge: { action: "challenge" }
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** `High -> PL2, threshold 40 (Medium)`. */
export const sensitivityLabel = (s: SensitivityKey) => {
  const m = SENSITIVITY_MAP[s]
  return `${cap(s)} -> PL${m.paranoia}, threshold ${m.threshold} (${m.thresholdName})`
}

/** The categories to disable for paranoia level `pl` (PLn enables the tags PL1..PLn). */
export const paranoiaOverrides = (pl: number) =>
  PARANOIA_CATEGORIES.slice(pl).map((category) => ({ category, enabled: false }))

interface PreviewRow {
  /** The previous setting, as a person reads it. */
  readonly setting: string
  readonly previous: string
  /** The new equivalent, or `-` when nothing is generated. */
  readonly next: string
  readonly migrated: boolean
  readonly note?: string
}

interface NotMigrated {
  readonly what: string
  readonly why: string
}

export interface MigrationPlan {
  readonly config: WafConfig
  readonly rows: ReadonlyArray<PreviewRow>
  readonly notMigrated: ReadonlyArray<NotMigrated>
  /** Reasons the migration cannot go on (URI-based overrides, the support limits). */
  readonly blockers: ReadonlyArray<CompatibilityReason>
  /** Firewall rules the migration translates (counted against the 200 limit). */
  readonly firewallRulesToMigrate: number
  readonly owasp:
    { readonly sensitivity: SensitivityKey | "off"; readonly level?: OwaspLevel; readonly action?: string } | undefined
}

const blank = { id: "", version: "", description: "", ref: "" }

const execute = (
  rulesetId: string,
  expression: string,
  enabled: boolean,
  overrides: Record<string, unknown> | undefined
): RulesetRule => ({
  ...blank,
  action: "execute",
  expression,
  enabled,
  action_parameters: { id: rulesetId, ...(overrides !== undefined ? { overrides } : {}) }
})

const skip = (expression: string, description: string): RulesetRule => ({
  ...blank,
  description,
  action: "skip",
  expression,
  enabled: true,
  action_parameters: { ruleset: "current" }
})

export const planMigration = (previous: PreviousWaf, catalog: Catalog = CATALOG): MigrationPlan => {
  const rows: Array<PreviewRow> = []
  const notMigrated: Array<NotMigrated> = []
  const rules: Array<RulesetRule> = []

  // 1. Skip rules, first: firewall rules that bypass the WAF, in their evaluation order.
  const bypass = wafBypassRules(previous.firewall_rules)
  for (const fw of orderRules(bypass.map((r) => ({ ...r, action: r.action as FirewallAction })))) {
    const label = `firewall rule ${fw.id}${fw.description ? ` (${fw.description})` : ""}`
    if (fw.paused) {
      notMigrated.push({ what: label, why: "paused: it bypasses nothing today, so no skip rule is generated" })
      continue
    }
    const c = check(fw.expression, { maxLength: false })
    if (!c.valid) {
      const d = c.diagnostics.find((x) => x.severity === "error")
      notMigrated.push({
        what: label,
        why: `its expression does not check (${d?.message ?? "invalid"}); fix it and generate again`
      })
      continue
    }
    rules.push(
      skip(
        fw.expression,
        `Migrated from firewall rule ${fw.id} (bypass WAF)${fw.description ? `: ${fw.description}` : ""}`
      )
    )
    rows.push({
      setting: label,
      previous: "bypass: waf",
      next: "skip rule (ruleset: current), placed first",
      migrated: true
    })
  }

  // 2. Page rules that disable security or turn the WAF off become skip rules; WAF on is noted below.
  const pageRules = [...previous.page_rules].sort((a, b) => b.priority - a.priority)
  const wafOnPatterns: Array<string> = []
  for (const pr of pageRules) {
    const effect = pageRuleWafEffect(pr)
    if (effect === undefined) continue
    const url = pr.targets[0]?.constraint.value ?? "*"
    const label = `page rule ${url}`
    if (pr.status !== "active") {
      notMigrated.push({ what: label, why: "disabled: it changes nothing today" })
      continue
    }
    if (effect === "on") {
      wafOnPatterns.push(url)
      continue
    }
    const expr = urlPatternExpression(url)
    rules.push(
      skip(
        expr,
        `Migrated from page rule ${pr.id} (${effect === "disable_security" ? "Disable Security" : "Web Application Firewall: Off"}) for ${url}`
      )
    )
    rows.push({
      setting: label,
      previous: effect === "disable_security" ? "Disable Security" : "WAF: Off",
      next: `skip rule: ${expr}`,
      migrated: true,
      note: "page rules cannot turn the new WAF off; the skip rule does"
    })
  }

  // 3. The global switch: the new model has none; each execute rule is enabled or not.
  const wafOn = previous.waf === "on"
  const onExpression =
    !wafOn && wafOnPatterns.length > 0 ? wafOnPatterns.map((u) => `(${urlPatternExpression(u)})`).join(" or ") : "true"
  const enabled = wafOn || wafOnPatterns.length > 0
  rows.push({
    setting: "zone setting waf",
    previous: previous.waf,
    next: wafOn
      ? "execute rules enabled"
      : wafOnPatterns.length > 0
        ? `execute rules only where page rules turn the WAF on: ${onExpression}`
        : "execute rules deployed disabled",
    migrated: true,
    note: "the new WAF has no global switch; each managed ruleset is deployed on its own"
  })
  if (wafOn)
    for (const u of wafOnPatterns)
      notMigrated.push({
        what: `page rule ${u} (WAF: On)`,
        why: "the WAF is already on for the whole zone; nothing to migrate"
      })

  // 4. The Cloudflare package: rule and group modes become rule overrides on the new ids.
  const cfOverrides: Array<RuleOverride> = []
  const groupMode = new Map(previous.groups.map((g) => [g.id, g.mode]))
  for (const g of previous.groups) {
    if (g.package_id !== PREVIOUS_CLOUDFLARE_PACKAGE || g.mode !== "off") continue
    const members = previous.rules.filter((r) => r.group.id === g.id)
    const mapped = members.flatMap((r) => (catalog.ruleMap[r.id] ? [catalog.ruleMap[r.id]!] : []))
    for (const id of mapped) cfOverrides.push({ id, enabled: false })
    rows.push({
      setting: `group ${g.name}`,
      previous: "off",
      next: `${mapped.length} rule override(s): enabled false`,
      migrated: true
    })
  }
  for (const r of previous.rules) {
    if (r.package_id !== PREVIOUS_CLOUDFLARE_PACKAGE || r.mode === "default" || groupMode.get(r.group.id) === "off")
      continue
    const override = RULE_MODE_MAP[r.mode]
    const target = catalog.ruleMap[r.id]
    if (override === undefined) continue
    if (target === undefined) {
      notMigrated.push({
        what: `rule ${r.id} (${r.description}) mode ${r.mode}`,
        why: "the new Cloudflare Managed Ruleset has no equivalent rule"
      })
      continue
    }
    cfOverrides.push({ id: target, ...override })
    rows.push({
      setting: `rule ${r.id} ${r.description}`,
      previous: cap(r.mode),
      next: `rule ${target.slice(0, 8)}… ${override.enabled === false ? "enabled: false" : `action: ${override.action}`}`,
      migrated: true
    })
  }
  rules.push(
    execute(
      CLOUDFLARE_MANAGED_RULESET,
      onExpression,
      enabled,
      cfOverrides.length > 0 ? { rules: cfOverrides } : undefined
    )
  )
  rows.push({
    setting: "package CloudFlare (managed)",
    previous: wafOn ? "on" : "off",
    next: `execute Cloudflare Managed Ruleset${enabled ? "" : " (disabled)"}`,
    migrated: true
  })

  // 5. The OWASP package: sensitivity → paranoia level + threshold, action_mode → action.
  const owaspPkg = previous.packages.find((p) => p.id === PREVIOUS_OWASP_PACKAGE)
  let owasp: MigrationPlan["owasp"]
  if (owaspPkg !== undefined) {
    const sensitivity: SensitivityKey | "off" = owaspPkg.sensitivity ?? "default"
    if (sensitivity === "off") {
      owasp = { sensitivity }
      rows.push({
        setting: "OWASP sensitivity",
        previous: "Off",
        next: "-",
        migrated: true,
        note: "the OWASP Core Ruleset is not deployed"
      })
    } else {
      const level = SENSITIVITY_MAP[sensitivity]
      const action = ACTION_MAP[owaspPkg.action_mode ?? "challenge"]
      owasp = { sensitivity, level, action }
      rules.push(
        execute(OWASP_RULESET, onExpression, enabled, {
          categories: paranoiaOverrides(level.paranoia),
          rules: [{ id: OWASP_SCORE_RULE, score_threshold: level.threshold, action }]
        })
      )
      rows.push({
        setting: "OWASP sensitivity",
        previous: cap(sensitivity),
        next: sensitivityLabel(sensitivity),
        migrated: true
      })
      rows.push({
        setting: "OWASP action",
        previous: cap(owaspPkg.action_mode ?? "challenge"),
        next: action,
        migrated: true
      })
    }
    for (const g of previous.groups) {
      if (g.package_id === PREVIOUS_OWASP_PACKAGE && g.mode === "off") {
        notMigrated.push({
          what: `OWASP group ${g.name} off`,
          why: "OWASP group overrides are not migrated: CRS 2.x and the OWASP Core Ruleset have no rule equivalence; recreate it as a tag override"
        })
      }
    }
    for (const r of previous.rules) {
      if (r.package_id === PREVIOUS_OWASP_PACKAGE && r.mode === "off") {
        notMigrated.push({
          what: `OWASP rule ${r.id} (${r.description}) off`,
          why: "OWASP rule overrides are not migrated: no rule equivalence between the versions; recreate it as a rule override"
        })
      }
    }
  }

  // 6. URI-based overrides block the migration; they are never translated.
  for (const o of previous.overrides) {
    notMigrated.push({
      what: `URI-based override ${o.id} (${o.urls.join(", ")})`,
      why: "URI-based overrides block the migration: delete it first (edgectl waf overrides delete)"
    })
  }
  const limits = checkLimits(previous)
  return {
    config: { name: "default", rules },
    rows,
    notMigrated,
    blockers: limits.blockers,
    firewallRulesToMigrate: limits.firewallRulesToMigrate,
    owasp
  }
}
