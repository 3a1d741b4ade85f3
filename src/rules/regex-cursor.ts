/**
 * Reading a Rust `regex` pattern: the position, code points, extended-mode whitespace, hexadecimal
 * escapes, and failures in the crate's words with the span they concern. regex-parse.ts builds the
 * tree on these.
 */
import type { Flags, RegexError } from "./regex-ast.js"

export class Fail {
  constructor(readonly error: RegexError) {}
}

/** The pattern, the position in it, and the reading steps every part of the parser uses. */
export class RegexCursor {
  protected pos = 0

  constructor(protected readonly p: string) {}

  protected fail(message: string, start: number, end = start + 1, hint?: string): never {
    throw new Fail({ message, start, end: Math.min(Math.max(end, start), this.p.length), ...(hint ? { hint } : {}) })
  }

  protected get eof() {
    return this.pos >= this.p.length
  }
  protected cp(at = this.pos): number {
    return this.p.codePointAt(at) ?? -1
  }
  protected width(cp: number) {
    return cp > 0xffff ? 2 : 1
  }

  protected skipExtended(flags: Flags) {
    if (!flags.x) return
    for (;;) {
      const c = this.p[this.pos]
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v") this.pos++
      else if (c === "#") {
        while (!this.eof && this.p[this.pos] !== "\n") this.pos++
      } else return
    }
  }

  /** The digits of `\x..`, `\u....`, `\U........` or `\x{...}`, as a code point. */
  protected hexEscape(kind: string, at: number): number {
    let digits: string
    if (this.p[this.pos] === "{") {
      const close = this.p.indexOf("}", this.pos)
      if (close < 0) this.fail("incomplete escape sequence, reached end of pattern prematurely", at, this.p.length)
      digits = this.p.slice(this.pos + 1, close)
      if (digits === "") this.fail("hexadecimal literal empty", at, close + 1)
      if (!/^[0-9a-fA-F]+$/.test(digits)) this.fail("invalid hexadecimal digit", at, close + 1)
      this.pos = close + 1
    } else {
      const n = kind === "x" ? 2 : kind === "u" ? 4 : 8
      digits = this.p.slice(this.pos, this.pos + n)
      if (digits.length < n)
        this.fail("incomplete escape sequence, reached end of pattern prematurely", at, this.p.length)
      if (!/^[0-9a-fA-F]+$/.test(digits)) this.fail("invalid hexadecimal digit", at, this.pos + n)
      this.pos += n
    }
    const cp = digits.length > 8 ? Infinity : parseInt(digits, 16)
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      this.fail("hexadecimal literal is not a Unicode scalar value", at, this.pos)
    return cp
  }
}
