/**
 * Comparisons: the operator after a value (both notations, with help for common mistakes) and
 * its right-hand side, read in the type of the left-hand side: literals, strings (regex rules on
 * the right of `matches`), regular expressions and wildcard patterns validated where they are read.
 */
import type { Bare, Comparison, Expression, Invalid, Literal, Operator, Rhs, Value } from "./ast.js"
import { planAtLeast } from "./fields.js"
import { describeChar, isSpace, scanIdentifier, scanWord, startsRawString } from "./lexer.js"
import { expectFor, readBare } from "./literals.js"
import { parseList, parseSet } from "./parse-sets.js"
import { checkRegex, checkWildcard, parseString } from "./parse-string.js"
import type { ParserState } from "./parse-state.js"
import {
  arrayOf,
  Bool,
  Bytes,
  Int,
  Ip,
  supportsOperator,
  type ComparisonOperator,
  type Type,
  type ValueType
} from "./types.js"
import { operatorProblem } from "./typing.js"

const BOOL_T: ValueType = { type: Bool, mapped: false }
const ARRAY_BOOL_T: ValueType = { type: arrayOf(Bool), mapped: false }
const BYTES_T: ValueType = { type: Bytes, mapped: false }
const INT_T: ValueType = { type: Int, mapped: false }
const IP_T: ValueType = { type: Ip, mapped: false }

// ---------------------------------------------------------------------------------------------
// Comparisons

const WORD_OPS: Readonly<Record<string, ComparisonOperator>> = {
  eq: "eq",
  ne: "ne",
  lt: "lt",
  le: "le",
  gt: "gt",
  ge: "ge",
  contains: "contains",
  matches: "matches",
  wildcard: "wildcard",
  in: "in",
  bitwise_and: "bitwise_and"
}
const SYMBOL_OPS: ReadonlyArray<readonly [string, ComparisonOperator]> = [
  ["==", "eq"],
  ["!=", "ne"],
  ["<=", "le"],
  [">=", "ge"],
  ["<", "lt"],
  [">", "gt"],
  ["~", "matches"],
  ["&", "bitwise_and"]
]
const WRONG_SYMBOLS: ReadonlyArray<readonly [string, ComparisonOperator, string]> = [
  ["=~", "matches", "use `matches` or `~`"],
  ["!~", "matches", 'there is no negated match: write `not field matches "..."`'],
  ["<>", "ne", "use `ne` or `!=`"],
  ["=", "eq", "use `eq` or `==`"]
]

type ReadOp = { readonly op: Operator } | { readonly bogus: true } | undefined

const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95

const scanLetters = (src: string, at: number) => {
  let e = at
  while (e < src.length && isLetter(src.charCodeAt(e))) e++
  return e
}

const readOperator = (s: ParserState, lhs: Value): ReadOp => {
  const at = s.pos
  // Every symbol starts with a non-letter: a word operator (the common case) skips the symbol tables.
  if (!isLetter(s.code(at))) {
    const symbol = readSymbol(s, at)
    if (symbol !== false) return symbol
  }
  return readWord(s, lhs, at)
}

const readSymbol = (s: ParserState, at: number): ReadOp | false => {
  if (s.src.startsWith("&&", at) || s.src.startsWith("||", at) || s.src.startsWith("^^", at)) return undefined
  for (const [text, name, hint] of WRONG_SYMBOLS) {
    if (s.src.startsWith(text, at) && !(text === "=" && s.src.startsWith("==", at))) {
      s.error("unknown-operator", `\`${text}\` is not an operator`, { start: at, end: at + text.length }, hint)
      s.pos += text.length
      return { op: { name, text, range: { start: at, end: s.pos } } }
    }
  }
  for (const [text, name] of SYMBOL_OPS) {
    if (s.src.startsWith(text, at)) {
      s.pos += text.length
      return { op: { name, text, range: { start: at, end: s.pos } } }
    }
  }
  return false
}

const readWord = (s: ParserState, lhs: Value, at: number): ReadOp => {
  const end = scanLetters(s.src, at)
  const word = s.src.slice(at, end)
  if (word === "") return undefined
  if (word.toLowerCase() === "strict") {
    let k = end
    while (isSpace(s.code(k))) k++
    const next = s.src.slice(k, scanLetters(s.src, k))
    if (next.toLowerCase() !== "wildcard") {
      s.error(
        "unknown-operator",
        "expected `wildcard` after `strict`",
        { start: at, end },
        "the operator is `strict wildcard`"
      )
      s.pos = end
      return { bogus: true }
    }
    if (word !== "strict" || next !== "wildcard")
      s.error(
        "unknown-operator",
        "operators are lowercase",
        { start: at, end: k + next.length },
        "write `strict wildcard`"
      )
    s.pos = k + next.length
    return { op: { name: "strict wildcard", text: "strict wildcard", range: { start: at, end: s.pos } } }
  }
  const exact = WORD_OPS[word]
  if (exact !== undefined) {
    s.pos = end
    return { op: { name: exact, text: word, range: { start: at, end } } }
  }
  const lower = WORD_OPS[word.toLowerCase()]
  if (lower !== undefined && !["and", "or", "xor", "not"].includes(word.toLowerCase())) {
    s.error(
      "unknown-operator",
      `\`${word}\` is not an operator: operators are lowercase`,
      { start: at, end },
      `write \`${word.toLowerCase()}\``
    )
    s.pos = end
    return { op: { name: lower, text: word, range: { start: at, end } } }
  }
  if (word === "not") {
    let k = end
    while (isSpace(s.code(k))) k++
    const next = s.src.slice(k, scanLetters(s.src, k))
    if (WORD_OPS[next] !== undefined || next === "strict") {
      const lhsText = s.src.slice(lhs.range.start, lhs.range.end)
      s.error(
        "misplaced-not",
        "`not` goes before the whole comparison",
        { start: at, end },
        `write \`not ${lhsText} ${next} ...\``
      )
      s.pos = k
      return readOperator(s, lhs)
    }
    return undefined
  }
  if (word === "starts_with" || word === "ends_with") {
    s.error(
      "unknown-operator",
      `\`${word}\` is a function, not an operator`,
      { start: at, end },
      `write ${word}(${s.src.slice(lhs.range.start, lhs.range.end)}, "...")`
    )
    s.pos = end
    return { bogus: true }
  }
  return undefined
}

/** After a value: a comparison operator and its right-hand side, or nothing (a bare Boolean). */
export const parseComparisonRest = (s: ParserState, lhs: Value): Expression => {
  const vt = s.typeOf(lhs)
  s.ws()
  if (vt !== undefined) s.expect({ kind: "operator", type: vt.type })
  const read = readOperator(s, lhs)
  if (read === undefined) {
    const bare: Bare = { kind: "bare", value: lhs, range: lhs.range }
    return s.setType(
      bare,
      vt === undefined ? undefined : vt.type.kind === "Bool" ? (vt.mapped ? ARRAY_BOOL_T : BOOL_T) : vt
    )
  }
  if ("bogus" in read) {
    const rhs = parseRhs(s, "eq", "eq", undefined, true)
    return invalid(lhs.range.start, rhs.range.end)
  }
  const op = read.op
  s.token("operator", op.range.start, op.range.end)
  if (vt !== undefined && vt.type.kind === "Bool") {
    const rhs = parseRhs(s, op.name, op.text, undefined, true)
    const text = s.src.slice(lhs.range.start, lhs.range.end)
    s.error(
      "boolean-with-operator",
      `unrecognised input: \`${text}\` is a Boolean, it takes no operator or value`,
      { start: op.range.start, end: Math.max(rhs.range.end, op.range.end) },
      `use \`${text}\` or \`not ${text}\``
    )
    return s.setType({ kind: "bare", value: lhs, range: lhs.range }, vt.mapped ? ARRAY_BOOL_T : BOOL_T)
  }
  let quiet = vt === undefined
  if (vt !== undefined && !supportsOperator(vt.type, op.name)) {
    const p = operatorProblem(vt.type, op.name, op.text, s.src.slice(lhs.range.start, lhs.range.end))
    s.error("unsupported-operator", p.message, op.range, p.hint)
    quiet = true
  }
  if (!quiet && op.name === "matches" && s.opts.plan && !planAtLeast(s.opts.plan, "business")) {
    s.warn("plan-required", "`matches` needs the Business or Enterprise plan", op.range)
  }
  const rhs = parseRhs(s, op.name, op.text, quiet ? undefined : vt!.type, quiet)
  const node: Comparison = {
    kind: "comparison",
    lhs,
    operator: op,
    rhs,
    range: { start: lhs.range.start, end: Math.max(rhs.range.end, op.range.end) }
  }
  return s.setType(node, quiet ? undefined : vt!.mapped ? ARRAY_BOOL_T : BOOL_T)
}

const invalid = (start: number, end: number): Invalid => ({ kind: "invalid", range: { start, end } })

const atRhsEnd = (s: ParserState): boolean => {
  if (s.eof) return true
  const c = s.code()
  if (c === 41 || (c === 44 && s.inArgs > 0)) return true
  if (s.src.startsWith("&&", s.pos) || s.src.startsWith("||", s.pos) || s.src.startsWith("^^", s.pos)) return true
  const w = s.src.slice(s.pos, scanIdentifier(s.src, s.pos))
  return w === "and" || w === "or" || w === "xor"
}

const valueHint = (t: Type | undefined, op: ComparisonOperator): string | undefined => {
  if (op === "in")
    return t?.kind === "Ip"
      ? "e.g. {192.0.2.0/24 2001:db8::/32} or $list_name"
      : t?.kind === "Int"
        ? "e.g. {80 443 8000..8099}"
        : 'e.g. {"GET" "HEAD"}'
  if (op === "matches") return 'a regular expression, e.g. r"^/api/v[0-9]+/"'
  return t?.kind === "Int"
    ? "e.g. 443"
    : t?.kind === "Ip"
      ? "e.g. 192.0.2.1"
      : t?.kind === "Bytes"
        ? 'e.g. "value"'
        : undefined
}

const parseRhs = (
  s: ParserState,
  op: ComparisonOperator,
  opText: string,
  type: Type | undefined,
  quiet: boolean
): Rhs => {
  s.ws()
  s.expect({ kind: "value", type, operator: op })
  if (op === "in") s.expect({ kind: "list", type })
  const at = s.pos
  if (atRhsEnd(s)) {
    s.error("expected-value", `expected a value after \`${opText}\``, { start: at, end: at }, valueHint(type, op))
    return invalid(at, at)
  }
  const c = s.code()
  if (op === "in") {
    if (c === 123) return parseSet(s, type, quiet)
    if (c === 36) return parseList(s, type, quiet)
    const lit = c === 34 || startsRawString(s.src, at) ? parseString(s, false).node : skipWord(s, type, true)
    const text = s.src.slice(at, s.pos)
    s.error("in-needs-set", "`in` takes a set {...} or a list $name", lit.range, `write \`in {${text}}\``)
    return invalid(at, s.pos)
  }
  if (c === 123 || c === 36) {
    const node = c === 123 ? parseSet(s, undefined, true) : parseList(s, undefined, true)
    s.error(
      c === 123 ? "set-not-allowed" : "list-not-allowed",
      `a ${c === 123 ? "set" : "list"} can only follow \`in\``,
      node.range,
      `write \`in ${s.src.slice(node.range.start, node.range.end)}\``
    )
    return invalid(at, s.pos)
  }
  if (c === 34 || startsRawString(s.src, at)) {
    const { node, lexed } = parseString(s, op === "matches")
    if (quiet || type === undefined) return node
    if (type.kind === "Int" || type.kind === "Ip") {
      s.error(
        "type-mismatch",
        `expected ${type.kind === "Int" ? "an integer" : "an IP address"}, got a string`,
        node.range,
        "remove the quotes"
      )
      return node
    }
    if (lexed.closed && op === "matches") checkRegex(s, lexed)
    if (lexed.closed && (op === "wildcard" || op === "strict wildcard")) checkWildcard(s, lexed)
    return node
  }
  if (op === "matches" || op === "wildcard" || op === "strict wildcard") {
    const lit = skipWord(s, undefined, true)
    if (!quiet)
      s.error(
        "expected-string",
        `\`${opText}\` takes a quoted or raw string`,
        lit.range,
        `write "${s.src.slice(lit.range.start, lit.range.end)}"`
      )
    return invalid(at, s.pos)
  }
  return skipWord(s, op === "bitwise_and" && !quiet ? Int : type, quiet)
}

/** A bare literal at the cursor, read as `type` (a glued `and`/`or`/`xor` is split off with a warning). */
const skipWord = (s: ParserState, type: Type | undefined, quiet: boolean): Literal | Invalid => {
  const at = s.pos
  let end = scanWord(s.src, at)
  if (end === at) {
    const ch = s.src.slice(at, at + (s.src.codePointAt(at)! > 0xffff ? 2 : 1))
    s.error(
      "expected-value",
      `expected a value, found ${describeChar(ch)}`,
      { start: at, end: at + ch.length },
      ch === "'" ? 'strings use double quotes: "..."' : undefined
    )
    s.pos = at + ch.length
    return invalid(at, s.pos)
  }
  const glued = /^(.+?)(and|or|xor)$/.exec(s.src.slice(at, end))
  if (
    glued &&
    /^(-?[0-9]+|0x[0-9a-fA-F]+|[0-9.]+|[0-9a-fA-F:.]+)$/.test(glued[1]!) &&
    !/^[0-9a-fA-F]{2}([:.-][0-9a-fA-F]{2})*$/.test(s.src.slice(at, end))
  ) {
    const cut = at + glued[1]!.length
    s.warn(
      "glued-keyword",
      `\`${s.src.slice(at, end)}\` reads as \`${glued[1]} ${glued[2]}\``,
      { start: at, end },
      `put a space before \`${glued[2]}\``
    )
    end = cut
  }
  const lit = readBare(at, end, expectFor(type), { src: s.src, out: s.out, inSet: false, quiet })
  s.pos = end
  s.token(lit.kind === "int" ? "number" : lit.kind === "ip" ? "ip" : "bytes", at, end)
  if (lit.kind === "int") return s.setType(lit, INT_T)
  if (lit.kind === "ip") return s.setType(lit, IP_T)
  if (lit.kind === "bytes") return s.setType(lit, BYTES_T)
  return invalid(at, end)
}

/** A literal where a condition or an argument starts. */
export const skipLiteral = (s: ParserState): Literal | Invalid => {
  if (s.code() === 34 || startsRawString(s.src, s.pos)) return parseString(s, false).node
  return skipWord(s, undefined, s.inArgs === 0)
}
