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
  type Container = Node & { children: Node[]; length: number }
  /** An object's or an array's items up to `close`, comma-separated, each read by `item`. */
  const items = (node: Container, close: "}" | "]", item: () => Node): Node => {
    i++
    space()
    if (text[i] !== close)
      for (;;) {
        node.children.push(item())
        space()
        if (text[i] !== ",") break
        i++
        space()
      }
    if (text[i] !== close) throw new NotStrict()
    i++
    node.length = i - node.offset
    return node
  }
  const property = (parent: Node): Node => {
    if (text[i] !== '"') throw new NotStrict()
    const key = string()
    const node = {
      type: "property",
      offset: key.offset,
      length: -1,
      parent,
      children: []
    } as unknown as Container & { colonOffset: number }
    node.children.push({
      type: "string",
      value: key.value,
      offset: key.offset,
      length: key.length,
      parent: node
    } as Node)
    space()
    if (text[i] !== ":") throw new NotStrict()
    node.colonOffset = i++
    space()
    const v = value(node)
    node.children.push(v)
    node.length = v.offset + v.length - node.offset
    return node
  }
  const value = (parent: Node | undefined): Node => {
    const c = text[i]
    const offset = i
    if (c === "{" || c === "[") {
      const node = {
        type: c === "{" ? "object" : "array",
        offset,
        length: -1,
        parent,
        children: []
      } as unknown as Container
      return c === "{" ? items(node, "}", () => property(node)) : items(node, "]", () => value(node))
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
