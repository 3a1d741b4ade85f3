/**
 * JSON documents: firewall-rule, filter and ruleset bodies (./platform-json.ts says which JSON
 * is one), KV bulk files, and the WAF documents. Parsed once with jsonc-parser, which keeps
 * every node's offset, so findings point at the property they concern.
 */
import { parseTree, printParseErrorCode, visit, type Node, type ParseError } from "jsonc-parser"
import { JsonMaxDepth, jsonTooDeepAt } from "../domain/json-depth.js"
import { jsonErrorReason } from "../kv/json-array.js"
import type { CheckOptions } from "../rules/index.js"
import { checkExpression } from "./expressions.js"
import {
  finding,
  type Analysis,
  type BulkState,
  type DocumentKind,
  type ExpressionRegion,
  type Finding,
  type Fix,
  type Memo
} from "./findings.js"
import { customRulesJsonFix } from "./firewall-custom-json.js"
import { firewallJsonFinding } from "./firewall-unsupported.js"
import { decodedOffsets } from "./json-string.js"
import { bulkFindings, checkKvBulk, isKvBulk, recheck, STRICT_JSON } from "./kv-bulk.js"
import { recheckSpan } from "./kv-bulk-splice.js"
import { checkKvBulkText } from "./kv-bulk-stream.js"
import { checkFirewallFields, expressionNodes, rulesDocument } from "./platform-json.js"

/** A check of a kind of JSON document that another module owns (the WAF documents; ./registry.ts lists them). */
export interface JsonCheck {
  readonly kind: DocumentKind
  readonly matches: (root: Node) => boolean
  readonly check: (
    root: Node,
    text: string,
    name: string
  ) => { readonly findings: ReadonlyArray<Finding>; readonly actions?: ReadonlyArray<Fix> }
}

/** The syntax errors of strict JSON (what `kv bulk` commands accept), without building a tree. */
const strictErrors = (text: string): Array<ParseError> => {
  const errors: Array<ParseError> = []
  visit(text, { onError: (error, offset, length) => errors.push({ error, offset, length }) }, STRICT_JSON)
  return errors
}

/**
 * The first syntax error only: the parser's recovery makes the next ones echoes of it (an unclosed
 * string is also a missing comma and a missing bracket). Worded as `kv bulk` words them.
 */
const syntaxFindings = (text: string, errors: ReadonlyArray<ParseError>): Array<Finding> => {
  const e = errors[0]
  if (e === undefined) return []
  const name = printParseErrorCode(e.error)
  const closing = text[e.offset] === "]" || text[e.offset] === "}"
  if ((name === "ValueExpected" || name === "PropertyNameExpected") && closing) {
    let comma = e.offset - 1
    while (comma > 0 && /\s/.test(text[comma]!)) comma--
    if (text[comma] === ",")
      return [
        finding(
          "error",
          "json-syntax",
          "invalid JSON: a trailing comma is not JSON",
          { start: comma, end: comma + 1 },
          { hint: "remove the comma" }
        )
      ]
  }
  return [
    finding("error", "json-syntax", `invalid JSON: ${jsonErrorReason(e.error)}`, {
      start: e.offset,
      end: e.offset + Math.max(1, e.length)
    })
  ]
}

/** Characters compared at once (as strings: the engine compares them natively) before one by one. */
const CHUNK = 8192

/**
 * The changed span between two texts: `[from, to)` of the old one became `inserted` characters.
 * Compared a chunk at a time: on an 8 MB file a character loop cost 25 ms a keystroke.
 */
const changedSpan = (before: string, after: string) => {
  const max = Math.min(before.length, after.length)
  let from = 0
  while (from + CHUNK <= max && before.slice(from, from + CHUNK) === after.slice(from, from + CHUNK)) from += CHUNK
  while (from < max && before.charCodeAt(from) === after.charCodeAt(from)) from++
  const room = max - from
  let tail = 0
  while (
    tail + CHUNK <= room &&
    before.slice(before.length - tail - CHUNK, before.length - tail) ===
      after.slice(after.length - tail - CHUNK, after.length - tail)
  )
    tail += CHUNK
  while (tail < room && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail))
    tail++
  return { from, to: before.length - tail, inserted: after.length - tail - from }
}

/**
 * Whether an edit of a bulk file whose last version nested within the limit may nest deeper: only
 * the new text from the start of the entry it begins in can (the file's entries start at depth 1,
 * outside any string); an edit that unbalances brackets fails the entry's parse and is checked whole.
 */
const editTooDeep = (bulk: BulkState, text: string, from: number, inserted: number): boolean => {
  const entries = bulk.entries
  if (entries.length === 0 || from < entries[0]!.start) return true
  let lo = 0
  let hi = entries.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (entries[mid]!.start <= from) lo = mid
    else hi = mid - 1
  }
  const e = entries[lo]!
  const start = from <= e.end ? e.start : from
  return jsonTooDeepAt(text.slice(start, from + inserted), JsonMaxDepth - 1) >= 0
}

/** A bulk file edited inside one entry: that entry alone is checked again; across entries, those the edit touches. */
const incremental = (text: string, memo: Memo | undefined): Analysis | undefined => {
  if (memo === undefined) return undefined
  const span = changedSpan(memo.text, text)
  if (editTooDeep(memo.bulk, text, span.from, span.inserted)) return undefined
  const bulk =
    recheck(memo.bulk, text, span.from, span.to, span.inserted) ??
    recheckSpan(memo.bulk, text, span.from, span.to, span.inserted)
  if (bulk === undefined) return undefined
  return {
    kind: "kv-bulk",
    findings: bulkFindings(bulk).sort((a, b) => a.range.start - b.range.start),
    expressions: [],
    memo: { text, bulk }
  }
}

/** `checks`: the kinds other modules own, tried first (none: the rules bodies and KV bulk files only). */
export const analyzeJson = (
  text: string,
  options: CheckOptions = {},
  name = "",
  memo?: Memo,
  checks: ReadonlyArray<JsonCheck> = []
): Analysis => {
  // An edit of a bulk file checked before: its entries again (the depth of what the edit wrote included).
  const quick = incremental(text, memo)
  if (quick !== undefined) return quick
  // The parser recurses: a file nested thousands of levels would exhaust its stack.
  const deep = jsonTooDeepAt(text, JsonMaxDepth)
  if (deep >= 0) {
    const message = `JSON nested more than ${JsonMaxDepth} levels deep (arrays and objects): the limit is ${JsonMaxDepth}, as the platform's API takes`
    return {
      kind: undefined,
      findings: [finding("error", "json-syntax", message, { start: deep, end: deep + 1 })],
      expressions: []
    }
  }
  const streamed = checkKvBulkText(text)
  if (streamed !== undefined)
    return {
      kind: "kv-bulk",
      findings: bulkFindings(streamed).sort((a, b) => a.range.start - b.range.start),
      expressions: [],
      memo: { text, bulk: streamed }
    }
  let errors: Array<ParseError> = []
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false })
  const findings: Array<Finding> = []
  if (root === undefined) return { kind: undefined, findings: syntaxFindings(text, errors), expressions: [] }
  let kind: DocumentKind = "json"
  let actions: ReadonlyArray<Fix> | undefined
  let nextMemo: Memo | undefined
  const extra = checks.find((c) => c.matches(root))
  if (extra !== undefined) {
    kind = extra.kind
    const r = extra.check(root, text, name)
    findings.push(...r.findings)
    actions = r.actions
  } else if (isKvBulk(root)) {
    kind = "kv-bulk"
    errors = strictErrors(text)
    const bulk = checkKvBulk(root, undefined, text)
    findings.push(...bulkFindings(bulk))
    if (errors.length === 0) nextMemo = { text, bulk }
  }
  // The WAF documents are the platform's throughout; other JSON only where it has a rules document's shape.
  let expressionStrings: ReadonlyArray<Node> = extra !== undefined ? expressionNodes(root) : []
  if (kind === "json") {
    const doc = rulesDocument(root)
    if (doc !== undefined) {
      kind = "rules-json"
      expressionStrings = doc.expressions
      findings.push(...checkFirewallFields(doc))
      const unsupported = firewallJsonFinding(doc, customRulesJsonFix(root, doc, name))
      if (unsupported !== undefined) findings.push(unsupported)
    }
  }
  const expressions: Array<ExpressionRegion> = []
  for (const node of expressionStrings) {
    const region = { text: node.value as string, offsets: decodedOffsets(text, node.offset, node.length) }
    expressions.push(region)
    findings.push(...checkExpression(region, true, options))
  }
  findings.push(...syntaxFindings(text, errors))
  findings.sort((a, b) => a.range.start - b.range.start)
  return {
    kind,
    findings,
    expressions,
    ...(actions !== undefined && actions.length > 0 ? { actions } : {}),
    ...(nextMemo ? { memo: nextMemo } : {})
  }
}
