/**
 * The zone's `cloudflare_ruleset` in phase `http_request_firewall_custom` (WAF custom rules, what
 * firewall rules became), written in the HCL shape each provider major accepts: repeated blocks
 * without `ref` (3.35, where it is computed only) and `logging { status }`; the same blocks with a
 * `ref` per rule and `logging { enabled }` (4.x, where rules keep their ids only with a `ref`);
 * list and object attributes (5.x). Laid out by `formatHcl`, so the text is what `terraform fmt`
 * leaves as it is. The same writer serves the `http_ratelimit` phase (a rule's `ratelimit` block or
 * object). The rules come from the migrations' mappings; nothing here decides what they are.
 */
import { formatHcl } from "./fmt.js"
import { hclString } from "./ruleset-hcl.js"
import type { RateLimitParameters } from "../../domain/ruleset.js"
import type { ProviderMajor } from "./version.js"

/** A custom rule as the rulesets API writes it (the fields Terraform manages). */
export interface CustomRule {
  readonly action: string
  readonly expression: string
  readonly description?: string | undefined
  readonly enabled?: boolean | undefined
  readonly ref?: string | undefined
  readonly action_parameters?:
    | {
        /** `"current"`: skip the remaining custom rules (what `allow` was). */
        readonly ruleset?: string | undefined
        /** Products and phases to skip (what `bypass` was). */
        readonly products?: ReadonlyArray<string> | undefined
        readonly phases?: ReadonlyArray<string> | undefined
        /** A `block`'s own response. */
        readonly response?:
          | {
              readonly status_code?: number | undefined
              readonly content?: string | undefined
              readonly content_type?: string | undefined
            }
          | undefined
      }
    | undefined
  /** Skip rules are logged unless this says otherwise. */
  readonly logging?: { readonly enabled: boolean } | undefined
  /** A rate limiting rule's counter (phase `http_ratelimit`). */
  readonly ratelimit?: RateLimitParameters | undefined
}

export interface CustomRuleset {
  /** The resource's local name (`resource "cloudflare_ruleset" "<name>"`). */
  readonly resource: string
  /** The zone, as an HCL expression (`var.zone_id`, `"023e105f4ecef8ad9ca31a8372d0c353"`). */
  readonly zone: string
  /** The ruleset's `name` (changing it later replaces the resource). */
  readonly name: string
  readonly rules: ReadonlyArray<CustomRule>
  /** The phase: the custom rules' unless said (rate limiting rules: `http_ratelimit`). */
  readonly phase?: string | undefined
}

type Entry = readonly [string, string | number | boolean | ReadonlyArray<string> | undefined]

/**
 * A rate limiting rule's `ratelimit` arguments as each major takes them (the HCL and the JSON
 * writers' one list): `counting_expression` absent rather than "" (5.8.4+ refuses ""), and
 * `requests_to_origin` always written up to 4.x (required on 4.16-4.19; 5.x defaults it to false).
 */
export const ratelimitEntries = (rl: RateLimitParameters, major: ProviderMajor): ReadonlyArray<Entry> => [
  ["characteristics", rl.characteristics],
  ["period", rl.period],
  ["requests_per_period", rl.requests_per_period],
  ["score_per_period", rl.score_per_period],
  ["score_response_header_name", rl.score_response_header_name],
  ["mitigation_timeout", rl.mitigation_timeout],
  ["counting_expression", rl.counting_expression === "" ? undefined : rl.counting_expression],
  ["requests_to_origin", major === 5 && rl.requests_to_origin !== true ? undefined : (rl.requests_to_origin ?? false)]
]

const value = (v: Exclude<Entry[1], undefined>): string =>
  typeof v === "string"
    ? hclString(v)
    : typeof v === "number" || typeof v === "boolean"
      ? String(v)
      : `[${v.map(hclString).join(", ")}]`

const present = (entries: ReadonlyArray<Entry>) =>
  entries.filter((e): e is readonly [string, Exclude<Entry[1], undefined>] => e[1] !== undefined)

/** Lines of one rule (without layout): a `rules { }` block up to 4.x, an object of `rules = [ ]` in 5.x. */
const ruleLines = (r: CustomRule, i: number, major: ProviderMajor): Array<string> => {
  const v5 = major === 5
  const out: Array<string> = [v5 ? "{" : "rules {"]
  const attrs = (entries: ReadonlyArray<Entry>) => {
    for (const [k, v] of present(entries)) out.push(`${k} = ${value(v)}`)
  }
  const open = (name: string) => out.push(v5 ? `${name} = {` : `${name} {`)
  attrs([
    // 3.35 computes `ref`; from 4.48 a rule without one gets a new id on every change.
    ["ref", major === 3 ? undefined : (r.ref ?? `rule_${i + 1}`)],
    ["action", r.action],
    ["expression", r.expression],
    ["description", r.description === "" ? undefined : r.description],
    ["enabled", r.enabled]
  ])
  const p = r.action_parameters
  if (p !== undefined) {
    open("action_parameters")
    attrs([
      ["ruleset", p.ruleset],
      ["products", p.products],
      ["phases", p.phases]
    ])
    if (p.response !== undefined) {
      open("response")
      attrs([
        ["status_code", p.response.status_code],
        ["content", p.response.content],
        ["content_type", p.response.content_type]
      ])
      out.push("}")
    }
    out.push("}")
  }
  const rl = r.ratelimit
  if (rl !== undefined) {
    open("ratelimit")
    attrs(ratelimitEntries(rl, major))
    out.push("}")
  }
  if (r.logging !== undefined) {
    // 3.x: `status` ("enabled"/"disabled"; `enabled` deprecated there); 4.x and 5.x: `enabled`.
    const on: Entry =
      major === 3 ? ["status", r.logging.enabled ? "enabled" : "disabled"] : ["enabled", r.logging.enabled]
    if (v5) out.push(`logging = { ${on[0]} = ${value(on[1]!)} }`)
    else out.push("logging {", `${on[0]} = ${value(on[1]!)}`, "}")
  }
  out.push(v5 ? "}," : "}")
  return out
}

// The rules language's limit on an expression (reference: custom-rules-migration.md §6).
const EXPRESSION_LIMIT = 4096

/** What the provider and the platform refuse in the rules, each naming the field, what it allows and what it got. */
export const rulesetProblems = (rules: ReadonlyArray<CustomRule>): Array<string> => {
  const out: Array<string> = []
  rules.forEach((r, i) => {
    const at = `rules[${i}]`
    if (r.expression.length > EXPRESSION_LIMIT)
      out.push(`${at}.expression is ${r.expression.length} characters long: the limit is ${EXPRESSION_LIMIT}`)
    const p = r.action_parameters
    for (const k of ["ruleset", "products", "phases"] as const)
      if (p?.[k] !== undefined && r.action !== "skip")
        out.push(
          `${at}.action_parameters.${k} is only valid with action "skip", got action ${JSON.stringify(r.action)}`
        )
    if (p?.response !== undefined && r.action !== "block")
      out.push(
        `${at}.action_parameters.response is only valid with action "block", got action ${JSON.stringify(r.action)}`
      )
    if (r.logging !== undefined && r.action !== "skip")
      out.push(`${at}.logging is only valid with action "skip", got action ${JSON.stringify(r.action)}`)
  })
  return out
}

/** The resource, fmt-canonical, with its final newline; or why the provider would refuse the rules. */
export const customRulesetHcl = (
  ruleset: CustomRuleset,
  major: ProviderMajor
): { readonly text: string } | { readonly problems: ReadonlyArray<string> } => {
  const refused = rulesetProblems(ruleset.rules)
  if (refused.length > 0) return { problems: refused }
  const rules = ruleset.rules.flatMap((r, i) => ruleLines(r, i, major))
  const lines = [
    `resource "cloudflare_ruleset" ${hclString(ruleset.resource)} {`,
    `zone_id = ${ruleset.zone}`,
    `name = ${hclString(ruleset.name)}`,
    'kind = "zone"',
    `phase = ${hclString(ruleset.phase ?? "http_request_firewall_custom")}`,
    ...(rules.length > 0 || major === 5 ? [""] : []),
    ...(major === 5 ? (rules.length === 0 ? ["rules = []"] : ["rules = [", ...rules, "]"]) : rules),
    "}",
    ""
  ]
  return { text: formatHcl(lines.join("\n")) }
}
