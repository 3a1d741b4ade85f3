/**
 * The migration of a zone's firewall rules (each with its filter) to WAF custom rules, as one pure
 * function that the preview, the dry run, the apply, the replay and the editor all call, so that
 * they cannot disagree. Facts from custom-rules-migration.md: §2 actions and skip options, §3 order,
 * §4 fields, §6 limits. A rule that cannot become a custom rule is left out with a note saying why;
 * a rule that becomes one but reads or behaves differently gets a `changed` note.
 */
import {
  CustomRuleLimits,
  CustomRulesPhase,
  SkipProducts,
  type CustomRule,
  type CustomRulesMigration,
  type MigrationEntry,
  type MigrationNote
} from "../domain/custom-rule.js"
import { FirewallActions, isDeletedFilter, type FirewallAction, type Rule } from "../domain/firewall.js"
import {
  check,
  MAX_EXPRESSION_LENGTH,
  orderRules,
  type CheckOptions,
  type CheckResult,
  type Diagnostic
} from "../rules/index.js"
import { planGatedMessage, planGatedOperator, planOf } from "./expression.js"

export interface MigrateOptions {
  /** The zone's plan (`free`, `pro`, `business`, `enterprise`); checks `log` and the rule limit. */
  readonly plan?: string
  /**
   * How an expression is checked (default: `check`). The editor passes the checker it already
   * ran over the document's expressions, so that each distinct one is parsed once per document.
   */
  readonly check?: (expression: string, options: CheckOptions) => CheckResult
  /**
   * Custom rules already on the zone that the migration keeps: they count against the plan's limit
   * of custom rules as the platform counts them (custom-rules-migration.md §6).
   */
  readonly kept?: number
}

const isAction = (a: string): a is FirewallAction => (FirewallActions as ReadonlyArray<string>).includes(a)

/** The custom rule's action and skip options for a firewall action (§2). */
const actionOf = (rule: Rule, action: FirewallAction): Pick<CustomRule, "action" | "action_parameters" | "logging"> => {
  switch (action) {
    case "allow":
      return { action: "skip", action_parameters: { ruleset: "current" }, logging: { enabled: true } }
    case "bypass":
      return { action: "skip", action_parameters: { products: [...(rule.products ?? [])] }, logging: { enabled: true } }
    default:
      return { action }
  }
}

interface Mapped {
  readonly rule: Rule
  readonly custom: CustomRule
}

type Checked = { readonly code: string; readonly message: string } | { readonly diagnostics: ReadonlyArray<Diagnostic> }

/** Why a rule cannot be written as a custom rule, or its expression's diagnostics when it can. */
const unmappable = (
  rule: Rule,
  plan: string | undefined,
  diagnosticsOf: (expression: string) => ReadonlyArray<Diagnostic>
): Checked => {
  const id = rule.id
  if (!isAction(rule.action))
    return {
      code: "unknown-action",
      message: `rule ${id}: action must be one of ${FirewallActions.join(", ")}, got ${JSON.stringify(rule.action)}`
    }
  if (isDeletedFilter(rule.filter))
    return {
      code: "filter-deleted",
      message: `rule ${id}: its filter ${rule.filter.id} was deleted, so there is no expression to carry over (the rule never matched)`
    }
  if (rule.action === "bypass") {
    const products = rule.products ?? []
    const unknown = products.filter((p) => !(SkipProducts as ReadonlyArray<string>).includes(p))
    if (products.length === 0)
      return {
        code: "bypass-products",
        message: `rule ${id}: bypass skips no product (products is empty); a skip rule needs at least one of ${SkipProducts.join(", ")}`
      }
    if (unknown.length > 0)
      return {
        code: "bypass-products",
        message: `rule ${id}: products must be among ${SkipProducts.join(", ")}, got ${unknown.map((p) => JSON.stringify(p)).join(", ")}`
      }
  }
  if (rule.action === "log" && plan !== undefined && plan !== "enterprise")
    return {
      code: "log-plan",
      message: `rule ${id}: the log action of custom rules is Enterprise only, and this zone's plan is ${plan}`
    }
  const expression = rule.filter.expression
  if (expression.length > MAX_EXPRESSION_LENGTH)
    return {
      code: "expression-too-long",
      message: `rule ${id}: a custom rule's expression must be at most ${MAX_EXPRESSION_LENGTH} characters, got ${expression.length} (the rule never ran)`
    }
  const diagnostics = diagnosticsOf(expression)
  const error = diagnostics.find((d) => d.severity === "error")
  if (error !== undefined)
    return {
      code: "expression-invalid",
      message: `rule ${id}: its expression does not check: ${error.message} (the rule never ran)`
    }
  if (plan !== undefined && planGatedOperator(diagnostics) !== undefined)
    return {
      code: "plan-gated",
      message: `rule ${id}: ${planGatedMessage(plan)}, and the rulesets API refuses such a rule (10110); it is left out`
    }
  return { diagnostics }
}

/** Notes on a rule that is written but reads or behaves differently (or carries something over by choice). */
const changes = (
  rule: Rule,
  action: FirewallAction,
  diagnostics: ReadonlyArray<Diagnostic>,
  shared: number
): Array<MigrationNote> => {
  const id = rule.id
  const out: Array<MigrationNote> = []
  const note = (severity: MigrationNote["severity"], code: string, message: string) =>
    out.push({ severity, code, rule: id, message: `rule ${id}: ${message}` })
  const filter = isDeletedFilter(rule.filter) ? undefined : rule.filter
  if (filter?.paused === true && !rule.paused)
    note(
      "changed",
      "filter-paused",
      `its filter ${filter.id} is paused, so the rule never matched: the custom rule is written disabled to keep that (the platform's own conversion enabled such rules)`
    )
  if (action === "block")
    note(
      "changed",
      "block-page",
      "a firewall block answered with error 1020; a custom rule block answers with the WAF block page (recreate a custom 1020 page as the zone's WAF block page or as the rule's response)"
    )
  const products = action === "bypass" ? (rule.products ?? []) : []
  if (products.includes("waf"))
    note(
      "info",
      "waf-product",
      'skips the previous WAF managed rules only, as the bypass did; the new WAF Managed Rules are not skipped (add phases: ["http_request_firewall_managed"] to skip them)'
    )
  if (products.includes("rateLimit"))
    note(
      "info",
      "rate-limit-product",
      'skips the previous rate limiting only, as the bypass did; new rate limiting rules are not skipped (add phases: ["http_ratelimit"] to skip them)'
    )
  if (shared > 1)
    note(
      "info",
      "shared-filter",
      `its filter ${filter!.id} is shared by ${shared} rules; each custom rule carries its own copy of the expression`
    )
  if (rule.description === undefined && filter?.description !== undefined)
    note("info", "filter-description", "has no description; the custom rule takes its filter's description")
  if (rule.ref !== undefined && rule.ref !== id)
    note(
      "info",
      "ref",
      `its ref ${JSON.stringify(rule.ref)} is not carried over: the custom rule's ref is the rule's id`
    )
  const above = diagnostics.find((d) => d.code === "plan-required")
  if (above !== undefined) note("changed", "plan-required", `${above.message} (the rulesets API may refuse the rule)`)
  return out
}

/**
 * Leaves out the rules beyond the plan's limit: paused ones first (they decide nothing), from the
 * end of the list, then active ones from the end.
 */
const withinLimit = (
  mapped: Array<Mapped>,
  plan: string | undefined,
  kept: number,
  notes: Array<MigrationNote>
): Array<Mapped> => {
  const planLimit = plan !== undefined ? CustomRuleLimits[plan] : undefined
  if (planLimit === undefined) return mapped
  const limit = Math.max(0, planLimit - kept)
  if (mapped.length <= limit) return mapped
  const drop = new Set<Mapped>()
  for (const paused of [true, false])
    for (let i = mapped.length - 1; i >= 0 && mapped.length - drop.size > limit; i--)
      if (mapped[i]!.rule.paused === paused) drop.add(mapped[i]!)
  for (const m of mapped)
    if (drop.has(m))
      notes.push({
        severity: "unmapped",
        code: "plan-limit",
        rule: m.rule.id,
        message: `rule ${m.rule.id}: the ${plan} plan allows at most ${planLimit} custom rules, ${kept > 0 ? `the zone keeps ${kept} custom rule(s) already there, ` : ""}and the zone's firewall rules need ${mapped.length}; this ${m.rule.paused ? "paused " : ""}rule is left out`
      })
  return mapped.filter((m) => !drop.has(m))
}

/** The custom phase's rules for a zone's firewall rules (given in listing order: creation). */
export const migrateFirewallRules = (
  rules: ReadonlyArray<Rule>,
  options: MigrateOptions = {}
): CustomRulesMigration => {
  const plan = options.plan
  const notes: Array<MigrationNote> = []
  const filterUse = new Map<string, number>()
  for (const r of rules) filterUse.set(r.filter.id, (filterUse.get(r.filter.id) ?? 0) + 1)
  const ordered = orderRules(
    rules.map((rule) => ({ rule, priority: rule.priority, action: rule.action as FirewallAction }))
  )
  // Rules that share a filter share its expression: each distinct one is checked once.
  const p = plan !== undefined ? planOf(plan) : undefined
  const checked = new Map<string, ReadonlyArray<Diagnostic>>()
  const checkWith = options.check ?? check
  const diagnosticsOf = (expression: string) => {
    let d = checked.get(expression)
    if (d === undefined)
      checked.set(expression, (d = checkWith(expression, p !== undefined ? { plan: p } : {}).diagnostics))
    return d
  }
  let mapped: Array<Mapped> = []
  for (const { rule } of ordered) {
    const why = unmappable(rule, plan, diagnosticsOf)
    if (!("diagnostics" in why)) {
      notes.push({ severity: "unmapped", code: why.code, rule: rule.id, message: why.message })
      continue
    }
    const action = rule.action as FirewallAction
    const filter = rule.filter as Exclude<Rule["filter"], { deleted: true }>
    const description = rule.description ?? filter.description
    const { action: customAction, action_parameters, logging } = actionOf(rule, action)
    // Keys in the order the API answers a rule.
    const custom: CustomRule = {
      action: customAction,
      expression: filter.expression,
      ...(description !== undefined ? { description } : {}),
      enabled: !rule.paused && !filter.paused,
      ref: rule.id,
      ...(action_parameters !== undefined ? { action_parameters } : {}),
      ...(logging !== undefined ? { logging } : {})
    }
    mapped.push({ rule, custom })
    notes.push(...changes(rule, action, why.diagnostics, filterUse.get(filter.id) ?? 0))
  }
  mapped = withinLimit(mapped, plan, options.kept ?? 0, notes)
  const position = new Map(mapped.map((m, i) => [m.rule.id, i]))
  const entries: Array<MigrationEntry> = rules.map((r) => ({
    firewall_rule: r.id,
    custom_rule: position.get(r.id) ?? null
  }))
  const zone: Array<MigrationNote> = []
  if (rules.some((r) => r.priority !== null))
    zone.push({
      severity: "info",
      code: "order",
      message:
        "custom rules run in list order: the rules are listed as the firewall ran them (priority, rules without one last, then action: log, bypass, allow, challenge, managed_challenge, js_challenge, block, then creation)"
    })
  if (mapped.some((m) => m.custom.action === "skip"))
    zone.push({
      severity: "info",
      code: "skip-logging",
      message:
        "former allow and bypass rules become skip rules, which are logged in Security Events (source Custom Rules); set logging.enabled to false to stop it"
    })
  return { phase: CustomRulesPhase, rules: mapped.map((m) => m.custom), entries, notes: [...zone, ...notes] }
}
