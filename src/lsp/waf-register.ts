/**
 * The WAF documents (kinds 3 and 4) and the Terraform rewrite, registered with the document
 * checks: they are built on `src/waf` (the migration mapping), which owns their meaning.
 */
import { findNodeAtOffset, getNodeValue, parseTree, type Node } from "jsonc-parser"
import { CATALOG } from "../waf/catalog.js"
import { registerJsonFeatures, type CompletionResult } from "./features.js"
import { registerJsonCheck } from "./json-doc.js"
import { rangeOf } from "./json-path.js"
import { registerTerraformRewrite } from "./terraform.js"
import { terraformRewrite } from "./terraform-rewrite.js"
import { checkWafConfig, isWafConfig } from "./waf-config.js"
import { actionNote, checkWafExport, isWafExport, sensitivityNote } from "./waf-export.js"

registerJsonCheck({ kind: "waf-export", matches: isWafExport, check: (root, _text, name) => checkWafExport(root, name) })
registerJsonCheck({
  kind: "waf-config",
  matches: isWafConfig,
  check: (root, text, name) => ({
    findings: checkWafConfig(root, text, /validation/i.test(name) ? "validation" : /pending|final/i.test(name) ? "pending" : undefined)
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
    const note = prop.name === "sensitivity" ? sensitivityNote(prop.value.value) : prop.name === "action_mode" ? actionNote(prop.value.value) : undefined
    return note === undefined ? undefined : { markdown: `**After migration**: ${note}`, range: rangeOf(prop.value) }
  }
})

const OVERRIDE_ACTIONS = ["block", "managed_challenge", "js_challenge", "challenge", "log"]

registerJsonFeatures("waf-config", {
  complete: (text, offset): CompletionResult | undefined => {
    const root = parseTree(text)
    if (root === undefined) return undefined
    const node = findNodeAtOffset(root, offset)
    const prop = propertyOf(node)
    if (prop === undefined || prop.value.type !== "string") return undefined
    const owner = prop.value.parent!.parent! // the object holding the property
    const ownerProp = propertyOf(owner)
    const quote = (s: string) => JSON.stringify(s)
    const replace = rangeOf(prop.value)
    if (prop.name === "id" && ownerProp?.name === "action_parameters") {
      return { replace, items: CATALOG.managed.map((m) => ({ label: m.id, kind: "value", detail: m.name, insertText: quote(m.id) })) }
    }
    if (prop.name === "action") {
      const ruleLevel = owner.parent?.type === "array" && propertyOf(owner.parent)?.name === "rules" && propertyOf(owner.parent.parent?.parent)?.name !== "overrides"
      const items = ruleLevel ? ["execute", "skip"] : OVERRIDE_ACTIONS
      return { replace, items: items.map((a) => ({ label: a, kind: "enum", detail: ruleLevel ? "rule action in the managed phase" : "override action", insertText: quote(a) })) }
    }
    if (prop.name === "category") {
      // The categories of the ruleset this override belongs to (the execute rule's action_parameters.id).
      let n: Node | undefined = owner
      while (n !== undefined && propertyOf(n)?.name !== "action_parameters") n = n.parent
      const id = n ? (getNodeValue(n) as { id?: string }).id : undefined
      const ruleset = id ? CATALOG.ruleset(id) : undefined
      const cats = [...new Set((ruleset?.rules ?? CATALOG.managed.flatMap((m) => m.rules)).flatMap((r) => r.categories))].sort()
      return { replace, items: cats.map((c) => ({ label: c, kind: "enum", detail: ruleset ? `category of ${ruleset.name}` : "category", insertText: quote(c) })) }
    }
    return undefined
  }
})
