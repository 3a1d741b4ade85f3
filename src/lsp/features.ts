/**
 * Hover and completion inside documents, from the rules scheme (`locate`, `completions`,
 * `FIELDS`, `FUNCTIONS`), and outside expressions from the features of the document's kind
 * (./registry.ts lists them).
 */
import { completions, locate, managedList, operatorDoc, type CheckOptions, type Completion } from "../rules/index.js"
import type { Analysis, DocumentKind, ExpressionRegion, Range } from "./findings.js"
import { toDecoded, toDocument } from "./json-string.js"

export interface HoverResult {
  readonly markdown: string
  readonly range: Range
}
export interface CompletionResult {
  readonly items: ReadonlyArray<{
    label: string
    kind: Completion["kind"] | "property" | "enum"
    detail: string
    insertText?: string
  }>
  readonly replace: Range
}

type Maybe<A> = A | undefined | Promise<A | undefined>

/**
 * Hover and completion for a document kind (the WAF documents, Terraform), written by the kind's
 * owner; `name` is the document's URI (Terraform reads its module's pin). Terraform's are
 * asynchronous (its parser is).
 */
export interface JsonFeatures {
  readonly hover?: (text: string, offset: number, analysis: Analysis, name?: string) => Maybe<HoverResult>
  readonly complete?: (text: string, offset: number, analysis: Analysis, name?: string) => Maybe<CompletionResult>
  /** Where the reference at `offset` is defined: in this document (`uri` absent) or another. */
  readonly definition?: (
    text: string,
    offset: number,
    name?: string
  ) => Maybe<{ readonly uri?: string; readonly text: string; readonly range: Range }>
}
export type JsonFeaturesByKind = ReadonlyMap<DocumentKind, JsonFeatures>

const regionAt = (analysis: Analysis, offset: number): ExpressionRegion | undefined =>
  analysis.expressions.find((r) => r.offsets[0]! <= offset && offset <= r.offsets[r.offsets.length - 1]!)

export const hover = (
  features: JsonFeaturesByKind,
  text: string,
  offset: number,
  analysis: Analysis,
  options: CheckOptions = {},
  name = ""
): Maybe<HoverResult> => {
  const region = regionAt(analysis, offset)
  if (region !== undefined) {
    const at = toDecoded(region.offsets, offset)
    const loc = locate(region.text, at, options)
    const token = loc.token
    if (token === undefined) return undefined
    const range = toDocument(region.offsets, token.range.start, token.range.end)
    if (loc.field !== undefined) {
      const f = loc.field
      const notes = [
        f.plan ? `plan: ${f.plan}${f.addOn ? " (with an add-on)" : ""}` : undefined,
        f.availability !== "request" ? `available: ${f.availability} phases` : undefined,
        f.replacedBy ? `deprecated: use \`${f.replacedBy}\`` : undefined
      ].filter((x) => x !== undefined)
      return {
        markdown: `\`${f.name}\`: **${f.typeText}**\n\n${f.summary}${notes.length ? `\n\n${notes.join(" · ")}` : ""}`,
        range
      }
    }
    if (loc.function !== undefined)
      return { markdown: `\`\`\`\n${loc.function.signature}\n\`\`\`\n${loc.function.summary}`, range }
    const written = region.text.slice(token.range.start, token.range.end)
    if (token.kind === "operator" || token.kind === "keyword") {
      const op = operatorDoc(written)
      if (op === undefined) return undefined
      const alias = op.name !== written ? ` (\`${op.name}\`)` : ""
      return { markdown: `\`${written}\`${alias}: ${op.detail}\n\nfor ${op.types.join(", ")} values`, range }
    }
    if (token.kind === "list") {
      const name = written.slice(1)
      const lists = options.lists
      const own =
        lists === undefined
          ? undefined
          : lists instanceof Map
            ? lists.get(name)
            : (lists as Readonly<Record<string, string>>)[name]
      const managed = managedList(name)
      const what: Readonly<Record<string, string>> = {
        ip: "an IP list (for IP fields such as `ip.src`)",
        hostname: "a hostname list (for String fields)",
        asn: "an ASN list (for `ip.src.asnum`)"
      }
      const described =
        managed !== undefined
          ? `${what[managed]}, managed by the platform for every account`
          : own !== undefined
            ? `${what[own]}`
            : "a named list of the account (IP addresses, hostnames or ASNs)"
      return { markdown: `\`${written}\`: ${described}\n\nused as \`field in ${written}\``, range }
    }
    return undefined
  }
  if (analysis.kind !== undefined) return features.get(analysis.kind)?.hover?.(text, offset, analysis, name)
  return undefined
}

export const complete = (
  features: JsonFeaturesByKind,
  text: string,
  offset: number,
  analysis: Analysis,
  options: CheckOptions = {},
  name = ""
): Maybe<CompletionResult> => {
  const region = regionAt(analysis, offset)
  if (region !== undefined) {
    const at = toDecoded(region.offsets, offset)
    const c = completions(region.text, at, options)
    return { items: c.items, replace: toDocument(region.offsets, c.replace.start, c.replace.end) }
  }
  if (analysis.kind !== undefined) return features.get(analysis.kind)?.complete?.(text, offset, analysis, name)
  return undefined
}
