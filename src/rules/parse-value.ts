/**
 * Values and what follows them: fields, function calls, index access, comparison operators and
 * their right-hand sides (literals read in the type of the left-hand side, sets, lists, regular
 * expressions and wildcard patterns, each validated where it is read).
 */
import type { Argument, Bare, Call, Comparison, Expression, Field, Index, IndexKey, Invalid, Literal, ListRef, Operator, Rhs, SetItem, SetLiteral, StringLiteral, Value } from "./ast.js"
import { toTextStrict } from "./bytes.js"
import { planAtLeast, planName } from "./fields.js"
import { FUNCTION_TABLE } from "./functions.js"
import { describeChar, isDigit, isIdentChar, isSpace, lexString, scanIdentifier, scanListName, scanWord, startsRawString, type LexedString } from "./lexer.js"
import { readBare, type Expect } from "./literals.js"
import { parseLogical } from "./parse-expr.js"
import type { ListKind, ParserState } from "./parse-state.js"
import { compileRegex } from "./regex.js"
import { HTTP_SCHEME, NETWORK_SCHEME, suggest } from "./scheme.js"
import { arrayOf, Bool, Bytes, Int, Ip, supportsOperator, typeName, type ComparisonOperator, type Type, type ValueType } from "./types.js"
import { checkCall, indexType, operatorProblem, type ArgInfo } from "./typing.js"
import { parseWildcard } from "./wildcard.js"

const BOOL_T: ValueType = { type: Bool, mapped: false }
const ARRAY_BOOL_T: ValueType = { type: arrayOf(Bool), mapped: false }
const BYTES_T: ValueType = { type: Bytes, mapped: false }
const INT_T: ValueType = { type: Int, mapped: false }
const IP_T: ValueType = { type: Ip, mapped: false }

/** Named lists the platform manages for every account (IP lists). */
const MANAGED_LISTS: ReadonlyMap<string, ListKind> = new Map(
  ["cf.open_proxies", "cf.anonymizer", "cf.vpn", "cf.malware", "cf.botnetcc"].map((n) => [n, "ip" as const])
)

// ---------------------------------------------------------------------------------------------
// Fields, calls, index access

export const parseValue = (s: ParserState): Value => {
  const at = s.pos
  const end = scanIdentifier(s.src, at)
  const name = s.src.slice(at, end)
  s.pos = end
  if (s.code(end) === 46 /* . */ && !isIdentChar(s.code(end + 1))) {
    s.error("invalid-identifier", "expected a name after `.`", { start: end, end: Math.min(end + 2, s.src.length) }, "field names are dotted words: http.request.uri.path")
    s.pos = end + 1
  }
  let k = end
  while (isSpace(s.code(k))) k++
  const field = s.opts.scheme.field(name)
  if (s.code(k) === 40 /* ( */ && field === undefined) {
    s.pos = k
    return parseIndexChain(s, parseCall(s, name, at, end))
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
        : didYouMean(suggest(name, s.opts.scheme.fields.map((f) => f.name)))
      s.error("unknown-field", `unknown field \`${name}\``, node.range, hint)
    }
    return parseIndexChain(s, node)
  }
  s.setType(node, { type: field.type, mapped: false })
  if (field.replacedBy) s.info("deprecated-field", `\`${name}\` is deprecated`, node.range, `use \`${field.replacedBy}\`, which has the same value`)
  if (field.availability !== "request" && !(field.availability === "response" && s.opts.phase === "response")) {
    s.warn(
      "field-not-available",
      field.availability === "response" ? `\`${name}\` only has a value in response phases` : `\`${name}\` is only available in rewrite expressions of Transform Rules`,
      node.range,
      "in a request filter it is always missing, so comparisons on it are false"
    )
  }
  if (field.plan && s.opts.plan && !planAtLeast(s.opts.plan, field.plan)) {
    s.warn("plan-required", `\`${name}\` needs the ${planName(field.plan)} plan${field.addOn ? " and an add-on" : ""}`, node.range)
  }
  return parseIndexChain(s, node)
}

const didYouMean = (name: string | undefined) => (name === undefined ? undefined : `did you mean \`${name}\`?`)

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
      s.error("space-before-index", "no space is allowed before [", { start: s.pos, end: k }, "write the brackets right after the field: field[\"key\"]")
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
    s.error("invalid-index", `expected a positive integer as index, got ${s.src.slice(at, e)}`, { start: at, end: e }, "elements count from 0; there are no negative indexes")
    s.pos = e
  } else if (c === 34 || startsRawString(s.src, at)) {
    const { node } = parseString(s, false)
    const text = toTextStrict(node.value)
    if (text === undefined) s.error("invalid-index", "a map key must be valid UTF-8", node.range)
    else key = { kind: "key", value: node.value }
  } else if (c === 93 /* ] */ || s.eof) {
    s.error("invalid-index", "expected a position, a quoted key or * inside [ ]", { start: open, end: s.eof ? s.pos : s.pos + 1 })
  } else {
    let e = Math.max(scanWord(s.src, at), scanIdentifier(s.src, at))
    if (e === at) e = at + 1
    const word = s.src.slice(at, e)
    s.error("invalid-index", `expected a quoted utf8 string or a positive integer, got \`${word}\``, { start: at, end: e }, `quote the key: ["${word}"]`)
    s.pos = e
  }
  s.ws()
  if (s.code() === 93) {
    s.token("punctuation", s.pos, s.pos + 1)
    s.pos++
  } else {
    s.expect({ kind: "close", text: "]" })
    if (key !== undefined) s.error("unclosed-index", `expected ] to close the [ at offset ${open}`, { start: s.pos, end: s.pos })
  }
  const node: Index = { kind: "index", target, key: key ?? { kind: "each" }, keyRange: { start: open, end: s.pos }, range: { start: target.range.start, end: s.pos } }
  if (key === undefined || tt === undefined) return node
  const r = indexType(tt, key)
  if (r.ok) return s.setType(node, r.type)
  s.error("index-not-supported", r.message, node.keyRange, r.hint)
  return node
}

const parseCall = (s: ParserState, name: string, start: number, nameEnd: number): Call => {
  const fn = s.opts.scheme.fn(name)
  const nameRange = { start, end: nameEnd }
  s.token("function", start, nameEnd)
  if (fn === undefined) {
    const elsewhere = FUNCTION_TABLE.get(name)
    if (elsewhere !== undefined) {
      s.error("function-not-available", `\`${name}()\` is only available in the ${elsewhere.network ? "network (Magic Firewall)" : "HTTP"} scheme`, nameRange)
    } else {
      s.error("unknown-function", `unknown function \`${name}\``, nameRange, didYouMean(suggest(name, s.opts.scheme.functions.map((f) => f.name))))
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
      let node: Argument = parseLogical(s, "arg")
      if (node.kind === "bare") node = node.value
      args.push(node)
      infos.push(argInfo(s, node))
      s.ws()
      const n = s.code()
      if (n === 44) {
        s.token("punctuation", s.pos, s.pos + 1)
        s.pos++
        s.ws()
        if (s.code() === 41) s.error("expected-argument", "expected an argument after ,", { start: s.pos, end: s.pos }, "remove the trailing comma")
        continue
      }
      if (n === 41) {
        s.token("punctuation", s.pos, s.pos + 1)
        close = s.pos
        s.pos++
        break
      }
      s.expect({ kind: "close", text: ")" })
      s.error("unclosed-call", `expected , or ) in the call to \`${name}\``, { start: s.pos, end: s.pos }, "add the missing )")
      break
    }
  }
  s.inArgs--
  s.leave()
  const node: Call = { kind: "call", name, nameRange, args, range: { start, end: s.pos } }
  if (fn === undefined) return node
  if (fn.plan && s.opts.plan && !planAtLeast(s.opts.plan, fn.plan)) s.warn("plan-required", `\`${name}()\` needs the ${planName(fn.plan)} plan`, nameRange)
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

// ---------------------------------------------------------------------------------------------
// Comparisons

const WORD_OPS: Readonly<Record<string, ComparisonOperator>> = {
  eq: "eq", ne: "ne", lt: "lt", le: "le", gt: "gt", ge: "ge", contains: "contains", matches: "matches", wildcard: "wildcard", in: "in", bitwise_and: "bitwise_and"
}
const SYMBOL_OPS: ReadonlyArray<readonly [string, ComparisonOperator]> = [
  ["==", "eq"], ["!=", "ne"], ["<=", "le"], [">=", "ge"], ["<", "lt"], [">", "gt"], ["~", "matches"], ["&", "bitwise_and"]
]
const WRONG_SYMBOLS: ReadonlyArray<readonly [string, ComparisonOperator, string]> = [
  ["=~", "matches", "use `matches` or `~`"], ["!~", "matches", "there is no negated match: write `not field matches \"...\"`"],
  ["<>", "ne", "use `ne` or `!=`"], ["=", "eq", "use `eq` or `==`"]
]

type ReadOp = { readonly op: Operator } | { readonly bogus: true } | undefined

const scanLetters = (src: string, at: number) => {
  let e = at
  while (e < src.length && (/[A-Za-z_]/.test(src[e]!))) e++
  return e
}

const readOperator = (s: ParserState, lhs: Value): ReadOp => {
  const at = s.pos
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
  const end = scanLetters(s.src, at)
  const word = s.src.slice(at, end)
  if (word === "") return undefined
  if (word.toLowerCase() === "strict") {
    let k = end
    while (isSpace(s.code(k))) k++
    const next = s.src.slice(k, scanLetters(s.src, k))
    if (next.toLowerCase() !== "wildcard") {
      s.error("unknown-operator", "expected `wildcard` after `strict`", { start: at, end }, "the operator is `strict wildcard`")
      s.pos = end
      return { bogus: true }
    }
    if (word !== "strict" || next !== "wildcard") s.error("unknown-operator", "operators are lowercase", { start: at, end: k + next.length }, "write `strict wildcard`")
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
    s.error("unknown-operator", `\`${word}\` is not an operator: operators are lowercase`, { start: at, end }, `write \`${word.toLowerCase()}\``)
    s.pos = end
    return { op: { name: lower, text: word, range: { start: at, end } } }
  }
  if (word === "not") {
    let k = end
    while (isSpace(s.code(k))) k++
    const next = s.src.slice(k, scanLetters(s.src, k))
    if (WORD_OPS[next] !== undefined || next === "strict") {
      const lhsText = s.src.slice(lhs.range.start, lhs.range.end)
      s.error("misplaced-not", "`not` goes before the whole comparison", { start: at, end }, `write \`not ${lhsText} ${next} ...\``)
      s.pos = k
      return readOperator(s, lhs)
    }
    return undefined
  }
  if (word === "starts_with" || word === "ends_with") {
    s.error("unknown-operator", `\`${word}\` is a function, not an operator`, { start: at, end }, `write ${word}(${s.src.slice(lhs.range.start, lhs.range.end)}, "...")`)
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
    return s.setType(bare, vt === undefined ? undefined : vt.type.kind === "Bool" ? (vt.mapped ? ARRAY_BOOL_T : BOOL_T) : vt)
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
    const p = operatorProblem(vt.type, op.name, op.text)
    s.error("unsupported-operator", p.message, op.range, p.hint)
    quiet = true
  }
  if (!quiet && op.name === "matches" && s.opts.plan && !planAtLeast(s.opts.plan, "business")) {
    s.warn("plan-required", "`matches` needs the Business or Enterprise plan", op.range)
  }
  const rhs = parseRhs(s, op.name, op.text, quiet ? undefined : vt!.type, quiet)
  const node: Comparison = { kind: "comparison", lhs, operator: op, rhs, range: { start: lhs.range.start, end: Math.max(rhs.range.end, op.range.end) } }
  return s.setType(node, quiet ? undefined : vt!.mapped ? ARRAY_BOOL_T : BOOL_T)
}

const invalid = (start: number, end: number): Invalid => ({ kind: "invalid", range: { start, end } })

const expectFor = (t: Type | undefined): Expect => (t?.kind === "Int" ? "int" : t?.kind === "Ip" ? "ip" : t?.kind === "Bytes" ? "bytes" : "any")

const atRhsEnd = (s: ParserState): boolean => {
  if (s.eof) return true
  const c = s.code()
  if (c === 41 || (c === 44 && s.inArgs > 0)) return true
  if (s.src.startsWith("&&", s.pos) || s.src.startsWith("||", s.pos) || s.src.startsWith("^^", s.pos)) return true
  const w = s.src.slice(s.pos, scanIdentifier(s.src, s.pos))
  return w === "and" || w === "or" || w === "xor"
}

const valueHint = (t: Type | undefined, op: ComparisonOperator): string | undefined => {
  if (op === "in") return t?.kind === "Ip" ? "e.g. {192.0.2.0/24 2001:db8::/32} or $list_name" : t?.kind === "Int" ? "e.g. {80 443 8000..8099}" : 'e.g. {"GET" "HEAD"}'
  if (op === "matches") return 'a regular expression, e.g. r"^/api/v[0-9]+/"'
  return t?.kind === "Int" ? "e.g. 443" : t?.kind === "Ip" ? "e.g. 192.0.2.1" : t?.kind === "Bytes" ? 'e.g. "value"' : undefined
}

const parseRhs = (s: ParserState, op: ComparisonOperator, opText: string, type: Type | undefined, quiet: boolean): Rhs => {
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
    s.error(c === 123 ? "set-not-allowed" : "list-not-allowed", `a ${c === 123 ? "set" : "list"} can only follow \`in\``, node.range, `write \`in ${s.src.slice(node.range.start, node.range.end)}\``)
    return invalid(at, s.pos)
  }
  if (c === 34 || startsRawString(s.src, at)) {
    const { node, lexed } = parseString(s, op === "matches")
    if (quiet || type === undefined) return node
    if (type.kind === "Int" || type.kind === "Ip") {
      s.error("type-mismatch", `expected ${type.kind === "Int" ? "an integer" : "an IP address"}, got a string`, node.range, "remove the quotes")
      return node
    }
    if (lexed.closed && op === "matches") checkRegex(s, lexed)
    if (lexed.closed && (op === "wildcard" || op === "strict wildcard")) checkWildcard(s, lexed)
    return node
  }
  if (op === "matches" || op === "wildcard" || op === "strict wildcard") {
    const lit = skipWord(s, undefined, true)
    if (!quiet) s.error("expected-string", `\`${opText}\` takes a quoted or raw string`, lit.range, `write "${s.src.slice(lit.range.start, lit.range.end)}"`)
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
    s.error("expected-value", `expected a value, found ${describeChar(ch)}`, { start: at, end: at + ch.length }, ch === "'" ? 'strings use double quotes: "..."' : undefined)
    s.pos = at + ch.length
    return invalid(at, s.pos)
  }
  const glued = /^(.+?)(and|or|xor)$/.exec(s.src.slice(at, end))
  if (glued && /^(-?[0-9]+|0x[0-9a-fA-F]+|[0-9.]+|[0-9a-fA-F:.]+)$/.test(glued[1]!) && !/^[0-9a-fA-F]{2}([:.-][0-9a-fA-F]{2})*$/.test(s.src.slice(at, end))) {
    const cut = at + glued[1]!.length
    s.warn("glued-keyword", `\`${s.src.slice(at, end)}\` reads as \`${glued[1]} ${glued[2]}\``, { start: at, end }, `put a space before \`${glued[2]}\``)
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

const parseString = (s: ParserState, regex: boolean): { node: StringLiteral; lexed: LexedString } => {
  const lexed = lexString(s.src, s.pos, regex, s.out)
  s.pos = lexed.range.end
  s.token("string", lexed.range.start, lexed.range.end)
  const node: StringLiteral = {
    kind: "string",
    value: lexed.value,
    raw: lexed.raw,
    hashes: lexed.hashes,
    ...(lexed.pattern !== undefined ? { pattern: lexed.pattern } : {}),
    text: s.src.slice(lexed.range.start, lexed.range.end),
    range: lexed.range
  }
  return { node: s.setType(node, BYTES_T), lexed }
}

/** Maps an error span inside a string's contents back to source offsets. */
const innerRange = (lexed: LexedString, start: number, end: number) => {
  const innerEnd = lexed.range.end - 1 - lexed.hashes
  const a = lexed.offsets[start] ?? innerEnd
  let b = end < lexed.offsets.length ? lexed.offsets[end]! : innerEnd
  if (b <= a) b = Math.min(a + 1, lexed.range.end)
  return { start: a, end: b }
}

const checkRegex = (s: ParserState, lexed: LexedString) => {
  const r = compileRegex(lexed.pattern ?? "")
  if (r.ok) return
  const e = r.error
  s.error(e.message.includes("size limit") ? "regex-too-large" : "invalid-regex", `invalid regular expression: ${e.message}`, innerRange(lexed, e.start, e.end), e.hint)
}

const checkWildcard = (s: ParserState, lexed: LexedString) => {
  const r = parseWildcard(lexed.value)
  if (r.ok) return
  s.error("invalid-wildcard", r.error.message, innerRange(lexed, r.error.start, r.error.end), r.error.hint)
}

// ---------------------------------------------------------------------------------------------
// Sets and lists

const parseSet = (s: ParserState, type: Type | undefined, quiet: boolean): SetLiteral => {
  const open = s.pos
  s.pos++
  s.token("punctuation", open, open + 1)
  const items: Array<SetItem> = []
  const expect = expectFor(type)
  for (;;) {
    s.ws()
    s.expect({ kind: "value", type, operator: "in" })
    s.expect({ kind: "close", text: "}" })
    const at = s.pos
    if (s.eof || s.code() === 41) {
      s.error("unclosed-set", `expected } to close the set opened at offset ${open}`, { start: at, end: at }, "add the missing }")
      break
    }
    const c = s.code()
    if (c === 125) {
      s.token("punctuation", at, at + 1)
      s.pos++
      break
    }
    if (c === 44) {
      s.error("set-comma", "set items are separated by spaces, not commas", { start: at, end: at + 1 }, "remove the comma")
      s.pos++
      continue
    }
    if (c === 34 || startsRawString(s.src, at)) {
      const { node } = parseString(s, false)
      if (!quiet && (type?.kind === "Int" || type?.kind === "Ip")) {
        s.error("type-mismatch", `expected ${type.kind === "Int" ? "an integer" : "an IP address"}, got a string`, node.range, "remove the quotes")
      }
      items.push(node)
    } else {
      const end = scanWord(s.src, at)
      if (end === at) {
        const ch = s.src.slice(at, at + (s.src.codePointAt(at)! > 0xffff ? 2 : 1))
        s.error("unexpected-character", `unexpected ${describeChar(ch)} in a set`, { start: at, end: at + ch.length })
        s.pos = at + ch.length
        continue
      }
      const lit = readBare(at, end, expect, { src: s.src, out: s.out, inSet: true, quiet })
      s.token(lit.kind === "int" || lit.kind === "int-range" ? "number" : lit.kind === "bytes" ? "bytes" : "ip", at, end)
      items.push(lit)
      s.pos = end
    }
    const n = s.code()
    if (!s.eof && n !== 125 && !isSpace(n) && n !== 9 && n !== 44 && n !== 41) {
      s.error("set-separator", "separate set items with a space", { start: s.pos, end: s.pos })
    }
  }
  const node: SetLiteral = { kind: "set", items, range: { start: open, end: s.pos } }
  if (items.length === 0 && !quiet) s.info("empty-set", "an empty set matches nothing", node.range)
  return node
}

const LIST_FOR: Record<ListKind, Type["kind"]> = { ip: "Ip", hostname: "Bytes", asn: "Int" }
const LIST_NAME: Record<ListKind, string> = { ip: "an IP list", hostname: "a hostname list", asn: "an ASN list" }

const parseList = (s: ParserState, type: Type | undefined, quiet: boolean): ListRef => {
  const at = s.pos
  s.pos++
  const scanned = scanListName(s.src, s.pos)
  const name = s.src.slice(s.pos, scanned.end)
  s.pos = scanned.end
  const range = { start: at, end: s.pos }
  s.token("list", at, s.pos)
  if (scanned.error !== undefined) {
    s.error("invalid-list-name", `invalid list name: ${scanned.error}`, range, "list names use lowercase letters, digits and _ (managed lists: cf.name)")
  } else if (s.opts.lists !== undefined && !quiet) {
    const kind = s.opts.lists.get(name) ?? MANAGED_LISTS.get(name)
    if (kind === undefined) {
      s.error("unknown-list", `there is no list named $${name}`, range, didYouMean(suggestList(s, name)))
    } else if (type !== undefined && LIST_FOR[kind] !== type.kind) {
      s.error("list-type-mismatch", `$${name} is ${LIST_NAME[kind]}; ${article(typeName(type))} value cannot be in it`, range)
    }
  }
  return { kind: "list", name, range }
}

const suggestList = (s: ParserState, name: string) => {
  const found = suggest(name, [...(s.opts.lists?.keys() ?? []), ...MANAGED_LISTS.keys()])
  return found === undefined ? undefined : `$${found}`
}

const article = (t: string) => (/^[AEIOU]/.test(t) ? `an ${t}` : `a ${t}`)
