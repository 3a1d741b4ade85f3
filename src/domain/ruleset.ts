/**
 * The rulesets API's shapes for a zone's phases (issue 21): a ruleset as the list shows it (no
 * rules) and a ruleset with its rules (the custom phase's name and limits are in custom-rule.ts).
 * One rule schema covers both entry points the local platform serves, so that reading the managed one by id keeps its
 * execute parameters and reading the custom one keeps its skip and block parameters.
 */
import * as Schema from "effect/Schema"
import { Overrides } from "./waf.js"

const BlockResponse = Schema.Struct({
  status_code: Schema.Number,
  content: Schema.String,
  content_type: Schema.String
})

/** Execute (`id`, `version`, `overrides`), skip (`ruleset`, `phases`, `products`, …) or block (`response`). */
const RuleActionParameters = Schema.Struct({
  id: Schema.optional(Schema.String),
  version: Schema.optional(Schema.String),
  overrides: Schema.optional(Overrides),
  ruleset: Schema.optional(Schema.Literal("current")),
  rulesets: Schema.optional(Schema.Array(Schema.String)),
  rules: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })),
  phases: Schema.optional(Schema.Array(Schema.String)),
  products: Schema.optional(Schema.Array(Schema.String)),
  response: Schema.optional(BlockResponse)
})

/** A rate limiting rule's counter (the `http_ratelimit` phase; rate-limiting-migration.md §3.2). */
export const RateLimitParameters = Schema.Struct({
  characteristics: Schema.Array(Schema.String),
  period: Schema.Number,
  requests_per_period: Schema.optional(Schema.Number),
  score_per_period: Schema.optional(Schema.Number),
  score_response_header_name: Schema.optional(Schema.String),
  mitigation_timeout: Schema.optional(Schema.Number),
  counting_expression: Schema.optional(Schema.String),
  requests_to_origin: Schema.optional(Schema.Boolean)
})
export type RateLimitParameters = typeof RateLimitParameters.Type

export const ZoneRule = Schema.Struct({
  id: Schema.String,
  version: Schema.String,
  action: Schema.String,
  expression: Schema.String,
  description: Schema.optional(Schema.String),
  enabled: Schema.Boolean,
  ref: Schema.String,
  action_parameters: Schema.optional(RuleActionParameters),
  logging: Schema.optional(Schema.Struct({ enabled: Schema.Boolean })),
  ratelimit: Schema.optional(RateLimitParameters),
  last_updated: Schema.String
})
export type ZoneRule = typeof ZoneRule.Type

const summaryFields = {
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  source: Schema.optional(Schema.String),
  kind: Schema.String,
  version: Schema.String,
  last_updated: Schema.String,
  phase: Schema.String
}

/** A ruleset as `GET /zones/{zone_id}/rulesets` lists it: without its rules. */
export const RulesetSummary = Schema.Struct(summaryFields)
export type RulesetSummary = typeof RulesetSummary.Type

export const ZoneRuleset = Schema.Struct({ ...summaryFields, rules: Schema.Array(ZoneRule) })
export type ZoneRuleset = typeof ZoneRuleset.Type
