/**
 * Signature help: inside a function call's parentheses, the function's parameters (names and
 * types from the language's catalog, `FUNCTIONS`) with the one under the cursor active. The call
 * is found by a scan of the text before the cursor (strings skipped), so it works on an unfinished
 * expression, whatever follows the cursor.
 */
import { FUNCTIONS, paramTypeName, type FunctionInfo } from "../rules/index.js"
import type { Analysis } from "./findings.js"
import { toDecoded } from "./json-string.js"

export interface SignatureResult {
  readonly label: string
  readonly documentation: string
  /** Each parameter's `[start, end)` in `label`. */
  readonly parameters: ReadonlyArray<{ readonly label: readonly [number, number]; readonly documentation: string }>
  readonly active: number
}

const BY_NAME: ReadonlyMap<string, FunctionInfo> = new Map(FUNCTIONS.map((f) => [f.name, f]))

/** The innermost open call before `at` and the number of its arguments already ended by a comma. */
const openCall = (src: string, at: number): { readonly name: string; readonly commas: number } | undefined => {
  const stack: Array<{ name: string; commas: number } | undefined> = []
  let i = 0
  while (i < at) {
    const c = src[i]!
    if (c === '"') {
      i++
      while (i < at && src[i] !== '"') i += src[i] === "\\" ? 2 : 1
      i++
      continue
    }
    if (
      c === "r" &&
      (src[i + 1] === '"' || src[i + 1] === "#") &&
      /^r#*"/.test(src.slice(i, i + 258)) &&
      (i === 0 || !/[A-Za-z0-9_.]/.test(src[i - 1]!))
    ) {
      const hashes = /^r(#*)"/.exec(src.slice(i, i + 258))![1]!
      const close = src.indexOf(`"${hashes}`, i + hashes.length + 2)
      i = close < 0 ? at : close + hashes.length + 1
      continue
    }
    if (c === "(") {
      const before = /([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(src.slice(Math.max(0, i - 64), i))
      stack.push(before !== null && BY_NAME.has(before[1]!) ? { name: before[1]!, commas: 0 } : undefined)
    } else if (c === ")") stack.pop()
    else if (c === "," && stack.length > 0) {
      const top = stack[stack.length - 1]
      if (top !== undefined) top.commas++
    }
    i++
  }
  for (let k = stack.length - 1; k >= 0; k--) {
    const frame = stack[k]
    // A group `( … )` (or `not (`) inside a call's argument is not the call: look further out.
    if (frame !== undefined) return frame
  }
  return undefined
}

const signatureOf = (fn: FunctionInfo, commas: number): SignatureResult => {
  const returns = fn.signature.includes("->")
    ? fn.signature.slice(fn.signature.lastIndexOf("->") + 2).trim()
    : undefined
  let label = `${fn.name}(`
  const parameters: Array<{ label: readonly [number, number]; documentation: string }> = []
  fn.params.forEach((p, k) => {
    if (k > 0) label += ", "
    const text = `${p.name}${p.optional ? "?" : ""}: ${paramTypeName(p.type)}`
    parameters.push({
      label: [label.length, label.length + text.length],
      documentation:
        p.kind === "literal"
          ? "a literal value"
          : p.kind === "field"
            ? "a field, a function call or an index (not a literal)"
            : ""
    })
    label += text
  })
  if (fn.variadic) label += ", …"
  label += `)${returns ? ` -> ${returns}` : ""}`
  const last = Math.max(0, fn.params.length - 1)
  return { label, documentation: fn.summary, parameters, active: fn.variadic ? Math.min(commas, last) : commas }
}

/** The signature of the call around `offset` in the document's expression there, if any. */
export const signatureHelp = (analysis: Analysis, offset: number): SignatureResult | undefined => {
  const region = analysis.expressions.find((r) => r.offsets[0]! <= offset && offset <= r.offsets[r.offsets.length - 1]!)
  if (region === undefined) return undefined
  const call = openCall(region.text, toDecoded(region.offsets, offset))
  const fn = call && BY_NAME.get(call.name)
  return fn === undefined ? undefined : signatureOf(fn, call!.commas)
}
