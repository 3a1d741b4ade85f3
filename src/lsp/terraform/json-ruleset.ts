/**
 * The zone's `cloudflare_ruleset` in phase `http_request_firewall_custom` (or `http_ratelimit`, a
 * rule's `ratelimit` nested as `action_parameters` is), in Terraform's JSON
 * syntax (`*.tf.json`), in the shape each provider major accepts: nested blocks (3.35 and 4.x),
 * written as arrays of block bodies, the general form the JSON syntax has for blocks; attributes
 * (5.x), where `action_parameters` and `logging` are single objects and an array would be refused
 * as a tuple. 3.35 computes `ref` and logs with `status`; 4.x and 5.x take `ref` and `enabled`, as
 * in the HCL rewrite (./custom-rules-hcl.ts). Every JSON string in an argument is a
 * Terraform template, so a literal `${` or `%{` is written `$${` / `%%{`.
 */
import { ratelimitEntries, type CustomRule } from "./custom-rules-hcl.js"
import type { ProviderMajor } from "./version.js"

type Json = string | number | boolean | ReadonlyArray<Json> | { readonly [k: string]: Json }

/** A literal string as a Terraform JSON template: `${` and `%{` escaped. */
const templateLiteral = (s: string): string => s.replace(/([$%])\{/g, "$1$1{")

const defined = (entries: ReadonlyArray<readonly [string, Json | undefined]>): Record<string, Json> =>
  Object.fromEntries(entries.filter((e): e is readonly [string, Json] => e[1] !== undefined))

const rule = (r: CustomRule, i: number, major: ProviderMajor): Record<string, Json> => {
  // A nested block is an array of bodies up to 4.x; in 5.x the same content is an object attribute.
  const nested = (body: Record<string, Json>): Json => (major === 5 ? body : [body])
  const p = r.action_parameters
  const response = p?.response
  const rl = r.ratelimit
  return defined([
    ["ref", major === 3 ? undefined : templateLiteral(r.ref ?? `rule_${i + 1}`)],
    ["action", r.action],
    ["expression", templateLiteral(r.expression)],
    ["description", r.description === undefined || r.description === "" ? undefined : templateLiteral(r.description)],
    ["enabled", r.enabled],
    [
      "action_parameters",
      p === undefined
        ? undefined
        : nested(
            defined([
              ["ruleset", p.ruleset],
              ["products", p.products],
              ["phases", p.phases],
              [
                "response",
                response === undefined
                  ? undefined
                  : nested(
                      defined([
                        ["status_code", response.status_code],
                        ["content", response.content === undefined ? undefined : templateLiteral(response.content)],
                        ["content_type", response.content_type]
                      ])
                    )
              ]
            ])
          )
    ],
    [
      "ratelimit",
      rl === undefined
        ? undefined
        : nested(
            defined(
              // The HCL rewrite's arguments; the expression as a template.
              ratelimitEntries(rl, major).map(([k, v]) => [
                k,
                k === "counting_expression" && typeof v === "string" ? templateLiteral(v) : v
              ])
            )
          )
    ],
    [
      "logging",
      r.logging === undefined
        ? undefined
        : nested(major === 3 ? { status: r.logging.enabled ? "enabled" : "disabled" } : { enabled: r.logging.enabled })
    ]
  ])
}

export interface JsonRuleset {
  /** The `"//"` lines: Terraform ignores that property in an object that is a block's body. */
  readonly comments: ReadonlyArray<string>
  /** The `provider` meta-argument as written in the old resources (`"cloudflare.alt"`). */
  readonly provider?: string | undefined
  /** The zone as the old resources wrote it: a JSON template (`"${var.zone_id}"`) or a literal id. */
  readonly zone: string
  readonly name: string
  readonly rules: ReadonlyArray<CustomRule>
  /** The custom rules' phase unless said (rate limiting rules: `http_ratelimit`). */
  readonly phase?: string | undefined
}

/** The rules as the `rules` of the resource's body (an existing ruleset's gets them appended). */
export const rulesJson = (rules: ReadonlyArray<CustomRule>, major: ProviderMajor): Array<Record<string, Json>> =>
  rules.map((r, i) => rule(r, i, major))

/** The resource's body, keys in the order the HCL rewrite writes them. */
export const customRulesetJson = (ruleset: JsonRuleset, major: ProviderMajor): Record<string, Json> =>
  defined([
    ["//", ruleset.comments.length > 0 ? ruleset.comments : undefined],
    ["provider", ruleset.provider],
    ["zone_id", ruleset.zone],
    ["name", templateLiteral(ruleset.name)],
    ["kind", "zone"],
    ["phase", ruleset.phase ?? "http_request_firewall_custom"],
    // 3.x and 4.x: no block is no rule; 5.x's list attribute is written even when empty.
    ["rules", ruleset.rules.length > 0 || major === 5 ? rulesJson(ruleset.rules, major) : undefined]
  ])
