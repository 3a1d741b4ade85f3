/**
 * A parser for the Rust `regex` crate's syntax, the dialect the platform's `matches` operator
 * uses: it validates a pattern with that crate's rules (no look-around, no back-references, only
 * the escapes it knows, Unicode classes only in Unicode mode) and produces a tree that
 * `regex.ts` turns into an equivalent JavaScript RegExp. Error messages follow the crate's.
 */
import {
  ASCII_CLASSES,
  hasCase,
  isEscapable,
  type AssertKind,
  type ClassItem,
  type ClassNode,
  type Flags,
  type ParsedRegex,
  type RegexError,
  type RegexNode
} from "./regex-ast.js"
import { Fail, RegexCursor } from "./regex-cursor.js"

export type { ClassItem, ClassNode, ParsedRegex, RegexError, RegexNode } from "./regex-ast.js"

const NEST_LIMIT = 250

class RegexParser extends RegexCursor {
  private depth = 0
  private unicodeUsed = false
  private foldOn = false
  private foldOff = false
  private readonly names = new Set<string>()

  parse(): ParsedRegex {
    const flags: Flags = { i: false, m: false, s: false, U: false, u: false, x: false, R: false }
    const node = this.alternation(flags, true)
    return {
      node,
      unicode: this.unicodeUsed,
      foldMixed: this.foldOn && this.foldOff,
      foldAll: this.foldOn && !this.foldOff
    }
  }

  /** An alternation up to `)` (or the end at top level). `flags` is mutated by inline flag groups. */
  private alternation(start: Flags, top: boolean): RegexNode {
    let flags = { ...start }
    const branches: Array<RegexNode> = []
    let items: Array<RegexNode> = []
    for (;;) {
      this.skipExtended(flags)
      if (this.eof) {
        break
      }
      const at = this.pos
      const c = this.p[at]!
      if (c === ")") {
        if (top) this.fail("unopened group", at)
        break
      }
      if (c === "|") {
        this.pos++
        branches.push(seq(items))
        items = []
        continue
      }
      if (c === "*" || c === "+" || c === "?" || c === "{") {
        const last = items.pop()
        if (last === undefined || last.t === "empty") this.fail("repetition operator missing expression", at)
        items.push(this.repetition(last, flags))
        continue
      }
      if (c === "(") {
        const r = this.group(flags)
        if (r.kind === "flags") {
          flags = r.flags
          items.push({ t: "empty" })
        } else items.push(r.node)
        continue
      }
      items.push(this.atom(flags))
    }
    branches.push(seq(items))
    return branches.length === 1 ? branches[0]! : { t: "alt", items: branches }
  }

  private repetition(node: RegexNode, flags: Flags): RegexNode {
    const at = this.pos
    const c = this.p[this.pos]!
    let min = 0
    let max = Infinity
    if (c === "*") this.pos++
    else if (c === "+") {
      min = 1
      this.pos++
    } else if (c === "?") {
      max = 1
      this.pos++
    } else {
      this.pos++
      const num = () => {
        const s = this.pos
        while (!this.eof && /[0-9]/.test(this.p[this.pos]!)) this.pos++
        if (s === this.pos) {
          if (this.eof) this.fail("unclosed counted repetition", at, this.pos)
          this.fail("repetition quantifier expects a valid decimal", this.pos)
        }
        const n = Number(this.p.slice(s, this.pos))
        if (n > 0xffffffff) this.fail("decimal literal invalid", s, this.pos)
        return n
      }
      min = num()
      max = min
      if (this.p[this.pos] === ",") {
        this.pos++
        max = this.p[this.pos] === "}" ? Infinity : num()
      }
      if (this.p[this.pos] !== "}") this.fail("unclosed counted repetition", at, this.pos + (this.eof ? 0 : 1))
      this.pos++
      if (max < min) this.fail("invalid repetition count range, the start must be <= the end", at, this.pos)
    }
    let greedy = true
    if (this.p[this.pos] === "?") {
      greedy = false
      this.pos++
    }
    if (flags.U) greedy = !greedy
    if (node.t === "empty") this.fail("repetition operator missing expression", at)
    return { t: "rep", node, min, max, greedy }
  }

  private group(flags: Flags): { kind: "flags"; flags: Flags } | { kind: "group"; node: RegexNode } {
    const open = this.pos
    this.pos++
    if (this.p[this.pos] === "?") {
      const after = this.p.slice(this.pos + 1, this.pos + 3)
      if (after.startsWith("=") || after.startsWith("!") || after === "<=" || after === "<!") {
        this.fail(
          "look-around, including look-ahead and look-behind, is not supported",
          open,
          this.pos + 1 + (after[0] === "<" ? 2 : 1),
          "rewrite the pattern without (?=, (?!, (?<= or (?<!"
        )
      }
      if (after.startsWith(">")) this.fail("atomic groups are not supported", open, this.pos + 2)
      if (after.startsWith("P<") || after.startsWith("<")) {
        this.pos += after.startsWith("P") ? 3 : 2
        this.captureName()
        return { kind: "group", node: this.groupBody(flags, open) }
      }
      // Flags: (?flags) or (?flags:...)
      this.pos++
      const next = { ...flags } as { -readonly [K in keyof Flags]: Flags[K] }
      let negate = false
      let negAt = -1
      let any = false
      const seen = new Map<string, number>()
      for (;;) {
        if (this.eof) this.fail("expected flag but got end of regex", this.pos, this.pos)
        const f = this.p[this.pos]!
        if (f === ")" || f === ":") {
          if (negate && negAt === this.pos - 1) this.fail("dangling flag negation operator", negAt)
          if (!any && !negate && f === ")") this.fail("expected flag but got )", this.pos)
          this.pos++
          if (f === ")") return { kind: "flags", flags: this.noteFlags(next) }
          return { kind: "group", node: this.groupBody(this.noteFlags(next), open) }
        }
        if (f === "-") {
          if (negate) this.fail("flag negation operator repeated", this.pos)
          negate = true
          negAt = this.pos
          this.pos++
          continue
        }
        if (!"imsUuxR".includes(f))
          this.fail("unrecognized flag", this.pos, this.pos + 1, "Rust regex flags are i, m, s, U, u, x and R")
        if (seen.has(f)) this.fail("duplicate flag", this.pos)
        seen.set(f, this.pos)
        next[f as keyof Flags] = !negate
        any = true
        this.pos++
      }
    }
    return { kind: "group", node: this.groupBody(flags, open) }
  }

  private noteFlags(f: Flags): Flags {
    if (f.u) this.unicodeUsed = true
    return f
  }

  private captureName() {
    const start = this.pos
    while (!this.eof && this.p[this.pos] !== ">") this.pos++
    if (this.eof) this.fail("unclosed capture group name", start, this.pos)
    const name = this.p.slice(start, this.pos)
    if (name === "") this.fail("empty capture group name", start, start)
    if (!/^[\p{L}_][\p{L}\p{N}_.[\]]*$/u.test(name)) this.fail("invalid capture group character", start, this.pos)
    if (this.names.has(name)) this.fail("duplicate capture group name", start, this.pos)
    this.names.add(name)
    this.pos++
  }

  private groupBody(flags: Flags, open: number): RegexNode {
    if (++this.depth > NEST_LIMIT)
      this.fail(`exceed the maximum number of nested parentheses/brackets (${NEST_LIMIT})`, open)
    const node = this.alternation(flags, false)
    if (this.p[this.pos] !== ")") this.fail("unclosed group", open)
    this.pos++
    this.depth--
    return { t: "group", node }
  }

  private atom(flags: Flags): RegexNode {
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

const seq = (items: ReadonlyArray<RegexNode>): RegexNode => {
  const kept = items.filter((n) => n.t !== "empty")
  return kept.length === 0 ? { t: "empty" } : kept.length === 1 ? kept[0]! : { t: "concat", items: kept }
}

export const parseRegex = (pattern: string): { ok: true; value: ParsedRegex } | { ok: false; error: RegexError } => {
  try {
    return { ok: true, value: new RegexParser(pattern).parse() }
  } catch (e) {
    if (e instanceof Fail) return { ok: false, error: e.error }
    throw e
  }
}
