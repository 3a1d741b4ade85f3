/**
 * Semantic tokens for the rules language: editors have no grammar for it, so the server colours
 * it, in `.rules` files and inside JSON and Terraform expression strings (each token mapped through
 * the string's escapes onto the characters in the file). The kinds come from the parser's own
 * token record (the language is lexed in context: `1.2.3.4` is an IP address, a number or bytes
 * depending on the field), mapped onto the LSP's standard token types.
 */
import { parse } from "../rules/check.js"
import type { Analysis, Range } from "./findings.js"
import { toDocument } from "./json-string.js"
import type { LineIndex } from "./position.js"

/** The legend: standard LSP token types and modifiers only, so every editor theme colours them. */
export const TOKEN_TYPES = [
  "property",
  "function",
  "keyword",
  "operator",
  "string",
  "regexp",
  "number",
  "variable",
  "enumMember"
] as const
export const TOKEN_MODIFIERS = ["deprecated", "defaultLibrary"] as const
type TokenType = (typeof TOKEN_TYPES)[number]

export interface SemanticToken {
  readonly range: Range
  readonly type: TokenType
  readonly modifiers: ReadonlyArray<(typeof TOKEN_MODIFIERS)[number]>
}

const WORD_KEYWORDS = new Set(["and", "or", "xor", "not", "in", "true", "false"])
const REGEX_OPERATORS = new Set(["matches", "~"])

/** The tokens of one expression, in its own offsets. */
const expressionTokens = (source: string): Array<SemanticToken> => {
  const p = parse(source, {}, true)
  const out: Array<SemanticToken> = []
  let previous = ""
  for (const t of p.tokens) {
    const text = source.slice(t.range.start, t.range.end)
    let type: TokenType | undefined
    const modifiers: Array<SemanticToken["modifiers"][number]> = []
    switch (t.kind) {
      case "field":
        type = "property"
        if (p.scheme.field(text)?.replacedBy !== undefined) modifiers.push("deprecated")
        break
      case "function":
        type = "function"
        modifiers.push("defaultLibrary")
        break
      case "keyword":
      case "operator":
        // Words (and, or, not, xor, in) are keywords; symbols and the word operators (eq, contains) are operators.
        type = WORD_KEYWORDS.has(text) ? "keyword" : "operator"
        break
      case "string":
        type = REGEX_OPERATORS.has(previous) ? "regexp" : "string"
        break
      case "bytes":
        type = text.startsWith('"') || text.startsWith("r") ? "string" : "number"
        break
      case "number":
        type = "number"
        break
      // IP addresses and CIDRs: enum members (a constant of the address space), distinct from numbers.
      case "ip":
        type = "enumMember"
        break
      case "list":
        type = "variable"
        break
      default:
        break
    }
    if (t.kind !== "punctuation") previous = text
    if (type !== undefined && t.range.end > t.range.start) out.push({ range: t.range, type, modifiers })
  }
  return out
}

/** The tokens of every expression of a document, in document offsets, in document order. */
export const documentTokens = (analysis: Analysis): Array<SemanticToken> => {
  const out: Array<SemanticToken> = []
  for (const region of analysis.expressions) {
    for (const t of expressionTokens(region.text))
      out.push({ ...t, range: toDocument(region.offsets, t.range.start, t.range.end) })
  }
  out.sort((a, b) => a.range.start - b.range.start)
  // The protocol wants tokens that do not overlap (a token recorded twice by the parser's recovery).
  return out.filter((t, i) => i === 0 || t.range.start >= out[i - 1]!.range.end)
}

/**
 * The tokens encoded as the protocol wants (relative positions, one token per line: a token across
 * lines, in a heredoc or a multi-line string, is split at each line break).
 */
export const encodeTokens = (lines: LineIndex, tokens: ReadonlyArray<SemanticToken>): Array<number> => {
  const data: Array<number> = []
  let lastLine = 0
  let lastChar = 0
  for (const t of tokens) {
    const start = lines.position(t.range.start)
    const end = lines.position(t.range.end)
    const mods = t.modifiers.reduce((m, x) => m | (1 << TOKEN_MODIFIERS.indexOf(x)), 0)
    for (let line = start.line; line <= end.line; line++) {
      const from = line === start.line ? start.character : 0
      const to = line === end.line ? end.character : lines.line(line).length
      if (to <= from) continue
      data.push(
        line - lastLine,
        line === lastLine ? from - lastChar : from,
        to - from,
        TOKEN_TYPES.indexOf(t.type),
        mods
      )
      lastLine = line
      lastChar = from
    }
  }
  return data
}
