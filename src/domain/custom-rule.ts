/**
 * WAF custom rules (the zone entry point of phase `http_request_firewall_custom`) on the wire, and
 * the migration of firewall rules to them (issue 21). The rule is the rulesets API's rule object;
 * skip options name the products and phases a former `bypass` skipped, or `ruleset: "current"` for
 * a former `allow` (docs: custom-rules-migration.md §2).
 */
import * as Schema from "effect/Schema"

export const CustomRulesPhase = "http_request_firewall_custom"

/** Custom rules per zone phase, by plan (custom-rules-migration.md §6): the API and the migration both keep to it. */
export const CustomRuleLimits: Readonly<Record<string, number>> = { free: 5, pro: 20, business: 100, enterprise: 1000 }

export const CustomRuleActions = ["block", "challenge", "js_challenge", "managed_challenge", "log", "skip"] as const

/** The products a skip rule may skip (case-sensitive, the firewall rules' bypass products). */
export const SkipProducts = ["zoneLockdown", "uaBlock", "bic", "hot", "securityLevel", "rateLimit", "waf"] as const

const BlockResponse = Schema.Struct({
  status_code: Schema.optional(Schema.Number),
  content: Schema.optional(Schema.String),
  content_type: Schema.optional(Schema.String)
})

const CustomRuleActionParameters = Schema.Struct({
  /** `current`: skip the remaining rules of this ruleset (a former `allow`). */
  ruleset: Schema.optional(Schema.Literal("current")),
  /** `current`: skip the remaining rules of the phase (API only, zone custom phase only). */
  phase: Schema.optional(Schema.Literal("current")),
  phases: Schema.optional(Schema.Array(Schema.String)),
  products: Schema.optional(Schema.Array(Schema.String)),
  response: Schema.optional(BlockResponse)
})
type CustomRuleActionParameters = typeof CustomRuleActionParameters.Type

export const CustomRule = Schema.Struct({
  id: Schema.optional(Schema.String),
  version: Schema.optional(Schema.String),
  action: Schema.Literal(...CustomRuleActions),
  expression: Schema.String,
  description: Schema.optional(Schema.String),
  enabled: Schema.optional(Schema.Boolean),
  ref: Schema.optional(Schema.String),
  action_parameters: Schema.optional(CustomRuleActionParameters),
  logging: Schema.optional(Schema.Struct({ enabled: Schema.Boolean })),
  last_updated: Schema.optional(Schema.String)
})
export type CustomRule = typeof CustomRule.Type

/**
 * What the migration says about a firewall rule: `unmapped` (no custom rule was written for it),
 * `changed` (written, but it behaves or reads differently) or `info`. `rule` is the firewall rule's
 * id; absent for a note on the whole zone.
 */
export const MigrationNote = Schema.Struct({
  severity: Schema.Literal("unmapped", "changed", "info"),
  code: Schema.String,
  rule: Schema.optional(Schema.String),
  message: Schema.String
})
export type MigrationNote = typeof MigrationNote.Type

/** One firewall rule and what became of it: the 0-based index of its custom rule in `rules`, or null when left out. */
export const MigrationEntry = Schema.Struct({
  firewall_rule: Schema.String,
  custom_rule: Schema.NullOr(Schema.Number)
})
export type MigrationEntry = typeof MigrationEntry.Type

/** The custom phase's rules in evaluation order, each old rule's fate, and the notes. */
export const CustomRulesMigration = Schema.Struct({
  phase: Schema.Literal(CustomRulesPhase),
  rules: Schema.Array(CustomRule),
  entries: Schema.Array(MigrationEntry),
  notes: Schema.Array(MigrationNote)
})
export type CustomRulesMigration = typeof CustomRulesMigration.Type
