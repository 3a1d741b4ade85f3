/**
 * Type rules the parser applies as it builds the tree: index access, function calls (argument
 * count, types, field-or-literal, values) and operator support, each with its diagnostic.
 */
import * as Either from "effect/Either"
import type { Argument, Diagnostic, IndexKey, Range } from "./ast.js"
import { fits, paramTypeName, type FunctionInfo, type Param } from "./functions.js"
import { diag } from "./lexer.js"
import { arrayOf, Bool, sameType, typeName, type ComparisonOperator, type Type, type ValueType } from "./types.js"

/** Why an index does not apply: the diagnostic's message and hint. */
interface IndexRefusal {
  readonly message: string
  readonly hint?: string
}

/** The type of `target[key]`, or why it has none. */
export const indexType = (target: ValueType, key: IndexKey): Either.Either<ValueType, IndexRefusal> => {
  const t = target.type
  const shown = key.kind === "each" ? "[*]" : key.kind === "position" ? `[${key.value}]` : `["…"]`
  if (key.kind === "position") {
    if (t.kind === "Array") return Either.right({ type: t.of, mapped: target.mapped })
    return Either.left({
      message: `cannot access index ${shown} of ${article(typeName(t))}`,
      ...(t.kind === "Map" ? { hint: 'a Map is indexed by a quoted key: ["name"]' } : {})
    })
  }
  if (key.kind === "key") {
    if (t.kind === "Map") return Either.right({ type: t.of, mapped: target.mapped })
    return Either.left({
      message: `cannot access a map key on ${article(typeName(t))}`,
      ...(t.kind === "Array" ? { hint: "an Array is indexed by position: [0], or every element: [*]" } : {})
    })
  }
  if (t.kind === "Array" || t.kind === "Map") return Either.right({ type: t.of, mapped: true })
  return Either.left({
    message: `cannot access index [*] of ${article(typeName(t))}: only Arrays and Maps have elements`
  })
}

/** What the parser knows about one argument of a call. */
export interface ArgInfo {
  readonly node: Argument
  readonly type: ValueType | undefined
  /** A literal argument's value: the number, or the string's text. */
  readonly literal?: number | string
  readonly isLiteral: boolean
  readonly range: Range
}

const ordinal = (i: number) => `argument ${i + 1}`

/**
 * Checks a call against the function's signature. Returns the call's type (undefined when it
 * cannot be known) and pushes diagnostics.
 */
export const checkCall = (
  fn: FunctionInfo,
  args: ReadonlyArray<ArgInfo>,
  where: { readonly name: Range; readonly close: number },
  out: Array<Diagnostic>
): ValueType | undefined => {
  const before = out.length
  if (fn.context === "rewrite") {
    out.push(
      diag(
        "error",
        "function-not-available",
        `\`${fn.name}()\` cannot be used in a filter expression`,
        where.name,
        `it is only available in ${fn.where ?? "rewrite expressions"}`
      )
    )
  }
  const required = fn.params.filter((p) => !p.optional).length
  const max = fn.variadic ? Infinity : fn.params.length
  const counted = fn.variadic
    ? `at least ${required}`
    : required === fn.params.length
      ? `${required}`
      : `${required} to ${fn.params.length}`
  if (args.length < required) {
    out.push(
      diag(
        "error",
        "wrong-argument-count",
        `\`${fn.name}\` takes ${counted} argument${required === 1 && !fn.variadic ? "" : "s"}, got ${args.length}`,
        { start: where.close, end: where.close },
        fn.signature
      )
    )
  } else if (args.length > max) {
    out.push(
      diag(
        "error",
        "wrong-argument-count",
        `\`${fn.name}\` takes ${counted} argument${max === 1 ? "" : "s"}, got ${args.length}`,
        { start: args[max]!.range.start, end: args[args.length - 1]!.range.end },
        fn.signature
      )
    )
  }
  let family: Type | undefined
  args.forEach((a, i) => {
    const p: Param | undefined = fn.params[Math.min(i, fn.params.length - 1)]
    if (p === undefined || (i >= fn.params.length && !fn.variadic)) return
    if (p.kind === "field" && a.isLiteral) {
      out.push(
        diag(
          "error",
          "literal-not-allowed",
          `${ordinal(i)} of \`${fn.name}\` (${p.name}) must be a field or a function call, not a literal`,
          a.range,
          `a literal value is known in advance: \`${fn.name}\` needs request data here`
        )
      )
    }
    if (p.kind === "literal" && !a.isLiteral) {
      out.push(
        diag(
          "error",
          "literal-required",
          `${ordinal(i)} of \`${fn.name}\` (${p.name}) must be a literal value`,
          a.range
        )
      )
    }
    if (a.type === undefined) return
    if (a.type.mapped && i > 0) {
      out.push(
        diag(
          "error",
          "map-each-misplaced",
          `[*] can only be used in the first argument of a function`,
          a.range,
          `move the [*] argument first, or index a single element: [0]`
        )
      )
      return
    }
    // A quantifier takes `x[*]` (a mapped Boolean) as the array it is.
    const t = a.type.mapped && fn.quantifier ? arrayOf(a.type.type) : a.type.type
    if (!fits(p.type, t)) {
      out.push(
        diag(
          "error",
          "type-mismatch",
          `${ordinal(i)} of \`${fn.name}\` (${p.name}) must be ${article(paramTypeName(p.type))}, got ${article(typeName(t))}`,
          a.range,
          hintFor(fn, p, t)
        )
      )
      return
    }
    if (fn.name === "concat") {
      if (family === undefined) family = t
      else if (!sameType(family, t)) {
        out.push(
          diag(
            "error",
            "type-mismatch",
            `the arguments of \`concat\` must all be Strings or all Arrays of one type: got ${article(typeName(family))} and ${article(typeName(t))}`,
            a.range
          )
        )
      }
    }
    if (p.literal && a.literal !== undefined) {
      const problem = p.literal(a.literal)
      if (problem !== undefined)
        out.push(diag("error", "invalid-argument", `${ordinal(i)} of \`${fn.name}\` (${p.name}) ${problem}`, a.range))
    }
  })
  if (
    out.length > before &&
    out.slice(before).some((d) => d.severity === "error" && d.code !== "function-not-available")
  )
    return undefined
  const first = args[0]?.type
  if (fn.quantifier) return { type: Bool, mapped: false }
  const ret = fn.returns(first?.type)
  if (ret === undefined) return undefined
  return first?.mapped ? { type: arrayOf(ret), mapped: false } : { type: ret, mapped: false }
}

const article = (s: string) => (/^[AEIOU]/.test(s) && !s.startsWith("U") ? `an ${s}` : `a ${s}`)

const hintFor = (fn: FunctionInfo, p: Param, got: Type): string | undefined => {
  if (p.type === "Array<Bool>" && got.kind === "Bool")
    return `${fn.name}() takes one Boolean per element: ${fn.name}(field[*] == "value")`
  if (p.type === "Array<Bool>" && got.kind === "Array") return `compare the elements: ${fn.name}(…[*] == "value")`
  if (got.kind === "Array" && p.type === "Bytes")
    return `call it on every element with [*]: ${fn.name}(field[*]), or on one: field[0]`
  if (got.kind === "Map") return `pick a value by key: field["name"][0]`
  return fn.signature
}

/** Why an operator does not apply to a type, for the diagnostic. */
export const operatorProblem = (
  t: Type,
  op: ComparisonOperator,
  text: string,
  lhs = "field"
): { message: string; hint?: string } => {
  const shown = `\`${text}\``
  switch (t.kind) {
    case "Ip":
      if (["lt", "le", "gt", "ge"].includes(op))
        return {
          message: `${shown} is not supported for IP addresses: they take eq, ne and in`,
          hint: "for an address range, use in {192.0.2.1..192.0.2.99} or a CIDR block in {192.0.2.0/24}"
        }
      return { message: `cannot perform ${shown} on an IP address: IP addresses take eq, ne and in` }
    case "Int":
      return {
        message: `cannot perform ${shown} on an Integer: Integers take eq ne lt le gt ge, in and bitwise_and`,
        ...(op === "contains" || op === "matches"
          ? { hint: "to match its digits, convert nothing: compare numbers, e.g. in {80 443}" }
          : {})
      }
    case "Bytes":
      return { message: `cannot perform ${shown} on a String` }
    case "Array":
      return {
        message: `cannot perform ${shown} on an ${typeName(t)}: compare its elements`,
        hint: `any(${lhs}[*] ${text} …) tests every element; ${lhs}[0] ${text} … tests the first`
      }
    case "Map":
      return {
        message: `cannot perform ${shown} on ${article(typeName(t))}: pick a value by key`,
        hint: `e.g. any(${lhs}["name"][*] ${text} …) or ${lhs}["name"][0] ${text} …`
      }
    case "Bool":
      return { message: `a Boolean takes no operator` }
  }
}
