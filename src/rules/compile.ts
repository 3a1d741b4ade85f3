/**
 * `compile()`: a checked expression as a tree of closures, built once and evaluated many times.
 * The closures are built in `compile-closures.ts`; this file gives the result its public face
 * (the callable, its source, fields and scheme, the shared context, the rule index's keys).
 */
import type { CheckedExpression } from "./check.js"
import { Compiler } from "./compile-closures.js"
import { compileList, RequestContext, type Request } from "./context.js"
import type { CompileOptions } from "./predicates.js"
import { requiredKeys, type RuleKeys } from "./rule-index.js"
import type { Scheme } from "./scheme.js"

/** A compiled expression: call it with a request (or a shared `RequestContext`). */
export interface CompiledExpression {
  (request: Request | RequestContext): boolean
  readonly source: string
  /** The fields the expression reads. */
  readonly fields: ReadonlyArray<string>
  readonly scheme: Scheme
  /** A context for `request` that several compiled expressions can share (each field converted once). */
  context(request: Request): RequestContext
}

/** The compiled closure itself, for callers that already hold a context of the same scheme (the firewall). */
export const EVALUATE: unique symbol = Symbol("edgectl.rules.evaluate")

/** What the expression requires of a request to be true (`RuleKeys` of rule-index.ts), worked out on first use. */
export const REQUIRES: unique symbol = Symbol("edgectl.rules.requires")

/**
 * Compiles a checked expression (from `check()`) to a function of a request. Compile once,
 * evaluate many times; to evaluate several expressions against one request, pass them one shared
 * `RequestContext` so that each field is converted once.
 */
export const compile = (checked: CheckedExpression, options: CompileOptions = {}): CompiledExpression => {
  const c = new Compiler(checked, options).cond(checked.expression)
  if (c.arr) throw new Error("compile: the expression is an Array<Boolean>; check() rejects that")
  const ev = c.ev
  const scheme = checked.scheme
  const lists =
    options.listItems === undefined
      ? undefined
      : new Map(
          Object.entries(options.listItems).flatMap(([k, v]) => {
            const l = compileList(v)
            return l === undefined ? [] : [[k, l] as const]
          })
        )
  const context = (request: Request) => new RequestContext(request, scheme, lists)
  const fn = ((request: Request | RequestContext) =>
    ev(
      request instanceof RequestContext
        ? request.scheme === scheme
          ? request
          : context(request.request)
        : context(request)
    )) as CompiledExpression
  let keys: RuleKeys | null = null
  Object.defineProperties(fn, {
    [EVALUATE]: { value: ev },
    // Only evaluators of long rule lists index them, so the tree walk waits until one asks.
    [REQUIRES]: { get: () => (keys === null ? (keys = requiredKeys(checked)) : keys) },
    source: { value: checked.source, enumerable: true },
    fields: { value: checked.fields, enumerable: true },
    scheme: { value: scheme, enumerable: true },
    context: { value: context, enumerable: true }
  })
  return fn
}
