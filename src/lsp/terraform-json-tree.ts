/**
 * The tree of a `*.tf.json` document, as jsonc-parser's `parseTree` builds it (the same nodes,
 * offsets, values and `colonOffset`s), read by a strict JSON reader that takes strings and numbers
 * whole: jsonc-parser's scanner, one character and one callback at a time, was half of a cold
 * check of a 500-resource file. Anything that reader does not accept (a syntax error, comments,
 * whitespace JSON does not allow) is read again by `parseTree`, which reports the errors.
 */
import { parseTree, type Node, type ParseError } from "jsonc-parser"

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
// A string's characters up to its closing quote: no control character, escapes as JSON has them.
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y

class NotStrict extends Error {}

const strictTree = (text: string): Node => {
  let i = 0
  const space = () => {
    for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++i));
  }
  const string = (): { value: string; offset: number; length: number } => {
    STRING.lastIndex = i
    if (!STRING.test(text)) throw new NotStrict()
    const offset = i
    i = STRING.lastIndex
    const raw = text.slice(offset + 1, i - 1)
    return {
      value: raw.includes("\\") ? (JSON.parse(text.slice(offset, i)) as string) : raw,
      offset,
      length: i - offset
    }
  }
  const value = (parent: Node | undefined): Node => {
    const c = text[i]
    const offset = i
    if (c === "{") {
      const node = { type: "object", offset, length: -1, parent, children: [] } as unknown as Node & {
        children: Node[]
      }
      i++
      space()
      if (text[i] !== "}")
        for (;;) {
          if (text[i] !== '"') throw new NotStrict()
          const key = string()
          const property = {
            type: "property",
            offset: key.offset,
            length: -1,
            parent: node,
            children: []
          } as unknown as Node & { children: Node[]; colonOffset: number; length: number }
          property.children.push({
            type: "string",
            value: key.value,
            offset: key.offset,
            length: key.length,
            parent: property
          } as Node)
          space()
          if (text[i] !== ":") throw new NotStrict()
          property.colonOffset = i++
          space()
          const v = value(property)
          property.children.push(v)
          property.length = v.offset + v.length - property.offset
          node.children.push(property)
          space()
          if (text[i] === ",") {
            i++
            space()
            continue
          }
          break
        }
      if (text[i] !== "}") throw new NotStrict()
      i++
      ;(node as { length: number }).length = i - offset
      return node
    }
    if (c === "[") {
      const node = { type: "array", offset, length: -1, parent, children: [] } as unknown as Node & { children: Node[] }
      i++
      space()
      if (text[i] !== "]")
        for (;;) {
          node.children.push(value(node))
          space()
          if (text[i] === ",") {
            i++
            space()
            continue
          }
          break
        }
      if (text[i] !== "]") throw new NotStrict()
      i++
      ;(node as { length: number }).length = i - offset
      return node
    }
    if (c === '"') {
      const s = string()
      return { type: "string", offset, length: s.length, parent, value: s.value } as Node
    }
    for (const [word, v] of [
      ["true", true],
      ["false", false],
      ["null", null]
    ] as const)
      if (text.startsWith(word, i)) {
        i += word.length
        return { type: v === null ? "null" : "boolean", offset, length: word.length, parent, value: v } as Node
      }
    NUMBER.lastIndex = i
    if (!NUMBER.test(text)) throw new NotStrict()
    i = NUMBER.lastIndex
    return { type: "number", offset, length: i - offset, parent, value: Number(text.slice(offset, i)) } as Node
  }
  space()
  const root = value(undefined)
  space()
  if (i !== text.length) throw new NotStrict()
  // parseTree's root has no `parent` property at all.
  delete (root as { parent?: Node }).parent
  return root
}

/** `parseTree(text, errors, { allowTrailingComma: false, disallowComments: true })`, read faster when the text is strict JSON. */
export const terraformJsonTree = (text: string, errors: Array<ParseError>): Node | undefined => {
  try {
    return strictTree(text)
  } catch (e) {
    // Too deep for the stack, or not strict JSON: jsonc-parser reads it (and names its errors).
    if (!(e instanceof NotStrict) && !(e instanceof RangeError)) throw e
    return parseTree(text, errors, { allowTrailingComma: false, disallowComments: true })
  }
}
