/**
 * Completion and hover in KV bulk files (`kv bulk put`): the entry's fields with their limits (from
 * src/domain/kv-limits.ts, the numbers the checks and the platform use), and the date an `expiration`
 * means. Listed in ./registry.ts with the other document kinds' features.
 */
import { findNodeAtOffset, getLocation, parseTree, type Node } from "jsonc-parser"
import { KeyMaxBytes, MaxExpiration, MetadataMaxBytes, ValueMaxBytes } from "../domain/kv-limits.js"
import { EntryFields } from "../kv/entry-checks.js"
import type { CompletionResult, JsonFeatures } from "./features.js"
import { rangeOf } from "./json-path.js"

const mib = (n: number) => `${n / 1024 / 1024} MiB`

/** What each field of an entry is, as hover and completion say it. */
export const EntryFieldDocs: Readonly<Record<(typeof EntryFields)[number], string>> = {
  key: `the key: 1 to ${KeyMaxBytes} bytes of UTF-8, not \`.\` or \`..\` (required)`,
  value: `the value: UTF-8 text, or base64 with \`"base64": true\`; up to ${mib(ValueMaxBytes)} (required)`,
  expiration: `when the key expires, in seconds since the Unix epoch: at least 60 s from now, at most ${MaxExpiration}`,
  expiration_ttl: "how long the key lives, in seconds from the write: at least 60",
  metadata: `a JSON object (or null), up to ${MetadataMaxBytes.toLocaleString("en-US")} bytes once serialized`,
  base64: "`true` when `value` is base64 (binary values); the default is `false`"
}

/** The entry object around `offset` in a `[{...}, ...]` file, if the offset is in one. */
const entryAt = (root: Node, offset: number): Node | undefined => {
  let n = findNodeAtOffset(root, offset, true)
  while (n !== undefined && !(n.type === "object" && n.parent === root)) n = n.parent
  return n
}

const fieldsOf = (entry: Node): ReadonlyArray<string> =>
  (entry.children ?? []).map((p) => p.children?.[0]?.value).filter((v): v is string => typeof v === "string")

export const kvBulkFeatures: JsonFeatures = {
  complete: (text, offset): CompletionResult | undefined => {
    const root = parseTree(text)
    if (root === undefined || root.type !== "array") return undefined
    const location = getLocation(text, offset)
    if (!location.isAtPropertyKey || location.path.length !== 2 || typeof location.path[0] !== "number")
      return undefined
    const entry = entryAt(root, offset)
    const typed =
      location.previousNode?.type === "property" || location.previousNode?.type === "string"
        ? location.previousNode
        : undefined
    const present = entry === undefined ? [] : fieldsOf(entry).filter((f) => f !== typed?.value)
    const replace = typed !== undefined ? rangeOf(typed) : { start: offset, end: offset }
    // A key being renamed keeps its `:`; a new one gets it, so the value is typed next.
    const colon = /^\s*:/.test(text.slice(replace.end)) ? "" : ": "
    return {
      replace,
      items: EntryFields.filter((f) => !present.includes(f)).map((f) => ({
        label: f,
        kind: "property" as const,
        detail: EntryFieldDocs[f],
        insertText: `"${f}"${colon}`
      }))
    }
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
