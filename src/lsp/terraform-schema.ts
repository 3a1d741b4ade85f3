/**
 * The attributes of the Terraform resources the migration assistant knows, per provider major
 * (3: 3.x and earlier, SDKv2 blocks; 4: the same blocks, `enabled` for `status`, `ref` settable;
 * 5: attribute syntax, nested values are objects or lists of objects), for hover and completion
 * in `*.tf` files (./terraform-help.ts). Facts: terraform-ruleset-versions.md and the provider's
 * documentation of each resource at the tags named there; what a version lacks is not listed for it.
 */

export type Major = 3 | 4 | 5
const ALL: ReadonlyArray<Major> = [3, 4, 5]
const UP_TO_4: ReadonlyArray<Major> = [3, 4]

export interface TfAttribute {
  readonly name: string
  /** As the provider's documentation writes it (`String`, `Number`, `Block`, `List of Attributes`). */
  readonly type: string
  readonly doc: string
  readonly required?: boolean
  /** The majors that have it (default: every major of its resource). */
  readonly majors?: ReadonlyArray<Major>
  /** The values the provider accepts, when they are a short list. */
  readonly values?: ReadonlyArray<string>
  /** The attributes of a nested block or object. */
  readonly nested?: ReadonlyArray<TfAttribute>
}

export interface TfResource {
  readonly type: string
  readonly doc: string
  readonly majors: ReadonlyArray<Major>
  readonly attributes: ReadonlyArray<TfAttribute>
}

const zoneId: TfAttribute = { name: "zone_id", type: "String", doc: "the zone's identifier", required: true }

/** `Block` up to 4.x, `single` (object) or `list` (list of objects) in 5.x: one attribute, two shapes. */
const nested = (
  name: string,
  doc: string,
  five: "single" | "list",
  attrs: ReadonlyArray<TfAttribute>,
  extra: Partial<TfAttribute> = {}
): ReadonlyArray<TfAttribute> => [
  { name, type: "Block", doc, majors: UP_TO_4, nested: attrs, ...extra },
  { name, type: five === "single" ? "Attributes" : "List of Attributes", doc, majors: [5], nested: attrs, ...extra }
]

const response: ReadonlyArray<TfAttribute> = [
  {
    name: "content_type",
    type: "String",
    doc: "the content type of `body`",
    values: ["text/plain", "text/xml", "application/json"]
  },
  { name: "body", type: "String", doc: "the response body, in `content_type`" }
]

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

const firewallAction = ["block", "challenge", "js_challenge", "managed_challenge", "allow", "log", "bypass"]

export const TERRAFORM_RESOURCES: ReadonlyArray<TfResource> = [
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
  {
    type: "cloudflare_filter",
    doc: "a filter of the Firewall Rules API (unsupported since 2025-06-15; its expression belongs in a custom rule)",
    majors: ALL,
    attributes: [
      zoneId,
      { name: "expression", type: "String", doc: "the rules expression", required: true },
      { name: "description", type: "String", doc: "what the filter matches (up to 500 characters)" },
      { name: "paused", type: "Boolean", doc: "whether the filter is paused" },
      { name: "ref", type: "String", doc: "a short reference tag (up to 50 characters)" }
    ]
  },
  {
    type: "cloudflare_firewall_rule",
    doc: "a rule of the Firewall Rules API (unsupported since 2025-06-15; replaced by the zone's custom rules ruleset)",
    majors: ALL,
    attributes: [
      zoneId,
      {
        name: "filter_id",
        type: "String",
        doc: "the `cloudflare_filter` the rule applies",
        required: true,
        majors: UP_TO_4
      },
      {
        name: "action",
        type: "String",
        doc: "what the rule does",
        required: true,
        majors: UP_TO_4,
        values: firewallAction
      },
      {
        name: "action",
        type: "Attributes",
        doc: "what the rule does (`mode`, `timeout`, `response`)",
        required: true,
        majors: [5],
        nested: [
          { name: "mode", type: "String", doc: "the action", values: firewallAction },
          { name: "timeout", type: "Number", doc: "how long the action applies, in seconds" },
          { name: "response", type: "Attributes", doc: "a custom response", nested: response }
        ]
      },
      {
        name: "filter",
        type: "Attributes",
        doc: "the rule's filter, inline",
        required: true,
        majors: [5],
        nested: [
          { name: "id", type: "String", doc: "the filter's id" },
          { name: "expression", type: "String", doc: "the rules expression" },
          { name: "description", type: "String", doc: "what the filter matches" },
          { name: "paused", type: "Boolean", doc: "whether the filter is paused" },
          { name: "ref", type: "String", doc: "a short reference tag" }
        ]
      },
      { name: "priority", type: "Number", doc: "the order: a lower number runs first" },
      { name: "description", type: "String", doc: "what the rule is for" },
      { name: "paused", type: "Boolean", doc: "whether the rule is paused" },
      {
        name: "products",
        type: "Set of String",
        doc: "what a `bypass` rule skips",
        values: ["zoneLockdown", "uaBlock", "bic", "hot", "securityLevel", "rateLimit", "waf"]
      }
    ]
  },
  {
    type: "cloudflare_waf_package",
    doc: "a previous-WAF package's settings (provider 3.35 and earlier; the WAF migration replaces it with a managed-phase ruleset)",
    majors: [3],
    attributes: [
      zoneId,
      { name: "package_id", type: "String", doc: "the WAF package", required: true },
      {
        name: "sensitivity",
        type: "String",
        doc: "the package's sensitivity",
        values: ["high", "medium", "low", "off"]
      },
      { name: "action_mode", type: "String", doc: "what a match does", values: ["simulate", "block", "challenge"] }
    ]
  },
  {
    type: "cloudflare_waf_group",
    doc: "a previous-WAF rule group's mode (provider 3.35 and earlier)",
    majors: [3],
    attributes: [
      zoneId,
      { name: "group_id", type: "String", doc: "the rule group", required: true },
      { name: "package_id", type: "String", doc: "the group's package" },
      { name: "mode", type: "String", doc: "whether the group runs", values: ["on", "off"] }
    ]
  },
  {
    type: "cloudflare_waf_rule",
    doc: "a previous-WAF rule's mode (provider 3.35 and earlier)",
    majors: [3],
    attributes: [
      zoneId,
      { name: "rule_id", type: "String", doc: "the WAF rule", required: true },
      { name: "package_id", type: "String", doc: "the rule's package" },
      { name: "group_id", type: "String", doc: "the rule's group (computed)" },
      {
        name: "mode",
        type: "String",
        doc: "the rule's mode",
        required: true,
        values: ["default", "disable", "simulate", "block", "challenge", "on", "off"]
      }
    ]
  },
  {
    type: "cloudflare_waf_override",
    doc: "a previous-WAF URI-based override (provider 2.8 to 3.35; not migrated: delete it first)",
    majors: [3],
    attributes: [
      zoneId,
      { name: "urls", type: "List of String", doc: "the URLs the override applies to", required: true },
      { name: "rules", type: "Map of String", doc: "rule id to action" },
      { name: "groups", type: "Map of String", doc: "group id to `on`/`off`" },
      { name: "rewrite_action", type: "Map of String", doc: "action to action" },
      { name: "paused", type: "Boolean", doc: "whether the override is paused" },
      { name: "description", type: "String", doc: "what the override is for" },
      { name: "priority", type: "Number", doc: "the order of overrides" }
    ]
  },
  {
    type: "cloudflare_rate_limit",
    doc: "a previous rate limiting rule (deprecated; replaced by a rule in phase http_ratelimit)",
    majors: ALL,
    attributes: [
      zoneId,
      { name: "threshold", type: "Number", doc: "the requests per period that trigger the action", required: true },
      { name: "period", type: "Number", doc: "the period the requests are counted over, in seconds", required: true },
      ...nested(
        "action",
        "what happens when the threshold is exceeded",
        "single",
        [
          {
            name: "mode",
            type: "String",
            doc: "the action",
            values: ["simulate", "ban", "challenge", "js_challenge", "managed_challenge"]
          },
          { name: "timeout", type: "Number", doc: "how long the action applies, in seconds (at least `period`)" },
          ...nested("response", "a custom response", "single", response)
        ],
        { required: true }
      ),
      ...nested(
        "match",
        "the traffic counted",
        "single",
        [
          ...nested("request", "the requests counted", "single", [
            { name: "methods", type: "Set of String", doc: "the methods (`_ALL_` for all)" },
            { name: "schemes", type: "Set of String", doc: "`HTTP`, `HTTPS` or `_ALL_`" },
            { name: "url_pattern", type: "String", doc: "host and path, `*` wildcards", majors: UP_TO_4 },
            { name: "url", type: "String", doc: "host and path, `*` wildcards", majors: [5] }
          ]),
          ...nested("response", "the responses counted", "single", [
            { name: "statuses", type: "Set of Number", doc: "the status codes counted", majors: UP_TO_4 },
            { name: "origin_traffic", type: "Boolean", doc: "count only traffic from the origin" },
            { name: "headers", type: "List of Map of String", doc: "response headers to match", majors: UP_TO_4 }
          ]),
          {
            name: "headers",
            type: "List of Attributes",
            doc: "response headers to match (`name`, `op`, `value`)",
            majors: [5],
            nested: [
              { name: "name", type: "String", doc: "the header's name" },
              { name: "op", type: "String", doc: "`eq` or `ne`", values: ["eq", "ne"] },
              { name: "value", type: "String", doc: "the value, matched exactly" }
            ]
          }
        ],
        { required: true }
      ),
      { name: "disabled", type: "Boolean", doc: "whether the rate limit is off" },
      { name: "description", type: "String", doc: "what the rate limit is for" },
      { name: "bypass_url_patterns", type: "Set of String", doc: "URLs the rate limit skips", majors: UP_TO_4 },
      {
        name: "correlate",
        type: "Block",
        doc: '`by = "nat"`: count requests per NAT IP',
        majors: UP_TO_4,
        nested: [{ name: "by", type: "String", doc: "`nat`", values: ["nat"] }]
      }
    ]
  },
  {
    type: "cloudflare_zone_lockdown",
    doc: "a Zone Lockdown rule: URLs only listed IPs may reach (a custom rule can replace it)",
    majors: ALL,
    attributes: [
      zoneId,
      { name: "urls", type: "Set of String", doc: "the URLs locked down (`*` wildcards)", required: true },
      ...nested(
        "configurations",
        "the IPs allowed",
        "list",
        [
          { name: "target", type: "String", doc: "what `value` is", values: ["ip", "ip_range"] },
          { name: "value", type: "String", doc: "an IP address or CIDR range" }
        ],
        { required: true }
      ),
      { name: "paused", type: "Boolean", doc: "whether the rule is paused" },
      { name: "description", type: "String", doc: "what the rule is for" },
      { name: "priority", type: "Number", doc: "the order: a lower number runs first" }
    ]
  },
  {
    type: "cloudflare_user_agent_blocking_rule",
    doc: "a User Agent Blocking rule (a custom rule on `http.user_agent` can replace it)",
    majors: ALL,
    attributes: [
      zoneId,
      {
        name: "mode",
        type: "String",
        doc: "what a match does",
        required: true,
        values: ["block", "challenge", "js_challenge", "managed_challenge"]
      },
      ...nested(
        "configuration",
        "the user agent matched",
        "single",
        [
          { name: "target", type: "String", doc: "`ua`", values: ["ua"] },
          { name: "value", type: "String", doc: "the exact User-Agent" }
        ],
        { required: true }
      ),
      { name: "paused", type: "Boolean", doc: "whether the rule is paused" },
      { name: "description", type: "String", doc: "what the rule is for" }
    ]
  }
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
