/**
 * Rust-syntax regular expressions as JavaScript RegExps, with the platform's semantics: matching
 * on bytes with Unicode mode off unless the pattern turns it on with `(?u)`, `.` not matching
 * `\n`, unanchored. In byte mode the subject is a binary string (one char per byte) and the
 * RegExp has no `u` flag, so `.` and classes see bytes, as the platform's engine does. In Unicode
 * mode the subject is decoded from UTF-8 and the RegExp uses the `v` flag.
 */
import * as Either from "effect/Either"
import { regexSource } from "./regex-emit.js"
import { resolveProperty } from "./regex-props.js"
import { parseRegex, type ClassNode, type ParsedRegex, type RegexError, type RegexNode } from "./regex-parse.js"

export type { RegexError }

export interface CompiledRegex {
  readonly regexp: RegExp
  /** Whether the subject must be decoded from UTF-8 before matching. */
  readonly unicode: boolean
}

/** The platform engine's compiled size limit (10 MiB), estimated as NFA states of ~16 bytes. */
const REGEX_SIZE_LIMIT_BYTES = 10 * 1024 * 1024
const STATE_BYTES = 16

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

const cache = new Map<string, Either.Either<CompiledRegex, RegexError>>()

/** Checks a pattern with the Rust crate's rules and compiles it to a RegExp (cached by pattern). */
export const compileRegex = (pattern: string): Either.Either<CompiledRegex, RegexError> => {
  const hit = cache.get(pattern)
  if (hit) return hit
  const result = compileUncached(pattern)
  if (cache.size > 5000) cache.clear()
  cache.set(pattern, result)
  return result
}

const compileUncached = (pattern: string): Either.Either<CompiledRegex, RegexError> => {
  const parsed = parseRegex(pattern)
  if (Either.isLeft(parsed)) return Either.left(parsed.left)
  const p: ParsedRegex = parsed.right
  const unknown = findUnknownProperty(p.node)
  if (unknown !== undefined) {
    const at = Math.max(0, pattern.indexOf(unknown))
    return Either.left({ message: `Unicode property not found: ${unknown}`, start: at, end: at + unknown.length })
  }
  const states = weight(p.node, p.unicode)
  if (states * STATE_BYTES > REGEX_SIZE_LIMIT_BYTES) {
    return Either.left({
      message: `compiled regex exceeds size limit of ${REGEX_SIZE_LIMIT_BYTES} bytes`,
      start: 0,
      end: pattern.length,
      hint: "use smaller repetition counts or fewer Unicode classes"
    })
  }
  const useI = p.unicode && p.foldAll
  const src = regexSource(p.node, { unicode: p.unicode, partialFold: p.unicode && !useI })
  const flags = p.unicode ? (useI ? "vi" : "v") : ""
  try {
    return Either.right({ regexp: new RegExp(src, flags), unicode: p.unicode })
  } catch (e) {
    return Either.left({
      message: `cannot compile this pattern: ${(e as Error).message}`,
      start: 0,
      end: pattern.length
    })
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
