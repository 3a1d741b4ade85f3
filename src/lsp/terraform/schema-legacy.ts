/**
 * The Terraform resources of the previous products, the ones the migrations replace: Firewall
 * Rules and their filters, the previous WAF (packages, groups, rules, overrides), rate limits,
 * zone lockdowns and user-agent blocking rules. Facts as in ./schema.ts.
 */
import { ALL, nested, response, UP_TO_4, zoneId, type TfResource } from "./attributes.js"

const firewallAction = ["block", "challenge", "js_challenge", "managed_challenge", "allow", "log", "bypass"]

/** The previous products' resources, as the catalog lists them after `cloudflare_ruleset`. */
export const LEGACY_RESOURCES: ReadonlyArray<TfResource> = [
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
