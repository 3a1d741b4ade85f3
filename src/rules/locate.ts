/**
 * For editors: what is at an offset (the innermost node and token, for hover) and what may be
 * written there (for completion), from a parse that records its tokens and expectations.
 */
import { children, type Node, type Range } from "./ast.js"
import { parse, type CheckOptions } from "./check.js"
import type { FieldInfo } from "./fields.js"
import { fits, type FunctionInfo, type Param } from "./functions.js"
import type { Expected, TokenInfo } from "./parse-state.js"
import { MANAGED_LISTS } from "./parse-sets.js"
import type { ListKind } from "./parse-state.js"
import {
  Bytes,
  Int,
  Ip,
  operatorsFor,
  supportsOperator,
  typeName,
  type ComparisonOperator,
  type Type,
  type ValueType
} from "./types.js"

export interface Location {
  /** The innermost node at the offset, and its ancestors (outermost first). */
  readonly node: Node | undefined
  readonly ancestors: ReadonlyArray<Node>
  readonly type: ValueType | undefined
  /** The token under the offset (or ending at it). */
  readonly token: TokenInfo | undefined
  /** For a field or function token: its entry in the scheme. */
  readonly field: FieldInfo | undefined
  readonly function: FunctionInfo | undefined
  /** What the grammar accepts at the start of the word under the offset. */
  readonly expected: ReadonlyArray<Expected>
  /** The word a completion replaces, and the part of it before the offset. */
  readonly replace: Range
  readonly prefix: string
}

const isWord = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_.$]/.test(c)

/**
 * What the grammar accepts at `start`, from a parse of the text before it: what follows the cursor
 * (the rest of a line, a closing parenthesis, the file's final newline) cannot change it, whereas a
 * parse of the whole text records its expectations where the following text starts.
 */
const expectedAt = (source: string, start: number, options: CheckOptions): ReadonlyArray<Expected> => {
  const p = parse(source.slice(0, start), options, true)
  const seen = new Set<string>()
  let expected = p.expectations
    .filter((e) => e.at === start)
    .map((e) => e.expected)
    .filter((e) => {
      const k = JSON.stringify(e)
      if (seen.has(k)) return false
      seen.add(k)
      return true
    })
  // Where an operand is missing, the operators recorded after it do not apply; after a value that
  // is not a Boolean, only its comparison operators do (`http.host and …` is not a condition).
  const operand = expected.some((e) => e.kind === "condition" || e.kind === "argument" || e.kind === "value")
  const compared = expected.some((e) => e.kind === "operator" && operatorsFor(e.type).length > 0)
  if (operand || compared) expected = expected.filter((e) => e.kind !== "logical-operator")
  return expected
}

export const locate = (source: string, offset: number, options: CheckOptions = {}): Location => {
  const at = Math.max(0, Math.min(offset, source.length))
  const p = parse(source, options, true)
  const path: Array<Node> = []
  const visit = (n: Node) => {
    path.push(n)
    const inside = children(n).filter((c) => c.range.start <= at && at <= c.range.end)
    const c = inside.find((x) => at < x.range.end) ?? inside[0]
    if (c !== undefined) visit(c)
  }
  if (p.tree.range.start <= at && at <= p.tree.range.end) visit(p.tree)
  const node = path[path.length - 1]
  const ancestors = path.slice(0, -1)
  const token =
    p.tokens.find((t) => t.range.start <= at && at < t.range.end) ??
    p.tokens.find((t) => t.range.end === at && t.range.start < at)
  let start = at
  while (start > 0 && isWord(source[start - 1])) start--
  let end = at
  while (end < source.length && isWord(source[end])) end++
  const text = token ? source.slice(token.range.start, token.range.end) : ""
  return {
    node,
    ancestors,
    type: node ? p.types.get(node) : undefined,
    token,
    field: token?.kind === "field" ? p.scheme.field(text) : undefined,
    function: token?.kind === "function" ? p.scheme.fn(text) : undefined,
    expected: expectedAt(source, start, options),
    replace: { start, end },
    prefix: source.slice(start, at)
  }
}

export interface Completion {
  readonly label: string
  readonly kind: "field" | "function" | "keyword" | "operator" | "value" | "list"
  readonly detail: string
}

const KEYWORDS: ReadonlyArray<Completion> = [
  { label: "not", kind: "keyword", detail: "negates the next condition" },
  { label: "true", kind: "keyword", detail: "always matches" }
]
const LOGICAL: ReadonlyArray<Completion> = [
  { label: "and", kind: "keyword", detail: "both conditions (also &&)" },
  { label: "or", kind: "keyword", detail: "either condition (also ||)" },
  { label: "xor", kind: "keyword", detail: "exactly one of two conditions (also ^^)" }
]
const OPERATOR_DETAIL: Record<string, string> = {
  eq: "equal (==)",
  ne: "not equal (!=)",
  lt: "less than (<)",
  le: "less or equal (<=)",
  gt: "greater than (>)",
  ge: "greater or equal (>=)",
  contains: "contains the substring",
  matches: "matches the regular expression (~)",
  wildcard: "matches the wildcard pattern, any case",
  "strict wildcard": "matches the wildcard pattern, exact case",
  in: "is in the set {...} or the list $name",
  bitwise_and: "has a bit in common with (&)"
}

const OPERATOR_ALIASES: Readonly<Record<string, string>> = {
  "==": "eq",
  "!=": "ne",
  "<": "lt",
  "<=": "le",
  ">": "gt",
  ">=": "ge",
  "~": "matches",
  "&": "bitwise_and"
}
const LOGICAL_DETAIL: Readonly<Record<string, string>> = {
  and: "true when both conditions are (also `&&`); binds tighter than `xor` and `or`",
  "&&": "true when both conditions are (also `and`); binds tighter than `xor` and `or`",
  or: "true when either condition is (also `||`); binds loosest",
  "||": "true when either condition is (also `or`); binds loosest",
  xor: "true when exactly one of the two conditions is (also `^^`); binds tighter than `or`",
  "^^": "true when exactly one of the two conditions is (also `xor`); binds tighter than `or`",
  not: "negates the condition that follows (also `!`)",
  "!": "negates the condition that follows (also `not`)"
}

/** What an operator or logical keyword means, as written (`==` or `eq`), and the field types it applies to. */
export const operatorDoc = (
  text: string
): { readonly name: string; readonly detail: string; readonly types: ReadonlyArray<string> } | undefined => {
  const logical = LOGICAL_DETAIL[text]
  if (logical !== undefined) return { name: text, detail: logical, types: ["Boolean"] }
  const name = OPERATOR_ALIASES[text] ?? (text.replace(/\s+/g, " ") as ComparisonOperator)
  const detail = OPERATOR_DETAIL[name]
  if (detail === undefined) return undefined
  const types = [Bytes, Int, Ip].filter((t) => supportsOperator(t, name as ComparisonOperator)).map(typeName)
  return { name, detail, types }
}

/** A named list the platform manages for every account (`cf.malware`), or undefined. */
export const managedList = (name: string): ListKind | undefined => MANAGED_LISTS.get(name)

/**
 * Completion candidates at an offset, filtered by the word typed so far. `lists` are the named
 * lists to offer after `in $`.
 */
export const completions = (
  source: string,
  offset: number,
  options: CheckOptions = {}
): { readonly items: ReadonlyArray<Completion>; readonly replace: Range } => {
  const loc = locate(source, offset, options)
  const p = parse("", options)
  const scheme = p.scheme
  const items: Array<Completion> = []
  // Inside a string literal (a regular expression too) there is nothing to complete: its text is the user's.
  const t = loc.token
  if (t !== undefined && t.kind === "string" && t.range.start < offset) {
    const written = source.slice(t.range.start, t.range.end)
    const closed = written.length >= 2 && /"#*$/.test(written) && !written.endsWith('\\"')
    if (offset < t.range.end || !closed) return { items: [], replace: { start: offset, end: offset } }
  }
  const values = (param?: Param) => {
    // A field fits an argument when its type does, or when it holds values of that type (`[*]`, `[0]`, `["k"]` reach them).
    const reaches = (ty: Type): boolean =>
      param === undefined ||
      (param.type === "Array<Bool>"
        ? ty.kind === "Array" || ty.kind === "Map"
        : fits(param.type, ty) || ((ty.kind === "Array" || ty.kind === "Map") && reaches(ty.of)))
    if (param?.kind === "literal") return
    for (const f of scheme.fields)
      if (reaches(f.type)) items.push({ label: f.name, kind: "field", detail: `${f.typeText}: ${f.summary}` })
    for (const fn of scheme.functions) {
      const returned = fn.returns(undefined)
      if (fn.context === "filter" && (returned === undefined || reaches(returned)))
        items.push({ label: fn.name, kind: "function", detail: `${fn.signature}: ${fn.summary}` })
    }
  }
  const paramOf = (name: string, index: number): Param | undefined => {
    const fn = scheme.fn(name)
    if (fn === undefined) return undefined
    return fn.params[index] ?? (fn.variadic ? fn.params[fn.params.length - 1] : undefined)
  }
  for (const e of loc.expected) {
    switch (e.kind) {
      case "condition":
        values()
        items.push(...KEYWORDS)
        break
      case "argument": {
        const param = paramOf(e.function, e.index)
        if (param !== undefined) values(param)
        break
      }
      case "logical-operator":
        items.push(...LOGICAL)
        break
      case "operator":
        for (const op of operatorsFor(e.type))
          items.push({ label: op, kind: "operator", detail: OPERATOR_DETAIL[op] ?? "" })
        break
      case "list": {
        const lists =
          options.lists === undefined
            ? []
            : options.lists instanceof Map
              ? [...options.lists.keys()]
              : Object.keys(options.lists)
        for (const l of lists)
          items.push({
            label: `$${l}`,
            kind: "list",
            detail: `named list${e.type ? ` of ${typeName(e.type)} values` : ""}`
          })
        break
      }
      default:
        break
    }
  }
  const prefix = loc.prefix
  const seen = new Set<string>()
  return {
    items: items.filter((i) => i.label.startsWith(prefix) && !seen.has(i.label) && (seen.add(i.label), true)),
    replace: loc.replace
  }
}
