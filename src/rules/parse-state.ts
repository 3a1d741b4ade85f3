/**
 * The parser's state: the cursor, the diagnostics, the types it has inferred, and (for editors)
 * the tokens it read and what it expected at each point.
 */
import type { Diagnostic, Node, Range } from "./ast.js"
import type { Plan } from "./fields.js"
import { diag } from "./lexer.js"
import type { Scheme } from "./scheme.js"
import type { ComparisonOperator, Type, ValueType } from "./types.js"

/** The kinds of named lists: IP lists (for `ip.src`), hostname lists (Strings), ASN lists (Integers). */
export type ListKind = "ip" | "hostname" | "asn"

export interface ParserOptions {
  readonly scheme: Scheme
  readonly maxDepth: number
  /** The named lists that exist; absent: any well-formed name is accepted. */
  readonly lists?: ReadonlyMap<string, ListKind>
  readonly plan?: Plan
  readonly phase: "request" | "response"
  readonly track: boolean
}

/** A token as an editor sees it (semantic highlighting, hover). */
export interface TokenInfo {
  readonly kind:
    "field" | "function" | "keyword" | "operator" | "string" | "number" | "ip" | "bytes" | "list" | "punctuation"
  readonly range: Range
}

/** What the parser could read at a position (completion). */
export type Expected =
  | { readonly kind: "condition" }
  | { readonly kind: "logical-operator" }
  | { readonly kind: "operator"; readonly type: Type }
  | { readonly kind: "value"; readonly type: Type | undefined; readonly operator: ComparisonOperator }
  | { readonly kind: "list"; readonly type: Type | undefined }
  | { readonly kind: "argument"; readonly function: string; readonly index: number }
  | { readonly kind: "index"; readonly type: Type | undefined }
  | { readonly kind: "close"; readonly text: ")" | "]" | "}" }

export interface Expectation {
  readonly at: number
  readonly expected: Expected
}

export class ParserState {
  pos = 0
  depth = 0
  depthReported = false
  inArgs = 0
  readonly out: Array<Diagnostic> = []
  readonly types = new Map<Node, ValueType>()
  readonly tokens: Array<TokenInfo> = []
  readonly expectations: Array<Expectation> = []

  constructor(
    readonly src: string,
    readonly opts: ParserOptions
  ) {}

  get eof(): boolean {
    return this.pos >= this.src.length
  }

  code(at = this.pos): number {
    return this.src.charCodeAt(at)
  }

  /** Skips spaces, CR and LF (the language's whitespace); tabs too, with a warning. */
  ws(): void {
    for (;;) {
      const c = this.src.charCodeAt(this.pos)
      if (c === 32 || c === 10 || c === 13) this.pos++
      else if (c === 9) {
        const start = this.pos
        while (this.src.charCodeAt(this.pos) === 9) this.pos++
        this.out.push(
          diag(
            "warning",
            "tab-character",
            "a tab is not whitespace for the platform's rules engine",
            { start, end: this.pos },
            "use spaces; `edgectl rules check` and the formatter replace tabs with spaces"
          )
        )
      } else return
    }
  }

  error(code: string, message: string, range: Range, hint?: string): void {
    this.out.push(diag("error", code, message, range, hint))
  }

  warn(code: string, message: string, range: Range, hint?: string): void {
    this.out.push(diag("warning", code, message, range, hint))
  }

  info(code: string, message: string, range: Range, hint?: string): void {
    this.out.push(diag("information", code, message, range, hint))
  }

  token(kind: TokenInfo["kind"], start: number, end: number): void {
    if (this.opts.track) this.tokens.push({ kind, range: { start, end } })
  }

  expect(expected: Expected, at = this.pos): void {
    if (this.opts.track) this.expectations.push({ at, expected })
  }

  setType<N extends Node>(node: N, t: ValueType | undefined): N {
    if (t !== undefined) this.types.set(node, t)
    return node
  }

  typeOf(node: Node): ValueType | undefined {
    return this.types.get(node)
  }

  /** Enters a nesting level; false (reported once) beyond the limit. */
  enter(at: number, width = 1): boolean {
    this.depth++
    if (this.depth <= this.opts.maxDepth) return true
    this.depth--
    if (!this.depthReported) {
      this.depthReported = true
      this.error(
        "nesting-too-deep",
        `maximum nesting depth exceeded (limit: ${this.opts.maxDepth})`,
        { start: at, end: at + width },
        "parentheses, not and function calls each add a level; flatten the expression"
      )
    }
    return false
  }

  leave(): void {
    this.depth--
  }

  /** From an opening `(`, skips to its matching `)` (strings skipped), for input beyond the nesting limit. */
  skipBalanced(): void {
    let level = 0
    while (this.pos < this.src.length) {
      const c = this.src.charCodeAt(this.pos)
      if (c === 34) {
        const close = this.src.indexOf('"', this.pos + 1)
        this.pos = close < 0 ? this.src.length : close + 1
        continue
      }
      this.pos++
      if (c === 40) level++
      else if (c === 41 && --level === 0) return
    }
  }
}
