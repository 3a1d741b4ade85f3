/**
 * Completion and hover in KV bulk files (`kv bulk put`): the entry's fields with their limits (from
 * src/domain/kv-limits.ts, the numbers the checks and the platform use), and the date an `expiration`
 * means. Listed in ./registry.ts with the other document kinds' features.
 */
import { findNodeAtOffset, getLocation, parseTree } from "jsonc-parser"
import { MaxExpiration } from "../domain/kv-limits.js"
import { EntryFields } from "../kv/entry-checks.js"
import type { CompletionResult, HoverResult, JsonFeatures } from "./features.js"
import type { Analysis, Range } from "./findings.js"
import { rangeOf } from "./json-path.js"
import { schemaCompletion } from "./json-schema-complete.js"
import { JSON_SCHEMAS } from "./json-schemas.js"
import { EntryFieldDocs } from "./kv-bulk-docs.js"

/**
 * The entry around `offset` alone, as a one-entry file (`[` + entry + `]`) and the shift back to
 * document offsets, from the per-entry state the check of this version kept: hover and completion
 * in a 50,000-entry file parse one entry, not the file (0.8-1.6 s a request on 8 MB). `null` when
 * the offset is in no entry; undefined without that state (the whole text is read then).
 */
const entryView = (
  text: string,
  offset: number,
  analysis: Analysis
): { text: string; offset: number; shift: number } | null | undefined => {
  const memo = analysis.memo
  if (memo === undefined || memo.text !== text) return undefined
  const entries = memo.bulk.entries
  let lo = 0
  let hi = entries.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (entries[mid]!.start <= offset) lo = mid
    else hi = mid - 1
  }
  const e = entries[lo]
  if (e === undefined || offset < e.start || offset > e.end) return null
  return { text: `[${text.slice(e.start, e.end)}]`, offset: offset - e.start + 1, shift: e.start - 1 }
}

const shifted = <T extends { range: Range }>(r: T | undefined, by: number): T | undefined =>
  r === undefined ? undefined : { ...r, range: { start: r.range.start + by, end: r.range.end + by } }

/** Runs `f` on the entry around the offset when the check's state has it, else on the whole text. */
const onEntry =
  <T extends { range: Range } | { replace: Range }>(f: (text: string, offset: number) => T | undefined) =>
  (text: string, offset: number, analysis: Analysis): T | undefined => {
    const view = entryView(text, offset, analysis)
    if (view === null) return undefined
    if (view === undefined) return f(text, offset)
    const r = f(view.text, view.offset)
    if (r === undefined) return undefined
    if ("replace" in r)
      return { ...r, replace: { start: r.replace.start + view.shift, end: r.replace.end + view.shift } }
    return shifted(r as T & { range: Range }, view.shift)
  }

// The entry's fields from the KV bulk put schema (what `schemas/kv-bulk-put.schema.json` ships).
const completeIn = (text: string, offset: number): CompletionResult | undefined => {
  const location = getLocation(text, offset)
  if (!location.isAtPropertyKey || location.path.length !== 2 || typeof location.path[0] !== "number") return undefined
  return schemaCompletion(JSON_SCHEMAS.get("kv-bulk-put.schema.json")!, text, offset)
}

const hoverIn = (text: string, offset: number): HoverResult | undefined => {
  const root = parseTree(text)
  if (root === undefined || root.type !== "array") return undefined
  const node = findNodeAtOffset(root, offset)
  const property = node?.parent
  if (node === undefined || property?.type !== "property" || property.parent?.parent !== root) return undefined
  const name = property.children?.[0]?.value as string
  if (!(EntryFields as ReadonlyArray<string>).includes(name)) return undefined
  const doc = EntryFieldDocs[name as (typeof EntryFields)[number]]
  if (property.children?.[0] === node) return { markdown: `\`${name}\`: ${doc}`, range: rangeOf(node) }
  if (
    name === "expiration" &&
    node.type === "number" &&
    Number.isInteger(node.value) &&
    node.value >= 0 &&
    node.value <= MaxExpiration
  ) {
    return {
      markdown: `expires at **${new Date(node.value * 1000).toISOString().replace(".000Z", "Z")}**`,
      range: rangeOf(node)
    }
  }
  if (name === "expiration_ttl" && node.type === "number" && node.value >= 0) {
    const s = node.value as number
    const d = Math.floor(s / 86400),
      h = Math.floor((s % 86400) / 3600),
      m = Math.floor((s % 3600) / 60)
    return {
      markdown: `lives **${[d && `${d} d`, h && `${h} h`, m && `${m} min`, s % 60 && `${s % 60} s`].filter(Boolean).join(" ") || "0 s"}** after the write`,
      range: rangeOf(node)
    }
  }
  return undefined
}

export const kvBulkFeatures: JsonFeatures = { complete: onEntry(completeIn), hover: onEntry(hoverIn) }
