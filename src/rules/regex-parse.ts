/**
 * A parser for the Rust `regex` crate's syntax, the dialect the platform's `matches` operator
 * uses: it validates a pattern with that crate's rules (no look-around, no back-references, only
 * the escapes it knows, Unicode classes only in Unicode mode) and produces a tree that
 * `regex.ts` turns into an equivalent JavaScript RegExp. Error messages follow the crate's.
 *
 * This module holds the structure (alternation, repetition, groups and their flags); the atoms
 * (literals, escapes, bracket classes) are read by `regex-parse-atoms.ts`, which it extends.
 */
import * as Either from "effect/Either"
import type { Flags, ParsedRegex, RegexError, RegexNode } from "./regex-ast.js"
import { Fail } from "./regex-cursor.js"
import { NEST_LIMIT, RegexAtomParser } from "./regex-parse-atoms.js"

export type { ClassItem, ClassNode, ParsedRegex, RegexError, RegexNode } from "./regex-ast.js"

class RegexParser extends RegexAtomParser {
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
}

const seq = (items: ReadonlyArray<RegexNode>): RegexNode => {
  const kept = items.filter((n) => n.t !== "empty")
  return kept.length === 0 ? { t: "empty" } : kept.length === 1 ? kept[0]! : { t: "concat", items: kept }
}

export const parseRegex = (pattern: string): Either.Either<ParsedRegex, RegexError> => {
  try {
    return Either.right(new RegexParser(pattern).parse())
  } catch (e) {
    if (e instanceof Fail) return Either.left(e.error)
    throw e
  }
}
