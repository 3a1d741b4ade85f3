/**
 * An incremental JSON parser over bytes, for large request bodies (json-body.ts): the value is built
 * as chunks arrive, a string from the pieces of it each chunk holds, so neither the body nor any
 * value of it is ever held twice (as bytes and as text, then as text and as a parsed copy), and
 * nesting is refused at the bracket that crosses the limit. It accepts and builds exactly what
 * `JSON.parse` of the body decoded as UTF-8 does (test/server/json-body.test.ts compares them).
 */
import { nodeStringDecoder } from "../lazy-builtins.js"

/** Where the input stopped being JSON: the byte offset, and the state a text scan (json-depth.ts) has before that byte. */
export class JsonSyntax {
  constructor(
    readonly offset: number,
    readonly depth: number,
    readonly inString: boolean,
    readonly escape: boolean
  ) {}
}

/** The input nests deeper than the limit. */
export class JsonTooDeep {}

const enum Mode {
  Value,
  ValueOrClose,
  KeyOrClose,
  Key,
  Colon,
  After,
  String,
  Escape,
  Hex,
  Word
}

type Frame = { readonly array: Array<unknown> } | { readonly object: Record<string, unknown>; key: string }

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
const isWordByte = (c: number) =>
  (c >= 0x30 && c <= 0x39) ||
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x41 && c <= 0x5a) ||
  c === 0x2d ||
  c === 0x2b ||
  c === 0x2e
/**
 * The value of a JSON integer of at most 15 digits (exact in a double, as Number() reads it), read
 * from the bytes; undefined for any other word (a literal, a fraction, a leading zero, not JSON).
 */
const smallInteger = (b: Buffer, from: number, to: number): number | undefined => {
  const negative = b[from] === 0x2d
  const start = negative ? from + 1 : from
  const digits = to - start
  if (digits < 1 || digits > 15 || (digits > 1 && b[start] === 0x30)) return undefined
  let v = 0
  for (let i = start; i < to; i++) {
    const d = b[i]! - 0x30
    if (d < 0 || d > 9) return undefined
    v = v * 10 + d
  }
  return negative ? -v : v
}
const JsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/
const Escapes: Readonly<Record<number, string>> = {
  0x22: '"',
  0x5c: "\\",
  0x2f: "/",
  0x62: "\b",
  0x66: "\f",
  0x6e: "\n",
  0x72: "\r",
  0x74: "\t"
}

export class JsonStreamParser {
  private mode = Mode.Value
  private readonly stack: Array<Frame> = []
  private root: unknown = undefined
  private done = false
  /** Absolute offset of the chunk being parsed. */
  private base = 0
  /** The string being read (a key when `keyString`), from its pieces so far. */
  private text = ""
  private keyString = false
  private readonly decoder = new (nodeStringDecoder().StringDecoder)("utf8")
  private hex = ""
  private word = ""
  /** Whether the decoder holds the start of a character cut at the end of the last chunk. */
  private decoding = false

  constructor(private readonly maxDepth: number) {}

  /** Parses the next bytes; throws JsonSyntax or JsonTooDeep. */
  push(b: Buffer): void {
    const n = b.length
    let i = 0
    try {
      while (i < n) {
        switch (this.mode) {
          case Mode.String: {
            const from = i
            let c = 0
            for (; i < n; i++) {
              c = b[i]!
              if (c === 0x22 || c === 0x5c || c < 0x20) break
            }
            if (i === n) {
              // The string goes on in the next chunk: a character may be cut, the decoder keeps its bytes.
              if (i > from) this.text += this.decoder.write(b.subarray(from, i))
              this.decoding = true
              break
            }
            if (c < 0x20) this.fail(i, true, false)
            // Up to a quote or a backslash no character is cut: decoded at once, as the whole text is.
            if (this.decoding) {
              this.text += this.decoder.end(b.subarray(from, i))
              this.decoding = false
            } else if (i > from) this.text += b.toString("utf8", from, i)
            i++
            if (c === 0x5c) this.mode = Mode.Escape
            else this.endString()
            break
          }
          case Mode.Escape: {
            const c = b[i]!
            if (c === 0x75) {
              this.hex = ""
              this.mode = Mode.Hex
            } else {
              const e = Escapes[c]
              if (e === undefined) this.fail(i, true, true)
              this.text += e
              this.mode = Mode.String
            }
            i++
            break
          }
          case Mode.Hex: {
            const c = b[i]!
            if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)))
              this.fail(i, true, false)
            this.hex += String.fromCharCode(c)
            if (this.hex.length === 4) {
              this.text += String.fromCharCode(parseInt(this.hex, 16))
              this.mode = Mode.String
            }
            i++
            break
          }
          case Mode.Word: {
            const from = i
            while (i < n && isWordByte(b[i]!)) i++
            if (i === n) {
              this.word += b.toString("latin1", from, i)
              break
            }
            const small = this.word === "" ? smallInteger(b, from, i) : undefined
            if (small !== undefined) this.value(small)
            else {
              this.word += b.toString("latin1", from, i)
              this.endWord(i)
            }
            break
          }
          default:
            i = this.structure(b, i)
        }
      }
    } finally {
      this.base += n
    }
  }

  /** The value, once the input has ended; throws JsonSyntax when it is not one whole JSON value. */
  end(): unknown {
    if (this.mode === Mode.Word) this.endWord(0, this.base)
    if (!this.done) throw new JsonSyntax(this.base, this.stack.length, this.mode === Mode.String, false)
    return this.root
  }

  /** Outside strings and words: one byte of structure, or whitespace; answers where to go on. */
  private structure(b: Buffer, i: number): number {
    const c = b[i]!
    if (isSpace(c)) return i + 1
    const mode = this.mode
    if (mode === Mode.ValueOrClose && c === 0x5d) return this.close(i)
    if (mode === Mode.KeyOrClose && c === 0x7d) return this.close(i)
    if (mode === Mode.Value || mode === Mode.ValueOrClose) return this.startValue(c, i)
    if (mode === Mode.Key || mode === Mode.KeyOrClose) {
      if (c !== 0x22) return this.fail(i)
      this.startString(true)
      return i + 1
    }
    if (mode === Mode.Colon) {
      if (c !== 0x3a) return this.fail(i)
      this.mode = Mode.Value
      return i + 1
    }
    // After a value.
    const top = this.stack[this.stack.length - 1]
    if (top === undefined) return this.fail(i)
    if (c === 0x2c) {
      this.mode = "array" in top ? Mode.Value : Mode.Key
      return i + 1
    }
    if ((c === 0x5d && "array" in top) || (c === 0x7d && "object" in top)) return this.close(i)
    return this.fail(i)
  }

  private startValue(c: number, i: number): number {
    if (c === 0x22) {
      this.startString(false)
      return i + 1
    }
    if (c === 0x5b || c === 0x7b) {
      if (this.stack.length + 1 > this.maxDepth) throw new JsonTooDeep()
      if (c === 0x5b) {
        this.stack.push({ array: [] })
        this.mode = Mode.ValueOrClose
      } else {
        this.stack.push({ object: {}, key: "" })
        this.mode = Mode.KeyOrClose
      }
      return i + 1
    }
    if (!isWordByte(c)) return this.fail(i)
    this.word = ""
    this.mode = Mode.Word
    return i
  }

  private close(i: number): number {
    const frame = this.stack.pop()!
    this.value("array" in frame ? frame.array : frame.object)
    return i + 1
  }

  private startString(key: boolean) {
    this.text = ""
    this.keyString = key
    this.mode = Mode.String
  }

  private endString() {
    const s = this.text
    this.text = ""
    if (!this.keyString) return this.value(s)
    ;(this.stack[this.stack.length - 1] as { key: string }).key = s
    this.mode = Mode.Colon
  }

  /** A word (a number or a literal) ends at `i` (`offset`: absolute, at the end of the input). */
  private endWord(i: number, offset = this.base + i) {
    const w = this.word
    this.word = ""
    const v =
      w === "true" ? true : w === "false" ? false : w === "null" ? null : JsonNumber.test(w) ? Number(w) : undefined
    if (v === undefined) throw new JsonSyntax(offset, this.stack.length, false, false)
    this.value(v)
  }

  /** A value is complete: into its container, or it is the whole input. */
  private value(v: unknown) {
    this.mode = Mode.After
    const top = this.stack[this.stack.length - 1]
    if (top === undefined) {
      this.root = v
      this.done = true
    } else if ("array" in top) top.array.push(v)
    else if (top.key === "__proto__")
      // As JSON.parse: an own property named __proto__, not the object's prototype.
      Object.defineProperty(top.object, top.key, { value: v, writable: true, enumerable: true, configurable: true })
    else top.object[top.key] = v
  }

  private fail(i: number, inString = false, escape = false): never {
    throw new JsonSyntax(this.base + i, this.stack.length, inString, escape)
  }
}
