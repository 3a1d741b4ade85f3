/**
 * The firewall rules of a Terraform file that bypass the previous WAF (`action = "bypass"`,
 * `products` with `"waf"`), per zone, as `waf config` reads them (`previous.firewall_rules`):
 * `planMigration` turns each into a skip rule first in the managed phase, so the WAF rewrite's
 * ruleset has them too. A rule's platform id is `cloudflare_firewall_rule.<name>.id` and a
 * description Terraform computes is its expression: the mapping sees a placeholder for each,
 * which `carryReferences` puts back as a template in the HCL written. A rule that may bypass the
 * WAF but cannot be read withholds its zone's ruleset (all zones when its zone cannot be told).
 */
import type { BypassFirewallRule } from "../../domain/waf.js"
import { finding, type Finding } from "../findings.js"
import type { ResourceBlock } from "./analyze.js"
import type { TerraformExpression } from "./expressions.js"
import {
  address,
  carriedDescription,
  exprText,
  mayBypassWaf,
  readRule,
  type Problem,
  type Withheld,
  withheldZones
} from "./firewall-read.js"

/** What the mapping sees as the rule's platform id: it is `cloudflare_firewall_rule.<name>.id`. */
const idOf = (name: string) => `\u0001id of ${name}\u0001`

export const zoneKey = (provider: string | undefined, zone: string) => `${provider ?? ""}\u0000${zone}`

export interface WafBypass {
  /** Per zone (`zoneKey`), the rules that bypass the WAF, as the mapping reads them. */
  readonly byZone: ReadonlyMap<string, ReadonlyArray<BypassFirewallRule>>
  /** Zones with a rule that may bypass the WAF but cannot be read (all, when its zone cannot be told). */
  readonly withheld: Withheld
  readonly findings: ReadonlyArray<Finding>
  /** The rules' names and their descriptions as written, when computed, for `carryReferences`. */
  readonly carried: ReadonlyArray<{ readonly name: string; readonly description?: string | undefined }>
}

const refused = (b: ResourceBlock, p: Problem, zone: string | undefined): Finding => {
  const n = (p.at !== undefined ? b.attributes.get(p.at)?.node : undefined) ?? b.typeLabel
  const withheld =
    zone === undefined
      ? "no cloudflare_ruleset (http_request_firewall_managed) is written for this file's zones: the rewrite cannot tell which zone the rule belongs to"
      : `no cloudflare_ruleset (http_request_firewall_managed) is written for zone_id = ${zone}`
  return finding(
    "warning",
    "terraform-rewrite-unclear",
    `${address(b)}: ${p.why}; ${withheld}: a firewall rule that bypasses the WAF becomes a skip rule of that ruleset (waf config), which the rewrite cannot write`,
    { start: n.startIndex, end: n.endIndex },
    { hint: p.hint }
  )
}

export const wafBypass = (
  text: string,
  blocks: ReadonlyArray<ResourceBlock>,
  expressionsOf: (block: ResourceBlock) => ReadonlyArray<TerraformExpression>
): WafBypass => {
  const filters = new Map(blocks.filter((b) => b.type === "cloudflare_filter").map((b) => [b.name, b]))
  const byZone = new Map<string, Array<BypassFirewallRule>>()
  const withheld = withheldZones()
  const findings: Array<Finding> = []
  const carried: Array<{ name: string; description?: string | undefined }> = []
  for (const b of blocks) {
    if (b.type !== "cloudflare_firewall_rule" || !mayBypassWaf(text, b)) continue
    const zone = exprText(text, b, "zone_id")
    const key = zoneKey(exprText(text, b, "provider"), zone ?? "")
    const r =
      zone === undefined
        ? ({ at: undefined, why: "it has no zone_id", hint: "give it its zone_id" } satisfies Problem)
        : readRule(text, b, filters, expressionsOf)
    if ("why" in r) {
      findings.push(refused(b, r, withheld.add(key, zone)))
      continue
    }
    const { rule } = r
    if (rule.action !== "bypass" || !(rule.products ?? []).includes("waf")) continue
    const own = rule.description === carriedDescription(b.name) ? r.description : undefined
    carried.push({ name: b.name, description: own })
    // As the platform lists it (src/services/waf-firewall-service.ts): the rule's own paused and description.
    const bypass: BypassFirewallRule = {
      id: idOf(b.name),
      expression: "expression" in rule.filter ? rule.filter.expression : "",
      action: rule.action,
      products: rule.products ?? [],
      priority: rule.priority,
      paused: rule.paused,
      ...(rule.description ? { description: rule.description } : {})
    }
    byZone.set(key, [...(byZone.get(key) ?? []), bypass])
  }
  return { byZone, withheld, findings, carried }
}

/** A string escaped as inside an HCL (JSON-escaped) string literal. */
const escaped = (s: string) => JSON.stringify(s).slice(1, -1)

/**
 * The HCL written with the rules' ids and computed descriptions put back: as a template inside
 * string literals (`${cloudflare_firewall_rule.office.id}`), as the address in comments.
 */
export const carryReferences = (hcl: string, carried: WafBypass["carried"], where: "string" | "comment"): string => {
  let out = hcl
  for (const { name, description } of carried) {
    const id = where === "string" ? escaped(idOf(name)) : idOf(name)
    out = out.replaceAll(
      id,
      where === "string" ? `\${cloudflare_firewall_rule.${name}.id}` : `cloudflare_firewall_rule.${name}`
    )
    if (description === undefined) continue
    // `var.x` -> `${var.x}`; a quoted template's content as it is.
    const inner = /^"(.*)"$/.test(description) ? description.slice(1, -1) : `\${${description}}`
    const desc = where === "string" ? escaped(carriedDescription(name)) : carriedDescription(name)
    out = out.replaceAll(desc, where === "string" ? inner : description)
  }
  return out
}

/** The rules whose id the ruleset's rules name (their skip rules). */
export const namedRules = (
  rules: ReadonlyArray<{ readonly description?: string | undefined }>,
  carried: WafBypass["carried"]
): Array<string> => carried.filter((c) => rules.some((r) => r.description?.includes(idOf(c.name)))).map((c) => c.name)
