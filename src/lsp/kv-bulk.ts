/**
 * KV bulk files (`[{key, value, ...}]` for `kv bulk put`, `[key or {"name": key}, ...]` for `kv bulk delete|get`):
 * every problem of `src/kv/validate` on the entry and field it concerns, and duplicate keys (the
 * later entry wins: a warning on the earlier one).
 *
 * Each entry's result is kept with ranges relative to the entry, so that an edit inside one entry
 * of a 10,000-entry file re-checks that entry alone (see `recheck`).
 */
import * as Either from "effect/Either"
import { findNodeAtLocation, getNodeValue, parseTree, type Node, type ParseError } from "jsonc-parser"
import { checkEntry, checkKeyItem, EntryFields } from "../kv/entry-checks.js"
import { nowSeconds, showKey, type Problem } from "../kv/validate.js"
import { suggest } from "../rules/scheme.js"
import { finding, type BulkState, type EntryResult, type Finding, type Range } from "./findings.js"
import { decodedOffsets, jsonString, toDocument } from "./json-string.js"

const propsOf = (n: Node): Array<string> =>
  n.type === "object" ? (n.children ?? []).map((p) => p.children?.[0]?.value as string) : []

/** What `kv key list --json` prints for a key: a list of keys is a keys file as it is. */
const KEY_LISTING = new Set(["name", "expiration", "metadata"])

/**
 * A keys file (`kv bulk delete|get`): items are key strings or `{"name": "<key>"}`, as the command
 * reads them. By its first item, which has nothing but a key listing's fields (so that other
 * arrays of named things, a package list, are not taken for one).
 */
const isKeysFile = (first: Node): boolean => {
  if (first.type === "string") return true
  const props = propsOf(first)
  return props.includes("name") && props.every((p) => KEY_LISTING.has(p))
}

/** What a bulk file whose first item is `first` holds: keys, entries, or it is no bulk file. */
export const fileKindOf = (first: Node): "keys" | "entries" | undefined => {
  if (isKeysFile(first)) return "keys"
  if (first.type !== "object") return undefined
  const props = propsOf(first)
  return props.includes("key") && (props.includes("value") || !props.some((p) => p === "expression" || p === "filter"))
    ? "entries"
    : undefined
}

/** True when an array looks like a bulk file: entries with `key` and `value`, or keys (strings or `{"name"}` objects). */
export const isKvBulk = (root: Node): boolean => {
  if (root.type !== "array" || root.children === undefined || root.children.length === 0) return false
  const first = root.children[0]!
  // A `{"name"}` object is distinctive; an array of strings is a keys file while the strings outnumber the other items.
  if (first.type === "string")
    return mostlyKeys(root.children.map((c) => (c.type === "string" || c.type === "object" ? c.type : "other")))
  return fileKindOf(first) !== undefined
}

/**
 * Whether an array that starts with a string is a keys file, by its items' kinds: a stray number
 * among key strings (`["a", "b", 42]`) is a key to report, not a reason to leave the file unchecked,
 * while an array mostly of other things (`["x", 1, 2]`) is some other document.
 */
export const mostlyKeys = (kinds: ReadonlyArray<"string" | "object" | "other">): boolean => {
  let strings = 0
  let others = 0
  for (const k of kinds) {
    if (k === "string") strings++
    else if (k === "other") others++
  }
  return others === 0 || strings > others
}

/**
 * jsonc-parser's settings for bulk files: strict JSON, as `kv bulk put|delete|get` reads them and
 * as the platform's KV tool does (no comments, no trailing commas), so the editor accepts exactly
 * the files the commands accept.
 */
export const STRICT_JSON = { disallowComments: true, allowTrailingComma: false } as const

const propertyNode = (entry: Node, name: string): Node | undefined =>
  entry.type === "object" ? entry.children?.find((p) => p.children?.[0]?.value === name) : undefined

/** The node a problem points at: the field's value, else the entry. */
const target = (entry: Node, p: Problem): Node => {
  if (p.field === "entry") return entry
  // Bad base64 text is the value's problem; a base64 flag that is not a boolean is the flag's.
  const prop = propertyNode(entry, p.field === "base64" && p.limit === "valid base64" ? "value" : p.field)
  return prop?.children?.[1] ?? prop ?? entry
}

/**
 * The range of a problem that names a character (`"@" at character 12` of a base64 value or a
 * key): that character in the file, through the string's escapes. Base64 counts characters
 * without line breaks, as the check reads the value.
 */
const characterRange = (n: Node, p: Problem, text: string): Range | undefined => {
  const m = /at character (\d+)/.exec(p.message)
  if (m === null || n.type !== "string" || text === "") return undefined
  const value = n.value as string
  let k = Number(m[1]) - 1
  if (p.field === "base64" || p.field === "value") {
    for (let i = 0, seen = 0; i < value.length; i++) {
      if (value[i] === "\n" || value[i] === "\r") continue
      if (seen++ === k) {
        k = i
        break
      }
    }
  }
  const offsets = decodedOffsets(text, n.offset, n.length)
  if (k < 0 || k >= offsets.length - 1) return undefined
  return toDocument(offsets, k, k + (value.codePointAt(k)! > 0xffff ? 2 : 1))
}

/** Checks one entry node; ranges are made relative to `base` (the entry's offset in `text`, which its offsets index). */
export const checkElement = (
  node: Node,
  index: number,
  keysOnly: boolean,
  now: number,
  base: number,
  text = ""
): EntryResult => {
  const rel = (n: Node): Range => ({ start: n.offset - base, end: n.offset + n.length - base })
  const relProblem = (n: Node, p: Problem): Range => {
    const r = characterRange(n, p, text)
    return r === undefined ? rel(n) : { start: r.start - base, end: r.end - base }
  }
  const out: Array<Finding> = []
  const value = getNodeValue(node)
  let key: string | undefined
  let keyNode: Node | undefined
  if (keysOnly) {
    const r = checkKeyItem(value, index)
    if (Either.isLeft(r))
      out.push(
        finding(
          "error",
          `kv-${r.left.field}`,
          `entry ${index}: ${r.left.message}`,
          relProblem((node.type === "object" ? findNodeAtLocation(node, ["name"]) : undefined) ?? node, r.left)
        )
      )
    else {
      key = r.right
      keyNode = node.type === "string" ? node : findNodeAtLocation(node, ["name"])
    }
  } else {
    const checked = checkEntry(value, index, now, false)
    for (const p of checked.problems) {
      out.push(
        finding(
          "error",
          `kv-${p.field}`,
          `entry ${index}${p.key !== undefined ? ` (key ${showKey(p.key)})` : ""}: ${p.message}`,
          relProblem(target(node, p), p)
        )
      )
    }
    for (const name of checked.unknown) {
      const nameNode = propertyNode(node, name)!.children![0]!
      const meant = suggest(name, EntryFields)
      out.push(
        finding(
          "warning",
          "kv-unknown-property",
          `entry ${index}: "${name}" is not a bulk entry property; the platform ignores it`,
          rel(nameNode),
          {
            hint: meant !== undefined ? `did you mean \`${meant}\`?` : `the properties are ${EntryFields.join(", ")}`,
            ...(meant !== undefined
              ? {
                  fixes: [
                    {
                      title: `Rename to "${meant}"`,
                      edits: [{ range: rel(nameNode), newText: jsonString(meant) }],
                      preferred: true
                    }
                  ]
                }
              : {})
          }
        )
      )
    }
    if (checked.problems.every((p) => p.field !== "key") && typeof (value as { key?: unknown }).key === "string") {
      key = (value as { key: string }).key
      keyNode = findNodeAtLocation(node, ["key"])
    }
  }
  return {
    start: node.offset,
    end: node.offset + node.length,
    key,
    keyRange: keyNode ? rel(keyNode) : undefined,
    findings: out
  }
}

/** `text`: the document (to place problems that name a character); without it they cover their value. */
export const checkKvBulk = (root: Node, now = nowSeconds(), text = ""): BulkState => {
  const keysOnly = isKeysFile(root.children![0]!)
  return {
    keysOnly,
    entries: root.children!.map((node, index) => checkElement(node, index, keysOnly, now, node.offset, text))
  }
}

/**
 * The state after an edit (`from`..`to` of the old text replaced by `inserted` characters), checking
 * again only what the edit touches; undefined when the edit needs a full check.
 */
export type Recheck = (
  previous: BulkState,
  text: string,
  from: number,
  to: number,
  inserted: number,
  now?: number
) => BulkState | undefined

/** Whether `node` can be an entry of the file (a keys file also takes bare strings). */
export const fitsFile = (previous: BulkState, node: Node): boolean =>
  previous.keysOnly ? node.type === "string" || node.type === "object" : node.type === "object"

/** Whether `node`, as the first entry, keeps the file's kind (the first entry decides it). */
export const keepsKind = (previous: BulkState, node: Node): boolean =>
  fileKindOf(node) === (previous.keysOnly ? "keys" : "entries")

export const shiftEntry = (e: EntryResult, delta: number): EntryResult =>
  delta === 0 ? e : { ...e, start: e.start + delta, end: e.end + delta }

/** An edit that stays inside one entry: that entry alone; undefined when it crosses entries or leaves invalid JSON. */
export const recheck: Recheck = (previous, text, from, to, inserted, now = nowSeconds()) => {
  const entries = previous.entries
  let lo = 0
  let hi = entries.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (entries[mid]!.start <= from) lo = mid
    else hi = mid - 1
  }
  const old = entries[lo]
  if (old === undefined || from < old.start || to > old.end) return undefined
  const delta = inserted - (to - from)
  const elementText = text.slice(old.start, old.end + delta)
  const errors: Array<ParseError> = []
  const node = parseTree(elementText, errors, STRICT_JSON)
  if (node === undefined || errors.length > 0 || node.length !== elementText.length) return undefined
  if (!fitsFile(previous, node)) return undefined
  // An edit that changes the file's kind is checked in full.
  if (lo === 0 && !keepsKind(previous, node)) return undefined
  const fresh = checkElement(node, lo, previous.keysOnly, now, 0, elementText)
  const next = entries.slice()
  next[lo] = { ...fresh, start: old.start, end: old.end + delta }
  if (delta !== 0) for (let i = lo + 1; i < next.length; i++) next[i] = shiftEntry(next[i]!, delta)
  // A keystroke in a value leaves every key where it was: the duplicate keys carry over.
  const dups = duplicates.get(entries)
  if (dups !== undefined && fresh.key === old.key && (fresh.keyRange === undefined) === (old.keyRange === undefined))
    duplicates.set(next, dups)
  return { keysOnly: previous.keysOnly, entries: next }
}

/**
 * The entries whose key a later entry writes again, each with the index of the last one that
 * writes it, in entry order; per entries array: built once for a file's state, and carried over
 * by an edit that changes no key. A keystroke's check then walks the entries for their own
 * findings only: looking up each of 50,000 keys cost 10 ms a check.
 */
const duplicates = new WeakMap<ReadonlyArray<EntryResult>, ReadonlyArray<readonly [number, number]>>()
const duplicatesOf = (entries: ReadonlyArray<EntryResult>): ReadonlyArray<readonly [number, number]> => {
  let d = duplicates.get(entries)
  if (d === undefined) {
    const last = new Map<string, number>()
    for (let i = 0; i < entries.length; i++) {
      const key = entries[i]!.key
      if (key !== undefined) last.set(key, i)
    }
    const built: Array<readonly [number, number]> = []
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!
      if (e.key === undefined || e.keyRange === undefined) continue
      const l = last.get(e.key)!
      if (l !== i) built.push([i, l])
    }
    duplicates.set(entries, (d = built))
  }
  return d
}

const shift = (r: Range, by: number): Range => ({ start: r.start + by, end: r.end + by })

/** The findings of a bulk file: each entry's, in document offsets, and the duplicate keys. */
export const bulkFindings = (state: BulkState): Array<Finding> => {
  const out: Array<Finding> = []
  const { entries } = state
  const dups = duplicatesOf(entries)
  let next = 0
  for (let index = 0; index < entries.length; index++) {
    const e = entries[index]!
    for (const f of e.findings) {
      out.push({
        ...f,
        range: shift(f.range, e.start),
        ...(f.fixes
          ? {
              fixes: f.fixes.map((x) =>
                x.edits ? { ...x, edits: x.edits.map((ed) => ({ ...ed, range: shift(ed.range, e.start) })) } : x
              )
            }
          : {})
      })
    }
    if (dups[next]?.[0] !== index) continue
    const last = dups[next++]![1]
    const key = e.key!
    const later = entries[last]!
    out.push(
      finding(
        "warning",
        "kv-duplicate-key",
        `entry ${index}: key ${showKey(key)} is written again by entry ${last}, which wins`,
        shift(e.keyRange!, e.start),
        {
          hint: "remove this entry or the later one",
          related: [
            { range: shift(later.keyRange!, later.start), message: `entry ${last} writes key ${showKey(key)} last` }
          ],
          fixes: state.keysOnly
            ? []
            : [
                {
                  title: `Remove entry ${index} (overwritten by entry ${last})`,
                  edits: [{ range: removalRange(entries, index), newText: "" }]
                }
              ]
        }
      )
    )
  }
  return out
}

/** The text to delete to remove entry `index`, with its separating comma. */
const removalRange = (entries: ReadonlyArray<EntryResult>, index: number): Range => {
  const item = entries[index]!
  if (index + 1 < entries.length) return { start: item.start, end: entries[index + 1]!.start }
  if (index > 0) return { start: entries[index - 1]!.end, end: item.end }
  return { start: item.start, end: item.end }
}
