/**
 * A large JSON request body read as its bytes arrive, for the routes that take JSON (body-guard.ts).
 * An array body (filters, rules: the large ones in practice) is parsed run by run as chunks complete
 * its elements, its nesting measured on the way: no whole-body string and no second pass, and the
 * work is sliced by the chunks, so other requests are served in between. Any other body is copied
 * into one buffer (sized from Content-Length when given) with its nesting counted chunk by chunk,
 * and decoded once at the end. The outcome is what `JSON.parse` of the whole text and the nesting
 * check of json-depth.ts say, with the same precedence: too deep wins over a syntax error anywhere.
 */
import { JsonArrayError, JsonArrayScanner } from "../kv/json-array.js"

/** Counts nesting over bytes, chunk after chunk, as `jsonTooDeepAt` does over text. */
export class DepthCounter {
  private inString = false
  private escape = false
  private over = false

  constructor(
    private readonly max: number,
    private depth = 0
  ) {}

  get tooDeep(): boolean {
    return this.over
  }

  push(b: Buffer): void {
    if (this.over) return
    let depth = this.depth
    let inString = this.inString
    let escape = this.escape
    const n = b.length
    for (let i = 0; i < n; i++) {
      if (inString) {
        if (escape) {
          escape = false
          continue
        }
        // Most bytes are inside strings: jump to the closing quote natively (as JsonArrayScanner does).
        const quote = b.indexOf(0x22, i)
        if (quote === -1) {
          for (; i < n; i++) {
            if (escape) escape = false
            else if (b[i] === 0x5c) escape = true
          }
          break
        }
        const backslash = b.subarray(i, quote).indexOf(0x5c)
        if (backslash === -1) {
          i = quote
          inString = false
        } else {
          i += backslash
          escape = true
        }
        continue
      }
      const c = b[i]!
      if (c === 0x22) inString = true
      else if (c === 0x5b || c === 0x7b) {
        if (++depth > this.max) {
          this.over = true
          return
        }
      } else if (c === 0x5d || c === 0x7d) depth--
    }
    this.depth = depth
    this.inString = inString
    this.escape = escape
  }
}

export type JsonBody =
  /** An array body, parsed. */
  | { readonly _tag: "Array"; readonly value: Array<unknown> }
  /** Any other body, as text (its nesting checked; the route parses it). */
  | { readonly _tag: "Text"; readonly text: string }
  /** Nested deeper than the limit. */
  | { readonly _tag: "TooDeep" }
  /** An array body that is not JSON. */
  | { readonly _tag: "NotJson" }

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/** The first chunks held while only whitespace has come (what the body is is not known yet). */
const enum Mode {
  Undecided,
  Array,
  Bytes
}

export interface JsonBodyOptions {
  /** The deepest nesting accepted (the array itself counts one). */
  readonly maxDepth: number
  /** The body's size when known: the buffer of a non-array body is allocated once. */
  readonly size?: number | undefined
  /** The body's bytes when already in memory: a non-array body is decoded from them, not copied. */
  readonly whole?: Buffer | undefined
  /** The body limit (the reader refuses nothing itself): a growing buffer is never allocated past it. */
  readonly limit: number
}

export class JsonBodyReader {
  private mode = Mode.Undecided
  private leading: Array<Buffer> = []
  /** Array mode. */
  private scanner: JsonArrayScanner | undefined
  private items: Array<unknown> = []
  private notJson = false
  private tooDeep = false
  /** Counts the nesting after a syntax error the scanner cannot go past (too deep still wins). */
  private tail: DepthCounter | undefined
  /** Absolute offset of the chunk being pushed. */
  private at = 0
  /** Bytes mode. */
  private depth: DepthCounter | undefined
  private buf: Buffer | undefined
  private size = 0

  constructor(private readonly options: JsonBodyOptions) {}

  push(chunk: Buffer): void {
    if (this.mode === Mode.Undecided) {
      let i = 0
      while (i < chunk.length && isSpace(chunk[i]!)) i++
      if (i === chunk.length) {
        this.leading.push(chunk)
        return
      }
      this.mode = chunk[i] === 0x5b ? Mode.Array : Mode.Bytes
      if (this.mode === Mode.Array) this.startArray()
      else this.depth = new DepthCounter(this.options.maxDepth)
      const leading = this.leading
      this.leading = []
      for (const c of leading) this.take(c)
    }
    this.take(chunk)
  }

  end(): JsonBody {
    if (this.mode === Mode.Undecided) {
      const text = Buffer.concat(this.leading).toString("utf8")
      return { _tag: "Text", text }
    }
    if (this.mode === Mode.Bytes) {
      if (this.depth!.tooDeep) return { _tag: "TooDeep" }
      const bytes = this.options.whole ?? this.buf!.subarray(0, this.size)
      this.buf = undefined
      return { _tag: "Text", text: bytes.toString("utf8") }
    }
    if (this.scanner !== undefined && !this.notJson) {
      try {
        this.scanner.end()
      } catch (e) {
        if (!(e instanceof JsonArrayError)) throw e
        this.notJson = true
      }
      this.checkDepth()
    }
    if (this.tooDeep || this.tail?.tooDeep === true) return { _tag: "TooDeep" }
    if (this.notJson) return { _tag: "NotJson" }
    const value = this.items
    this.items = []
    return { _tag: "Array", value }
  }

  private take(chunk: Buffer) {
    if (this.mode === Mode.Bytes) return this.keep(chunk)
    const start = this.at
    this.at += chunk.length
    if (this.tail !== undefined) return this.tail.push(chunk)
    if (this.scanner === undefined) return
    try {
      this.scanner.push(chunk)
    } catch (e) {
      if (!(e instanceof JsonArrayError)) throw e
      this.checkDepth()
      if (this.tooDeep) return
      // The scanner stops at the error; the rest is still counted, from the nesting there.
      this.notJson = true
      this.items = []
      this.tail = new DepthCounter(this.options.maxDepth, this.scanner.nesting)
      this.scanner = undefined
      this.tail.push(chunk.subarray(Math.max(0, e.offset - start)))
      return
    }
    this.checkDepth()
  }

  private startArray() {
    const maxElementDepth = this.options.maxDepth - 1
    this.scanner = new JsonArrayScanner(
      {
        onRun: (text, _count, depth) => {
          if (this.notJson || this.tooDeep || depth > maxElementDepth) return
          let run: Array<unknown>
          try {
            run = JSON.parse(`[${text}]`) as Array<unknown>
          } catch {
            // Not JSON; the nesting of the rest still decides which error is answered.
            this.notJson = true
            this.items = []
            return
          }
          for (const item of run) this.items.push(item)
        }
      },
      { what: "the request body", byteOrderMark: false }
    )
  }

  /** Too deep is final: the rest of the body is then only read, not scanned (nor held). */
  private checkDepth() {
    if (this.scanner === undefined || this.scanner.deepest <= this.options.maxDepth - 1) return
    this.tooDeep = true
    this.items = []
    this.scanner = undefined
  }

  private keep(chunk: Buffer) {
    this.depth!.push(chunk)
    if (this.options.whole !== undefined) return
    const need = this.size + chunk.length
    if (this.buf === undefined || need > this.buf.length) {
      const doubled = Math.min(Math.max((this.buf?.length ?? 0) * 2, 1 << 16), this.options.limit)
      const grown = Buffer.allocUnsafe(Math.max(need, this.options.size ?? 0, doubled))
      if (this.buf !== undefined) this.buf.copy(grown, 0, 0, this.size)
      this.buf = grown
    }
    chunk.copy(this.buf, this.size)
    this.size = need
  }
}
