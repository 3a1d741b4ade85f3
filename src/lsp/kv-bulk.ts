/**
 * KV bulk files (`[{key, value, ...}]` for `kv bulk put`, `[key, ...]` for `kv bulk delete`):
 * every problem of `src/kv/validate` on the entry and field it concerns, and duplicate keys (the
 * later entry wins: a warning on the earlier one).
 */
import { findNodeAtLocation, getNodeValue, type Node } from "jsonc-parser"
import { checkEntry, checkKeyItem, EntryFields, nowSeconds, showKey, type Problem } from "../kv/validate.js"
import { suggest } from "../rules/scheme.js"
import { finding, type Finding, type Range } from "./findings.js"
import { jsonString } from "./json-string.js"

const rangeOf = (n: Node): Range => ({ start: n.offset, end: n.offset + n.length })

/** True when an array looks like a bulk file: entries with `key` and `value`, or key strings. */
export const isKvBulk = (root: Node): boolean => {
  if (root.type !== "array" || root.children === undefined || root.children.length === 0) return false
  const first = root.children[0]!
  if (first.type === "string") return root.children.every((c) => c.type === "string" || c.type === "object")
  if (first.type !== "object") return false
  const props = (first.children ?? []).map((p) => p.children?.[0]?.value as string)
  return props.includes("key") && (props.includes("value") || !props.some((p) => p === "expression" || p === "filter"))
}

const propertyNode = (entry: Node, name: string): Node | undefined =>
  entry.type === "object" ? entry.children?.find((p) => p.children?.[0]?.value === name) : undefined

/** The node a problem points at: the field's value, else the entry. */
const target = (entry: Node, p: Problem): Node => {
  if (p.field === "entry") return entry
  // Bad base64 text is the value's problem; a base64 flag that is not a boolean is the flag's.
  const prop = propertyNode(entry, p.field === "base64" && p.limit === "valid base64" ? "value" : p.field)
  return prop?.children?.[1] ?? prop ?? entry
}

export const checkKvBulk = (root: Node, now = nowSeconds()): Array<Finding> => {
  const out: Array<Finding> = []
  const keys = root.children!
  const keysOnly = keys[0]!.type === "string"
  const lastIndex = new Map<string, number>()
  const keyNodes: Array<Node | undefined> = []
  keys.forEach((node, index) => {
    const value = getNodeValue(node)
    let key: string | undefined
    let keyNode: Node | undefined
    if (keysOnly) {
      const r = checkKeyItem(value, index)
      if ("field" in r) out.push(finding("error", `kv-${r.field}`, `entry ${index}: ${r.message}`, rangeOf(node)))
      else key = r.key
      keyNode = node.type === "string" ? node : findNodeAtLocation(node, ["name"])
    } else {
      const checked = checkEntry(value, index, now, false)
      for (const p of checked.problems) {
        out.push(finding("error", `kv-${p.field}`, `entry ${index}${p.key !== undefined ? ` (key ${showKey(p.key)})` : ""}: ${p.message}`, rangeOf(target(node, p))))
      }
      for (const name of checked.unknown) {
        const prop = propertyNode(node, name)!
        const nameNode = prop.children![0]!
        const meant = suggest(name, EntryFields)
        out.push(
          finding("warning", "kv-unknown-property", `entry ${index}: "${name}" is not a bulk entry property; the platform ignores it`, rangeOf(nameNode), {
            hint: meant !== undefined ? `did you mean \`${meant}\`?` : `the properties are ${EntryFields.join(", ")}`,
            ...(meant !== undefined ? { fixes: [{ title: `Rename to "${meant}"`, edits: [{ range: rangeOf(nameNode), newText: jsonString(meant) }], preferred: true }] } : {})
          })
        )
      }
      if (checked.problems.every((p) => p.field !== "key") && value !== null && typeof value === "object" && typeof (value as { key?: unknown }).key === "string") {
        key = (value as { key: string }).key
        keyNode = findNodeAtLocation(node, ["key"])
      }
    }
    keyNodes.push(keyNode)
    if (key !== undefined) lastIndex.set(key, index)
  })
  keyNodes.forEach((node, index) => {
    if (node === undefined) return
    const key = getNodeValue(node) as string
    const last = lastIndex.get(key)
    if (last === undefined || last === index) return
    const later = keyNodes[last]!
    out.push(
      finding("warning", "kv-duplicate-key", `entry ${index}: key ${showKey(key)} is written again by entry ${last}, which wins`, rangeOf(node), {
        hint: "remove this entry or the later one",
        related: [{ range: rangeOf(later), message: `entry ${last} writes key ${showKey(key)} last` }],
        fixes: keysOnly ? [] : [{ title: `Remove entry ${index} (overwritten by entry ${last})`, edits: [{ range: removalRange(root, index), newText: "" }] }]
      })
    )
  })
  return out
}

/** The text to delete to remove element `index` of an array, with its separating comma. */
const removalRange = (array: Node, index: number): Range => {
  const items = array.children!
  const item = items[index]!
  if (index + 1 < items.length) return { start: item.offset, end: items[index + 1]!.offset }
  if (index > 0) {
    const prev = items[index - 1]!
    return { start: prev.offset + prev.length, end: item.offset + item.length }
  }
  return rangeOf(item)
}
