/**
 * The syntax tree of a rules expression. Every node carries its source range: character offsets
 * (UTF-16 code units, as JavaScript strings count) into the expression, end exclusive.
 */
import type { IpAddress } from "./ip.js"
import type { ComparisonOperator, LogicalOperator } from "./types.js"

export interface Range {
  readonly start: number
  readonly end: number
}

/** A token as written, kept so that tools can point at it (operators, keywords). */
export interface Token {
  readonly text: string
  readonly range: Range
}

// ---------------------------------------------------------------------------------------------
// Conditions (Boolean, or Array<Boolean> inside function arguments)

/** `a and b and c`, `a or b`, `a xor b`: one n-ary node per run of the same operator. */
export interface Logical {
  readonly kind: "logical"
  readonly op: LogicalOperator
  readonly operands: ReadonlyArray<Expression>
  /** The operator tokens between the operands, as written (`and` or `&&`, ...). */
  readonly operators: ReadonlyArray<Token>
  readonly range: Range
}

/** `not x` or `!x`: applies to one simple expression. */
export interface Not {
  readonly kind: "not"
  readonly operand: Expression
  readonly operator: Token
  readonly range: Range
}

/** `( ... )`: kept in the tree so that ranges and formatting follow what was written. */
export interface Group {
  readonly kind: "group"
  readonly expression: Expression
  readonly range: Range
}

/** `lhs <operator> rhs`. */
export interface Comparison {
  readonly kind: "comparison"
  readonly lhs: Value
  readonly operator: Operator
  readonly rhs: Rhs
  readonly range: Range
}

export interface Operator {
  readonly name: ComparisonOperator
  /** As written: `==`, `eq`, `~`, `strict wildcard`, ... */
  readonly text: string
  readonly range: Range
}

/** A Boolean value used as a condition by itself: `ssl`, `starts_with(...)`, `any(...)`. */
export interface Bare {
  readonly kind: "bare"
  readonly value: Value
  readonly range: Range
}

/** `true` or `false` used as a whole condition (the managed rules' `true`). */
export interface Constant {
  readonly kind: "constant"
  readonly value: boolean
  readonly range: Range
}

/** Where the parser could not read anything meaningful; only in trees that have errors. */
export interface Invalid {
  readonly kind: "invalid"
  readonly range: Range
}

export type Expression = Logical | Not | Group | Comparison | Bare | Constant | Invalid

// ---------------------------------------------------------------------------------------------
// Values

export interface Field {
  readonly kind: "field"
  readonly name: string
  readonly range: Range
}

export interface Call {
  readonly kind: "call"
  readonly name: string
  readonly nameRange: Range
  readonly args: ReadonlyArray<Argument>
  readonly range: Range
}

export type IndexKey =
  | { readonly kind: "position"; readonly value: number }
  | { readonly kind: "key"; readonly value: string }
  | { readonly kind: "each" }

/** `target[0]`, `target["key"]`, `target[*]`. */
export interface Index {
  readonly kind: "index"
  readonly target: Value
  readonly key: IndexKey
  /** The bracket group, `[...]`. */
  readonly keyRange: Range
  readonly range: Range
}

export type Value = Field | Call | Index

/** What a function argument can be: a value, a literal or a condition (`any(x[*] == "a")`). */
export type Argument = Value | Literal | Expression

// ---------------------------------------------------------------------------------------------
// Literals

/**
 * A quoted (`"..."`) or raw (`r#"..."#`) string. `value` holds the decoded bytes as a binary
 * string (one char per byte). On the right of `matches`, `pattern` holds the regular expression
 * text after the regex escaping rules (only `\"` is unescaped there).
 */
export interface StringLiteral {
  readonly kind: "string"
  readonly value: string
  readonly raw: boolean
  readonly hashes: number
  readonly pattern?: string
  /** The literal as written; absent in trees built by code (the formatter then encodes `value`). */
  readonly text?: string
  readonly range: Range
}

/** A hex byte string, `6F:72:67` (separators `:`, `-` or `.`). */
export interface BytesLiteral {
  readonly kind: "bytes"
  readonly value: string
  readonly text?: string
  readonly range: Range
}

export interface IntLiteral {
  readonly kind: "int"
  readonly value: number
  readonly text?: string
  readonly range: Range
}

/** `from..to`, inclusive, inside sets. */
export interface IntRange {
  readonly kind: "int-range"
  readonly from: number
  readonly to: number
  readonly text?: string
  readonly range: Range
}

export interface IpLiteral {
  readonly kind: "ip"
  readonly value: IpAddress
  readonly text?: string
  readonly range: Range
}

/** `192.0.2.0/24`, inside sets. */
export interface CidrLiteral {
  readonly kind: "cidr"
  readonly address: IpAddress
  readonly prefix: number
  readonly text?: string
  readonly range: Range
}

/** `192.0.2.1..192.0.2.9`, inside sets. */
export interface IpRange {
  readonly kind: "ip-range"
  readonly from: IpAddress
  readonly to: IpAddress
  readonly text?: string
  readonly range: Range
}

export type SetItem = StringLiteral | BytesLiteral | IntLiteral | IntRange | IpLiteral | CidrLiteral | IpRange | Invalid

/** `{ item item ... }`: items separated by whitespace. */
export interface SetLiteral {
  readonly kind: "set"
  readonly items: ReadonlyArray<SetItem>
  readonly range: Range
}

/** `$name`: a named list (IP, hostname or ASN list). */
export interface ListRef {
  readonly kind: "list"
  readonly name: string
  readonly range: Range
}

export type Literal = StringLiteral | BytesLiteral | IntLiteral | IpLiteral

/** What may follow a comparison operator. */
export type Rhs = Literal | SetLiteral | ListRef | Invalid

/** Any node of the tree. */
export type Node = Expression | Value | Literal | SetLiteral | ListRef | SetItem

// ---------------------------------------------------------------------------------------------
// Diagnostics

export type Severity = "error" | "warning" | "information"

export interface Diagnostic {
  readonly severity: Severity
  /** A stable kebab-case id, e.g. `unknown-field`: safe to match on in tools and tests. */
  readonly code: string
  readonly message: string
  readonly range: Range
  /** What to do about it, when there is something useful to say. */
  readonly hint?: string
}

/** The direct children of a node, in source order. */
export const children = (node: Node): ReadonlyArray<Node> => {
  switch (node.kind) {
    case "logical":
      return node.operands
    case "not":
      return [node.operand]
    case "group":
      return [node.expression]
    case "comparison":
      return [node.lhs, node.rhs]
    case "bare":
      return [node.value]
    case "call":
      return node.args
    case "index":
      return [node.target]
    case "set":
      return node.items
    default:
      return []
  }
}
