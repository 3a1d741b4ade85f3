/**
 * Rust-syntax regular expressions as JavaScript RegExps, with the platform's semantics: matching
 * on bytes with Unicode mode off unless the pattern turns it on with `(?u)`, `.` not matching
 * `\n`, unanchored. In byte mode the subject is a binary string (one char per byte) and the
 * RegExp has no `u` flag, so `.` and classes see bytes, as the platform's engine does. In Unicode
 * mode the subject is decoded from UTF-8 and the RegExp uses the `v` flag.
 */
import { resolveProperty } from "./regex-props.js"
import {
  parseRegex,
  type ClassItem,
  type ClassNode,
  type ParsedRegex,
  type RegexError,
  type RegexNode
} from "./regex-parse.js"

export type { RegexError }

export interface CompiledRegex {
  readonly regexp: RegExp
  /** Whether the subject must be decoded from UTF-8 before matching. */
  readonly unicode: boolean
}

/** The platform engine's compiled size limit (10 MiB), estimated as NFA states of ~16 bytes. */
export const REGEX_SIZE_LIMIT_BYTES = 10 * 1024 * 1024
const STATE_BYTES = 16

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

/** Estimated compiled size in NFA states (the platform's engine limits the compiled program). */
const weight = (n: RegexNode, unicode: boolean): number => {
  switch (n.t) {
    case "empty":
    case "assert":
      return 1
    case "lit":
      return unicode && n.cp > 127 ? new TextEncoder().encode(String.fromCodePoint(n.cp)).length : 1
    case "any":
      return unicode ? 10 : 1
    case "class":
      return unicode ? 50 : 1
    case "perl":
      return unicode && n.unicode ? (n.kind === "w" ? 700 : n.kind === "d" ? 100 : 10) : 1
    case "prop":
      return 300
    case "group":
      return weight(n.node, unicode)
    case "concat":
    case "alt":
      return n.items.reduce((s, i) => s + weight(i, unicode), 0)
    case "rep":
      return weight(n.node, unicode) * (n.max === Infinity ? n.min + 1 : Math.max(n.max, 1))
  }
}

const findUnknownProperty = (n: RegexNode): string | undefined => {
  const inClass = (c: ClassNode): string | undefined => {
    if (c.t === "op") return inClass(c.a) ?? inClass(c.b)
    for (const i of c.items) {
      if (i.t === "prop" && resolveProperty(i.name) === undefined) return i.name
      if (i.t === "class") {
        const r = inClass(i.cls)
        if (r) return r
      }
    }
    return undefined
  }
  switch (n.t) {
    case "prop":
      return resolveProperty(n.name) === undefined ? n.name : undefined
    case "class":
      return inClass(n.cls)
    case "group":
    case "rep":
      return findUnknownProperty(n.node)
    case "concat":
    case "alt":
      for (const i of n.items) {
        const r = findUnknownProperty(i)
        if (r) return r
      }
      return undefined
    default:
      return undefined
  }
}

const cache = new Map<string, { ok: true; value: CompiledRegex } | { ok: false; error: RegexError }>()

/** Checks a pattern with the Rust crate's rules and compiles it to a RegExp (cached by pattern). */
export const compileRegex = (
  pattern: string
): { ok: true; value: CompiledRegex } | { ok: false; error: RegexError } => {
  const hit = cache.get(pattern)
  if (hit) return hit
  const result = compileUncached(pattern)
  if (cache.size > 5000) cache.clear()
  cache.set(pattern, result)
  return result
}

const compileUncached = (pattern: string): { ok: true; value: CompiledRegex } | { ok: false; error: RegexError } => {
  const parsed = parseRegex(pattern)
  if (!parsed.ok) return parsed
  const p: ParsedRegex = parsed.value
  const unknown = findUnknownProperty(p.node)
  if (unknown !== undefined) {
    const at = Math.max(0, pattern.indexOf(unknown))
    return {
      ok: false,
      error: { message: `Unicode property not found: ${unknown}`, start: at, end: at + unknown.length }
    }
  }
  const states = weight(p.node, p.unicode)
  if (states * STATE_BYTES > REGEX_SIZE_LIMIT_BYTES) {
    return {
      ok: false,
      error: {
        message: `compiled regex exceeds size limit of ${REGEX_SIZE_LIMIT_BYTES} bytes`,
        start: 0,
        end: pattern.length,
        hint: "use smaller repetition counts or fewer Unicode classes"
      }
    }
  }
  const useI = p.unicode && p.foldAll
  const src = emit(p.node, { unicode: p.unicode, partialFold: p.unicode && !useI }).src
  const flags = p.unicode ? (useI ? "vi" : "v") : ""
  try {
    return { ok: true, value: { regexp: new RegExp(src, flags), unicode: p.unicode } }
  } catch (e) {
    return {
      ok: false,
      error: { message: `cannot compile this pattern: ${(e as Error).message}`, start: 0, end: pattern.length }
    }
  }
}

let guardDepth = 0

/**
 * Long-running evaluators (traffic replay, servers) call this once: V8 then switches a regular
 * expression that backtracks excessively to its linear-time engine, so a pattern like `(a+)+$`
 * cannot stall evaluation (the platform's Rust engine is linear-time too). Node only; elsewhere a
 * no-op. Call the returned function before the process exits: the V8 flag is part of the key of
 * the launcher's code cache.
 */
export const guardRegexBacktracking = (): (() => void) => {
  const v8 = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
    "node:v8"
  ) as { setFlagsFromString(flags: string): void } | undefined
  if (v8 === undefined) return () => {}
  if (guardDepth++ === 0) v8.setFlagsFromString("--enable-experimental-regexp-engine-on-excessive-backtracks")
  let released = false
  return () => {
    if (released) return
    released = true
    if (--guardDepth === 0) v8.setFlagsFromString("--no-enable-experimental-regexp-engine-on-excessive-backtracks")
  }
}
