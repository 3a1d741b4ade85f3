/**
 * The Firewall Rules and Filters APIs, and the `cloudflare_filter` / `cloudflare_firewall_rule`
 * Terraform resources built on them, are unsupported since 2025-06-15: the platform moved their
 * rules to WAF custom rules (the zone's ruleset in phase `http_request_firewall_custom`). One
 * diagnostic code for JSON bodies and Terraform resources alike, so CI can act on it whatever the
 * file (reference: custom-rules-migration.md; which provider versions still ship the resources:
 * up to 4.x as they were, 5.x deprecated and reshaped).
 */
import type { Node } from "jsonc-parser"
import { finding, type Finding, type Fix, type Range } from "./findings.js"
import { rangeOf } from "./json-path.js"
import type { RulesDocument } from "./platform-json.js"
import { importId, majorOf } from "./terraform/version.js"

export const FIREWALL_RESOURCES: ReadonlyArray<string> = ["cloudflare_filter", "cloudflare_firewall_rule"]

const CODE = "firewall-api-unsupported"
const UNSUPPORTED = "unsupported since 2025-06-15 (the platform moved firewall rules to WAF custom rules)"
const PHASE = "http_request_firewall_custom"

/**
 * The key that makes the document a firewall one (the first rule's `"filter"`, the first filter's
 * `"expression"`): one warning per document, where the old API's shape shows, not on every rule.
 */
const shapeKey = (doc: RulesDocument): Range => {
  const key = doc.shape === "firewall-rules" ? "filter" : "expression"
  const elements = doc.body.type === "array" ? (doc.body.children ?? []) : [doc.body]
  for (const e of elements) {
    if (e.type !== "object") continue
    const name: Node | undefined = e.children?.find((p) => p.children?.[0]?.value === key)?.children?.[0]
    if (name !== undefined) return rangeOf(name)
  }
  return { start: doc.body.offset, end: doc.body.offset + 1 }
}

/** The warning on a firewall rules or filters body (request or API answer); none on other documents. */
export const firewallJsonFinding = (doc: RulesDocument, fix?: Fix): Finding | undefined => {
  if (doc.shape !== "firewall-rules" && doc.shape !== "filters") return undefined
  const api = doc.shape === "firewall-rules" ? "Firewall Rules" : "Filters"
  return finding(
    "warning",
    CODE,
    `a ${api} API document: the Firewall Rules and Filters APIs are ${UNSUPPORTED}`,
    shapeKey(doc),
    {
      hint: `write them as WAF custom rules: the zone's ruleset in phase ${PHASE} (PUT /zones/{zone_id}/rulesets/phases/${PHASE}/entrypoint)`,
      ...(fix !== undefined ? { fixes: [fix] } : {})
    }
  )
}

/** The provider version a Terraform file pins, where (its own pin, or other files of its module). */
export interface FirewallPin {
  readonly constraint: string | undefined
  readonly files?: ReadonlyArray<string> | undefined
}

const providerSays = (major: number, type: string): string =>
  major === 5 ? `still ships ${type}, deprecated and reshaped (action and filter are objects)` : `still has ${type}`

/** The warning on a `cloudflare_filter` / `cloudflare_firewall_rule` resource, on its type label. */
export const firewallResourceFinding = (
  type: string,
  name: string,
  range: Range,
  pin: FirewallPin,
  fix?: Fix
): Finding => {
  const api = type === "cloudflare_filter" ? "the Filters API" : "the Firewall Rules API"
  // Without a pin `terraform init` takes the latest provider: 5.x.
  const major = pin.constraint === undefined ? 5 : majorOf(pin.constraint)
  const where =
    pin.constraint === undefined
      ? "no provider version is pinned: the latest, 5.x,"
      : `provider ${major}.x, as pinned ("${pin.constraint}"${pin.files?.length ? ` in ${pin.files.join(", ")}` : ""}),`
  return finding(
    "warning",
    CODE,
    `${type} "${name}" uses ${api}, ${UNSUPPORTED}; ${where} ${providerSays(major, type)}, but the platform refuses its requests`,
    range,
    {
      hint: `replace the zone's ${FIREWALL_RESOURCES.join(" and ")} resources with one cloudflare_ruleset (kind "zone", phase "${PHASE}"), import it as ${importId(major === 5 ? 5 : 4, "<zone_id>")}, and terraform state rm the old ones before deleting their HCL`,
      ...(fix !== undefined ? { fixes: [fix] } : {})
    }
  )
}
