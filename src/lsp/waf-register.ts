/**
 * The WAF documents (kinds 3 and 4) and the Terraform rewrite, registered with the document
 * checks: they are built on `src/waf` (the migration mapping), which owns their meaning.
 */
import { findNodeAtOffset, parseTree, type Node } from "jsonc-parser"
import { registerJsonFeatures } from "./features.js"
import { registerJsonCheck } from "./json-doc.js"
import { rangeOf } from "./json-path.js"
import { registerTerraformRewrite } from "./terraform.js"
import { terraformRewrite } from "./terraform-rewrite.js"
import { checkWafConfig, isWafConfig } from "./waf-config.js"
// Hover and completion in WAF configurations.
import "./waf-features.js"
import { actionNote, checkWafExport, isWafExport, sensitivityNote } from "./waf-export.js"

registerJsonCheck({
  kind: "waf-export",
  matches: isWafExport,
  check: (root, _text, name) => checkWafExport(root, name)
})
registerJsonCheck({
  kind: "waf-config",
  matches: isWafConfig,
  check: (root, text, name) => ({
    findings: checkWafConfig(
      root,
      text,
      /validation/i.test(name) ? "validation" : /pending|final/i.test(name) ? "pending" : undefined
    )
  })
})
registerTerraformRewrite(terraformRewrite)

const propertyOf = (n: Node | undefined): { name: string; value: Node } | undefined => {
  const p = n?.parent
  if (p?.type !== "property" || p.children?.[1] !== n) return undefined
  return { name: p.children![0]!.value as string, value: n! }
}

registerJsonFeatures("waf-export", {
  hover: (text, offset) => {
    const root = parseTree(text)
    if (root === undefined) return undefined
    const prop = propertyOf(findNodeAtOffset(root, offset))
    if (prop === undefined || prop.value.type !== "string") return undefined
    const note =
      prop.name === "sensitivity"
        ? sensitivityNote(prop.value.value)
        : prop.name === "action_mode"
          ? actionNote(prop.value.value)
          : undefined
    return note === undefined ? undefined : { markdown: `**After migration**: ${note}`, range: rangeOf(prop.value) }
  }
})
