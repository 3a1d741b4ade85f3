/**
 * A streaming reader of a JSON array file: it hands over the text of each top-level element as the
 * bytes arrive, so a 100 MB bulk file is validated without holding it (or a tree of it) in memory,
 * and each element can be sent on as it was written (unknown properties included, nothing
 * re-serialized). Syntax errors carry their byte offset; `lineColumn` turns it into `line:column`.
 */
import { parse as parseLenient, printParseErrorCode, type ParseError } from "jsonc-parser"
import * as fs from "node:fs"

/** Where an array scan failed: a message and the byte offset in the input. */
export class JsonArrayError {
  readonly _tag = "JsonArrayError"
  constructor(
    readonly message: string,
    readonly offset: number
  ) {}
}

export type OnElement = (text: string, index: number, offset: number) => void

const enum State {
  Before,
  ValueOrEnd,
  Value,
  End
}

const WS = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

const kindOf = (c: number) =>
  c === 0x7b
    ? "an object"
    : c === 0x22
      ? "a string"
      : c === 0x74 || c === 0x66
        ? "a boolean"
        : c === 0x6e
          ? "null"
          : (c >= 0x30 && c <= 0x39) || c === 0x2d
            ? "a number"
            : undefined

/** Feed it chunks with `push`, then call `end`; elements go to `onElement` in order. */
export class JsonArrayScanner {
  private buf: Buffer = Buffer.alloc(0)
  /** Absolute offset of buf[0]. */
  private base = 0
  private pos = 0
  private state = State.Before
  private depth = 0
  private inString = false
  private escape = false
  private start = 0
  private afterComma = false
  private count = 0

  constructor(private readonly onElement: OnElement) {}

  get elements(): number {
    return this.count
  }

  push(chunk: Uint8Array): void {
    const keepFrom = this.state === State.Value ? this.start : this.pos
    const tail = this.buf.subarray(keepFrom)
    this.buf =
      tail.length === 0 ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : Buffer.concat([tail, chunk])
    this.base += keepFrom
    this.pos -= keepFrom
    this.start -= keepFrom
    this.scan()
  }

  end(): void {
    if (this.state === State.End) return
    const at = this.base + this.buf.length
    if (this.state === State.Before) throw new JsonArrayError("the file is empty; expected a JSON array", at)
    throw new JsonArrayError("the file ends before the array's closing ]", at)
  }

  private fail(message: string, at: number): never {
    throw new JsonArrayError(message, this.base + at)
  }

  private emit(end: number) {
    const text = this.buf.toString("utf8", this.start, end)
    this.onElement(text, this.count++, this.base + this.start)
  }

  private scan() {
    const b = this.buf
    const n = b.length
    let i = this.pos
    while (i < n) {
      switch (this.state) {
        case State.Before: {
          const c = b[i]!
          if (this.base + i === 0 && c === 0xef && n >= 3 && b[1] === 0xbb && b[2] === 0xbf) {
            i += 3
            continue
          }
          if (WS(c)) {
            i++
            continue
          }
          if (c !== 0x5b) {
            const kind = kindOf(c)
            this.fail(
              kind
                ? `expected a JSON array, got ${kind}`
                : `expected a JSON array, got ${JSON.stringify(String.fromCharCode(c))}`,
              i
            )
          }
          this.state = State.ValueOrEnd
          i++
          continue
        }
        case State.ValueOrEnd: {
          const c = b[i]!
          if (WS(c)) {
            i++
            continue
          }
          if (c === 0x5d) {
            if (this.afterComma) this.fail("expected a value after ',' (a trailing comma is not JSON)", i)
            this.state = State.End
            i++
            continue
          }
          if (c === 0x2c) this.fail("expected a value, got ','", i)
          this.state = State.Value
          this.start = i
          this.depth = 0
          this.inString = false
          this.escape = false
          continue
        }
        case State.Value: {
          // The hot loop: strings, nesting, and the comma or bracket that ends the element.
          let depth = this.depth
          let inString = this.inString
          let escape = this.escape
          for (; i < n; i++) {
            if (inString) {
              if (escape) {
                escape = false
                continue
              }
              // Most bytes of a bulk file are inside strings: jump to the closing quote natively,
              // unless a backslash comes first (then step over the escape and look again).
              const quote = b.indexOf(0x22, i)
              const backslash = quote === -1 ? -1 : b.subarray(i, quote).indexOf(0x5c)
              if (quote !== -1 && backslash === -1) {
                i = quote
                inString = false
                continue
              }
              if (backslash !== -1) {
                i += backslash
                escape = true
                continue
              }
              // The string goes on into the next chunk: byte by byte to its end, for the escape state.
              for (; i < n; i++) {
                if (escape) escape = false
                else if (b[i] === 0x5c) escape = true
              }
              break
            }
            const c = b[i]!
            if (c === 0x22) inString = true
            else if (c === 0x7b || c === 0x5b) depth++
            else if (c === 0x7d || c === 0x5d) {
              if (depth === 0) {
                if (c === 0x7d) this.fail("unexpected '}'", i)
                break
              }
              depth--
            } else if (c === 0x2c && depth === 0) break
          }
          this.depth = depth
          this.inString = inString
          this.escape = escape
          if (i === n) break
          const c = b[i]!
          this.emit(i)
          this.afterComma = c === 0x2c
          this.state = c === 0x2c ? State.ValueOrEnd : State.End
          i++
          continue
        }
        case State.End: {
          if (!WS(b[i]!)) this.fail("unexpected content after the array's closing ]", i)
          i++
          continue
        }
      }
    }
    this.pos = i
  }
}

/** Scans bytes already in memory. */
export const scanBytes = (bytes: Uint8Array, onElement: OnElement): number => {
  const scanner = new JsonArrayScanner(onElement)
  scanner.push(bytes)
  scanner.end()
  return scanner.elements
}

const Reasons: Readonly<Record<string, string>> = {
  InvalidSymbol: "an invalid symbol",
  InvalidNumberFormat: "an invalid number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: "expected ':'",
  CommaExpected: "expected ','",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: "expected the end of the value",
  InvalidCommentToken: "comments are not JSON",
  UnexpectedEndOfComment: "comments are not JSON",
  UnexpectedEndOfString: "a string is not closed",
  UnexpectedEndOfNumber: "a number is cut short",
  InvalidUnicode: "an invalid \\u escape",
  InvalidEscapeCharacter: "an invalid escape",
  InvalidCharacter: "a control character inside a string"
}

/** A JSON syntax error code of jsonc-parser, in words. */
export const jsonErrorReason = (code: number): string => {
  const name = printParseErrorCode(code)
  return Reasons[name] ?? name
}

/**
 * JSON.parse of one element; a syntax error becomes a JsonArrayError at its place in the input.
 * V8's messages rarely say where, so the place comes from jsonc-parser (strict JSON settings).
 */
export const parseElement = (text: string, offset: number): unknown => {
  try {
    return JSON.parse(text)
  } catch (e) {
    const errors: Array<ParseError> = []
    parseLenient(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false })
    const first = errors[0]
    const reason = first !== undefined ? jsonErrorReason(first.error) : (e as Error).message
    const within = first !== undefined ? Buffer.byteLength(text.slice(0, first.offset), "utf8") : 0
    throw new JsonArrayError(`invalid JSON: ${reason}`, offset + within)
  }
}

/** 1-based line and column (in characters) of a byte offset of a file. */
export const lineColumn = (
  file: string | Uint8Array,
  offset: number
): { readonly line: number; readonly column: number } => {
  const bytes = typeof file === "string" ? readPrefix(file, offset) : file.subarray(0, offset)
  let line = 1
  let lineStart = 0
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++
      lineStart = i + 1
    }
  }
  const column =
    [...Buffer.from(bytes.buffer, bytes.byteOffset + lineStart, bytes.length - lineStart).toString("utf8")].length + 1
  return { line, column }
}

const readPrefix = (file: string, length: number): Uint8Array => {
  const fd = fs.openSync(file, "r")
  try {
    const out = Buffer.alloc(length)
    const read = fs.readSync(fd, out, 0, length, 0)
    return out.subarray(0, read)
  } finally {
    fs.closeSync(fd)
  }
}
