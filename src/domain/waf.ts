/**
 * The WAF on the wire (area D): the previous version's packages, groups, rules and URI-based
 * overrides; the migration's check, status and generated configuration; the managed-phase entry
 * point ruleset; and `WafExport`, the document `edgectl waf export` writes (the language server
 * reads it: its shape is this schema and nothing else).
 */
import * as Schema from "effect/Schema"

export const Sensitivity = Schema.Literal("high", "medium", "low", "off")
export type Sensitivity = typeof Sensitivity.Type
export const ActionMode = Schema.Literal("simulate", "block", "challenge")
export type ActionMode = typeof ActionMode.Type
export const GroupMode = Schema.Literal("on", "off")
export type GroupMode = typeof GroupMode.Type
/** Traditional (Cloudflare package) rules take these; anomaly (OWASP) rules take on / off. */
const TraditionalMode = Schema.Literal("default", "disable", "simulate", "block", "challenge")
type TraditionalMode = typeof TraditionalMode.Type
export const RuleMode = Schema.Union(TraditionalMode, GroupMode)
export type RuleMode = typeof RuleMode.Type

export const WafPackage = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  detection_mode: Schema.Literal("traditional", "anomaly"),
  zone_id: Schema.String,
  status: Schema.String,
  sensitivity: Schema.optional(Sensitivity),
  action_mode: Schema.optional(ActionMode)
})
export type WafPackage = typeof WafPackage.Type

export const WafPackagePatch = Schema.Struct({
  sensitivity: Schema.optional(Sensitivity),
  action_mode: Schema.optional(ActionMode)
})
export type WafPackagePatch = typeof WafPackagePatch.Type

export const WafGroup = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  rules_count: Schema.Number,
  modified_rules_count: Schema.Number,
  package_id: Schema.String,
  mode: GroupMode,
  allowed_modes: Schema.Array(GroupMode)
})
export type WafGroup = typeof WafGroup.Type

export const WafRule = Schema.Struct({
  id: Schema.String,
  description: Schema.String,
  priority: Schema.String,
  group: Schema.Struct({ id: Schema.String, name: Schema.String }),
  package_id: Schema.String,
  mode: RuleMode,
  default_mode: Schema.optional(Schema.Literal("disable", "simulate", "block", "challenge")),
  allowed_modes: Schema.Array(RuleMode)
})
export type WafRule = typeof WafRule.Type

export const ModePatch = <A extends string, I extends string>(mode: Schema.Schema<A, I>) => Schema.Struct({ mode })

const OverrideAction = TraditionalMode
const RewriteAction = Schema.Struct({
  block: Schema.optional(OverrideAction),
  challenge: Schema.optional(OverrideAction),
  default: Schema.optional(OverrideAction),
  disable: Schema.optional(OverrideAction),
  simulate: Schema.optional(OverrideAction)
})

export const WafOverride = Schema.Struct({
  id: Schema.String,
  description: Schema.NullOr(Schema.String),
  urls: Schema.Array(Schema.String),
  priority: Schema.Number,
  paused: Schema.Boolean,
  groups: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  rules: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  rewrite_action: Schema.optional(RewriteAction)
})
export type WafOverride = typeof WafOverride.Type

/**
 * A URI-based override as written (POST, PUT): the contract's body, which the client encodes; the
 * server reads the body itself (src/server/waf-override-body.ts) so that a refusal names its field.
 */
export const WafOverrideBody = Schema.Struct({
  urls: Schema.Array(Schema.String),
  description: Schema.optional(Schema.NullOr(Schema.String)),
  priority: Schema.optional(Schema.Number),
  paused: Schema.optional(Schema.Boolean),
  groups: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  rules: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  rewrite_action: Schema.optional(RewriteAction)
})

/** A page rule as the previous WAF understands it: its URL pattern and its actions. */
export const PageRule = Schema.Struct({
  id: Schema.String,
  targets: Schema.Array(
    Schema.Struct({
      target: Schema.String,
      constraint: Schema.Struct({ operator: Schema.String, value: Schema.String })
    })
  ),
  actions: Schema.Array(Schema.Struct({ id: Schema.String, value: Schema.optional(Schema.Unknown) })),
  priority: Schema.Number,
  status: Schema.Literal("active", "disabled"),
  // The platform's answers carry both; a previous-WAF document written by hand may leave them out.
  created_on: Schema.optional(Schema.String),
  modified_on: Schema.optional(Schema.String)
})
export type PageRule = typeof PageRule.Type

/** A firewall rule as the migration reads it (the firewall API's rule, its filter flattened). */
export const BypassFirewallRule = Schema.Struct({
  id: Schema.String,
  expression: Schema.String,
  action: Schema.String,
  products: Schema.Array(Schema.String),
  priority: Schema.NullOr(Schema.Number),
  paused: Schema.Boolean,
  description: Schema.optional(Schema.String)
})
export type BypassFirewallRule = typeof BypassFirewallRule.Type

/**
 * The migration states of a zone. `start`: the previous WAF only (the platform's documented
 * value). `validation`: both versions run, the new one first (enterprise only). `finished`: the
 * previous WAF is off for good and its APIs answer MigrationFinished.
 */
export const MigrationState = Schema.Literal("start", "validation", "finished")
export type MigrationState = typeof MigrationState.Type

export const CompatibilityReason = Schema.Struct({
  code: Schema.String,
  message: Schema.String,
  /** Blocks the migration in phase 2 too (URI-based overrides, support limits, finished). */
  blocking: Schema.Boolean
})
export type CompatibilityReason = typeof CompatibilityReason.Type

export const MigrationCheck = Schema.Struct({
  compatible: Schema.Boolean,
  migration_state: MigrationState,
  /** Why the zone is not compatible (an edgectl addition; the platform sends only the two fields above). */
  reasons: Schema.optional(Schema.Array(CompatibilityReason))
})
export type MigrationCheck = typeof MigrationCheck.Type

export const MigrationStatus = Schema.Struct({
  migration_state: MigrationState,
  old_waf_status: Schema.Literal("enabled", "disabled"),
  new_waf_status: Schema.Literal("enabled", "disabled"),
  created: Schema.NullOr(Schema.String),
  source: Schema.String,
  plan: Schema.String,
  validation_mode_allowed: Schema.Boolean
})
export type MigrationStatus = typeof MigrationStatus.Type

export const RuleOverride = Schema.Struct({
  id: Schema.String,
  action: Schema.optional(Schema.String),
  enabled: Schema.optional(Schema.Boolean),
  score_threshold: Schema.optional(Schema.Number)
})
export type RuleOverride = typeof RuleOverride.Type

const CategoryOverride = Schema.Struct({
  category: Schema.String,
  action: Schema.optional(Schema.String),
  enabled: Schema.optional(Schema.Boolean)
})
type CategoryOverride = typeof CategoryOverride.Type

export const Overrides = Schema.Struct({
  action: Schema.optional(Schema.String),
  enabled: Schema.optional(Schema.Boolean),
  categories: Schema.optional(Schema.Array(CategoryOverride)),
  rules: Schema.optional(Schema.Array(RuleOverride))
})
export type Overrides = typeof Overrides.Type

/** Execute (`id`, `version`, `overrides`) or skip (`ruleset`, `rulesets`, `rules`) parameters. */
const ActionParameters = Schema.Struct({
  id: Schema.optional(Schema.String),
  version: Schema.optional(Schema.String),
  overrides: Schema.optional(Overrides),
  ruleset: Schema.optional(Schema.Literal("current")),
  rulesets: Schema.optional(Schema.Array(Schema.String)),
  rules: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) }))
})
type ActionParameters = typeof ActionParameters.Type

export const RulesetRule = Schema.Struct({
  id: Schema.optional(Schema.String),
  version: Schema.optional(Schema.String),
  action: Schema.String,
  expression: Schema.String,
  description: Schema.optional(Schema.String),
  ref: Schema.optional(Schema.String),
  enabled: Schema.optional(Schema.Boolean),
  action_parameters: Schema.optional(ActionParameters),
  last_updated: Schema.optional(Schema.String)
})
export type RulesetRule = typeof RulesetRule.Type

/** The config operation's result and the entry point update's body. */
export const WafConfig = Schema.Struct({
  name: Schema.String,
  description: Schema.optional(Schema.String),
  rules: Schema.Array(RulesetRule)
})
export type WafConfig = typeof WafConfig.Type

export const Ruleset = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  source: Schema.optional(Schema.String),
  kind: Schema.String,
  version: Schema.String,
  rules: Schema.Array(RulesetRule),
  last_updated: Schema.String,
  phase: Schema.String
})
export type Ruleset = typeof Ruleset.Type

export const WafSetting = Schema.Struct({
  id: Schema.Literal("waf"),
  value: GroupMode,
  editable: Schema.Boolean,
  modified_on: Schema.NullOr(Schema.String)
})
export type WafSetting = typeof WafSetting.Type

/**
 * `edgectl waf export --zone Z`: a zone's previous WAF, whole. Version 1 of the document; the
 * language server (issue 8) reads it with this schema. Groups and rules are all of them, with their
 * current modes; firewall rules are those that bypass the WAF (`products` has `waf`).
 */
export const WafExport = Schema.Struct({
  format: Schema.Literal("edgectl.waf-export/v1"),
  zone: Schema.Struct({ id: Schema.String, name: Schema.String, plan: Schema.String }),
  migration_state: MigrationState,
  waf: GroupMode,
  packages: Schema.Array(WafPackage),
  groups: Schema.Array(WafGroup),
  rules: Schema.Array(WafRule),
  overrides: Schema.Array(WafOverride),
  firewall_rules: Schema.Array(BypassFirewallRule),
  page_rules: Schema.Array(PageRule)
})
export type WafExport = typeof WafExport.Type

/** What the migration reads: the previous WAF of one zone (the export document without its header). */
export type PreviousWaf = Pick<
  WafExport,
  "waf" | "packages" | "groups" | "rules" | "overrides" | "firewall_rules" | "page_rules"
>
