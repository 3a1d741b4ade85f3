/**
 * Character-level scanning. The language is lexed in context (a `1.2.3.4` is an IP address, a
 * byte string or an error depending on the field it is compared with), so the parser calls these
 * helpers at the points where it knows what may come next.
 */
import type { Diagnostic, Range } from "./ast.js"

export const isDigit = (c: number) => c >= 48 && c <= 57
const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
export const isIdentChar = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95
export const isSpace = (c: number) => c === 32 || c === 10 || c === 13

export const diag = (
  severity: Diagnostic["severity"],
  code: string,
  message: string,
  range: Range,
  hint?: string
): Diagnostic => (hint === undefined ? { severity, code, message, range } : { severity, code, message, range, hint })

/** A readable name for a character in messages: `#`, or `U+00A0 (no-break space)`. */
/** Where `at` is, for people: `column 5`, or `line 2, column 5` in a text of several lines (1-based). */
export const placeOf = (src: string, at: number): string => {
  const lineStart = src.lastIndexOf("\n", at - 1) + 1
  const column = at - lineStart + 1
  return src.includes("\n")
    ? `line ${src.slice(0, lineStart).split("\n").length}, column ${column}`
    : `column ${column}`
}

export const describeChar = (ch: string): string => {
  const cp = ch.codePointAt(0)!
  const names: Record<number, string> = {
    0x09: "tab",
    0x0b: "vertical tab",
    0x0c: "form feed",
    0xa0: "no-break space",
    0x2028: "line separator",
    0x2029: "paragraph separator",
    0xfeff: "byte order mark",
    0x200b: "zero-width space",
    0x3000: "ideographic space",
    0x201c: "left double quotation mark",
    0x201d: "right double quotation mark",
    0x2018: "left single quotation mark",
    0x2019: "right single quotation mark"
  }
  const name = names[cp]
  if (cp >= 0x21 && cp < 0x7f) return `\`${ch}\``
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}${name ? ` (${name})` : ""}`
}

/** An identifier: dotted segments of ASCII letters, digits and `_`. Returns the end offset. */
export const scanIdentifier = (src: string, pos: number): number => {
  let i = pos
  for (;;) {
    const seg = i
    while (i < src.length && isIdentChar(src.charCodeAt(i))) i++
    if (i === seg) return seg === pos ? pos : seg - 1
    if (src.charCodeAt(i) === 46 /* . */ && i + 1 < src.length && isIdentChar(src.charCodeAt(i + 1))) {
      i++
      continue
    }
    return i
  }
}

/** The characters a bare literal (number, IP address, CIDR, range, hex bytes) is made of. */
const isWordChar = (c: number) => isIdentChar(c) || c === 46 || c === 58 || c === 45 || c === 47

export const scanWord = (src: string, pos: number): number => {
  let i = pos
  while (i < src.length && isWordChar(src.charCodeAt(i))) i++
  return i
}

export interface LexedString {
  /** The decoded bytes, as a binary string. */
  readonly value: string
  readonly raw: boolean
  readonly hashes: number
  /** Regex mode: the pattern text after the regex escaping rules. */
  readonly pattern?: string
  /**
   * For each unit of `pattern` (regex mode) or byte of `value` (otherwise): its source offset.
   * Absent for a plain string (ASCII, no escapes): unit k of `value` is at `range.start + 1 + k`.
   */
  readonly offsets?: ReadonlyArray<number>
  readonly range: Range
  /** False when the string is unterminated (the range then runs to the end of the input). */
  readonly closed: boolean
}

const utf8Bytes = (cp: number): ReadonlyArray<number> => {
  if (cp < 0x80) return [cp]
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)]
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)]
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)]
}

/** Whether a raw string starts at `pos`: `r"` or `r#`...`"`. */
export const startsRawString = (src: string, pos: number): boolean => {
  if (src.charCodeAt(pos) !== 114 /* r */) return false
  let i = pos + 1
  while (src.charCodeAt(i) === 35 /* # */) i++
  return src.charCodeAt(i) === 34
}

/**
 * Lexes a quoted or raw string starting at `pos`. `regex` selects the escaping rules of the
 * right-hand side of `matches`: `\"` becomes `"`, every other `\X` pair is kept for the regex
 * engine, and a `"` inside a character class does not end the string.
 */
export const lexString = (src: string, pos: number, regex: boolean, out: Array<Diagnostic>): LexedString => {
  if (src.charCodeAt(pos) === 114 /* r */) return lexRaw(src, pos, regex, out)
  if (!regex) {
    const plain = lexPlain(src, pos)
    if (plain !== undefined) return plain
  }
  const bytes: Array<number> = []
  const offsets: Array<number> = []
  let pattern = ""
  let i = pos + 1
  let classDepth = 0
  let classStart = -1
  const push = (b: number, at: number) => {
    bytes.push(b)
    offsets.push(at)
  }
  while (i < src.length) {
    const c = src.charCodeAt(i)
    if (c === 34 /* " */ && classDepth === 0) {
      return finish(true, i + 1)
    }
    if (c === 92 /* \ */) {
      if (i + 1 >= src.length) break
      const n = src.charCodeAt(i + 1)
      if (regex) {
        if (n === 34 && classDepth === 0) {
          pattern += '"'
          offsets.push(i)
        } else {
          pattern += src.slice(i, i + 2)
          offsets.push(i, i + 1)
        }
        i += 2
        continue
      }
      if (n === 34 || n === 92) {
        push(n, i)
        i += 2
        continue
      }
      if (n === 120 /* x */ && isHex(src.charCodeAt(i + 2)) && isHex(src.charCodeAt(i + 3))) {
        push(parseInt(src.slice(i + 2, i + 4), 16), i)
        i += 4
        continue
      }
      if (n >= 48 && n <= 55 && /^[0-7]{3}$/.test(src.slice(i + 1, i + 4))) {
        const v = parseInt(src.slice(i + 1, i + 4), 8)
        if (v > 255) {
          out.push(
            diag(
              "error",
              "invalid-escape",
              `octal escape \\${src.slice(i + 1, i + 4)} is greater than \\377 (one byte)`,
              { start: i, end: i + 4 }
            )
          )
        } else push(v, i)
        i += 4
        continue
      }
      const end = n === 120 ? Math.min(i + 4, scanHexEnd(src, i + 2)) : i + 2
      const ch = String.fromCodePoint(src.codePointAt(i + 1)!)
      const known: Record<string, string> = { n: "\\x0A", t: "\\x09", r: "\\x0D", "0": "\\000" }
      out.push(
        diag(
          "error",
          "invalid-escape",
          n === 120 ? "\\x needs exactly two hex digits" : `unknown escape \\${ch} in a string`,
          { start: i, end: Math.max(end, i + 2) },
          known[ch] !== undefined
            ? `write ${known[ch]} for that byte; strings only know \\", \\\\, \\xHH and \\OOO`
            : 'strings only know the escapes \\", \\\\, \\xHH and \\OOO; a raw string (r"...") needs none'
        )
      )
      // Keep the text as written, so that the rest of the string still checks.
      for (const b of utf8Bytes(src.codePointAt(i + 1)!)) push(b, i + 1)
      i += ch.length + 1
      continue
    }
    if (regex) {
      if (c === 91 /* [ */) {
        if (classDepth === 0) classStart = i
        classDepth++
        pattern += "["
        offsets.push(i)
        i++
        // `]` right after `[` or `[^` is a literal.
        if (src[i] === "^") {
          pattern += "^"
          offsets.push(i)
          i++
        }
        if (src[i] === "]") {
          pattern += "]"
          offsets.push(i)
          i++
        }
        continue
      }
      if (c === 93 /* ] */ && classDepth > 0) classDepth--
      const cp = src.codePointAt(i)!
      const w = cp > 0xffff ? 2 : 1
      pattern += src.slice(i, i + w)
      offsets.push(i)
      if (w === 2) offsets.push(i)
      i += w
      continue
    }
    const cp = src.codePointAt(i)!
    for (const b of utf8Bytes(cp)) push(b, i)
    i += cp > 0xffff ? 2 : 1
  }
  const hint =
    regex && classDepth > 0
      ? `the character class opened at ${placeOf(src, classStart)} is not closed, so its " does not end the string`
      : 'add the closing "'
  out.push(
    diag("error", "unterminated-string", "this string has no closing quote", { start: pos, end: src.length }, hint)
  )
  return finish(false, src.length)

  function finish(closed: boolean, end: number): LexedString {
    return {
      value: regex ? binaryOfText(pattern) : bigChars(bytes),
      raw: false,
      hashes: 0,
      ...(regex ? { pattern } : {}),
      offsets,
      range: { start: pos, end },
      closed
    }
  }
}

/**
 * Most strings are closed ASCII without escapes: their value is their text and each unit sits one
 * place after the last (no `offsets`). This skips the per-byte arrays of the general path, much of
 * the cold path's work (1,000 expressions checked at once).
 */
const lexPlain = (src: string, pos: number): LexedString | undefined => {
  for (let i = pos + 1; i < src.length; i++) {
    const c = src.charCodeAt(i)
    if (c === 34 /* " */)
      return { value: src.slice(pos + 1, i), raw: false, hashes: 0, range: { start: pos, end: i + 1 }, closed: true }
    if (c === 92 /* \ */ || c >= 0x80) return undefined
  }
  return undefined
}

const bigChars = (bytes: ReadonlyArray<number>): string => {
  let s = ""
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.slice(i, i + 8192))
  return s
}

const scanHexEnd = (src: string, i: number) => {
  while (i < src.length && isHex(src.charCodeAt(i))) i++
  return i
}

const binaryOfText = (s: string): string => {
  let out = ""
  for (const ch of s) out += String.fromCharCode(...utf8Bytes(ch.codePointAt(0)!))
  return out
}

const lexRaw = (src: string, pos: number, regex: boolean, out: Array<Diagnostic>): LexedString => {
  let i = pos + 1
  while (src.charCodeAt(i) === 35) i++
  const hashes = i - pos - 1
  if (hashes > 255) {
    out.push(
      diag("error", "invalid-raw-string", `a raw string may have at most 255 #, this one has ${hashes}`, {
        start: pos,
        end: i
      })
    )
  }
  const open = i + 1
  const closing = `"${"#".repeat(hashes)}`
  const close = src.indexOf(closing, open)
  if (close < 0) {
    out.push(
      diag(
        "error",
        "unterminated-string",
        "this raw string has no closing quote",
        { start: pos, end: src.length },
        `end it with ${closing}`
      )
    )
  }
  const end = close < 0 ? src.length : close + closing.length
  const text = src.slice(open, close < 0 ? src.length : close)
  const offsets: Array<number> = []
  if (regex) for (let k = 0; k < text.length; k++) offsets.push(open + k)
  else
    for (let k = 0; k < text.length;) {
      const cp = text.codePointAt(k)!
      for (let b = 0; b < utf8Bytes(cp).length; b++) offsets.push(open + k)
      k += cp > 0xffff ? 2 : 1
    }
  return {
    value: binaryOfText(text),
    raw: true,
    hashes,
    ...(regex ? { pattern: text } : {}),
    offsets,
    range: { start: pos, end },
    closed: close >= 0
  }
}

/** A named list's name after `$`: lowercase letters, digits, `_`, and `.` inside. */
export const scanListName = (src: string, pos: number): { readonly end: number; readonly error?: string } => {
  let i = pos
  while (i < src.length && (isIdentChar(src.charCodeAt(i)) || src.charCodeAt(i) === 46)) i++
  const name = src.slice(pos, i)
  if (name === "") return { end: i, error: "a list name must follow $" }
  if (/[A-Z]/.test(name)) return { end: i, error: "list names are lowercase: letters a-z, digits and _" }
  if (name.startsWith(".") || name.endsWith("."))
    return { end: i, error: `a list name cannot ${name.startsWith(".") ? "start" : "end"} with "."` }
  return { end: i }
}
