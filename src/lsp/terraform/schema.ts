/**
 * The attributes of the Terraform resources the migration assistant knows, per provider major
 * (3: 3.x and earlier, SDKv2 blocks; 4: the same blocks, `enabled` for `status`, `ref` settable;
 * 5: attribute syntax, nested values are objects or lists of objects), for hover and completion
 * in `*.tf` files (./help.ts). Facts: terraform-ruleset-versions.md and the provider's
 * documentation of each resource at the tags named there; what a version lacks is not listed for it.
 * `cloudflare_ruleset` is here; the previous products' resources are in ./schema-legacy.ts,
 * the shapes and shared attributes in ./attributes.ts.
 */
import { ALL, nested, response, UP_TO_4, type Major, type TfAttribute, type TfResource } from "./attributes.js"
import { LEGACY_RESOURCES } from "./schema-legacy.js"

const overrides: ReadonlyArray<TfAttribute> = [
  { name: "action", type: "String", doc: "the action of every rule of the ruleset" },
  {
    name: "enabled",
    type: "Boolean",
    doc: "turns every rule of the ruleset on or off (deprecated for `status` in 3.17 to 4.1)"
  },
  {
    name: "status",
    type: "String",
    doc: "`enabled` or `disabled`: every rule of the ruleset (3.17 to 4.1; 4.2 has `enabled`)",
    majors: [3],
    values: ["enabled", "disabled"]
  },
  {
    name: "sensitivity_level",
    type: "String",
    doc: "DDoS rulesets only",
    values: ["default", "medium", "low", "eoff"]
  },
  ...nested("categories", "overrides of the rules that carry a category (tag)", "list", [
    { name: "category", type: "String", doc: "the tag (`wordpress`, `paranoia-level-3`)", required: true },
    { name: "action", type: "String", doc: "the action of the category's rules" },
    {
      name: "enabled",
      type: "Boolean",
      doc: "turns the category's rules on or off (deprecated for `status` in 3.17 to 4.1)"
    },
    { name: "status", type: "String", doc: "`enabled` or `disabled` (3.17 to 4.1)", majors: [3] },
    { name: "sensitivity_level", type: "String", doc: "DDoS rulesets only", majors: [5] }
  ]),
  ...nested("rules", "overrides of single managed rules", "list", [
    { name: "id", type: "String", doc: "the managed rule's id", required: true },
    { name: "action", type: "String", doc: "the rule's action" },
    { name: "enabled", type: "Boolean", doc: "turns the rule on or off (deprecated for `status` in 3.17 to 4.1)" },
    { name: "status", type: "String", doc: "`enabled` or `disabled` (3.17 to 4.1)", majors: [3] },
    { name: "score_threshold", type: "Number", doc: "OWASP anomaly score: 60 (low), 40 (medium), 25 (high)" },
    { name: "sensitivity_level", type: "String", doc: "DDoS rulesets only" }
  ])
]

const rulesetRule: ReadonlyArray<TfAttribute> = [
  {
    name: "action",
    type: "String",
    doc: "what the rule does when its expression matches",
    values: ["block", "challenge", "execute", "js_challenge", "log", "managed_challenge", "rewrite", "skip"]
  },
  { name: "expression", type: "String", doc: "the rules expression the request must match", required: true },
  { name: "description", type: "String", doc: "what the rule is for" },
  { name: "enabled", type: "Boolean", doc: "whether the rule runs (default true)" },
  {
    name: "ref",
    type: "String",
    doc: "the rule's stable reference: settable from 4.2 (computed in 3.x), keeps the rule's id across changes (set it from 4.48)",
    majors: [4, 5]
  },
  { name: "last_updated", type: "String", doc: "when the rule last changed (removed in 4.48)", majors: [3] },
  ...nested(
    "action_parameters",
    "what the action takes: the ruleset to execute, what to skip, the response",
    "single",
    [
      { name: "id", type: "String", doc: "the managed ruleset to execute (32 hex digits)" },
      { name: "version", type: "String", doc: "the managed ruleset's version (removed in 4.48)", majors: UP_TO_4 },
      { name: "ruleset", type: "String", doc: "`current`: skip the rest of this ruleset" },
      { name: "rulesets", type: "List of String", doc: "the managed rulesets to skip" },
      { name: "phases", type: "Set of String", doc: "the phases to skip" },
      { name: "products", type: "Set of String", doc: "the previous security products to skip" },
      { name: "rules", type: "Map", doc: "the rules to skip, by ruleset id" },
      ...nested("overrides", "changes to the executed managed ruleset's rules", "single", overrides),
      ...nested("response", "a block action's custom response", "single", [
        { name: "status_code", type: "Number", doc: "the HTTP status code (400 to 499)" },
        ...response.map((r) => (r.name === "body" ? { ...r, name: "content" } : r))
      ])
    ]
  ),
  ...nested("logging", "whether a skip rule's matches are logged", "single", [
    { name: "enabled", type: "Boolean", doc: "log the skip rule's matches (deprecated for `status` in 3.x)" },
    { name: "status", type: "String", doc: "`enabled` or `disabled`", majors: [3], values: ["enabled", "disabled"] }
  ]),
  ...nested("ratelimit", "the rate limit of a rule in phase http_ratelimit", "single", [
    { name: "characteristics", type: "Set of String", doc: "what a counter is kept per (`ip.src`, `cf.colo.id`)" },
    { name: "period", type: "Number", doc: "the period the requests are counted over, in seconds" },
    { name: "requests_per_period", type: "Number", doc: "the requests allowed per period" },
    { name: "score_per_period", type: "Number", doc: "the score allowed per period (complexity-based, Enterprise)" },
    {
      name: "score_response_header_name",
      type: "String",
      doc: "the origin response header that carries each request's score"
    },
    { name: "mitigation_timeout", type: "Number", doc: "how long the action applies, in seconds" },
    { name: "counting_expression", type: "String", doc: "the requests counted, when not those matched" },
    { name: "requests_to_origin", type: "Boolean", doc: "count only the requests that reach the origin" }
  ])
]

const TERRAFORM_RESOURCES: ReadonlyArray<TfResource> = [
  {
    type: "cloudflare_ruleset",
    doc: "a ruleset: a zone's or account's rules of one phase (from provider 2.26; blocks up to 4.x, attributes in 5.x)",
    majors: ALL,
    attributes: [
      { name: "zone_id", type: "String", doc: "the zone of a zone ruleset (or `account_id`)" },
      { name: "account_id", type: "String", doc: "the account of an account ruleset (or `zone_id`)" },
      { name: "name", type: "String", doc: "the ruleset's name", required: true },
      { name: "description", type: "String", doc: "what the ruleset is for" },
      {
        name: "kind",
        type: "String",
        doc: "`zone` for a zone's entry point",
        required: true,
        values: ["custom", "managed", "root", "zone"]
      },
      {
        name: "phase",
        type: "String",
        doc: "the phase the ruleset runs in",
        required: true,
        values: [
          "http_request_firewall_custom",
          "http_request_firewall_managed",
          "http_ratelimit",
          "http_request_sbfm",
          "http_request_late_transform",
          "http_response_headers_transform"
        ]
      },
      ...nested("rules", "the ruleset's rules, in order", "list", rulesetRule)
    ]
  },
  ...LEGACY_RESOURCES
]

const BY_TYPE = new Map(TERRAFORM_RESOURCES.map((r) => [r.type, r]))

/** A resource type's entry, if the assistant knows it. */
export const terraformResource = (type: string): TfResource | undefined => BY_TYPE.get(type)

/**
 * The attributes at a path of nested block / object names in a resource (`["rules",
 * "action_parameters"]`), as the major has them; undefined when the path leaves what is known.
 */
export const attributesAt = (
  resource: TfResource,
  path: ReadonlyArray<string>,
  major: Major
): ReadonlyArray<TfAttribute> | undefined => {
  let level: ReadonlyArray<TfAttribute> | undefined = resource.attributes
  for (const name of path) {
    level = level?.find((a) => a.name === name && a.nested !== undefined && (a.majors ?? ALL).includes(major))?.nested
    if (level === undefined) return undefined
  }
  return level.filter((a) => (a.majors ?? ALL).includes(major))
}
