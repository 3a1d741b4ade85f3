/**
 * The atoms of a Rust `regex` pattern: `.`, anchors, literals, escapes (`\d`, `\p{..}`, `\x..`,
 * assertions) and bracket classes with their set operations, with the crate's errors. Apart from
 * `regex-parse.ts` (alternation, repetition, groups), which extends this class, because an atom
 * never contains a group: the two halves read separately and stay under the house limit.
 */
import {
  ASCII_CLASSES,
  hasCase,
  isEscapable,
  type AssertKind,
  type ClassItem,
  type ClassNode,
  type Flags,
  type RegexNode
} from "./regex-ast.js"
import { RegexCursor } from "./regex-cursor.js"

export const NEST_LIMIT = 250

/** The state atoms and groups share: the nesting depth and what the pattern has used so far. */
export class RegexAtomParser extends RegexCursor {
  protected depth = 0
  protected unicodeUsed = false
  protected foldOn = false
  protected foldOff = false

  protected atom(flags: Flags): RegexNode {
    const at = this.pos
    const c = this.cp()
    if (flags.u) this.unicodeUsed = true
    switch (c) {
      case 0x2e /* . */:
        this.pos++
        return { t: "any", s: flags.s, crlf: flags.R }
      case 0x5e /* ^ */:
        this.pos++
        return { t: "assert", kind: flags.m ? "line-start" : "start", unicode: flags.u, crlf: flags.R }
      case 0x24 /* $ */:
        this.pos++
        return { t: "assert", kind: flags.m ? "line-end" : "end", unicode: flags.u, crlf: flags.R }
      case 0x5b /* [ */:
        return { t: "class", cls: this.classBracket(flags) }
      case 0x5c /* \ */:
        return this.escape(flags, false, at) as RegexNode
    }
    this.pos += this.width(c)
    return this.literal(c, flags)
  }

  private literal(cp: number, flags: Flags, byte = false): RegexNode {
    const letter = byte ? false : hasCase(cp, flags.u)
    if (letter) {
      if (flags.i) this.foldOn = true
      else this.foldOff = true
    }
    return { t: "lit", cp, fold: flags.i && letter, byte }
  }

  /** `\...` outside (inClass false) or inside a class. Returns a node, or a class item in a class. */
  private escape(flags: Flags, inClass: boolean, at: number): RegexNode | ClassItem {
    this.pos++
    if (this.eof) this.fail("incomplete escape sequence, reached end of pattern prematurely", at, this.pos)
    const c = this.cp()
    const ch = String.fromCodePoint(c)
    this.pos += this.width(c)
    const lit = (cp: number, byte = false): RegexNode | ClassItem =>
      inClass ? { t: "range", lo: cp, hi: cp } : this.literal(cp, flags, byte)
    switch (ch) {
      case "a":
        return lit(7)
      case "f":
        return lit(12)
      case "t":
        return lit(9)
      case "n":
        return lit(10)
      case "r":
        return lit(13)
      case "v":
        return lit(11)
      case "x":
      case "u":
      case "U": {
        const cp = this.hexEscape(ch, at)
        // In byte mode, \x80-\xFF is one byte; otherwise a code point.
        if (!flags.u && ch === "x" && cp <= 0xff && cp >= 0x80)
          return inClass ? { t: "range", lo: cp, hi: cp } : this.literal(cp, flags, true)
        if (!flags.u && inClass && cp > 0x7f)
          this.fail(
            "Unicode not allowed here: a code point above 0x7F in a class needs (?u)",
            at,
            this.pos,
            "use (?u) or write the bytes"
          )
        return lit(cp)
      }
      case "d":
      case "s":
      case "w":
      case "D":
      case "S":
      case "W": {
        const kind = ch.toLowerCase() as "d" | "s" | "w"
        return { t: "perl", kind, negated: ch !== kind, unicode: flags.u }
      }
      case "p":
      case "P": {
        if (!flags.u)
          this.fail(
            "Unicode classes need Unicode mode: put (?u) before the class",
            at,
            this.pos + (this.p[this.pos] === "{" ? this.p.indexOf("}", this.pos) + 1 - this.pos : 1),
            "e.g. (?u)\\p{Hangul}"
          )
        let name: string
        if (this.p[this.pos] === "{") {
          const close = this.p.indexOf("}", this.pos)
          if (close < 0) this.fail("invalid Unicode character class", at, this.p.length)
          name = this.p.slice(this.pos + 1, close).trim()
          this.pos = close + 1
        } else {
          if (this.eof) this.fail("incomplete escape sequence, reached end of pattern prematurely", at, this.pos)
          const n = this.cp()
          name = String.fromCodePoint(n)
          this.pos += this.width(n)
        }
        if (name === "") this.fail("invalid Unicode character class", at, this.pos)
        if (flags.i) this.foldOn = true
        else this.foldOff = true
        return { t: "prop", name, negated: ch === "P" }
      }
    }
    if (!inClass) {
      const assert = (kind: AssertKind): RegexNode => ({ t: "assert", kind, unicode: flags.u, crlf: flags.R })
      switch (ch) {
        case "A":
          return assert("start")
        case "z":
          return assert("end")
        case "B":
          return assert("not-word")
        case "<":
          return assert("word-start")
        case ">":
          return assert("word-end")
        case "b": {
          const m = /^\{(start|end|start-half|end-half)\}/.exec(this.p.slice(this.pos))
          if (m) {
            this.pos += m[0].length
            return assert(
              m[1] === "start"
                ? "word-start"
                : m[1] === "end"
                  ? "word-end"
                  : m[1] === "start-half"
                    ? "word-start-half"
                    : "word-end-half"
            )
          }
          return assert("word")
        }
      }
    }
    if (/[0-9]/.test(ch)) this.fail("backreferences are not supported", at, this.pos)
    if (isEscapable(c)) return lit(c)
    if (inClass && /[AzBb<>]/.test(ch)) this.fail("invalid escape sequence found in character class", at, this.pos)
    this.fail(
      "unrecognized escape sequence",
      at,
      this.pos,
      "only punctuation can be escaped; \\d \\w \\s \\b \\A \\z \\p{..} \\x.. \\n \\t \\r are the known escapes"
    )
  }

  /** `[...]`, with nesting and the set operations `&&`, `--` and `~~`. */
  private classBracket(flags: Flags): ClassNode {
    const open = this.pos
    if (++this.depth > NEST_LIMIT)
      this.fail(`exceed the maximum number of nested parentheses/brackets (${NEST_LIMIT})`, open)
    this.pos++
    let negated = false
    if (this.p[this.pos] === "^") {
      negated = true
      this.pos++
    }
    let items: Array<ClassItem> = []
    let left: ClassNode | undefined
    let pendingOp: "&&" | "--" | "~~" | undefined
    let first = true
    const fold = flags.i
    if (fold) this.foldOn = true
    else this.foldOff = true
    const flush = (): ClassNode => {
      const union: ClassNode = { t: "union", items, negated: false, fold }
      items = []
      if (left === undefined) return union
      return { t: "op", op: pendingOp!, a: left, b: union, negated: false, fold }
    }
    for (;;) {
      this.skipExtended(flags)
      if (this.eof) this.fail("unclosed character class", open, this.p.length)
      const at = this.pos
      const c = this.p[at]!
      if (c === "]" && !first) {
        this.pos++
        break
      }
      first = false
      const two = this.p.slice(at, at + 2)
      if (
        (two === "&&" || two === "--" || two === "~~") &&
        !(two === "--" && items.length === 0 && left === undefined)
      ) {
        left = flush()
        pendingOp = two as "&&" | "--" | "~~"
        this.pos += 2
        continue
      }
      if (c === "[") {
        const ascii = /^\[:(\^?)([a-z]+):\]/.exec(this.p.slice(at))
        if (ascii) {
          const ranges = ASCII_CLASSES[ascii[2]!]
          if (ranges === undefined)
            this.fail(
              `unknown ASCII class [:${ascii[2]}:]`,
              at,
              at + ascii[0].length,
              `known classes: ${Object.keys(ASCII_CLASSES).join(", ")}`
            )
          this.pos += ascii[0].length
          items.push({ t: "ascii", ranges, negated: ascii[1] === "^" })
          continue
        }
        items.push({ t: "class", cls: this.classBracket(flags) })
        continue
      }
      const lo = this.classAtom(flags)
      if (lo.t !== "range") {
        items.push(lo)
        continue
      }
      // A range `a-z`, unless `-` is last (`[a-]`) or starts an operator (`[a--b]`).
      if (
        this.p[this.pos] === "-" &&
        this.p[this.pos + 1] !== "]" &&
        this.p[this.pos + 1] !== "-" &&
        this.pos + 1 < this.p.length
      ) {
        const dash = this.pos
        this.pos++
        this.skipExtended(flags)
        const hi = this.classAtom(flags)
        if (hi.t !== "range") this.fail("invalid range boundary, must be a literal", dash + 1, this.pos)
        if (hi.lo < lo.lo) this.fail("invalid character class range, the start must be <= the end", at, this.pos)
        items.push({ t: "range", lo: lo.lo, hi: hi.lo })
        continue
      }
      items.push(lo)
    }
    this.depth--
    const node = flush()
    return negated ? { ...node, negated: true } : node
  }

  private classAtom(flags: Flags): ClassItem {
    const at = this.pos
    if (this.p[at] === "\\") return this.escape(flags, true, at) as ClassItem
    const c = this.cp()
    this.pos += this.width(c)
    if (c > 0x7f && !flags.u)
      this.fail(
        "Unicode not allowed here: a non-ASCII character in a class needs (?u)",
        at,
        this.pos,
        "put (?u) at the start of the pattern"
      )
    return { t: "range", lo: c, hi: c }
  }
}
