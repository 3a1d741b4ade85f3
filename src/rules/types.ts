/**
 * The value types of the rules language. `Bytes` is what the platform's documentation calls
 * String (byte strings, not necessarily UTF-8); `Int` is a 64-bit integer (documentation: Integer
 * or Number); `Ip` holds IPv4 and IPv6 addresses alike.
 */
export type Type =
  | { readonly kind: "Bool" }
  | { readonly kind: "Int" }
  | { readonly kind: "Bytes" }
  | { readonly kind: "Ip" }
  | { readonly kind: "Array"; readonly of: Type }
  | { readonly kind: "Map"; readonly of: Type }

export const Bool: Type = { kind: "Bool" }
export const Int: Type = { kind: "Int" }
export const Bytes: Type = { kind: "Bytes" }
export const Ip: Type = { kind: "Ip" }
export const arrayOf = (of: Type): Type => ({ kind: "Array", of })
const mapOf = (of: Type): Type => ({ kind: "Map", of })

export const sameType = (a: Type, b: Type): boolean =>
  a.kind === b.kind && (a.kind === "Array" || a.kind === "Map" ? sameType(a.of, (b as { of: Type }).of) : true)

/** The name used in messages and hovers, in the platform documentation's words. */
export const typeName = (t: Type): string => {
  switch (t.kind) {
    case "Bool":
      return "Boolean"
    case "Int":
      return "Integer"
    case "Bytes":
      return "String"
    case "Ip":
      return "IP address"
    case "Array":
      return `Array<${typeName(t.of)}>`
    case "Map":
      return `Map<${typeName(t.of)}>`
  }
}

/** Parses the documentation's type notation (`Map<Array<String>>`, `IP address`, `Number`, ...). */
export const parseTypeName = (text: string): Type => {
  const s = text.trim()
  const generic = /^(Array|Map)<(.+)>$/.exec(s)
  if (generic) return generic[1] === "Array" ? arrayOf(parseTypeName(generic[2]!)) : mapOf(parseTypeName(generic[2]!))
  switch (s) {
    case "Boolean":
      return Bool
    case "Integer":
    case "Number":
      return Int
    case "String":
    case "Bytes":
      return Bytes
    case "IP address":
      return Ip
  }
  throw new Error(`unknown type name ${JSON.stringify(text)}`)
}

/**
 * A value expression's type, plus whether it is "mapped": it went through `[*]`, so a comparison
 * on it yields one Boolean per element (an `Array<Boolean>`) and a function called on it runs
 * once per element.
 */
export interface ValueType {
  readonly type: Type
  readonly mapped: boolean
}

/** The comparison operators, by their canonical (English) names. */
export type ComparisonOperator =
  | "eq"
  | "ne"
  | "lt"
  | "le"
  | "gt"
  | "ge"
  | "contains"
  | "matches"
  | "wildcard"
  | "strict wildcard"
  | "in"
  | "bitwise_and"

export type LogicalOperator = "and" | "or" | "xor"

const ORDERING: ReadonlySet<ComparisonOperator> = new Set(["eq", "ne", "lt", "le", "gt", "ge"])

/**
 * Which operators a left-hand type supports (the reference's operator matrix, with the documented
 * behaviour where the engine differs: IP addresses take only `eq`, `ne` and `in`).
 */
export const supportsOperator = (t: Type, op: ComparisonOperator): boolean => {
  switch (t.kind) {
    case "Int":
      return ORDERING.has(op) || op === "in" || op === "bitwise_and"
    case "Bytes":
      return (
        ORDERING.has(op) ||
        op === "contains" ||
        op === "matches" ||
        op === "wildcard" ||
        op === "strict wildcard" ||
        op === "in"
      )
    case "Ip":
      return op === "eq" || op === "ne" || op === "in"
    default:
      return false
  }
}

/** The operators a type supports, for messages and completion. */
export const operatorsFor = (t: Type): ReadonlyArray<ComparisonOperator> =>
  (
    [
      "eq",
      "ne",
      "lt",
      "le",
      "gt",
      "ge",
      "contains",
      "matches",
      "wildcard",
      "strict wildcard",
      "in",
      "bitwise_and"
    ] as const
  ).filter((op) => supportsOperator(t, op))
