/**
 * Values: fields (with their scheme diagnostics), function calls (checked against the function's
 * signature) and index access (`[0]`, `["key"]`, `[*]`).
 */
import * as Either from "effect/Either"
import type { Argument, Call, Expression, Field, Index, IndexKey, Value } from "./ast.js"
import { toTextStrict } from "./bytes.js"
import { planAtLeast, planName } from "./fields.js"
import { FUNCTION_TABLE } from "./functions.js"
import { isDigit, isIdentChar, isSpace, scanIdentifier, scanWord, startsRawString, placeOf } from "./lexer.js"
import { parseString } from "./parse-string.js"
import type { ParserState } from "./parse-state.js"
import { didYouMean, HTTP_SCHEME, NETWORK_SCHEME, suggest } from "./scheme.js"
import { Bool, Bytes, Int, Ip, type ValueType } from "./types.js"
import { checkCall, indexType, type ArgInfo } from "./typing.js"

const BOOL_T: ValueType = { type: Bool, mapped: false }
const BYTES_T: ValueType = { type: Bytes, mapped: false }
const INT_T: ValueType = { type: Int, mapped: false }
const IP_T: ValueType = { type: Ip, mapped: false }

// ---------------------------------------------------------------------------------------------
// Fields, calls, index access

/**
 * A value: a field or a call, with index access. A call's arguments are read by `parseArgument`
 * (a condition or a value: the whole grammar), which the caller passes in so that values do not
 * import conditions (parse-expr.ts), which import values.
 */
export const parseValue = (s: ParserState, parseArgument: (s: ParserState) => Expression): Value => {
  const at = s.pos
  const end = scanIdentifier(s.src, at)
  const name = s.src.slice(at, end)
  s.pos = end
  if (s.code(end) === 46 /* . */ && !isIdentChar(s.code(end + 1))) {
    s.error(
      "invalid-identifier",
      "expected a name after `.`",
      { start: end, end: Math.min(end + 2, s.src.length) },
      "field names are dotted words: http.request.uri.path"
    )
    s.pos = end + 1
  }
  let k = end
  while (isSpace(s.code(k))) k++
  const field = s.opts.scheme.field(name)
  if (s.code(k) === 40 /* ( */ && field === undefined) {
    s.pos = k
    return parseIndexChain(s, parseCall(s, name, at, end, parseArgument))
  }
  const node: Field = { kind: "field", name, range: { start: at, end } }
  s.token("field", at, end)
  if (field === undefined) {
    const fn = s.opts.scheme.fn(name)
    if (fn !== undefined) {
      s.error("function-needs-call", `\`${name}\` is a function: call it with its arguments`, node.range, fn.signature)
    } else {
      const other = s.opts.scheme.name === "http" ? NETWORK_SCHEME : HTTP_SCHEME
      const hint = other.field(name)
        ? `\`${name}\` is a field of the ${other.name === "network" ? "network (Magic Firewall)" : "HTTP"} scheme`
        : didYouMean(
            suggest(
              name,
              s.opts.scheme.fields.map((f) => f.name)
            )
          )
      s.error("unknown-field", `unknown field \`${name}\``, node.range, hint)
    }
    return parseIndexChain(s, node)
  }
  s.setType(node, { type: field.type, mapped: false })
  if (field.replacedBy)
    s.info(
      "deprecated-field",
      `\`${name}\` is deprecated`,
      node.range,
      `use \`${field.replacedBy}\`, which has the same value`
    )
  if (field.availability !== "request" && !(field.availability === "response" && s.opts.phase === "response")) {
    s.warn(
      "field-not-available",
      field.availability === "response"
        ? `\`${name}\` only has a value in response phases`
        : `\`${name}\` is only available in rewrite expressions of Transform Rules`,
      node.range,
      "in a request filter it is always missing, so comparisons on it are false"
    )
  }
  if (field.plan && s.opts.plan && !planAtLeast(s.opts.plan, field.plan)) {
    s.warn(
      "plan-required",
      `\`${name}\` needs the ${planName(field.plan)} plan${field.addOn ? " and an add-on" : ""}`,
      node.range
    )
  }
  return parseIndexChain(s, node)
}

const parseIndexChain = (s: ParserState, start: Value): Value => {
  let node = start
  for (;;) {
    if (s.code() === 91 /* [ */) {
      node = parseIndex(s, node)
      continue
    }
    let k = s.pos
    while (isSpace(s.code(k)) || s.code(k) === 9) k++
    if (k > s.pos && s.code(k) === 91) {
      s.error(
        "space-before-index",
        "no space is allowed before [",
        { start: s.pos, end: k },
        'write the brackets right after the field: field["key"]'
      )
      s.pos = k
      node = parseIndex(s, node)
      continue
    }
    return node
  }
}

const parseIndex = (s: ParserState, target: Value): Value => {
  const open = s.pos
  s.pos++
  s.token("punctuation", open, open + 1)
  s.ws()
  const tt = s.typeOf(target)
  s.expect({ kind: "index", type: tt?.type })
  let key: IndexKey | undefined
  const at = s.pos
  const c = s.code()
  if (c === 42 /* * */) {
    key = { kind: "each" }
    s.pos++
  } else if (isDigit(c)) {
    let e = at
    while (isDigit(s.code(e))) e++
    const n = Number(s.src.slice(at, e))
    if (n > 4294967295) s.error("invalid-index", `index ${s.src.slice(at, e)} is too large`, { start: at, end: e })
    else key = { kind: "position", value: n }
    s.token("number", at, e)
    s.pos = e
  } else if (c === 45 /* - */ && isDigit(s.code(at + 1))) {
    let e = at + 1
    while (isDigit(s.code(e))) e++
    s.error(
      "invalid-index",
      `expected a positive integer as index, got ${s.src.slice(at, e)}`,
      { start: at, end: e },
      "elements count from 0; there are no negative indexes"
    )
    s.pos = e
  } else if (c === 34 || startsRawString(s.src, at)) {
    const { node } = parseString(s, false)
    const text = toTextStrict(node.value)
    if (text === undefined) s.error("invalid-index", "a map key must be valid UTF-8", node.range)
    else key = { kind: "key", value: node.value }
  } else if (c === 93 /* ] */ || s.eof) {
    s.error("invalid-index", "expected a position, a quoted key or * inside [ ]", {
      start: open,
      end: s.eof ? s.pos : s.pos + 1
    })
  } else {
    let e = Math.max(scanWord(s.src, at), scanIdentifier(s.src, at))
    if (e === at) e = at + 1
    const word = s.src.slice(at, e)
    s.error(
      "invalid-index",
      `expected a quoted utf8 string or a positive integer, got \`${word}\``,
      { start: at, end: e },
      `quote the key: ["${word}"]`
    )
    s.pos = e
  }
  s.ws()
  if (s.code() === 93) {
    s.token("punctuation", s.pos, s.pos + 1)
    s.pos++
  } else {
    s.expect({ kind: "close", text: "]" })
    if (key !== undefined)
      s.error("unclosed-index", `expected ] to close the [ at ${placeOf(s.src, open)}`, { start: s.pos, end: s.pos })
  }
  const node: Index = {
    kind: "index",
    target,
    key: key ?? { kind: "each" },
    keyRange: { start: open, end: s.pos },
    range: { start: target.range.start, end: s.pos }
  }
  if (key === undefined || tt === undefined) return node
  const r = indexType(tt, key)
  if (Either.isRight(r)) return s.setType(node, r.right)
  s.error("index-not-supported", r.left.message, node.keyRange, r.left.hint)
  return node
}

const parseCall = (
  s: ParserState,
  name: string,
  start: number,
  nameEnd: number,
  parseArgument: (s: ParserState) => Expression
): Call => {
  const fn = s.opts.scheme.fn(name)
  const nameRange = { start, end: nameEnd }
  s.token("function", start, nameEnd)
  if (fn === undefined) {
    const elsewhere = FUNCTION_TABLE.get(name)
    if (elsewhere !== undefined) {
      s.error(
        "function-not-available",
        `\`${name}()\` is only available in the ${elsewhere.network ? "network (Magic Firewall)" : "HTTP"} scheme`,
        nameRange
      )
    } else {
      s.error(
        "unknown-function",
        `unknown function \`${name}\``,
        nameRange,
        didYouMean(
          suggest(
            name,
            s.opts.scheme.functions.map((f) => f.name)
          )
        )
      )
    }
  }
  const open = s.pos
  if (!s.enter(open)) {
    s.skipBalanced()
    return { kind: "call", name, nameRange, args: [], range: { start, end: s.pos } }
  }
  s.pos++
  s.token("punctuation", open, open + 1)
  const args: Array<Argument> = []
  const infos: Array<ArgInfo> = []
  let close = -1
  s.inArgs++
  s.ws()
  if (s.code() === 41) {
    close = s.pos
    s.pos++
  } else {
    for (;;) {
      s.ws()
      s.expect({ kind: "argument", function: name, index: args.length })
      const c = s.code()
      if (c === 44 || c === 41 || s.eof) {
        s.error("expected-argument", "expected an argument", { start: s.pos, end: s.pos })
        if (c === 44) {
          s.pos++
          continue
        }
        if (c === 41) {
          close = s.pos
          s.pos++
        }
        break
      }
      let node: Argument = parseArgument(s)
      if (node.kind === "bare") node = node.value
      args.push(node)
      infos.push(argInfo(s, node))
      s.ws()
      const n = s.code()
      if (n === 44) {
        s.token("punctuation", s.pos, s.pos + 1)
        s.pos++
        s.ws()
        if (s.code() === 41)
          s.error(
            "expected-argument",
            "expected an argument after ,",
            { start: s.pos, end: s.pos },
            "remove the trailing comma"
          )
        continue
      }
      if (n === 41) {
        s.token("punctuation", s.pos, s.pos + 1)
        close = s.pos
        s.pos++
        break
      }
      s.expect({ kind: "close", text: ")" })
      s.error(
        "unclosed-call",
        `expected , or ) in the call to \`${name}\``,
        { start: s.pos, end: s.pos },
        "add the missing )"
      )
      break
    }
  }
  s.inArgs--
  s.leave()
  const node: Call = { kind: "call", name, nameRange, args, range: { start, end: s.pos } }
  if (fn === undefined) return node
  if (fn.plan && s.opts.plan && !planAtLeast(s.opts.plan, fn.plan))
    s.warn("plan-required", `\`${name}()\` needs the ${planName(fn.plan)} plan`, nameRange)
  return s.setType(node, checkCall(fn, infos, { name: nameRange, close: close < 0 ? s.pos : close }, s.out))
}

const argInfo = (s: ParserState, node: Argument): ArgInfo => {
  const range = node.range
  switch (node.kind) {
    case "string":
      return { node, type: BYTES_T, literal: toTextStrict(node.value) ?? node.value, isLiteral: true, range }
    case "bytes":
      return { node, type: BYTES_T, literal: node.value, isLiteral: true, range }
    case "int":
      return { node, type: INT_T, literal: node.value, isLiteral: true, range }
    case "ip":
      return { node, type: IP_T, isLiteral: true, range }
    case "constant":
      return { node, type: BOOL_T, isLiteral: true, range }
    default:
      return { node, type: s.typeOf(node), isLiteral: false, range }
  }
}
