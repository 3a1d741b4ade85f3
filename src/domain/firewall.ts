/**
 * Firewall filters and rules (area C) on the wire. A filter is `{id, paused, expression,
 * description?, ref?}`; a rule embeds its filter, or `{id, deleted: true}` once the filter was
 * deleted. The request bodies below are what the contract declares (the client encodes them, the
 * compiler checks every call); the server reads the bytes itself with src/firewall/body.ts, whose
 * failures name the element, the field, the rule and the value, all in one answer.
 */
import * as Schema from "effect/Schema"
import { ExpressionDiagnostic } from "./expression.js"

export const FirewallActions = [
  "block",
  "challenge",
  "js_challenge",
  "managed_challenge",
  "allow",
  "log",
  "bypass"
] as const
export type FirewallAction = (typeof FirewallActions)[number]

export const BypassProducts = ["zoneLockdown", "uaBlock", "bic", "hot", "securityLevel", "rateLimit", "waf"] as const

export const Filter = Schema.Struct({
  id: Schema.String,
  paused: Schema.Boolean,
  expression: Schema.String,
  description: Schema.optional(Schema.String),
  ref: Schema.optional(Schema.String)
})
export type Filter = typeof Filter.Type

export const DeletedFilter = Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true) })
export type DeletedFilter = typeof DeletedFilter.Type

export const isDeletedFilter = (f: Filter | DeletedFilter): f is DeletedFilter => "deleted" in f

/**
 * A rule's PAUSED column, for the CLI's table and the TUI's alike: its own pause, else its filter's
 * (a rule whose filter is paused never matches, src/firewall/evaluated-rule.ts; issue 29 found both
 * tables showing such a rule as active).
 */
export const pausedText = (r: {
  readonly paused: boolean
  readonly filter: Filter | DeletedFilter
}): "" | "paused" | "filter paused" =>
  r.paused ? "paused" : !isDeletedFilter(r.filter) && r.filter.paused ? "filter paused" : ""

export const Rule = Schema.Struct({
  id: Schema.String,
  paused: Schema.Boolean,
  description: Schema.optional(Schema.String),
  action: Schema.String,
  priority: Schema.NullOr(Schema.Number),
  products: Schema.optional(Schema.Array(Schema.String)),
  ref: Schema.optional(Schema.String),
  filter: Schema.Union(DeletedFilter, Filter)
})
export type Rule = typeof Rule.Type

/** What a delete answers, per deleted object. */
export const Deleted = Schema.Struct({ id: Schema.String })
export type Deleted = typeof Deleted.Type

/** `edgectl firewall test` / the Firewall tab's test: which rule decides a request. */
export const FirewallDecision = Schema.Struct({
  /** allow, challenge, js_challenge, managed_challenge or block; null when no rule decided. */
  action: Schema.NullOr(Schema.String),
  rule: Schema.NullOr(Rule),
  logged: Schema.Array(Rule),
  bypassed: Schema.Array(Schema.Struct({ rule: Rule, products: Schema.Array(Schema.String) })),
  evaluated: Schema.Number,
  /** Active rules whose expression does not check (they never run). */
  invalid: Schema.Array(Schema.Struct({ rule: Rule, diagnostics: Schema.Array(ExpressionDiagnostic) }))
})
export type FirewallDecision = typeof FirewallDecision.Type

// ---- request bodies ----

/** A filter written (POST, PUT): `id` in a PUT names the filter of the path, or of the element in a bulk PUT. */
export const FilterBody = Schema.Struct({
  id: Schema.optional(Schema.String),
  expression: Schema.String,
  paused: Schema.optional(Schema.Boolean),
  description: Schema.optional(Schema.String),
  ref: Schema.optional(Schema.String)
})
export type FilterBody = typeof FilterBody.Type

/**
 * A rule written (POST, PUT): its filter by id, or (on a create, the combined call) a new filter.
 * The new filter comes first in the union: `{id}` alone would match a whole filter and drop its
 * expression when the client encodes it.
 */
export const RuleBody = Schema.Struct({
  id: Schema.optional(Schema.String),
  action: Schema.String,
  priority: Schema.optional(Schema.NullOr(Schema.Number)),
  paused: Schema.optional(Schema.Boolean),
  description: Schema.optional(Schema.String),
  ref: Schema.optional(Schema.String),
  products: Schema.optional(Schema.Array(Schema.String)),
  filter: Schema.Union(FilterBody, Schema.Struct({ id: Schema.String }))
})
export type RuleBody = typeof RuleBody.Type

/** A rules POST: an array, or (as the SDK sends it) one rule. */
export const RulesCreateBody = Schema.Union(Schema.Array(RuleBody), RuleBody)

/** A rules PATCH changes priorities only: `{id, priority}` per rule (`id` optional on one rule's path). */
export const PriorityBody = Schema.Struct({
  id: Schema.optional(Schema.String),
  priority: Schema.NullOr(Schema.Number)
})

/** `POST /filters/validate-expr`. */
export const ValidateExprBody = Schema.Struct({ expression: Schema.String })
