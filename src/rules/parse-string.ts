/**
 * Quoted and raw strings where the parser reads them, and the checks of their contents that depend
 * on the operator: a regular expression on the right of `matches`, a pattern on the right of
 * `wildcard`, each error mapped back into the string. Apart from `parse-compare.ts` because sets,
 * function arguments and comparisons all read strings, and none of them should import the others.
 */
import * as Either from "effect/Either"
import type { StringLiteral } from "./ast.js"
import { lexString, type LexedString } from "./lexer.js"
import type { ParserState } from "./parse-state.js"
import { compileRegex } from "./regex.js"
import { Bytes, type ValueType } from "./types.js"
import { parseWildcard } from "./wildcard.js"

const BYTES_T: ValueType = { type: Bytes, mapped: false }

export const parseString = (s: ParserState, regex: boolean): { node: StringLiteral; lexed: LexedString } => {
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
  const count = lexed.offsets?.length ?? lexed.value.length
  const at = (k: number) =>
    lexed.offsets !== undefined ? lexed.offsets[k] : k < count ? lexed.range.start + 1 + k : undefined
  const a = at(start) ?? innerEnd
  let b = end < count ? at(end)! : innerEnd
  if (b <= a) b = Math.min(a + 1, lexed.range.end)
  return { start: a, end: b }
}

export const checkRegex = (s: ParserState, lexed: LexedString) => {
  const r = compileRegex(lexed.pattern ?? "")
  if (Either.isRight(r)) return
  const e = r.left
  s.error(
    e.message.includes("size limit") ? "regex-too-large" : "invalid-regex",
    `invalid regular expression: ${e.message}`,
    innerRange(lexed, e.start, e.end),
    e.hint
  )
}

export const checkWildcard = (s: ParserState, lexed: LexedString) => {
  const r = parseWildcard(lexed.value)
  if (Either.isRight(r)) return
  s.error("invalid-wildcard", r.left.message, innerRange(lexed, r.left.start, r.left.end), r.left.hint)
}
