/**
 * Help where Terraform users type (`*.tf`; `*.tf.json` in ./json-help.ts): hover on a known resource's type and attributes,
 * completion of the attributes a block or object does not have yet, both as the provider version
 * the file or its module pins has them (./schema.ts), and go to definition from a
 * reference (`cloudflare_filter.x.id`) to the resource it names, in the file or another file of
 * its module. Read from the HCL tree (a half-typed line parses as an error node inside its block).
 */
import type { CompletionResult, HoverResult, JsonFeatures } from "../features.js"
import { stringValue, type HclNode } from "../hcl.js"
import { jsonCompleteAt, jsonDefinitionAt, jsonHoverAt } from "./json-help.js"
import type { Major } from "./attributes.js"
import { type DefinitionResult, resourceDefinition, resourceRange, withTree } from "./definition.js"
import { describe, majorOfPin, resourceDoc } from "./docs.js"
import { attributesAt, terraformResource } from "./schema.js"
import { hasPin, modulePin, providerTarget, type ModulePins } from "./version.js"

const isWord = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c)

/** Where the cursor is in a resource: its type, the nested block / object names down to it. */
interface Place {
  readonly type: string
  readonly path: ReadonlyArray<string>
  /** The body or object the cursor is in (its present keys are not offered again). */
  readonly container: HclNode
}

const keyOf = (n: HclNode): string | undefined => {
  if (n.type === "attribute" || (n.type === "block" && n.namedChildren[0]?.type === "identifier"))
    return n.namedChildren[0]?.text
  if (n.type === "object_elem") {
    const k = n.namedChildren[0]
    return k === null || k === undefined ? undefined : (stringValue(k) ?? k.text)
  }
  return undefined
}

/** The resource, path and container around `offset`; undefined outside a resource's body. */
const placeAt = (root: HclNode, offset: number): Place | undefined => {
  let n: HclNode | null = root.descendantForIndex(offset)
  const path: Array<string> = []
  let container: HclNode | undefined
  while (n !== null) {
    if (n.type === "block") {
      const start = n.namedChildren.find((c) => c?.type === "block_start")
      if (start === undefined || start === null || offset < start.endIndex) {
        n = n.parent
        continue
      }
      const name = n.namedChildren[0]?.text
      container ??= n.namedChildren.find((c) => c?.type === "body") ?? n
      if (name === "resource") {
        const label = n.namedChildren.find((c) => c?.type === "string_lit")
        const type = label === undefined || label === null ? undefined : stringValue(label)
        return type === undefined ? undefined : { type, path: path.reverse(), container }
      }
      if (name !== undefined) path.push(name)
    } else if (n.type === "object" && n.startIndex < offset) {
      container ??= n
      // `name = { … }`, `name = [{ … }]`, or an object element's key.
      let up: HclNode | null = n.parent
      while (up !== null && !["attribute", "object_elem", "block", "body"].includes(up.type)) up = up.parent
      const key = up === null ? undefined : keyOf(up)
      if (key === undefined) return undefined
      path.push(key)
      n = up!.type === "object_elem" ? up!.parent : up
      continue
    }
    n = n.parent
  }
  return undefined
}

const presentKeys = (container: HclNode): Set<string> => {
  const out = new Set<string>()
  const visit = (n: HclNode) => {
    for (const c of n.namedChildren) {
      if (c === null) continue
      const k = keyOf(c)
      if (k !== undefined) out.add(k)
      else if (c.type === "ERROR") visit(c)
    }
  }
  visit(container)
  return out
}

/** The cloudflare provider major the file (or its module) pins: the latest, 5, without a pin. */
const majorFor = async (root: HclNode, name: string, pins: ModulePins): Promise<Major> =>
  majorOfPin(providerTarget(root, hasPin(root) ? undefined : await modulePin(name, pins)).constraint)

const hoverAt = (text: string, offset: number, name: string, pins: ModulePins) =>
  withTree(text, async (root): Promise<HoverResult | undefined> => {
    const node = root.descendantForIndex(offset)
    if (node === null) return undefined
    // The type label of a resource.
    const label = node.type === "template_literal" ? node.parent : node
    if (
      label?.type === "string_lit" &&
      label.parent?.type === "block" &&
      label.parent.namedChildren[0]?.text === "resource"
    ) {
      const r = terraformResource(stringValue(label) ?? "")
      if (r === undefined || label.parent.namedChildren.find((c) => c?.type === "string_lit")?.id !== label.id)
        return undefined
      return {
        markdown: resourceDoc(r, await majorFor(root, name, pins)),
        range: { start: label.startIndex, end: label.endIndex }
      }
    }
    if (node.type !== "identifier") return undefined
    const owner = node.parent
    if (owner === null || keyOf(owner) !== node.text || owner.namedChildren[0]?.id !== node.id) return undefined
    const place = placeAt(root, node.startIndex)
    const r = place && terraformResource(place.type)
    if (place === undefined || r === undefined) return undefined
    const major = await majorFor(root, name, pins)
    // The key's own block counts as the cursor's place when it is a block: take the path above it.
    const path = owner.type === "block" ? place.path.slice(0, -1) : place.path
    const a = attributesAt(r, path, major)?.find((x) => x.name === node.text)
    if (a === undefined) return undefined
    return { markdown: describe(a, major), range: { start: node.startIndex, end: node.endIndex } }
  })

/** Stands for the word being typed: a half-typed key makes the parser's error recovery drop the blocks around it. */
const TYPING = "edgectl_typing"

const completeAt = async (text: string, offset: number, name: string, pins: ModulePins) => {
  let start = offset
  while (start > 0 && isWord(text[start - 1])) start--
  let end = offset
  while (end < text.length && isWord(text[end])) end++
  // Only where a key starts: at the beginning of a line's content (or after `{` / `,` in an object).
  const before = text.slice(text.lastIndexOf("\n", start - 1) + 1, start)
  if (!/^\s*$|[{,]\s*$/.test(before)) return undefined
  const typed = text.slice(start, offset)
  // The word completed as an attribute (`word = null`), so the file around it parses as it will be.
  const repaired = `${text.slice(0, start)}${TYPING} = null${text.slice(end)}`
  return withTree(repaired, async (root): Promise<CompletionResult | undefined> => {
    const place = placeAt(root, start)
    const r = place && terraformResource(place.type)
    if (place === undefined || r === undefined) return undefined
    const major = await majorFor(root, name, pins)
    const attrs = attributesAt(r, place.path, major)
    if (attrs === undefined) return undefined
    const present = presentKeys(place.container)
    return {
      replace: { start, end },
      items: attrs
        .filter((a) => !present.has(a.name) || a.type === "Block")
        .filter((a) => a.name.startsWith(typed))
        .map((a) => ({
          label: a.name,
          kind: "property" as const,
          detail: `${a.type}${a.required ? " (required)" : ""}: ${a.doc}`,
          insertText:
            a.type === "Block" ? `${a.name} {` : a.type === "List of Attributes" ? `${a.name} = [{` : `${a.name} =`
        }))
    }
  })
}

const definitionAt = (text: string, offset: number, name: string) =>
  withTree(text, async (root): Promise<DefinitionResult | undefined> => {
    let n = root.descendantForIndex(offset)
    while (n !== null && n.type !== "expression") n = n.parent
    const parts = n?.namedChildren ?? []
    const head = parts[0]
    const second = parts[1]
    if (head?.type !== "variable_expr" || second?.type !== "get_attr") return undefined
    const type = head.text
    const label = second.namedChildren[0]?.text
    if (!type.includes("_") || label === undefined || offset > second.endIndex) return undefined
    return resourceDefinition(await resourceRange(text, type, label), text, name, type, label)
  })

const isJson = (name: string) => /\.tf\.json$/i.test(name)

/** Hover, completion and go to definition in `*.tf` and `*.tf.json` files; `pins`: the server's cache of module pins. */
export const terraformHelp = (pins: ModulePins): JsonFeatures => ({
  hover: (text, offset, _analysis, name = "") =>
    isJson(name) ? jsonHoverAt(text, offset, name, pins) : hoverAt(text, offset, name, pins),
  complete: (text, offset, _analysis, name = "") =>
    isJson(name) ? jsonCompleteAt(text, offset, name, pins) : completeAt(text, offset, name, pins),
  definition: (text, offset, name = "") =>
    isJson(name) ? jsonDefinitionAt(text, offset, name) : definitionAt(text, offset, name)
})
