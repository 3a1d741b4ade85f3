/**
 * Conditions: logical operators (n-ary, with the reference's precedence: not, and, xor, or),
 * `not`, parentheses, comparisons and bare Boolean values, with error recovery so that several
 * independent problems are reported in one pass.
 *
 * This module is the recursive descent (operand lists, operands, groups, `not`); the logical
 * operators, the precedence tree and the condition checks it builds with are in `parse-logical.ts`.
 */
import type { Expression, Token, Value } from "./ast.js"
import { isDigit, isIdentChar, scanIdentifier, scanWord, startsRawString, placeOf } from "./lexer.js"
import type { ParserState } from "./parse-state.js"
import { parseComparisonRest, skipLiteral } from "./parse-compare.js"
import {
  atOperandEnd,
  BOOL_T,
  build,
  type Context,
  invalidAt,
  knownStart,
  LOGICAL_WORDS,
  readLogicalOp,
  requireCondition,
  skipJunk,
  startsOperand
} from "./parse-logical.js"
import type { LogicalOperator } from "./types.js"
import { parseValue } from "./parse-value.js"

const BYTES_WORD = /^[0-9a-fA-F]{2}([:.-][0-9a-fA-F]{2})+$/

/** Parses a run of operands joined by logical operators and builds the n-ary tree by precedence. */
export const parseLogical = (s: ParserState, ctx: Context): Expression => {
  const operands: Array<Expression> = [parseSimple(s)]
  const ops: Array<{ op: LogicalOperator; token: Token }> = []
  for (;;) {
    s.ws()
    s.expect({ kind: "logical-operator" })
    if (ctx === "group") s.expect({ kind: "close", text: ")" })
    if (s.eof) break
    const at = s.pos
    const c = s.code()
    if (c === 41 /* ) */) {
      if (ctx !== "top") break
      s.error(
        "unmatched-parenthesis",
        "unrecognised input: this ) has no matching (",
        { start: at, end: at + 1 },
        "remove it, or add the ( it closes"
      )
      s.pos++
      continue
    }
    if (c === 44 /* , */ && ctx === "arg") break
    const op = readLogicalOp(s)
    if (op !== undefined) {
      ops.push(op)
      s.ws()
      if (atOperandEnd(s, ctx)) {
        // A condition belongs here (completion), even though none follows.
        s.expect({ kind: "condition" })
        s.error(
          "expected-expression",
          `expected a condition after \`${op.token.text}\``,
          { start: s.pos, end: s.pos },
          "remove the operator or add the condition it joins"
        )
        operands.push(invalidAt(s.pos))
        continue
      }
      operands.push(parseSimple(s))
      continue
    }
    const wordEnd = scanIdentifier(s.src, at)
    const word = s.src.slice(at, wordEnd)
    const lower = word.toLowerCase()
    const variant = LOGICAL_WORDS.find(([t]) => t === lower)
    if (variant !== undefined && word !== lower) {
      s.error(
        "unknown-operator",
        `\`${word}\` is not an operator: operators are lowercase`,
        { start: at, end: wordEnd },
        `write \`${lower}\``
      )
      s.pos = wordEnd
      ops.push({ op: variant[1], token: { text: word, range: { start: at, end: wordEnd } } })
      s.ws()
      operands.push(atOperandEnd(s, ctx) ? invalidAt(s.pos) : parseSimple(s))
      continue
    }
    if (startsOperand(s)) {
      const shownEnd = wordEnd > at ? wordEnd : Math.max(scanWord(s.src, at), at + 1)
      s.error(
        "missing-operator",
        `unrecognised input: expected \`and\`, \`or\` or \`xor\` before \`${s.src.slice(at, Math.min(shownEnd, at + 40))}\``,
        { start: at, end: shownEnd },
        "join two conditions with `and` or `or`"
      )
      ops.push({ op: "and", token: { text: "", range: { start: at, end: at } } })
      const mark = s.expectations.length
      operands.push(parseSimple(s))
      // Recovery read an operand where an operator belongs: that is not what may be written there.
      const kept = s.expectations.filter((e, i) => i < mark || e.at !== at)
      s.expectations.length = 0
      s.expectations.push(...kept)
      continue
    }
    skipJunk(s)
  }
  return build(s, operands, ops, ctx)
}

/** One operand: `( ... )`, `not x`, a comparison or bare value, `true`/`false`, or (in arguments) a literal. */
const parseSimple = (s: ParserState): Expression => {
  s.ws()
  s.expect({ kind: "condition" })
  const at = s.pos
  if (s.eof) {
    s.error(
      "expected-expression",
      at === 0 ? "the expression is empty" : "expected a condition",
      { start: at, end: at },
      'e.g. http.request.uri.path contains "/admin"'
    )
    return invalidAt(at)
  }
  const c = s.code()
  if (c === 40 /* ( */) return parseGroup(s)
  if (c === 33 /* ! */ && s.code(at + 1) !== 61) return parseNot(s, 1)
  if (isIdentChar(c) && !isDigit(c) && !startsRawString(s.src, at)) {
    const end = scanIdentifier(s.src, at)
    const name = s.src.slice(at, end)
    if (name === "not") return parseNot(s, 3)
    if (name.startsWith("not") && !knownStart(s, name) && knownStart(s, name.slice(3))) {
      s.warn(
        "glued-keyword",
        `\`${name}\` reads as \`not ${name.slice(3)}\``,
        { start: at, end },
        "put a space after `not`"
      )
      return parseNot(s, 3)
    }
    if (s.inArgs > 0 && BYTES_WORD.test(s.src.slice(at, scanWord(s.src, at))) && !knownStart(s, name))
      return skipLiteral(s) as unknown as Expression
    if ((name === "true" || name === "false") && s.code(end) !== 40 && s.code(end) !== 46) {
      s.pos = end
      s.token("keyword", at, end)
      return s.setType({ kind: "constant", value: name === "true", range: { start: at, end } }, BOOL_T)
    }
    const value: Value = parseValue(s, parseArgument)
    return parseComparisonRest(s, value)
  }
  if (isIdentChar(c) || c === 34 || c === 45 || c === 58 || startsRawString(s.src, at)) {
    const lit = skipLiteral(s)
    if (s.inArgs > 0) return lit as unknown as Expression
    s.error(
      "expected-field",
      "a condition starts with a field or a function, not a value",
      { start: at, end: s.pos },
      'put the field on the left: http.host eq "example.com"'
    )
    return invalidAt(at, s.pos)
  }
  if (c === 41 || (c === 44 && s.inArgs > 0)) {
    s.error("expected-expression", c === 41 ? "expected a condition before )" : "expected an argument", {
      start: at,
      end: at
    })
    return invalidAt(at)
  }
  if (c === 123 /* { */ || c === 36 /* $ */) {
    const end = c === 123 ? closingBrace(s.src, at) : scanWord(s.src, at + 1)
    s.error(
      "expected-field",
      `a ${c === 123 ? "set" : "list"} can only follow \`in\``,
      { start: at, end },
      "e.g. ip.src in {192.0.2.0/24}"
    )
    s.pos = end
    return invalidAt(at, end)
  }
  skipJunk(s)
  s.ws()
  if (!s.eof && startsOperand(s)) return parseSimple(s)
  return invalidAt(at, s.pos)
}

/** A function's argument: a condition, or a value alone (what `parseValue` reads calls with). */
const parseArgument = (s: ParserState): Expression => parseLogical(s, "arg")

const closingBrace = (src: string, at: number) => {
  const i = src.indexOf("}", at)
  return i < 0 ? src.length : i + 1
}

const parseGroup = (s: ParserState): Expression => {
  const at = s.pos
  if (!s.enter(at)) {
    s.skipBalanced()
    return invalidAt(at, s.pos)
  }
  s.pos++
  s.token("punctuation", at, at + 1)
  s.ws()
  if (s.code() === 41) {
    s.error("expected-expression", "expected a condition inside the parentheses", { start: at, end: s.pos + 1 })
    s.pos++
    s.leave()
    return invalidAt(at, s.pos)
  }
  const inner = parseLogical(s, "group")
  s.ws()
  if (s.code() === 41) {
    s.token("punctuation", s.pos, s.pos + 1)
    s.pos++
  } else {
    s.error(
      "unclosed-parenthesis",
      `expected ) to close the ( at ${placeOf(s.src, at)}`,
      { start: s.pos, end: s.pos },
      "add the missing )"
    )
  }
  s.leave()
  return s.setType({ kind: "group", expression: inner, range: { start: at, end: s.pos } }, s.typeOf(inner))
}

const parseNot = (s: ParserState, width: number): Expression => {
  const at = s.pos
  if (!s.enter(at, width)) {
    // Beyond the limit: skip the remaining negations without recursing.
    while (!s.eof) {
      s.ws()
      const w =
        s.code() === 33 && s.code(s.pos + 1) !== 61
          ? 1
          : s.src.slice(s.pos, scanIdentifier(s.src, s.pos)) === "not"
            ? 3
            : 0
      if (w === 0) break
      s.pos += w
    }
    const operand = parseSimple(s)
    return invalidAt(at, operand.range.end)
  }
  s.pos += width
  s.token("keyword", at, s.pos)
  const token: Token = { text: s.src.slice(at, s.pos), range: { start: at, end: s.pos } }
  s.ws()
  if (atOperandEnd(s, s.inArgs > 0 ? "arg" : "top")) {
    s.expect({ kind: "condition" })
    s.error("expected-expression", `expected a condition after \`${token.text}\``, { start: s.pos, end: s.pos })
    s.leave()
    return invalidAt(at, s.pos)
  }
  const operand = parseSimple(s)
  s.leave()
  requireCondition(s, operand)
  return s.setType(
    { kind: "not", operand, operator: token, range: { start: at, end: operand.range.end } },
    s.typeOf(operand)
  )
}
