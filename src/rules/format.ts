/**
 * Canonical printing: English operators (`and`, `not`, `eq`, ...), single spaces, decimal
 * integers, compressed IP addresses, strings as written. Parentheses are kept where written (and
 * added where a tree built by code needs them), so parsing the output gives the same tree.
 */
import type { Expression, IndexKey, Node, SetItem, StringLiteral } from "./ast.js"
import { display, toTextStrict } from "./bytes.js"
import { formatIp } from "./ip.js"
import type { LogicalOperator } from "./types.js"

export interface FormatOptions {
  /** Break `and`/`or`/`xor` chains over lines, indented, when a line would be longer than this (default: one line). */
  readonly width?: number
}

const PREC: Record<LogicalOperator, number> = { or: 1, xor: 2, and: 3 }

export const format = (expression: Expression, options: FormatOptions = {}): string => {
  const width = options.width ?? Infinity
  return width === Infinity ? one(expression) : pretty(expression, 0, width)
}

const one = (n: Node): string => {
  switch (n.kind) {
    case "logical":
      return n.operands.map((o) => operand(o, n.op)).join(` ${n.op} `)
    case "not":
      return `not ${n.operand.kind === "logical" ? `(${one(n.operand)})` : one(n.operand)}`
    case "group":
      return `(${one(n.expression)})`
    case "comparison":
      return `${one(n.lhs)} ${n.operator.name} ${one(n.rhs)}`
    case "bare":
      return one(n.value)
    case "constant":
      return n.value ? "true" : "false"
    case "invalid":
      return ""
    case "field":
      return n.name
    case "call":
      return `${n.name}(${n.args.map(one).join(", ")})`
    case "index":
      return `${one(n.target)}[${key(n.key)}]`
    case "string":
      return n.text ?? encodeString(n)
    case "bytes":
      return n.text ?? [...n.value].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join(":")
    case "int":
      return Number.isSafeInteger(n.value) || n.text === undefined ? String(n.value) : n.text
    case "int-range":
      return `${n.from}..${n.to}`
    case "ip":
      return formatIp(n.value)
    case "cidr":
      return `${formatIp(n.address)}/${n.prefix}`
    case "ip-range":
      return `${formatIp(n.from)}..${formatIp(n.to)}`
    case "set":
      return `{${n.items.map((i: SetItem) => one(i)).join(" ")}}`
    case "list":
      return `$${n.name}`
  }
}

/** A logical operand: parenthesised when its own operator binds no tighter (trees built by code). */
const operand = (o: Expression, parent: LogicalOperator): string =>
  o.kind === "logical" && PREC[o.op] <= PREC[parent] ? `(${one(o)})` : one(o)

const key = (k: IndexKey): string =>
  k.kind === "each" ? "*" : k.kind === "position" ? String(k.value) : quote(k.value)

const quote = (value: string): string => {
  let out = '"'
  const text = toTextStrict(value)
  if (text !== undefined) {
    for (const ch of text) {
      const c = ch.codePointAt(0)!
      if (ch === '"' || ch === "\\") out += `\\${ch}`
      else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`
      else out += ch
    }
  } else {
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i)
      const ch = value[i]!
      if (ch === '"' || ch === "\\") out += `\\${ch}`
      else if (c < 0x20 || c >= 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`
      else out += ch
    }
  }
  return `${out}"`
}

/** A string built by code: regex patterns as raw strings (no escaping rules to get wrong), values quoted. */
const encodeString = (n: StringLiteral): string => {
  if (n.pattern === undefined) return quote(n.value)
  let hashes = 0
  for (const m of n.pattern.matchAll(/"(#*)/g)) hashes = Math.max(hashes, m[1]!.length + 1)
  const h = "#".repeat(hashes)
  return `r${h}"${n.pattern}"${h}`
}

const pretty = (n: Expression, indent: number, width: number): string => {
  const flat = one(n)
  if (indent + flat.length <= width) return flat
  const pad = " ".repeat(indent)
  const part = (o: Expression, parent: LogicalOperator | undefined): string => {
    if (o.kind === "group") {
      const inner = one(o.expression)
      if (indent + inner.length + 2 <= width) return `(${inner})`
      return `(\n${pad}  ${pretty(o.expression, indent + 2, width)}\n${pad})`
    }
    if (o.kind === "logical" && (parent === undefined || PREC[o.op] <= PREC[parent])) return `(${one(o)})`
    return pretty(o, indent, width)
  }
  if (n.kind === "logical")
    return n.operands.map((o, i) => (i === 0 ? part(o, n.op) : `\n${pad}${n.op} ${part(o, n.op)}`)).join("")
  if (n.kind === "group") return part(n, undefined)
  if (n.kind === "not") return `not ${part(n.operand, undefined)}`
  return flat
}

/**
 * Whether two trees mean the same thing as written: same structure, names, operators and values,
 * regardless of ranges, spelling (`&&` or `and`), spacing and literal notation (`0x50` or `80`).
 */
export const sameTree = (a: Node, b: Node): boolean => shape(a) === shape(b)

const shape = (n: Node): string =>
  JSON.stringify(n, (k, v) => {
    if (
      k === "range" ||
      k === "nameRange" ||
      k === "keyRange" ||
      k === "text" ||
      k === "raw" ||
      k === "hashes" ||
      k === "operators"
    )
      return undefined
    if (k === "operator" && v && typeof v === "object" && "name" in v) return v.name
    if (typeof v === "bigint") return `${v}n`
    return v
  })

/** A value for people: Strings as text (or with \xHH escapes when not text), IP addresses as usual. */
export const displayValue = (v: unknown): unknown => {
  if (typeof v === "string") return display(v)
  if (Array.isArray(v)) return v.map(displayValue)
  if (v instanceof Map) return Object.fromEntries([...v.entries()].map(([k, x]) => [display(k), displayValue(x)]))
  if (typeof v === "object" && v !== null && "v" in v && "n" in v) return formatIp(v as Parameters<typeof formatIp>[0])
  return v
}
