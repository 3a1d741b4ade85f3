/**
 * A whole KV bulk file checked one entry at a time: a streaming scan finds the array's elements,
 * and each is parsed and checked alone, so a 50,000-entry file never exists as one tree (its
 * half-million nodes were the peak that made the server's resident memory 421 MiB). Only files that
 * are strict JSON arrays and bulk files by their first entry take this path; anything else is left
 * to the full parse, which words the syntax errors and recognises the other documents.
 */
import { parseTree, visit } from "jsonc-parser"
import { nowSeconds } from "../kv/validate.js"
import type { BulkState, EntryResult } from "./findings.js"
import { checkElement, fileKindOf, mostlyKeys, STRICT_JSON } from "./kv-bulk.js"

export const checkKvBulkText = (text: string, now = nowSeconds()): BulkState | undefined => {
  let i = 0
  while (i < text.length && /\s/.test(text[i]!)) i++
  if (text[i] !== "[") return undefined
  const spans: Array<{ start: number; end: number; kind: "object" | "string" | "other" }> = []
  let depth = 0
  let objectStart = -1
  let failed = false
  visit(
    text,
    {
      onObjectBegin: (offset) => {
        if (depth === 1) objectStart = offset
        depth++
      },
      onObjectEnd: (offset, length) => {
        depth--
        if (depth === 1) spans.push({ start: objectStart, end: offset + length, kind: "object" })
      },
      onArrayBegin: () => {
        if (depth === 1) failed = true
        depth++
      },
      onArrayEnd: () => {
        depth--
      },
      onLiteralValue: (value, offset, length) => {
        if (depth === 1)
          spans.push({ start: offset, end: offset + length, kind: typeof value === "string" ? "string" : "other" })
        else if (depth === 0) failed = true
      },
      onError: () => {
        failed = true
      }
    },
    STRICT_JSON
  )
  if (failed || spans.length === 0) return undefined
  const parse = (s: { start: number; end: number }) => {
    const slice = text.slice(s.start, s.end)
    return { slice, node: parseTree(slice, [], STRICT_JSON)! }
  }
  const first = parse(spans[0]!)
  const kind = first.node.type === "string" ? "keys" : fileKindOf(first.node)
  if (kind === undefined) return undefined
  const keysOnly = kind === "keys"
  if (keysOnly ? !mostlyKeys(spans.map((s) => s.kind)) : first.node.type !== "object") return undefined
  const entries: Array<EntryResult> = spans.map((s, index) => {
    const { slice, node } = index === 0 ? first : parse(s)
    return { ...checkElement(node, index, keysOnly, now, 0, slice), start: s.start, end: s.end }
  })
  return { keysOnly, entries }
}
