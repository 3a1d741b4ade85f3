/**
 * The logical operators of conditions and the tree they build: reading an operator (symbols,
 * words, words glued to the next one), where a list of operands ends, grouping the operands by
 * precedence into n-ary nodes with each operand checked to be a condition, and skipping input that
 * cannot start anything. Apart from `parse-expr.ts`, the recursive descent that calls these, so
 * that each reads on its own and stays under the house limit.
 */
import type { Expression, Invalid, Logical, Node, Range, Token } from "./ast.js"
import { describeChar, isIdentChar, isSpace, scanIdentifier, startsRawString } from "./lexer.js"
import type { ParserState } from "./parse-state.js"
import { arrayOf, Bool, typeName, type LogicalOperator, type ValueType } from "./types.js"

export type Context = "top" | "group" | "arg"

export const LOGICAL_WORDS: ReadonlyArray<readonly [string, LogicalOperator]> = [
  ["and", "and"],
  ["or", "or"],
  ["xor", "xor"]
]
const LOGICAL_SYMBOLS: ReadonlyArray<readonly [string, LogicalOperator]> = [
  ["&&", "and"],
  ["||", "or"],
  ["^^", "xor"]
]
const PRECEDENCE: ReadonlyArray<LogicalOperator> = ["or", "xor", "and"]

export const BOOL_T: ValueType = { type: Bool, mapped: false }
const ARRAY_BOOL_T: ValueType = { type: arrayOf(Bool), mapped: false }

export const invalidAt = (start: number, end = start): Invalid => ({ kind: "invalid", range: { start, end } })

/** Whether `name` is something an operand can start with (a field, a function, a keyword). */
export const knownStart = (s: ParserState, name: string): boolean =>
  s.opts.scheme.field(name) !== undefined ||
  s.opts.scheme.fn(name) !== undefined ||
  name === "not" ||
  name === "true" ||
  name === "false"

/** A logical operator at the cursor, consumed; `glued` when written against the next word (`andssl`). */
export const readLogicalOp = (s: ParserState): { op: LogicalOperator; token: Token } | undefined => {
  const at = s.pos
  for (const [text, op] of LOGICAL_SYMBOLS) {
    if (s.src.startsWith(text, at)) {
      s.pos += 2
      s.token("keyword", at, at + 2)
      return { op, token: { text, range: { start: at, end: at + 2 } } }
    }
  }
  const end = scanIdentifier(s.src, at)
  const word = s.src.slice(at, end)
  for (const [text, op] of LOGICAL_WORDS) {
    if (word === text) {
      s.pos = at + text.length
      s.token("keyword", at, s.pos)
      return { op, token: { text, range: { start: at, end: s.pos } } }
    }
    if (word.startsWith(text) && !knownStart(s, word) && knownStart(s, word.slice(text.length))) {
      s.pos = at + text.length
      s.warn(
        "glued-keyword",
        `\`${word}\` reads as \`${text} ${word.slice(text.length)}\``,
        { start: at, end },
        `put a space after \`${text}\``
      )
      s.token("keyword", at, s.pos)
      return { op, token: { text, range: { start: at, end: s.pos } } }
    }
  }
  return undefined
}

/** At the end of an operand list: end of input, a closing parenthesis or comma, or another operator. */
export const atOperandEnd = (s: ParserState, ctx: Context): boolean => {
  if (s.eof) return true
  const c = s.code()
  if (c === 41 /* ) */) return true
  if (c === 44 /* , */ && ctx === "arg") return true
  if (LOGICAL_SYMBOLS.some(([t]) => s.src.startsWith(t, s.pos))) return true
  const word = s.src.slice(s.pos, scanIdentifier(s.src, s.pos))
  return word === "and" || word === "or" || word === "xor"
}

export const startsOperand = (s: ParserState): boolean => {
  const c = s.code()
  return isIdentChar(c) || c === 40 || c === 33 || c === 34 || c === 45 || c === 58 || startsRawString(s.src, s.pos)
}

/** Reports and skips a run of characters that cannot start anything. */
export const skipJunk = (s: ParserState): void => {
  const at = s.pos
  let end = at + (s.src.codePointAt(at)! > 0xffff ? 2 : 1)
  const ch = s.src.slice(at, end)
  if (ch === '"' || ch === "'" || ch === "\u201c" || ch === "\u2018") {
    s.error(
      "unexpected-character",
      `unexpected ${describeChar(ch)}`,
      { start: at, end },
      ch === "'" ? 'strings use double quotes: "..."' : ch === '"' ? undefined : 'use straight double quotes: "..."'
    )
  } else {
    while (
      end < s.src.length &&
      !isSpace(s.src.charCodeAt(end)) &&
      s.src.charCodeAt(end) !== 41 &&
      s.src.charCodeAt(end) !== 40 &&
      !isIdentChar(s.src.charCodeAt(end))
    )
      end++
    const text = s.src.slice(at, end)
    s.error(
      "unexpected-character",
      text.length === 1 || [...text].length === 1 ? `unexpected ${describeChar(text)}` : `unexpected \`${text}\``,
      { start: at, end },
      text === "=" ? "compare with `eq` or `==`" : undefined
    )
  }
  s.pos = end
}

const typeOfCondition = (s: ParserState, n: Node): ValueType | undefined => s.typeOf(n)

/** Checks that every operand is a condition of one kind (Boolean, or Array<Boolean> element-wise) and builds the tree. */
export const build = (
  s: ParserState,
  operands: Array<Expression>,
  ops: Array<{ op: LogicalOperator; token: Token }>,
  ctx: Context
): Expression => {
  if (operands.length === 1) {
    if (ctx !== "arg") requireCondition(s, operands[0]!)
    return operands[0]!
  }
  let kind: "Bool" | "Array" | undefined
  for (const o of operands) {
    if (!requireCondition(s, o)) continue
    const t = typeOfCondition(s, o)
    if (t === undefined) continue
    const k = t.type.kind === "Bool" ? "Bool" : "Array"
    if (kind === undefined) kind = k
    else if (k !== kind) {
      s.error(
        "type-mismatch",
        `expected ${kind === "Bool" ? "a Boolean" : "an Array<Boolean>"}, but this condition is ${k === "Bool" ? "a Boolean" : "an Array<Boolean>"}`,
        o.range,
        k === "Array"
          ? "a [*] comparison gives one result per element: wrap it in any(...) or all(...)"
          : "inside any()/all(), every condition joined to a [*] comparison needs [*] too"
      )
    }
  }
  const tree = group(operands, ops, 0)
  const t = kind === "Array" ? ARRAY_BOOL_T : kind === "Bool" ? BOOL_T : undefined
  const mark = (e: Expression) => {
    if (e.kind === "logical" && t !== undefined) {
      s.setType(e, t)
      e.operands.forEach(mark)
    }
  }
  mark(tree)
  return tree
}

const group = (
  operands: ReadonlyArray<Expression>,
  ops: ReadonlyArray<{ op: LogicalOperator; token: Token }>,
  level: number
): Expression => {
  if (operands.length === 1) return operands[0]!
  const op = PRECEDENCE[level]!
  const parts: Array<Expression> = []
  const tokens: Array<Token> = []
  let startIdx = 0
  for (let i = 0; i <= ops.length; i++) {
    if (i === ops.length || ops[i]!.op === op) {
      parts.push(group(operands.slice(startIdx, i + 1), ops.slice(startIdx, i), level + 1))
      if (i < ops.length) tokens.push(ops[i]!.token)
      startIdx = i + 1
    }
  }
  if (parts.length === 1) return parts[0]!
  const range: Range = { start: parts[0]!.range.start, end: parts[parts.length - 1]!.range.end }
  const node: Logical = { kind: "logical", op, operands: parts, operators: tokens, range }
  return node
}

/** Reports a value that is not a condition where one is needed (`cf.bot_management.score` alone). */
export const requireCondition = (s: ParserState, e: Node): boolean => {
  if (e.kind === "string" || e.kind === "bytes" || e.kind === "int" || e.kind === "ip") {
    s.error(
      "expected-comparison",
      "a value is not a condition",
      e.range,
      'compare a field with it: http.host eq "example.com"'
    )
    return false
  }
  if (e.kind !== "bare") return true
  const t = s.typeOf(e.value)
  if (t === undefined || t.type.kind === "Bool") return true
  s.error(
    "expected-comparison",
    `\`${s.src.slice(e.range.start, e.range.end)}\` is ${/^[AEIOU]/.test(typeName(t.type)) ? "an" : "a"} ${typeName(t.type)}, not a condition: compare it with an operator`,
    e.range,
    t.type.kind === "Int"
      ? `e.g. ${s.src.slice(e.range.start, e.range.end)} lt 30`
      : t.type.kind === "Bytes"
        ? `e.g. ${s.src.slice(e.range.start, e.range.end)} eq "value"`
        : "compare it with an operator, or test elements with any(...[*] ...)"
  )
  s.types.delete(e)
  return false
}
