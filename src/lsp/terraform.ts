/**
 * Terraform files that still use the previous WAF's resources (`cloudflare_waf_package`,
 * `cloudflare_waf_group`, `cloudflare_waf_rule`, `cloudflare_waf_override`: provider 3.35 and
 * earlier): a warning on each, found in a real HCL tree (never by scanning text).
 */
import { finding, type Analysis, type Finding, type Fix } from "./findings.js"
import { parseHcl, stringValue, type HclNode } from "./hcl.js"

export const PREVIOUS_WAF_RESOURCES = ["cloudflare_waf_package", "cloudflare_waf_group", "cloudflare_waf_rule", "cloudflare_waf_override"] as const
export type PreviousWafResource = (typeof PREVIOUS_WAF_RESOURCES)[number]

/** A `resource "<type>" "<name>" { ... }` block with its attributes (literal values only). */
export interface ResourceBlock {
  readonly type: string
  readonly name: string
  readonly node: HclNode
  readonly typeLabel: HclNode
  readonly attributes: ReadonlyMap<string, { readonly node: HclNode; readonly value: string | number | boolean | undefined }>
}

const literal = (expr: HclNode | null): string | number | boolean | undefined => {
  if (expr === null) return undefined
  const s = stringValue(expr)
  if (s !== undefined) return s
  const lit = expr.type === "expression" ? expr.namedChildren[0] : expr
  if (lit?.type === "literal_value") {
    const v = lit.namedChildren[0]
    if (v?.type === "numeric_lit") return Number(v.text)
    if (v?.type === "bool_lit") return v.text === "true"
  }
  return undefined
}

export const resourceBlocks = (root: HclNode): Array<ResourceBlock> => {
  const out: Array<ResourceBlock> = []
  const visit = (n: HclNode) => {
    if (n.type === "block" && n.namedChildren[0]?.type === "identifier" && n.namedChildren[0].text === "resource") {
      const labels = n.namedChildren.filter((c) => c?.type === "string_lit") as Array<HclNode>
      const body = n.namedChildren.find((c) => c?.type === "body")
      const attributes = new Map<string, { node: HclNode; value: string | number | boolean | undefined }>()
      for (const a of body?.namedChildren ?? []) {
        if (a?.type !== "attribute") continue
        const name = a.namedChildren[0]?.text
        if (name !== undefined) attributes.set(name, { node: a, value: literal(a.namedChildren[1] ?? null) })
      }
      if (labels.length >= 2) out.push({ type: stringValue(labels[0]!) ?? "", name: stringValue(labels[1]!) ?? "", node: n, typeLabel: labels[0]!, attributes })
      return
    }
    for (const c of n.namedChildren) if (c !== null) visit(c)
  }
  visit(root)
  return out
}

// Syntax errors at their place (./hcl-syntax.ts); imported here to keep this edit to one spot.
import { hclSyntaxErrors } from "./hcl-syntax.js"
const syntaxErrors = (root: HclNode): Array<Finding> => hclSyntaxErrors(root)

/** Builds the rewrite of a previous-WAF resource (set by the WAF part, which owns the mapping). */
export type TerraformRewrite = (text: string, blocks: ReadonlyArray<ResourceBlock>, block: ResourceBlock) => Fix | undefined
let rewrite: TerraformRewrite | undefined
export const registerTerraformRewrite = (r: TerraformRewrite) => {
  rewrite = r
}

export const analyzeTerraform = async (text: string): Promise<Analysis> => {
  const tree = await parseHcl(text)
  try {
    const findings = syntaxErrors(tree.rootNode)
    const blocks = resourceBlocks(tree.rootNode)
    for (const b of blocks) {
      if (!(PREVIOUS_WAF_RESOURCES as ReadonlyArray<string>).includes(b.type)) continue
      const fix = rewrite?.(text, blocks, b)
      findings.push(
        finding(
          "warning",
          "terraform-previous-waf",
          `${b.type} "${b.name}" is a previous-WAF resource: the provider supports it only up to 3.35, and the zone's WAF migration removes what it manages`,
          { start: b.typeLabel.startIndex, end: b.typeLabel.endIndex },
          { hint: "replace it with a cloudflare_ruleset resource in phase http_request_firewall_managed", ...(fix ? { fixes: [fix] } : {}) }
        )
      )
    }
    return { kind: "terraform", findings, expressions: [] }
  } finally {
    tree.delete()
  }
}
