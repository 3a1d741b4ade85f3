/**
 * The emitter of compiled regexes: a parsed Rust-syntax pattern as JavaScript RegExp source. In byte
 * mode classes become sorted, disjoint byte ranges (the subject is a binary string); in Unicode mode
 * they become `v`-flag classes, with case folding spelled out where the `i` flag cannot be used.
 */
import { resolveProperty } from "./regex-props.js"
import type { ClassItem, ClassNode, RegexNode } from "./regex-parse.js"
const hex = (n: number) => n.toString(16).toUpperCase()
const ALNUM = /^[0-9A-Za-z]$/

// ---------------------------------------------------------------------------------------------
// Byte-mode classes as sorted, disjoint ranges over 0..255

type Ranges = Array<[number, number]>

const normalize = (r: Ranges): Ranges => {
  const s = [...r].sort((a, b) => a[0] - b[0])
  const out: Ranges = []
  for (const [lo, hi] of s) {
    const last = out[out.length - 1]
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi)
    else out.push([lo, hi])
  }
  return out
}
const complement = (r: Ranges, max = 255): Ranges => {
  const out: Ranges = []
  let next = 0
  for (const [lo, hi] of normalize(r)) {
    if (lo > next) out.push([next, lo - 1])
    next = hi + 1
  }
  if (next <= max) out.push([next, max])
  return out
}
const intersect = (a: Ranges, b: Ranges): Ranges => complement([...complement(a), ...complement(b)])
const subtract = (a: Ranges, b: Ranges): Ranges => intersect(a, complement(b))
const foldAscii = (r: Ranges): Ranges => {
  const extra: Ranges = []
  for (const [lo, hi] of r) {
    for (const [a, b, d] of [
      [65, 90, 32],
      [97, 122, -32]
    ] as const) {
      const l = Math.max(lo, a)
      const h = Math.min(hi, b)
      if (l <= h) extra.push([l + d, h + d])
    }
  }
  return normalize([...r, ...extra])
}

const PERL_ASCII: Record<"d" | "s" | "w", Ranges> = {
  d: [[48, 57]],
  s: [
    [9, 13],
    [32, 32]
  ],
  w: [
    [48, 57],
    [65, 90],
    [95, 95],
    [97, 122]
  ]
}

const byteRanges = (cls: ClassNode): Ranges => {
  let r: Ranges
  if (cls.t === "union") {
    r = []
    for (const item of cls.items) r.push(...itemRanges(item))
    r = normalize(r)
  } else {
    const a = byteRanges(cls.a)
    const b = byteRanges(cls.b)
    r =
      cls.op === "&&"
        ? intersect(a, b)
        : cls.op === "--"
          ? subtract(a, b)
          : normalize([...subtract(a, b), ...subtract(b, a)])
  }
  if (cls.fold) r = foldAscii(r)
  return cls.negated ? complement(r) : r
}

const itemRanges = (item: ClassItem): Ranges => {
  switch (item.t) {
    case "range":
      return [[item.lo, item.hi]]
    case "perl":
      return item.negated ? complement(PERL_ASCII[item.kind]) : PERL_ASCII[item.kind]
    case "ascii":
      return item.negated ? complement(item.ranges.map(([a, b]) => [a, b])) : item.ranges.map(([a, b]) => [a, b])
    case "class":
      return byteRanges(item.cls)
    case "prop":
      return []
  }
}

const byteChar = (b: number) =>
  b < 128 && ALNUM.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`

const emitByteRanges = (r: Ranges): string => {
  if (r.length === 0) return "[]"
  if (r.length === 1 && r[0]![0] === 0 && r[0]![1] === 255) return "[\\x00-\\xff]"
  return `[${r.map(([lo, hi]) => (lo === hi ? byteChar(lo) : `${byteChar(lo)}-${byteChar(hi)}`)).join("")}]`
}

// ---------------------------------------------------------------------------------------------
// Unicode-mode classes, as `v`-flag class expressions

const cpEsc = (cp: number) =>
  cp < 128 && ALNUM.test(String.fromCharCode(cp)) ? String.fromCharCode(cp) : `\\u{${hex(cp)}}`

const UNICODE_WORD = "[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]"
const perlUnicode = (kind: "d" | "s" | "w", negated: boolean): string => {
  if (kind === "d") return negated ? "\\P{Nd}" : "\\p{Nd}"
  if (kind === "s") return negated ? "\\P{White_Space}" : "\\p{White_Space}"
  return negated ? `[^${UNICODE_WORD.slice(1)}` : UNICODE_WORD
}

/** Simple case variants of a code point (the engine's `i` flag does this exactly when usable). */
const caseVariants = (cp: number): ReadonlyArray<number> => {
  const s = String.fromCodePoint(cp)
  const out = new Set([cp])
  for (const t of [s.toLowerCase(), s.toUpperCase()]) {
    const c = t.codePointAt(0)!
    if (c !== undefined && t.length === String.fromCodePoint(c).length) out.add(c)
  }
  return [...out]
}

const emitItemV = (item: ClassItem, fold: boolean): string => {
  switch (item.t) {
    case "range": {
      const base = item.lo === item.hi ? cpEsc(item.lo) : `${cpEsc(item.lo)}-${cpEsc(item.hi)}`
      if (!fold || item.hi - item.lo > 2000) return base
      const extra = new Set<number>()
      for (let c = item.lo; c <= item.hi; c++)
        for (const v of caseVariants(c)) if (v < item.lo || v > item.hi) extra.add(v)
      return base + [...extra].map(cpEsc).join("")
    }
    case "perl":
      return item.unicode ? perlUnicode(item.kind, item.negated) : emitAsciiV(PERL_ASCII[item.kind], item.negated)
    case "ascii":
      return emitAsciiV(item.ranges, item.negated)
    case "prop":
      return `\\${item.negated ? "P" : "p"}{${resolveProperty(item.name)}}`
    case "class":
      return emitClassV(item.cls, fold)
  }
}

const emitAsciiV = (ranges: ReadonlyArray<readonly [number, number]>, negated: boolean) =>
  `[${negated ? "^" : ""}${ranges.map(([a, b]) => (a === b ? cpEsc(a) : `${cpEsc(a)}-${cpEsc(b)}`)).join("")}]`

const emitClassV = (cls: ClassNode, partialFold: boolean): string => {
  const fold = partialFold && cls.fold
  const neg = cls.negated ? "^" : ""
  if (cls.t === "union") return `[${neg}${cls.items.map((i) => emitItemV(i, fold)).join("")}]`
  const a = emitClassV(cls.a, partialFold)
  const b = emitClassV(cls.b, partialFold)
  if (cls.op === "~~") return `[${neg}[${a}--${b}][${b}--${a}]]`
  return `[${neg}${a}${cls.op}${b}]`
}

// ---------------------------------------------------------------------------------------------
// The whole pattern

interface Out {
  readonly src: string
  /** Safe to put a quantifier right after. */
  readonly atom: boolean
}

const WORD_ASCII = "[0-9A-Za-z_]"

const emit = (n: RegexNode, mode: { unicode: boolean; partialFold: boolean }): Out => {
  switch (n.t) {
    case "empty":
      return { src: "(?:)", atom: true }
    case "lit": {
      if (!mode.unicode) {
        if (n.byte || n.cp < 128) {
          if (n.fold)
            return {
              src: `[${String.fromCharCode(n.cp).toLowerCase()}${String.fromCharCode(n.cp).toUpperCase()}]`,
              atom: true
            }
          return { src: byteChar(n.cp), atom: true }
        }
        const bytes = new TextEncoder().encode(String.fromCodePoint(n.cp))
        return { src: `(?:${[...bytes].map(byteChar).join("")})`, atom: true }
      }
      if (n.fold && mode.partialFold) return { src: `[${caseVariants(n.cp).map(cpEsc).join("")}]`, atom: true }
      return { src: cpEsc(n.cp), atom: true }
    }
    case "any": {
      if (n.s) return { src: mode.unicode ? "[\\s\\S]" : "[\\x00-\\xff]", atom: true }
      return { src: n.crlf ? "[^\\n\\r]" : "[^\\n]", atom: true }
    }
    case "class":
      return { src: mode.unicode ? emitClassV(n.cls, mode.partialFold) : emitByteRanges(byteRanges(n.cls)), atom: true }
    case "perl":
      if (mode.unicode && n.unicode) return { src: perlUnicode(n.kind, n.negated), atom: true }
      return {
        src: mode.unicode
          ? emitAsciiV(PERL_ASCII[n.kind], n.negated)
          : emitByteRanges(n.negated ? complement(PERL_ASCII[n.kind]) : PERL_ASCII[n.kind]),
        atom: true
      }
    case "prop":
      return { src: `\\${n.negated ? "P" : "p"}{${resolveProperty(n.name)}}`, atom: true }
    case "assert": {
      const w = n.unicode && mode.unicode ? UNICODE_WORD : WORD_ASCII
      const nl = n.crlf ? "\\n\\r" : "\\n"
      switch (n.kind) {
        case "start":
          return { src: "^", atom: false }
        case "end":
          return { src: "$", atom: false }
        case "line-start":
          return { src: `(?<![^${nl}])`, atom: true }
        case "line-end":
          return { src: `(?![^${nl}])`, atom: true }
        case "word":
          return {
            src: w === WORD_ASCII && !mode.unicode ? "\\b" : `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`,
            atom: false
          }
        case "not-word":
          return {
            src: w === WORD_ASCII && !mode.unicode ? "\\B" : `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))`,
            atom: false
          }
        case "word-start":
          return { src: `(?:(?<!${w})(?=${w}))`, atom: true }
        case "word-end":
          return { src: `(?:(?<=${w})(?!${w}))`, atom: true }
        case "word-start-half":
          return { src: `(?<!${w})`, atom: true }
        case "word-end-half":
          return { src: `(?!${w})`, atom: true }
      }
      break
    }
    case "group":
      return { src: `(?:${emit(n.node, mode).src})`, atom: true }
    case "concat":
      return { src: n.items.map((i) => wrapAlt(i, mode)).join(""), atom: false }
    case "alt":
      return { src: n.items.map((i) => emit(i, mode).src).join("|"), atom: false }
    case "rep": {
      const inner = emit(n.node, mode)
      const base = inner.atom ? inner.src : `(?:${inner.src})`
      const q =
        n.min === 0 && n.max === Infinity
          ? "*"
          : n.min === 1 && n.max === Infinity
            ? "+"
            : n.min === 0 && n.max === 1
              ? "?"
              : n.max === Infinity
                ? `{${n.min},}`
                : n.min === n.max
                  ? `{${n.min}}`
                  : `{${n.min},${n.max}}`
      return { src: `${base}${q}${n.greedy ? "" : "?"}`, atom: false }
    }
  }
}

const wrapAlt = (n: RegexNode, mode: { unicode: boolean; partialFold: boolean }) => {
  const o = emit(n, mode)
  return n.t === "alt" ? `(?:${o.src})` : o.src
}

/** The RegExp source of a parsed pattern (`partialFold`: fold case per item, the `i` flag being unusable). */
export const regexSource = (n: RegexNode, mode: { unicode: boolean; partialFold: boolean }): string => emit(n, mode).src
