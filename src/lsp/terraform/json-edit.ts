/**
 * Edits of a Terraform JSON file (`*.tf.json`) that leave the rest of it as it is: a property added
 * to an object, items appended to an array, a resource added beside others, each laid out in the
 * file's own indentation (or on one line in a compact file). Shared by the firewall rewrite
 * (./json-rewrite.ts) and the legacy products' rewrite (./json-legacy.ts).
 */
import type { Node } from "jsonc-parser"
import type { TextEdit } from "../findings.js"
import { prop, type JsonResource } from "./json-resources.js"

/** The file's layout: its indentation unit (none for a file on one line) and its line ends. */
const layoutOf = (text: string) => ({
  unit: /\n([ \t]+)\S/.exec(text)?.[1],
  eol: text.includes("\r\n") ? "\r\n" : "\n"
})

/** The whitespace that starts the line of `offset`, or undefined when something else comes before it on that line. */
const lineIndent = (text: string, offset: number): string | undefined => {
  const lead = text.slice(text.lastIndexOf("\n", offset - 1) + 1, offset)
  return /^[ \t]*$/.test(lead) ? lead : undefined
}

/**
 * The edit adding `"key": value` to `object` after its property `after` (by default its last),
 * laid out as the file is: the object's properties' indentation, or on one line in a compact file.
 * (jsonc-parser's `modify` formats the whole document for one insertion: seconds for a file of
 * a few hundred rules, on every change the editor checks.)
 */
export const addProperty = (text: string, object: Node, key: string, value: unknown, after?: Node): TextEdit => {
  const { unit, eol } = layoutOf(text)
  const props = object.children ?? []
  const anchor = after ?? props.at(-1)
  const own = props[0] ? lineIndent(text, props[0].offset) : undefined
  const outer = lineIndent(text, object.offset) ?? lineIndent(text, object.parent?.offset ?? object.offset)
  const indent = own ?? (unit !== undefined && outer !== undefined ? outer + unit : undefined)
  const json =
    indent === undefined ? JSON.stringify(value) : JSON.stringify(value, null, unit).replace(/\n/g, `${eol}${indent}`)
  const property = `${JSON.stringify(key)}: ${json}`
  if (anchor !== undefined) {
    const at = anchor.offset + anchor.length
    return {
      range: { start: at, end: at },
      newText: indent === undefined ? `, ${property}` : `,${eol}${indent}${property}`
    }
  }
  const inside = { start: object.offset + 1, end: object.offset + object.length - 1 }
  return { range: inside, newText: indent === undefined ? property : `${eol}${indent}${property}${eol}${outer ?? ""}` }
}

/** The edit appending `values` to `array` (non-empty or not), laid out as its items are, or as the file is. */
export const addItems = (text: string, array: Node, values: ReadonlyArray<unknown>): TextEdit => {
  const { unit, eol } = layoutOf(text)
  const items = array.children ?? []
  const own = items[0] ? lineIndent(text, items[0].offset) : undefined
  const outer = lineIndent(text, array.offset) ?? lineIndent(text, array.parent?.offset ?? array.offset)
  const indent = own ?? (unit !== undefined && outer !== undefined ? outer + unit : undefined)
  const json = values.map((v) =>
    indent === undefined ? JSON.stringify(v) : JSON.stringify(v, null, unit).replace(/\n/g, `${eol}${indent}`)
  )
  const last = items.at(-1)
  if (last !== undefined) {
    const at = last.offset + last.length
    return {
      range: { start: at, end: at },
      newText: json.map((j) => (indent === undefined ? `, ${j}` : `,${eol}${indent}${j}`)).join("")
    }
  }
  const inside = { start: array.offset + 1, end: array.offset + array.length - 1 }
  return {
    range: inside,
    newText:
      indent === undefined ? json.join(", ") : `${eol}${indent}${json.join(`,${eol}${indent}`)}${eol}${outer ?? ""}`
  }
}

/** `values` inserted into an array right before its item `item`, each on its own line as the items are. */
export const insertItems = (text: string, item: Node, values: ReadonlyArray<unknown>): TextEdit => {
  const { unit, eol } = layoutOf(text)
  const indent = lineIndent(text, item.offset)
  const json = values.map((v) =>
    indent === undefined ? JSON.stringify(v) : JSON.stringify(v, null, unit).replace(/\n/g, `${eol}${indent}`)
  )
  return {
    range: { start: item.offset, end: item.offset },
    newText: json.map((j) => (indent === undefined ? `${j}, ` : `${j},${eol}${indent}`)).join("")
  }
}

/**
 * The edit adding resource `type.name` beside `last`: in the object holding `last`'s type, after
 * that type (or in that object's `type`, when it has one).
 */
export const addResourceBeside = (text: string, last: JsonResource, type: string, name: string, body: unknown) => {
  const typed = last.typeKey.parent!
  const existing = prop(typed.parent, type)
  const into =
    existing?.type === "object" ? existing : existing?.type === "array" ? existing.children?.at(-1) : undefined
  return into?.type === "object"
    ? addProperty(text, into, name, body)
    : addProperty(text, typed.parent!, type, { [name]: body }, typed)
}

/** The edit replacing the value `node` with `value`, laid out at the indentation of its line (or on one line in a compact file). */
export const replaceValue = (text: string, node: Node, value: unknown): TextEdit => {
  const { unit, eol } = layoutOf(text)
  const indent = lineIndent(text, node.parent?.offset ?? node.offset)
  const json =
    unit === undefined || indent === undefined
      ? JSON.stringify(value)
      : JSON.stringify(value, null, unit).replace(/\n/g, `${eol}${indent}`)
  return { range: { start: node.offset, end: node.offset + node.length }, newText: json }
}

/**
 * The edit turning the one block written as an object (`"rules": {…}`, the JSON syntax's single
 * nested block) into an array of blocks: `before`, that block as written, then `after`, each item
 * on its own line one level in from the property (the block's own lines moved in with it), or on
 * one line in a compact file.
 */
export const objectToItems = (
  text: string,
  object: Node,
  before: ReadonlyArray<unknown>,
  after: ReadonlyArray<unknown>
): TextEdit => {
  const { unit, eol } = layoutOf(text)
  const outer = lineIndent(text, object.parent?.offset ?? object.offset)
  const range = { start: object.offset, end: object.offset + object.length }
  const own = text.slice(range.start, range.end)
  if (unit === undefined || outer === undefined) {
    const items = [...before.map((v) => JSON.stringify(v)), own, ...after.map((v) => JSON.stringify(v))]
    return { range, newText: `[${items.join(", ")}]` }
  }
  const indent = outer + unit
  const json = (v: unknown) => JSON.stringify(v, null, unit).replace(/\n/g, `${eol}${indent}`)
  // A JSON string holds no line break: every one in the block is layout, each line moved in by a unit.
  const items = [...before.map(json), own.replace(/\n/g, `\n${unit}`), ...after.map(json)]
  return { range, newText: `[${eol}${indent}${items.join(`,${eol}${indent}`)}${eol}${outer}]` }
}
