/**
 * The checks of the WAF documents (kinds 3 and 4) and the hover of a WAF export, for ./registry.ts:
 * they are built on `src/waf` (the migration mapping), which owns their meaning.
 */
import { findNodeAtOffset, parseTree, type Node } from "jsonc-parser"
import type { JsonFeatures } from "./features.js"
import type { JsonCheck } from "./json-doc.js"
import { rangeOf } from "./json-path.js"
import { checkWafConfig, isWafConfig } from "./waf-config.js"
import { actionNote, checkWafExport, isWafExport, sensitivityNote } from "./waf-export.js"

export const wafExportCheck: JsonCheck = {
  kind: "waf-export",
  matches: isWafExport,
  check: (root, _text, name) => checkWafExport(root, name)
}

export const wafConfigCheck: JsonCheck = {
  kind: "waf-config",
  matches: isWafConfig,
  check: (root, text, name) => ({
    findings: checkWafConfig(
      root,
      text,
      /validation/i.test(name) ? "validation" : /pending|final/i.test(name) ? "pending" : undefined
    )
  })
}

const propertyOf = (n: Node | undefined): { name: string; value: Node } | undefined => {
  const p = n?.parent
  if (p?.type !== "property" || p.children?.[1] !== n) return undefined
  return { name: p.children![0]!.value as string, value: n! }
}

export const wafExportFeatures: JsonFeatures = {
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
}
