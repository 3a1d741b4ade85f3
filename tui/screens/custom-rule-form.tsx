/**
 * A custom rule's form, for `n` (a new rule) and `e` (an edit, every field starting at the rule's
 * value): the expression, checked as it is typed with the rules language for the zone's plan; the
 * action (`log` only where the plan has it); for a skip, what it skips (the remaining custom
 * rules, products, phases) and whether matches are logged; the description; on or off; and for a
 * new rule its place. It hands the rule as the rulesets API takes it to `onSubmit`: the panel
 * sends it, so the form never writes anything.
 */
import { useState } from "react"
import { CustomRuleActions, CustomRuleLimits, SkipProducts } from "../../src/domain/custom-rule.js"
import type { ZoneRule } from "../../src/domain/ruleset.js"
import { check, type Plan } from "../../src/rules/index.js"
import type { CustomRuleInput, RulePosition } from "../../src/services/rulesets-service.js"
import { TextPrompt } from "../components/text-prompt.js"
import { Picker, type PickerOption } from "./custom-rule-picker.js"
import { liveDiagnostic } from "./firewall-table.js"

/** What a skip can skip besides the products (the phases the platform takes, custom-rules-migration.md §2). */
const SkipPhases = ["http_ratelimit", "http_request_firewall_managed", "http_request_sbfm"] as const
const Rest = "ruleset:current"

const skipOptions: ReadonlyArray<PickerOption> = [
  { value: Rest, label: "the remaining custom rules (a former allow)" },
  ...SkipProducts.map((p) => ({ value: `product:${p}`, label: `product ${p}` })),
  ...SkipPhases.map((p) => ({ value: `phase:${p}`, label: `phase ${p}` }))
]

const skipValues = (p: ZoneRule["action_parameters"]): ReadonlyArray<string> => [
  ...(p?.ruleset === "current" ? [Rest] : []),
  ...(p?.products ?? []).map((x) => `product:${x}`),
  ...(p?.phases ?? []).map((x) => `phase:${x}`)
]

const skipParameters = (values: ReadonlyArray<string>): NonNullable<CustomRuleInput["action_parameters"]> => {
  const of = (kind: string) => values.filter((v) => v.startsWith(`${kind}:`)).map((v) => v.slice(kind.length + 1))
  const products = of("product")
  const phases = of("phase")
  return {
    ...(values.includes(Rest) ? { ruleset: "current" as const } : {}),
    ...(products.length > 0 ? { products } : {}),
    ...(phases.length > 0 ? { phases } : {})
  }
}

type Step = "expression" | "action" | "skip" | "logging" | "description" | "enabled" | "place"

interface Draft {
  readonly expression: string
  readonly action: string
  readonly skip: ReadonlyArray<string>
  readonly logging: boolean
  readonly description: string
  readonly enabled: boolean
}

/**
 * The expression's first problem as typed: the checker's first error, else `matches` below the
 * Business plan, which the platform refuses in a custom rule (the checker only warns of it).
 */
const expressionProblem = (text: string, plan: Plan | undefined): string | undefined => {
  const error = liveDiagnostic(text, plan)
  if (error !== undefined || plan === undefined) return error
  const regex = check(text, { plan }).diagnostics.find(
    (d) => d.code === "plan-required" && d.message.startsWith("`matches`")
  )
  return regex === undefined
    ? undefined
    : `\`matches\` (regex) needs the Business or Enterprise plan, this zone is on ${plan}`
}

/** The place a new rule takes, as typed: empty is last; else 1 to one past the last rule. */
const placeProblem = (text: string, count: number): string | undefined => {
  const t = text.trim()
  if (t === "") return undefined
  const n = Number(t)
  return Number.isInteger(n) && n >= 1 && n <= count + 1
    ? undefined
    : `place: expected a whole number from 1 to ${count + 1} (empty: last), got ${JSON.stringify(text)}`
}

export function CustomRuleForm({
  plan,
  rule,
  place,
  count,
  onSubmit,
  onCancel
}: {
  readonly plan: Plan | undefined
  /** The rule edited; absent for a new one. */
  readonly rule?: ZoneRule | undefined
  /** The edited rule's place (`#n`), for the titles. */
  readonly place?: number | undefined
  /** How many rules the ruleset has now. */
  readonly count: number
  readonly onSubmit: (rule: CustomRuleInput, position: RulePosition | undefined) => void
  readonly onCancel: () => void
}) {
  const [step, setStep] = useState<Step>("expression")
  const [draft, setDraft] = useState<Draft>({
    expression: rule?.expression ?? "",
    action: rule?.action ?? "block",
    skip: skipValues(rule?.action_parameters),
    logging: rule?.logging?.enabled ?? true,
    description: rule?.description ?? "",
    enabled: rule?.enabled ?? true
  })
  const go = (next: Step, change: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...change }))
    setStep(next)
  }
  const what = rule === undefined ? "New custom rule" : `Custom rule #${place}`
  const finish = (d: Draft, position: RulePosition | undefined) => {
    const kept = rule?.action === d.action && d.action !== "skip" ? rule.action_parameters : undefined
    onSubmit(
      {
        action: d.action,
        expression: d.expression,
        ...(d.description !== "" ? { description: d.description } : {}),
        enabled: d.enabled,
        ...(rule !== undefined ? { ref: rule.ref } : {}),
        ...(d.action === "skip"
          ? { action_parameters: skipParameters(d.skip), logging: { enabled: d.logging } }
          : kept !== undefined
            ? { action_parameters: kept }
            : {})
      },
      position
    )
  }
  const logAllowed = plan === "enterprise"
  switch (step) {
    case "expression":
      return (
        <TextPrompt
          key="expression"
          title={`${what}: its expression`}
          help='the rules language, checked as you type (e.g. http.request.uri.path contains "/admin")'
          initial={draft.expression}
          check={(t) => expressionProblem(t, plan)}
          newlines="keep"
          submitLabel="choose the action"
          onSubmit={(expression) => go("action", { expression })}
          onCancel={onCancel}
        />
      )
    case "action":
      return (
        <Picker
          key="action"
          title={`${what}: its action`}
          help={
            logAllowed
              ? "skip lets matching requests past what you choose next"
              : `skip lets matching requests past what you choose next; log needs the Enterprise plan (${plan ?? "unknown"} here)`
          }
          options={CustomRuleActions.filter((a) => a !== "log" || logAllowed).map((a) => ({ value: a, label: a }))}
          initial={[draft.action]}
          onSubmit={([action]) => go(action === "skip" ? "skip" : "description", { action: action! })}
          onCancel={onCancel}
        />
      )
    case "skip":
      return (
        <Picker
          key="skip"
          multi
          title={`${what}: what the skip skips`}
          options={skipOptions}
          initial={draft.skip}
          onSubmit={(skip) => go("logging", { skip })}
          onCancel={onCancel}
        />
      )
    case "logging":
      return (
        <Picker
          key="logging"
          title={`${what}: log the requests it skips?`}
          options={[
            { value: "yes", label: "yes, log matching requests" },
            { value: "no", label: "no" }
          ]}
          initial={[draft.logging ? "yes" : "no"]}
          onSubmit={([v]) => go("description", { logging: v === "yes" })}
          onCancel={onCancel}
        />
      )
    case "description":
      return (
        <TextPrompt
          key="description"
          title={`${what}: its description (optional)`}
          help="names the rule in lists and logs; empty: none"
          initial={draft.description}
          submitLabel="next"
          onSubmit={(description) => go("enabled", { description: description.trim() })}
          onCancel={onCancel}
        />
      )
    case "enabled":
      return (
        <Picker
          key="enabled"
          title={`${what}: on or off?`}
          options={[
            { value: "on", label: "enabled: it runs" },
            { value: "off", label: "disabled: kept, not run" }
          ]}
          initial={[draft.enabled ? "on" : "off"]}
          onSubmit={([v]) =>
            rule === undefined
              ? go("place", { enabled: v === "on" })
              : finish({ ...draft, enabled: v === "on" }, undefined)
          }
          onCancel={onCancel}
        />
      )
    case "place":
      return (
        <TextPrompt
          key="place"
          title={`${what}: its place in the run order`}
          help={`1 to ${count + 1}; empty: last (the plan allows ${CustomRuleLimits[plan ?? "free"] ?? "?"} rules)`}
          check={(t) => placeProblem(t, count)}
          submitLabel="add"
          onSubmit={(t) => finish(draft, t.trim() === "" ? undefined : { index: Number(t.trim()) })}
          onCancel={onCancel}
        />
      )
  }
}
