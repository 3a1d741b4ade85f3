/**
 * `check()`: parse and type-check an expression in one pass, never throwing, and report every
 * problem it can find (the parser recovers after an error) with the smallest wrong span.
 */
import { children, type Diagnostic, type Expression, type Node } from "./ast.js"
import type { Plan } from "./fields.js"
import { diag } from "./lexer.js"
import { parseLogical } from "./parse-expr.js"
import { ParserState, type Expectation, type ListKind, type TokenInfo } from "./parse-state.js"
import { schemeNamed, type Scheme } from "./scheme.js"
import type { ValueType } from "./types.js"

export const MAX_EXPRESSION_LENGTH = 4096
export const MAX_NESTING_DEPTH = 128

export interface CheckOptions {
  /** `http` (the default: firewall, custom and WAF rules) or `network` (Magic Firewall). */
  readonly scheme?: "http" | "network"
  /** The named lists that exist, by name (without `$`). Absent: any well-formed list name is accepted. */
  readonly lists?: Readonly<Record<string, ListKind>> | ReadonlyMap<string, ListKind>
  /** The platform's 4,096-character limit (default); `false` to skip it, or another limit. */
  readonly maxLength?: number | false
  /** Nesting limit of parentheses, `not` and calls (default 128). */
  readonly maxDepth?: number
  /** The zone's plan: fields, functions and `matches` above it get a `plan-required` warning. */
  readonly plan?: Plan
  /** The phase the expression runs in (default `request`): response-only fields get a warning there. */
  readonly phase?: "request" | "response"
}

/** A parsed expression with no errors, ready for `compile()`. */
export interface CheckedExpression {
  readonly source: string
  readonly expression: Expression
  readonly scheme: Scheme
  /** The fields the expression reads, in first-use order. */
  readonly fields: ReadonlyArray<string>
  /** The type of a value or condition node of `expression`. */
  typeOf(node: Node): ValueType | undefined
}

export interface CheckResult {
  readonly source: string
  /** True when there is no error (warnings and information may remain). */
  readonly valid: boolean
  /** Every problem found, in source order. */
  readonly diagnostics: ReadonlyArray<Diagnostic>
  /** The tree as far as it could be read; it contains `invalid` nodes when there are errors. */
  readonly tree: Expression
  /** Present when `valid`. */
  readonly checked?: CheckedExpression
}

export interface ParseResult {
  readonly tree: Expression
  readonly diagnostics: Array<Diagnostic>
  readonly types: Map<Node, ValueType>
  readonly tokens: ReadonlyArray<TokenInfo>
  readonly expectations: ReadonlyArray<Expectation>
  readonly scheme: Scheme
}

/** The parser run behind `check()` and `locate()`; `track` records tokens and expectations. */
export const parse = (source: string, options: CheckOptions = {}, track = false): ParseResult => {
  const scheme = schemeNamed(options.scheme ?? "http")
  const lists =
    options.lists === undefined
      ? undefined
      : options.lists instanceof Map
        ? options.lists
        : new Map(Object.entries(options.lists))
  const s = new ParserState(source, {
    scheme,
    maxDepth: Math.max(1, Math.min(options.maxDepth ?? MAX_NESTING_DEPTH, 1000)),
    ...(lists ? { lists } : {}),
    ...(options.plan ? { plan: options.plan } : {}),
    phase: options.phase ?? "request",
    track
  })
  let tree: Expression
  try {
    tree = parseLogical(s, "top")
    const t = s.typeOf(tree)
    if (t !== undefined && t.type.kind !== "Bool") {
      s.error(
        "expected-boolean",
        "this condition gives one result per element (Array<Boolean>), but an expression must be a single Boolean",
        tree.range,
        "wrap it in any(...) (one element matches) or all(...) (every element matches)"
      )
    }
  } catch (e) {
    // A defect, not the user's input: still a diagnostic, never an exception.
    tree = { kind: "invalid", range: { start: 0, end: source.length } }
    s.out.push(
      diag("error", "internal-error", `internal error while checking: ${e instanceof Error ? e.message : String(e)}`, {
        start: 0,
        end: source.length
      })
    )
  }
  const limit = options.maxLength === undefined ? MAX_EXPRESSION_LENGTH : options.maxLength
  if (limit !== false && source.length > limit) {
    const at = offsetOfCodePoint(source, limit)
    if (at < source.length) {
      const count = [...source].length
      s.out.push(
        diag(
          "error",
          "expression-too-long",
          `the expression is ${count.toLocaleString("en-US")} characters long; the limit is ${limit.toLocaleString("en-US")}`,
          { start: at, end: source.length },
          "split it into several rules, or use a list ($name) for long sets"
        )
      )
    }
  }
  return { tree, diagnostics: s.out, types: s.types, tokens: s.tokens, expectations: s.expectations, scheme }
}

const offsetOfCodePoint = (s: string, n: number): number => {
  let i = 0
  let count = 0
  while (i < s.length && count < n) {
    i += s.codePointAt(i)! > 0xffff ? 2 : 1
    count++
  }
  return i
}

const SEVERITY_ORDER = { error: 0, warning: 1, information: 2 } as const

/**
 * Parses and type-checks `source`. Never throws: every problem is a diagnostic. The checked
 * expression is returned when there is no error.
 */
export const check = (source: string, options: CheckOptions = {}): CheckResult => {
  const text = typeof source === "string" ? source : String(source)
  const p = parse(text, options)
  const seen = new Set<string>()
  const diagnostics = p.diagnostics
    .filter((d) => {
      const key = `${d.code}:${d.range.start}:${d.range.end}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    .sort(
      (a, b) =>
        a.range.start - b.range.start ||
        SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
        a.range.end - b.range.end
    )
  const valid = !diagnostics.some((d) => d.severity === "error")
  if (!valid) return { source: text, valid, diagnostics, tree: p.tree }
  const types = p.types
  const checked: CheckedExpression = {
    source: text,
    expression: p.tree,
    scheme: p.scheme,
    fields: fieldsOf(p.tree),
    typeOf: (node) => types.get(node)
  }
  return { source: text, valid, diagnostics, tree: p.tree, checked }
}

/** The field names a tree reads, in first-use order. */
const fieldsOf = (tree: Node): ReadonlyArray<string> => {
  const out = new Set<string>()
  const walk = (n: Node) => {
    if (n.kind === "field") out.add(n.name)
    for (const c of children(n)) walk(c)
  }
  walk(tree)
  return [...out]
}
