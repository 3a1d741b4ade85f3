/**
 * Rule expressions in documents: a whole `*.rules` file, or a JSON string (a firewall rule's
 * `filter.expression`, a filter's `expression`, a WAF rule's `expression`). Diagnostics come
 * from `src/rules` `check` and are mapped onto the document exactly.
 */
import { check, type CheckOptions, type CheckResult, type Diagnostic } from "../rules/index.js"
import { finding, type ExpressionRegion, type Finding, type Fix } from "./findings.js"
import { jsonString, toDocument } from "./json-string.js"

const SUGGESTION = /did you mean `([^`]+)`\?/

/** The region of a whole `*.rules` document: every character is the expression's. */
export const wholeDocument = (text: string): ExpressionRegion => {
  const offsets = new Array<number>(text.length + 1)
  for (let i = 0; i <= text.length; i++) offsets[i] = i
  return { text, offsets }
}

const fixesOf = (d: Diagnostic, docRange: { start: number; end: number }, inJson: boolean): Array<Fix> => {
  const m = d.hint === undefined ? null : SUGGESTION.exec(d.hint)
  if (m === null) return []
  // Inside a JSON string the replacement is written escaped (its quotes stripped).
  const newText = inJson ? jsonString(m[1]!).slice(1, -1) : m[1]!
  return [{ title: `Change to \`${m[1]}\``, edits: [{ range: docRange, newText }], preferred: true }]
}

/** Checks one expression and returns its diagnostics in document offsets (`checker`: one that keeps its answers for others). */
export const checkExpression = (
  region: ExpressionRegion,
  inJson: boolean,
  options: CheckOptions = {},
  checker: (text: string, options: CheckOptions) => CheckResult = check
): Array<Finding> => {
  // A rules file usually ends with a newline: not part of the expression.
  const text = inJson ? region.text : region.text.replace(/\s+$/, "")
  const result = checker(text, options)
  return result.diagnostics.map((d) => {
    const range = toDocument(region.offsets, d.range.start, d.range.end)
    return finding(d.severity, d.code, d.message, range, { hint: d.hint, fixes: fixesOf(d, range, inJson) })
  })
}
