/**
 * A streaming reader of a JSON array (a bulk file, a bulk request body): it hands over the text of
 * each top-level element as the bytes arrive, so a 100 MB bulk is validated without holding it (or a
 * tree of it) in memory, and each element can be sent on as it was written (unknown properties
 * included, nothing re-serialized). Syntax errors carry their byte offset; `lineColumn` turns it
 * into `line:column`.
 */
import { parse as parseLenient, printParseErrorCode, type ParseError } from "jsonc-parser"
import * as fs from "node:fs"

/** Where an array scan failed: a message and the byte offset in the input. */
export class JsonArrayError {
  readonly _tag = "JsonArrayError"
  constructor(
    readonly message: string,
    readonly offset: number,
    /** What the input is instead, when it is a JSON value but not an array ("an object", "null"). */
    readonly got?: string
  ) {}
}

/** `depth`: how deep the element nests arrays and objects (0 for a string or a number, 1 for `[1]`). */
export type OnElement = (text: string, index: number, offset: number, depth: number) => void

export interface ScannerOptions {
  /** How messages name the input: "the file" (the default), "the request body". */
  readonly what?: string
  /** Whether a UTF-8 byte order mark may open the input (files: yes; JSON.parse refuses one). */
  readonly byteOrderMark?: boolean
}

const enum State {
  Before,
  ValueOrEnd,
  Value,
  End
}

const WS = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/** Where a bare word (a literal, a number, or something that is not JSON) ends. */
const endsWord = (c: number) =>
  WS(c) || c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x3a || c === 0x22

/** A word longer than this is not a literal: what it is can be said from its start. */
const WordLookahead = 64

const JsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/** What a top-level JSON value other than an array is, from its first bytes; undefined when it is not JSON. */
const kindOfWord = (word: string): string | undefined =>
  word === "null"
    ? "null"
    : word === "true" || word === "false"
      ? "a boolean"
      : JsonNumber.test(word) || (word.length >= WordLookahead && /^-?\d[\d.eE+-]*$/.test(word))
        ? "a number"
        : undefined

const shown = (word: string) => JSON.stringify(word.length > 30 ? `${word.slice(0, 29)}…` : word)

/**
 * Feed it chunks with `push`, then call `end`; elements go to `onElement` in order. Each chunk is
 * scanned once: the bytes of an element that spans chunks are kept as a list and joined once when
 * it ends, so a 25 MiB value arriving in 64 KiB pieces costs no more than in one piece.
 */
export class JsonArrayScanner {
  /** The chunk being scanned (in the state Before, with the start of a word left from the last one). */
  private buf: Buffer = Buffer.alloc(0)
  /** Absolute offset of buf[0]. */
  private base = 0
  private pos = 0
  private state = State.Before
  private depth = 0
  private maxDepth = 0
  private inString = false
  private escape = false
  /** Where the current element starts in buf (0 when it started in an earlier chunk). */
  private start = 0
  /** Absolute offset of the current element. */
  private startOffset = 0
  /** The current element's bytes from earlier chunks. */
  private held: Array<Buffer> = []
  private afterComma = false
  private count = 0
  private readonly what: string
  private readonly byteOrderMark: boolean

  constructor(
    private readonly onElement: OnElement,
    options: ScannerOptions = {}
  ) {
    this.what = options.what ?? "the file"
    this.byteOrderMark = options.byteOrderMark ?? true
  }

  get elements(): number {
    return this.count
  }

  push(chunk: Uint8Array): void {
    const next = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const rest = this.buf.length - this.pos
    if (this.state === State.Before && rest > 0) {
      // The start of a word (or of a byte order mark) waits for the bytes that finish it: a few bytes.
      this.buf = Buffer.concat([this.buf.subarray(this.pos), next])
      this.base += this.pos
    } else {
      if (this.state === State.Value) this.held.push(this.buf.subarray(this.start))
      this.base += this.buf.length
      this.buf = next
    }
    this.pos = 0
    this.start = 0
    this.scan(false)
  }

  end(): void {
    if (this.state === State.Before && this.pos < this.buf.length) this.scan(true)
    if (this.state === State.End) return
    const at = this.base + this.buf.length
    if (this.state === State.Before) throw new JsonArrayError(`${this.what} is empty; expected a JSON array`, at)
    throw new JsonArrayError(`${this.what} ends before the array's closing ]`, at)
  }

  private fail(message: string, at: number, got?: string): never {
    throw new JsonArrayError(message, this.base + at, got)
  }

  private emit(end: number) {
    const last = this.buf.subarray(this.start, end)
    const text = this.held.length === 0 ? last.toString("utf8") : Buffer.concat([...this.held, last]).toString("utf8")
    this.held = []
    this.onElement(text, this.count++, this.startOffset, this.maxDepth)
  }

  /**
   * The input starts with something other than `[` at `i`: says what it is. Returns false when the
   * word there may go on in the next chunk (`final`: there is none).
   */
  private notAnArray(i: number, final: boolean): boolean {
    const b = this.buf
    const c = b[i]!
    if (c === 0x7b) this.fail("expected a JSON array, got an object", i, "an object")
    if (c === 0x22) this.fail("expected a JSON array, got a string", i, "a string")
    let j = i
    while (j < b.length && j - i < WordLookahead && !endsWord(b[j]!)) j++
    if (j === b.length && j - i < WordLookahead && !final) return false
    // A lone structural character (`]`, `,`, `:`, `}`) is a word of its own.
    const word = b.toString("utf8", i, Math.max(j, i + 1))
    const kind = kindOfWord(word)
    if (kind !== undefined) this.fail(`expected a JSON array, got ${kind}`, i, kind)
    this.fail(`not JSON: ${shown(word)} is not a JSON value; expected a JSON array`, i)
  }

  private scan(final: boolean) {
    const b = this.buf
    const n = b.length
    let i = this.pos
    scan: while (i < n) {
      switch (this.state) {
        case State.Before: {
          const c = b[i]!
          if (this.byteOrderMark && this.base + i === 0 && c === 0xef) {
            if (n < 3 && !final) break scan
            if (b[1] === 0xbb && b[2] === 0xbf) {
              i += 3
              continue
            }
          }
          if (WS(c)) {
            i++
            continue
          }
          if (c !== 0x5b) {
            if (!this.notAnArray(i, final)) break scan
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
          this.startOffset = this.base + i
          this.depth = 0
          this.maxDepth = 0
          this.inString = false
          this.escape = false
          continue
        }
        case State.Value: {
          // The hot loop: strings, nesting, and the comma or bracket that ends the element.
          let depth = this.depth
          let maxDepth = this.maxDepth
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
            else if (c === 0x7b || c === 0x5b) {
              if (++depth > maxDepth) maxDepth = depth
            } else if (c === 0x7d || c === 0x5d) {
              if (depth === 0) {
                if (c === 0x7d) this.fail("unexpected '}'", i)
                break
              }
              depth--
            } else if (c === 0x2c && depth === 0) break
          }
          this.depth = depth
          this.maxDepth = maxDepth
          this.inString = inString
          this.escape = escape
          if (i === n) break scan
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
