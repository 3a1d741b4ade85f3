/**
 * A structural edit of a KV bulk file (entries inserted, removed or replaced, a paste over several
 * entries): the entries before and after the edit are kept (those after shifted, renumbered in
 * their messages), and only the text in between is parsed and checked. Without it such an edit of
 * a 50,000-entry file parsed the whole file into a tree again: 250+ ms, and a peak of garbage that
 * the process kept as resident memory (the 421 MiB of issue 17).
 */
import { parseTree, type Node, type ParseError } from "jsonc-parser"
import { nowSeconds } from "../kv/validate.js"
import { checkElement, fitsFile, keepsKind, shiftEntry, STRICT_JSON, type Recheck } from "./kv-bulk.js"
import type { EntryResult } from "./findings.js"

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9

/** Strips white space and at most one comma from the start (`head`) or end (`tail`) of a fragment. */
const stripSeparator = (s: string, fromStart: boolean): { text: string; cut: number; comma: boolean } => {
  let i = fromStart ? 0 : s.length - 1
  const step = fromStart ? 1 : -1
  while (i >= 0 && i < s.length && isSpace(s.charCodeAt(i))) i += step
  const comma = s[i] === ","
  if (comma) i += step
  return fromStart ? { text: s.slice(i), cut: i, comma } : { text: s.slice(0, i + 1), cut: 0, comma }
}

/** Renumbers `entry N:` in an entry's messages (its index moved by an insertion or removal before it). */
const renumber = (e: EntryResult, index: number): EntryResult =>
  e.findings.length === 0
    ? e
    : { ...e, findings: e.findings.map((f) => ({ ...f, message: f.message.replace(/^entry \d+/, `entry ${index}`) })) }

/**
 * An edit across entries: the entries it touches; undefined when the edit reaches the brackets,
 * leaves invalid JSON, or changes the first entry's kind (then the file is checked in full).
 */
export const recheckSpan: Recheck = (previous, text, from, to, inserted, now = nowSeconds()) => {
  const entries = previous.entries
  const n = entries.length
  if (n === 0) return undefined
  const delta = inserted - (to - from)
  // a: the first entry the edit reaches (entries before it end at or before `from`); b: the first entirely after it.
  const a = bisect(entries, from, 0)
  let b = a
  while (b < n && entries[b]!.start < to) b++
  let regionStart: number
  if (a > 0) regionStart = entries[a - 1]!.end
  else {
    let open = 0
    while (open < text.length && isSpace(text.charCodeAt(open))) open++
    if (text[open] !== "[" || open >= from) return undefined
    regionStart = open + 1
  }
  let regionEnd: number
  if (b < n) regionEnd = entries[b]!.start + delta
  else {
    regionEnd = text.lastIndexOf("]")
    if (regionEnd < from + inserted || text.slice(regionEnd + 1).trim() !== "") return undefined
  }
  if (regionEnd < regionStart) return undefined
  let fragment = text.slice(regionStart, regionEnd)
  let offset = regionStart
  // Between kept entries the fragment is `, new entries ,` or a lone comma; at either end of the array, no comma there.
  const needHead = a > 0
  const needTail = b < n
  const empty = needHead && needTail ? fragment.trim() === "," : fragment.trim() === ""
  if (empty && !needHead && !needTail) return undefined
  if (!empty) {
    if (needHead) {
      const head = stripSeparator(fragment, true)
      if (!head.comma) return undefined
      fragment = head.text
      offset += head.cut
    }
    if (needTail) {
      const tail = stripSeparator(fragment, false)
      if (!tail.comma) return undefined
      fragment = tail.text
    }
    // A separator with no entry after it (a trailing comma) is a syntax error: the full check words it.
    if (fragment.trim() === "") return undefined
  } else fragment = ""
  const errors: Array<ParseError> = []
  const wrapped = `[${fragment}]`
  const root = parseTree(wrapped, errors, STRICT_JSON)
  if (root === undefined || errors.length > 0 || root.type !== "array" || root.length !== wrapped.length)
    return undefined
  const nodes: ReadonlyArray<Node> = root.children ?? []
  if (!nodes.every((node) => fitsFile(previous, node))) return undefined
  // An edit that changes the file's kind is checked in full.
  if (a === 0 && (nodes.length === 0 || !keepsKind(previous, nodes[0]!))) return undefined
  const fresh = nodes.map((node, k) => {
    const e = checkElement(node, a + k, previous.keysOnly, now, node.offset, wrapped)
    return { ...e, start: offset + node.offset - 1, end: offset + node.offset - 1 + node.length }
  })
  const moved = fresh.length - (b - a)
  const next: Array<EntryResult> = entries.slice(0, a)
  next.push(...fresh)
  for (let i = b; i < n; i++) {
    const shifted = shiftEntry(entries[i]!, delta)
    next.push(moved === 0 ? shifted : renumber(shifted, i + moved))
  }
  return { keysOnly: previous.keysOnly, entries: next }
}

/** The first entry from `lo` on whose end is after `at` (entries are in document order). */
const bisect = (entries: ReadonlyArray<EntryResult>, at: number, lo: number): number => {
  let hi = entries.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (entries[mid]!.end <= at) lo = mid + 1
    else hi = mid
  }
  return lo
}
