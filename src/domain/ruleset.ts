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

// ---- request bodies ----
// What the contract declares a write sends (the client encodes it, the compiler checks each call);
// the server reads the body itself (src/server/rulesets-body.ts) so that a refusal names its field.

/** A rule's parameters as written: any phase's (execute, skip, block), each field optional. */
const RuleParametersBody = Schema.Struct({
  ...RuleActionParameters.fields,
  /** `current`: skip the remaining rules of the phase (the custom phase only). */
  phase: Schema.optional(Schema.Literal("current")),
  response: Schema.optional(Schema.partial(BlockResponse))
})

/** A rule as written: what the platform assigns (version, time) left out; `ref` keeps an id across PUTs. */
export const RuleBody = Schema.Struct({
  id: Schema.optional(Schema.String),
  ref: Schema.optional(Schema.String),
  action: Schema.String,
  expression: Schema.String,
  description: Schema.optional(Schema.String),
  enabled: Schema.optional(Schema.Boolean),
  action_parameters: Schema.optional(RuleParametersBody),
  logging: Schema.optional(Schema.Struct({ enabled: Schema.Boolean })),
  ratelimit: Schema.optional(RateLimitParameters)
})
export type RuleBody = typeof RuleBody.Type

/** Where a rule goes: before or after a rule (`""`: first or last), or at a 1-based index. */
export const RulePosition = Schema.Union(
  Schema.Struct({ before: Schema.String }),
  Schema.Struct({ after: Schema.String }),
  Schema.Struct({ index: Schema.Number })
)
export type RulePosition = typeof RulePosition.Type

/** A rule POST: the rule, and where it goes (last without a position). */
export const RuleCreateBody = Schema.Struct({ ...RuleBody.fields, position: Schema.optional(RulePosition) })

/** A rule PATCH: the rule redefined whole, and/or moved (`{position}` alone moves it unchanged). */
export const RuleUpdateBody = Schema.partial(RuleCreateBody)

/** An entry point PUT: the ruleset's own fields and its whole rule list. */
export const EntrypointBody = Schema.Struct({
  name: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  kind: Schema.optional(Schema.String),
  phase: Schema.optional(Schema.String),
  rules: Schema.Array(RuleBody)
})

/** `POST /zones/{zone_id}/rulesets`: a new ruleset (the custom phase's entry point). */
export const RulesetCreateBody = Schema.Struct({
  name: Schema.String,
  description: Schema.optional(Schema.String),
  kind: Schema.String,
  phase: Schema.String,
  rules: Schema.Array(RuleBody)
})
