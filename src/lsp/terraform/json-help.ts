/**
 * The Terraform help of ./help.ts in Terraform's JSON syntax (`*.tf.json`): hover on a
 * known resource's type key and its attribute keys, completion of the attribute keys an object of
 * the resource does not have yet (as the provider version the file or its module pins has them),
 * and go to definition from a reference inside a string (`"${cloudflare_filter.x.id}"`) to the
 * resource it names. Where `.tf` reads the HCL tree, this reads jsonc-parser's (tolerant: a
 * half-typed key still has its place).
 */
import { findNodeAtOffset, getLocation, getNodePath, parseTree, type Node, type Segment } from "jsonc-parser"
import type { CompletionResult, HoverResult } from "../features.js"
import { rangeOf } from "../json-path.js"
import { decodedOffsets, toDecoded } from "../json-string.js"
import { jsonResourceRange } from "./json-resources.js"
import { resourceDefinition, type DefinitionResult } from "./definition.js"
import { describe, majorOfPin, resourceDoc } from "./docs.js"
import type { Major } from "./attributes.js"
import { attributesAt, terraformResource } from "./schema.js"
import { jsonPinNode, modulePin, type ModulePins } from "./version.js"

/** The provider major the file pins (`terraform.required_providers`), else its module's. */
const majorFor = async (root: Node, name: string, pins: ModulePins): Promise<Major> => {
  const own = jsonPinNode(root)?.value
  return majorOfPin(typeof own === "string" ? own : (await modulePin(name, pins))?.constraint)
}

/**
 * A path in the file as the resource's schema reads it: `resource`, the type, the name, then the
 * nested block or object names. Terraform JSON lets any level be an array of objects: the indices
 * are left out. Undefined outside a resource.
 */
const resourcePath = (path: ReadonlyArray<Segment>): ReadonlyArray<string> | undefined => {
  const names = path.filter((s): s is string => typeof s === "string")
  return names[0] === "resource" && names.length >= 2 ? names : undefined
}

/** The property key string under `offset`, if the cursor is on one. */
const keyAt = (root: Node, offset: number): Node | undefined => {
  const n = findNodeAtOffset(root, offset, true)
  return n?.type === "string" && n.parent?.type === "property" && n.parent.children?.[0] === n ? n : undefined
}

export const jsonHoverAt = async (
  text: string,
  offset: number,
  name: string,
  pins: ModulePins
): Promise<HoverResult | undefined> => {
  const root = parseTree(text)
  const key = root && keyAt(root, offset)
  if (root === undefined || key === undefined) return undefined
  const path = resourcePath(getNodePath(key))
  const r = path && terraformResource(path[1]!)
  if (path === undefined || r === undefined || path.length === 3) return undefined
  const major = await majorFor(root, name, pins)
  if (path.length === 2) return { markdown: resourceDoc(r, major), range: rangeOf(key) }
  const a = attributesAt(r, path.slice(3, -1), major)?.find((x) => x.name === path[path.length - 1])
  return a === undefined ? undefined : { markdown: describe(a, major), range: rangeOf(key) }
}

export const jsonCompleteAt = async (
  text: string,
  offset: number,
  name: string,
  pins: ModulePins
): Promise<CompletionResult | undefined> => {
  const root = parseTree(text)
  const location = getLocation(text, offset)
  if (root === undefined || !location.isAtPropertyKey) return undefined
  const path = resourcePath(location.path)
  const r = path && path.length >= 4 ? terraformResource(path[1]!) : undefined
  if (path === undefined || r === undefined) return undefined
  const attrs = attributesAt(r, path.slice(3, -1), await majorFor(root, name, pins))
  if (attrs === undefined) return undefined
  // The key being typed (jsonc-parser gives it as a "property" node: the key string's place and value).
  const previous = location.previousNode
  const typed = previous?.type === "string" || previous?.type === "property" ? previous : undefined
  const replace = typed !== undefined ? rangeOf(typed) : { start: offset, end: offset }
  let object = findNodeAtOffset(root, offset, true)
  while (object !== undefined && object.type !== "object") object = object.parent
  const present = new Set(
    (object?.children ?? []).map((p) => p.children?.[0]?.value as string).filter((v) => v !== typed?.value)
  )
  // A key being renamed keeps its `:`; a new one gets it, so the value is typed next.
  const colon = /^\s*:/.test(text.slice(replace.end)) ? "" : ": "
  const prefix = typeof typed?.value === "string" ? typed.value : ""
  const items = attrs
    .filter((a) => !present.has(a.name) && a.name.startsWith(prefix))
    .map((a) => ({
      label: a.name,
      kind: "property" as const,
      detail: `${a.type}${a.required ? " (required)" : ""}: ${a.doc}`,
      insertText: `"${a.name}"${colon}${colon === "" ? "" : a.type === "Block" ? "{" : a.type === "List of Attributes" ? "[{" : ""}`
    }))
  return items.length === 0 ? undefined : { replace, items }
}

/** A resource reference in a Terraform JSON string (`${cloudflare_filter.x.id}`): type and name. */
const REFERENCE = /\b([a-z][a-z0-9]*_[a-z0-9_]+)\.([A-Za-z_][\w-]*)/g

/** Where `type.label` is written in Terraform JSON `text`: its `"<label>": {…}` property. */

export const jsonDefinitionAt = async (
  text: string,
  offset: number,
  name: string
): Promise<DefinitionResult | undefined> => {
  const root = parseTree(text)
  const n = root && findNodeAtOffset(root, offset, false)
  if (n?.type !== "string" || typeof n.value !== "string") return undefined
  const offsets = decodedOffsets(text, n.offset, n.length)
  const at = toDecoded(offsets, offset)
  for (const m of n.value.matchAll(REFERENCE)) {
    if (at < m.index || at > m.index + m[0].length) continue
    // Inside an interpolation only: a literal string that merely looks like one names nothing.
    const open = n.value.lastIndexOf("${", m.index)
    if (open < 0 || n.value.lastIndexOf("}", m.index) > open) return undefined
    const [, type, label] = m
    return resourceDefinition(jsonResourceRange(text, type!, label!), text, name, type!, label!)
  }
  return undefined
}
