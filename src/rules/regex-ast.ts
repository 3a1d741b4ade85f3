/** The tree of a Rust-syntax regular expression, and the character tables its parser uses. */
export interface RegexError {
  readonly message: string
  /** Offsets into the pattern (UTF-16 code units), end exclusive. */
  readonly start: number
  readonly end: number
  readonly hint?: string
}

export interface Flags {
  readonly i: boolean
  readonly m: boolean
  readonly s: boolean
  readonly U: boolean
  readonly u: boolean
  readonly x: boolean
  readonly R: boolean
}

/** Class contents. Ranges are code points (Unicode mode) or bytes (byte mode, all <= 0xFF). */
export type ClassItem =
  | { readonly t: "range"; readonly lo: number; readonly hi: number }
  | { readonly t: "prop"; readonly name: string; readonly negated: boolean }
  | { readonly t: "perl"; readonly kind: "d" | "s" | "w"; readonly negated: boolean; readonly unicode: boolean }
  | { readonly t: "ascii"; readonly ranges: ReadonlyArray<readonly [number, number]>; readonly negated: boolean }
  | { readonly t: "class"; readonly cls: ClassNode }

export type ClassNode =
  | { readonly t: "union"; readonly items: ReadonlyArray<ClassItem>; readonly negated: boolean; readonly fold: boolean }
  | {
      readonly t: "op"
      readonly op: "&&" | "--" | "~~"
      readonly a: ClassNode
      readonly b: ClassNode
      readonly negated: boolean
      readonly fold: boolean
    }

export type AssertKind =
  | "start"
  | "end"
  | "line-start"
  | "line-end"
  | "word"
  | "not-word"
  | "word-start"
  | "word-end"
  | "word-start-half"
  | "word-end-half"

export type RegexNode =
  | { readonly t: "empty" }
  | { readonly t: "lit"; readonly cp: number; readonly fold: boolean; readonly byte: boolean }
  | { readonly t: "any"; readonly s: boolean; readonly crlf: boolean }
  | { readonly t: "class"; readonly cls: ClassNode }
  | { readonly t: "perl"; readonly kind: "d" | "s" | "w"; readonly negated: boolean; readonly unicode: boolean }
  | { readonly t: "prop"; readonly name: string; readonly negated: boolean }
  | { readonly t: "assert"; readonly kind: AssertKind; readonly unicode: boolean; readonly crlf: boolean }
  | { readonly t: "group"; readonly node: RegexNode }
  | { readonly t: "concat"; readonly items: ReadonlyArray<RegexNode> }
  | { readonly t: "alt"; readonly items: ReadonlyArray<RegexNode> }
  | {
      readonly t: "rep"
      readonly node: RegexNode
      readonly min: number
      readonly max: number
      readonly greedy: boolean
    }

export interface ParsedRegex {
  readonly node: RegexNode
  /** Whether Unicode mode (`(?u)`) is on anywhere: the emitter then matches decoded text. */
  readonly unicode: boolean
  /** Whether case-insensitivity is on for some parts and off for others. */
  readonly foldMixed: boolean
  readonly foldAll: boolean
}

export const ASCII_CLASSES: Record<string, ReadonlyArray<readonly [number, number]>> = {
  alnum: [
    [48, 57],
    [65, 90],
    [97, 122]
  ],
  alpha: [
    [65, 90],
    [97, 122]
  ],
  ascii: [[0, 127]],
  blank: [
    [9, 9],
    [32, 32]
  ],
  cntrl: [
    [0, 31],
    [127, 127]
  ],
  digit: [[48, 57]],
  graph: [[33, 126]],
  lower: [[97, 122]],
  print: [[32, 126]],
  punct: [
    [33, 47],
    [58, 64],
    [91, 96],
    [123, 126]
  ],
  space: [
    [9, 13],
    [32, 32]
  ],
  upper: [[65, 90]],
  word: [
    [48, 57],
    [65, 90],
    [95, 95],
    [97, 122]
  ],
  xdigit: [
    [48, 57],
    [65, 70],
    [97, 102]
  ]
}

const META = new Set("\\.+*?()|[]{}^$#&-~")
export const isEscapable = (c: number) =>
  c < 128 && (META.has(String.fromCharCode(c)) || !/[0-9A-Za-z<>]/.test(String.fromCharCode(c)))

/** Whether a code point has other case forms (ASCII letters only in byte mode). */
export const hasCase = (cp: number, unicode: boolean): boolean => {
  if ((cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122)) return true
  if (!unicode || cp < 128) return false
  const s = String.fromCodePoint(cp)
  return s.toLowerCase() !== s || s.toUpperCase() !== s
}
