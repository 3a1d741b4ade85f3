/**
 * Completion and hover in KV bulk files (`kv bulk put`): the entry's fields with their limits (from
 * src/domain/kv-limits.ts, the numbers the checks and the platform use), and the date an `expiration`
 * means. Listed in ./registry.ts with the other document kinds' features.
 */
import { findNodeAtOffset, getLocation, parseTree } from "jsonc-parser"
import { MaxExpiration } from "../domain/kv-limits.js"
import { EntryFields } from "../kv/entry-checks.js"
import type { CompletionResult, JsonFeatures } from "./features.js"
import { rangeOf } from "./json-path.js"
import { schemaCompletion } from "./json-schema-complete.js"
import { JSON_SCHEMAS } from "./json-schemas.js"
import { EntryFieldDocs } from "./kv-bulk-docs.js"

export const kvBulkFeatures: JsonFeatures = {
  // The entry's fields from the KV bulk put schema (what `schemas/kv-bulk-put.schema.json` ships).
  complete: (text, offset): CompletionResult | undefined => {
    const location = getLocation(text, offset)
    if (!location.isAtPropertyKey || location.path.length !== 2 || typeof location.path[0] !== "number")
      return undefined
    return schemaCompletion(JSON_SCHEMAS.get("kv-bulk-put.schema.json")!, text, offset)
  },
  hover: (text, offset) => {
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
}
