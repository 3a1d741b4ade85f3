/**
 * The platform's rules language (filter expressions such as
 * `http.request.uri.path contains "/admin" and ip.src ne 1.2.3.4`), as a pure module: no I/O, no
 * Effect runtime, plain functions. Where the platform's documentation and its open-source engine
 * (wirefilter) differ, the documented behaviour is implemented.
 *
 * - `check(source)` parses and type-checks, never throws, and reports every problem as a
 *   diagnostic with a source range (character offsets, end exclusive).
 * - `compile(checked)` turns a checked expression into a function of a request.
 * - `format(expression)` prints canonically; parsing the output gives the same tree.
 * - `firewall(rules)` orders and compiles a zone's firewall rules; `.decide(request)` says which rule
 *   decides and with what action.
 * - `FIELDS`, `FUNCTIONS`: the scheme, for completion and hover; `locate()` and `completions()` for editors.
 *
 * Values in a request (see `context.ts`): strings for String fields (`{"$base64": ...}` or a
 * `Uint8Array` for bytes), integers for Integer fields, `true`/`false`, IP addresses as strings,
 * arrays, objects for maps; absent or null is a missing value; `"$lists"` holds named lists.
 */
export type {
  Argument,
  Bare,
  BytesLiteral,
  Call,
  CidrLiteral,
  Comparison,
  Constant,
  Diagnostic,
  Expression,
  Field,
  Group,
  Index,
  IndexKey,
  IntLiteral,
  IntRange,
  Invalid,
  IpLiteral,
  IpRange,
  ListRef,
  Literal,
  Logical,
  Node,
  Not,
  Operator,
  Range,
  Rhs,
  SetItem,
  SetLiteral,
  Severity,
  StringLiteral,
  Token,
  Value
} from "./ast.js"
export { children } from "./ast.js"
export type { IpAddress } from "./ip.js"
export { formatIp, parseIp } from "./ip.js"
export type { ComparisonOperator, LogicalOperator, Type, ValueType } from "./types.js"
export { operatorsFor, supportsOperator, typeName } from "./types.js"

// Checking
export type { CheckedExpression, CheckOptions, CheckResult } from "./check.js"
/**
 * Parses and type-checks an expression. Never throws, whatever the input. Returns every
 * diagnostic (`{severity, code, message, range, hint?}`, codes are stable kebab-case ids such as
 * `unknown-field`), the tree as far as it could be read, and `checked` when there is no error.
 */
export { check, MAX_EXPRESSION_LENGTH, MAX_NESTING_DEPTH } from "./check.js"
export type { ListKind } from "./parse-state.js"

// Evaluation
export type { CompiledExpression } from "./compile.js"
export type { CompileOptions } from "./predicates.js"
/**
 * Compiles a checked expression to `(request) => boolean`: compile once, evaluate many times.
 * Any comparison on a missing value is false (`ne` too, unless `missingNotEqual`); a missing
 * Boolean is false; `[*]` over a missing value gives an empty array (`any` false, `all` true).
 */
export { compile } from "./compile.js"
export type { ListContents, Request, RequestProblem } from "./context.js"
/** A request prepared for evaluation, shared by several compiled expressions (fields are converted once). */
export { RequestContext, validateRequest } from "./context.js"
/**
 * Lets V8 switch a regular expression that backtracks too much to its linear-time engine (as the
 * platform's engine is). For long-running evaluators; call the returned function before exit.
 */
export { guardRegexBacktracking } from "./regex.js"

// Printing
export type { FormatOptions } from "./format.js"
/** Canonical printing (`format`), structural equality ignoring notation (`sameTree`), values for people (`displayValue`). */
export { displayValue, format, sameTree } from "./format.js"

// Editors
export type { Expected, TokenInfo } from "./parse-state.js"
export type { Completion, Location } from "./locate.js"
/** The node and token at an offset and what the grammar accepts there; completion candidates. */
export { completions, locate, managedList, operatorDoc } from "./locate.js"
export { paramTypeName } from "./functions.js"

// Scheme
export type { Availability, FieldInfo, Plan } from "./fields.js"
export type { FunctionContext, FunctionInfo, Param, ParamType } from "./functions.js"
export type { Scheme } from "./scheme.js"
/** Every field of the HTTP scheme: name, type, one-line meaning, plan, availability. */
export { HTTP_FIELDS as FIELDS } from "./fields-http.js"
export { NETWORK_FIELDS } from "./fields-network.js"
/** Every function: signature, meaning, argument rules and where it may be used. */
export { FUNCTION_LIST as FUNCTIONS } from "./functions.js"
export { HTTP_SCHEME, NETWORK_SCHEME } from "./scheme.js"

// Firewall rules
export type { Decision, Firewall, FirewallAction, FirewallRule } from "./firewall-eval.js"
/** Orders and compiles a zone's firewall rules; `decide(request)` returns the deciding rule and the logged/bypassed ones. */
export { ACTION_ORDER, BYPASS_PRODUCTS, firewall, orderRules } from "./firewall-eval.js"

// Custom rules (phase http_request_firewall_custom)
/** Compiles a zone's custom rules; `decide(request)` returns the rule that ended the phase, the logged and the skip rules. */
export { customPhase } from "./custom-eval.js"

import { check, type CheckOptions, type CheckResult } from "./check.js"
import { compile } from "./compile.js"
import type { CompileOptions } from "./predicates.js"
import type { Request } from "./context.js"

/** Checks, compiles and evaluates in one call; `match` is undefined when the expression has errors. */
export const evaluate = (
  source: string,
  request: Request,
  options: CheckOptions & CompileOptions = {}
): { readonly match: boolean | undefined; readonly result: CheckResult } => {
  const result = check(source, options)
  return { match: result.checked ? compile(result.checked, options)(request) : undefined, result }
}
