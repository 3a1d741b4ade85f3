/**
 * A large JSON request body read as its bytes arrive, for the routes that take JSON (body-guard.ts):
 * parsed chunk by chunk (json-stream.ts), its nesting refused at the bracket that crosses the limit,
 * so there is no whole-body buffer, string or second pass, and the work is sliced by the chunks
 * (other requests are served in between). The outcome is what `JSON.parse` of the whole text and
 * the nesting check of json-depth.ts say, with the same precedence: too deep wins over a syntax
 * error anywhere, so after an error the rest is still counted.
 */
import { JsonStreamParser, JsonSyntax, JsonTooDeep } from "./json-stream.js"

/** Counts nesting over bytes, chunk after chunk, as `jsonTooDeepAt` does over text. */
export class DepthCounter {
  private over = false

  /** `depth`, `inString`, `escape`: where the text scan is when this counter takes over. */
  constructor(
    private readonly max: number,
    private depth = 0,
    private inString = false,
    private escape = false
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
  /** The body's value. */
  | { readonly _tag: "Value"; readonly value: unknown }
  /** A body of whitespace only, as text (what the route makes of it is its own). */
  | { readonly _tag: "Text"; readonly text: string }
  /** Nested deeper than the limit. */
  | { readonly _tag: "TooDeep" }
  /** Not JSON. */
  | { readonly _tag: "NotJson" }

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

export class JsonBodyReader {
  /** The first chunks, while only whitespace has come. */
  private leading: Array<Buffer> | undefined = []
  private parser: JsonStreamParser | undefined
  private notJson = false
  private tooDeep = false
  /** Counts the nesting after a syntax error (too deep still wins over it, as in a text scan). */
  private tail: DepthCounter | undefined
  /** Absolute offset of the chunk being pushed. */
  private at = 0

  constructor(private readonly maxDepth: number) {}

  push(chunk: Buffer): void {
    if (this.leading !== undefined) {
      let i = 0
      while (i < chunk.length && isSpace(chunk[i]!)) i++
      if (i === chunk.length) {
        this.leading.push(chunk)
        return
      }
      this.at = this.leading.reduce((n, c) => n + c.length, 0)
      this.leading = undefined
      this.parser = new JsonStreamParser(this.maxDepth)
    }
    const start = this.at
    this.at += chunk.length
    if (this.tail !== undefined) return this.tail.push(chunk)
    if (this.parser === undefined) return
    try {
      this.parser.push(chunk)
    } catch (e) {
      this.parser = undefined
      if (e instanceof JsonTooDeep) {
        this.tooDeep = true
        return
      }
      if (!(e instanceof JsonSyntax)) throw e
      // The parser stops at the error; the rest is still counted, from the state a text scan has there.
      this.notJson = true
      this.tail = new DepthCounter(this.maxDepth, e.depth, e.inString, e.escape)
      this.tail.push(chunk.subarray(Math.max(0, e.offset - start)))
    }
  }

  end(): JsonBody {
    if (this.leading !== undefined) return { _tag: "Text", text: Buffer.concat(this.leading).toString("utf8") }
    if (this.tooDeep || this.tail?.tooDeep === true) return { _tag: "TooDeep" }
    if (this.notJson || this.parser === undefined) return { _tag: "NotJson" }
    try {
      return { _tag: "Value", value: this.parser.end() }
    } catch (e) {
      if (!(e instanceof JsonSyntax)) throw e
      return { _tag: "NotJson" }
    } finally {
      this.parser = undefined
    }
  }
}

const unserializable = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol"

/**
 * `JSON.stringify(u)?.slice(0, max)` of a JSON value without serializing more of it than that: a
 * message quoting what a body holds must not copy a 100 MB value to show 80 characters of it.
 */
export const jsonPrefix = (u: unknown, max: number): string | undefined => {
  if (unserializable(u)) return undefined
  let out = ""
  /** Appends; true once `max` characters are there (the rest is not needed). */
  const put = (s: string) => (out += s).length >= max
  const quoted = (s: string) => put(JSON.stringify(s.length > max ? s.slice(0, max) : s))
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v !== "object") return typeof v === "string" ? quoted(v) : put(JSON.stringify(v) ?? "null")
    if (typeof (v as { toJSON?: unknown }).toJSON === "function") return put(JSON.stringify(v) ?? "null")
    if (Array.isArray(v)) {
      if (put("[")) return true
      for (let i = 0; i < v.length; i++) {
        if (i > 0 && put(",")) return true
        if (unserializable(v[i]) ? put("null") : walk(v[i])) return true
      }
      return put("]")
    }
    if (put("{")) return true
    let first = true
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k]
      if (unserializable(x)) continue
      if ((!first && put(",")) || quoted(k) || put(":") || walk(x)) return true
      first = false
    }
    return put("}")
  }
  walk(u)
  return out.slice(0, max)
}
