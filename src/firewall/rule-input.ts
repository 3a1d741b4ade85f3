/**
 * A firewall rule as a person types it (CLI options, TUI fields: the priority and the products as
 * text), read and checked with the rules endpoints' own reader (./body.ts). The CLI and the TUI
 * check a whole rule with this before they create its filter, so a rule the platform would refuse
 * never leaves a filter behind, and the three cannot disagree on what a rule may be.
 */
import * as Either from "effect/Either"
import { BypassProducts, type FirewallAction, type Rule } from "../domain/firewall.js"
import { Limits, readRuleFields } from "./body.js"

export interface RuleText {
  readonly action: string
  /** Digits, or `none` (runs after every rule with a priority); empty or undefined: not given. */
  readonly priority?: string | undefined
  readonly description?: string | undefined
  /** Comma-separated bypass products; undefined: not given. */
  readonly products?: string | undefined
  readonly paused?: boolean | undefined
}

export interface RuleInput {
  readonly action: FirewallAction
  readonly priority?: number | null | undefined
  readonly description?: string | undefined
  readonly products?: ReadonlyArray<string> | undefined
  readonly paused?: boolean | undefined
}

export type RuleChanges = { readonly [K in keyof RuleInput]?: RuleInput[K] | undefined } & {
  /** Points the rule at another existing filter. */
  readonly filterId?: string | undefined
}

/** A rule as the firewall rules API takes it back whole, its filter by id: the body of every rule PUT. */
export interface RuleWrite {
  readonly id: string
  readonly action: string
  readonly priority: number | null
  readonly paused: boolean
  readonly description?: string
  readonly ref?: string
  readonly products?: ReadonlyArray<string>
  readonly filter: { readonly id: string }
}

/** `rule` with `changes`, as a PUT body (products only on a bypass rule; absent fields left out). */
export const ruleWrite = (rule: Rule, changes: RuleChanges = {}): RuleWrite => {
  const action = changes.action ?? rule.action
  const body = {
    id: rule.id,
    action,
    priority: changes.priority === undefined ? rule.priority : changes.priority,
    paused: changes.paused ?? rule.paused,
    description: changes.description ?? rule.description,
    ref: rule.ref,
    products: changes.products ?? (action === "bypass" ? rule.products : undefined),
    filter: { id: changes.filterId ?? rule.filter.id }
  }
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as unknown as RuleWrite
}

export type RuleField = "action" | "priority" | "description" | "products"

/** What is wrong with one field; `message` follows the field's name ("must be ..., got ..."). */
export interface RuleProblem {
  readonly field: RuleField
  readonly message: string
}

/** A rule's text checked: the value, or every problem of its fields. */
type Checked<A> = Either.Either<A, ReadonlyArray<RuleProblem>>

export const priorityRange = `an integer between 0 and ${Limits.priority} or none`

/** A typed priority: a number, null for `none`, undefined when empty, or the problem. */
export const priorityFromText = (text: string | undefined): Checked<number | null | undefined> => {
  const t = text?.trim() ?? ""
  if (t === "") return Either.right(undefined)
  if (t === "none" || t === "null") return Either.right(null)
  if (/^\d+$/.test(t) && Number(t) <= Limits.priority) return Either.right(Number(t))
  return Either.left([{ field: "priority", message: `must be ${priorityRange}, got ${JSON.stringify(t)}` }])
}

export const productsFromText = (text: string): Array<string> =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")

const fields: ReadonlyArray<RuleField> = ["action", "priority", "description", "products"]

/** The whole rule, checked; every problem of every field. */
export const checkRule = (t: RuleText): Checked<RuleInput> => {
  const problems: Array<RuleProblem> = []
  const priority = priorityFromText(t.priority)
  if (Either.isLeft(priority)) problems.push(...priority.left)
  const typedPriority = Either.getOrUndefined(priority)
  let products: Array<string> | undefined
  if (t.products !== undefined) {
    products = productsFromText(t.products)
    if (products.length === 0)
      problems.push({
        field: "products",
        message: `must name at least one of ${BypassProducts.join(", ")}, got ${JSON.stringify(t.products)}`
      })
  }
  const read = readRuleFields({
    action: t.action.trim(),
    ...(typedPriority !== undefined ? { priority: typedPriority } : {}),
    ...(t.description !== undefined && t.description !== "" ? { description: t.description } : {}),
    ...(products !== undefined && products.length > 0 ? { products } : {}),
    ...(t.paused !== undefined ? { paused: t.paused } : {})
  })
  if (Either.isLeft(read)) {
    for (const p of read.left) {
      // An empty product list is already said above, with what was typed.
      if (p.field === "products" && products !== undefined && products.length === 0) continue
      const field = fields.find((f) => f === p.field)
      if (field !== undefined) problems.push({ field, message: p.message.slice(p.field.length + 1) })
    }
  }
  if (problems.length > 0 || Either.isLeft(read)) return Either.left(problems)
  const v = read.right
  return Either.right({
    action: v.action,
    // null (`none`) was typed, or a number; nothing typed leaves the priority out.
    ...(typedPriority !== undefined ? { priority: v.priority } : {}),
    ...(v.description !== null ? { description: v.description } : {}),
    ...(v.products !== null ? { products: v.products } : {}),
    ...(t.paused !== undefined ? { paused: v.paused } : {})
  })
}
