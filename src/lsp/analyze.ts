/** Which checks a document gets, from its name and content. */
import type { CheckOptions } from "../rules/index.js"
import { checkExpression, wholeDocument } from "./expressions.js"
import type { Analysis, Memo } from "./findings.js"
import { analyzeJson } from "./json-doc.js"
import type { DocumentRegistry } from "./registry.js"
import { analyzeTerraform } from "./terraform/analyze.js"

export type DocumentSyntax = "rules" | "json" | "terraform"

/** The syntax of a document by its path or URI (`languageId` from an editor wins when it says json or terraform). */
export const syntaxOf = (name: string, languageId?: string): DocumentSyntax | undefined => {
  const lower = name.toLowerCase()
  if (lower.endsWith(".rules")) return "rules"
  if (lower.endsWith(".tf") || lower.endsWith(".tf.json") || languageId === "terraform" || languageId === "hcl")
    return "terraform"
  if (lower.endsWith(".json") || lower.endsWith(".jsonc") || languageId === "json" || languageId === "jsonc")
    return "json"
  return undefined
}

/** `name`: the document's path or URI (files the checks offer to write are named after it). */
export const analyze = async (
  registry: DocumentRegistry,
  syntax: DocumentSyntax,
  text: string,
  options: CheckOptions = {},
  name = "",
  memo?: Memo
): Promise<Analysis> => {
  const analysis = await analyzeSyntax(registry, syntax, text, options, name, memo)
  // A KV bulk file is data (keys and values), not configuration; and it can be large, checked
  // entry by entry against its memo: the scanner does not read it on every change.
  if (analysis.kind === "kv-bulk") return analysis
  const fallback = syntax === "json" ? "json" : syntax === "rules" ? "rules" : "terraform"
  const own = analysis.deprecations ?? []
  const scanned = registry.deprecations(
    text,
    name,
    own.length === 0 ? analysis.findings : [...analysis.findings, ...own],
    fallback
  )
  const deprecated = own.length === 0 ? scanned : [...own, ...scanned].sort((a, b) => a.range.start - b.range.start)
  return deprecated.length === 0 ? analysis : { ...analysis, findings: [...analysis.findings, ...deprecated] }
}

const analyzeSyntax = async (
  registry: DocumentRegistry,
  syntax: DocumentSyntax,
  text: string,
  options: CheckOptions,
  name: string,
  memo?: Memo
): Promise<Analysis> => {
  switch (syntax) {
    case "rules": {
      const region = wholeDocument(text)
      return { kind: "rules", findings: checkExpression(region, false, options), expressions: [region] }
    }
    case "json":
      return analyzeJson(text, options, name, memo, registry.jsonChecks)
    case "terraform":
      return analyzeTerraform(text, name, options, registry.terraform)
  }
}

/**
 * A document of none of the syntaxes above that the deprecation scanner reads (a shell script, a
 * program, a wrangler or CI configuration): the editor shows its deprecations, nothing else.
 */
export const analyzeSource = (registry: DocumentRegistry, text: string, name: string): Analysis => ({
  kind: undefined,
  findings: registry.deprecations(text, name, []),
  expressions: []
})
