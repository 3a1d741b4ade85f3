/**
 * Diagnostics of an expression as a compiler prints them: severity and code, message, the
 * line with a caret line under the span, and the hint.
 *
 *   error[unknown-field]: unknown field `http.hots`
 *    --> 1:1
 *     |
 *   1 | http.hots eq "example.com"
 *     | ^^^^^^^^^
 *     = hint: did you mean `http.host`?
 */
import type { Diagnostic } from "../rules/index.js"

const WINDOW = 100

export interface RenderOptions {
  readonly color: boolean
  /** Shown instead of line:column when the expression came from a file. */
  readonly origin?: string
}

const paint = (on: boolean, code: string, s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s)
const SEVERITY_COLOR = { error: "31;1", warning: "33;1", information: "36;1" } as const

export const renderDiagnostics = (
  source: string,
  diagnostics: ReadonlyArray<Diagnostic>,
  opts: RenderOptions
): string => diagnostics.map((d) => renderOne(source, d, opts)).join("\n")

const renderOne = (source: string, d: Diagnostic, opts: RenderOptions): string => {
  const { line, column, lineStart } = position(source, d.range.start)
  const lineEnd = source.indexOf("\n", lineStart) < 0 ? source.length : source.indexOf("\n", lineStart)
  const text = source.slice(lineStart, lineEnd).replace(/\r$/, "")
  const startCol = d.range.start - lineStart
  const endCol = Math.min(Math.max(d.range.end, d.range.start) - lineStart, text.length)
  // Long lines (4,000-character expressions) are shown around the span.
  let from = 0
  let to = text.length
  if (text.length > WINDOW) {
    from = Math.max(0, Math.min(startCol - 30, text.length - WINDOW))
    to = Math.min(text.length, Math.max(from + WINDOW, Math.min(endCol, from + 2 * WINDOW)))
  }
  const lead = from > 0 ? 1 : 0
  const shown = `${lead ? "…" : ""}${text.slice(from, to).replace(/\t/g, " ")}${to < text.length ? "…" : ""}`
  const width = Math.max(1, Math.min(endCol, to) - startCol)
  const caret = " ".repeat(startCol - from + lead) + "^".repeat(width)
  const num = String(line)
  const gutter = " ".repeat(num.length)
  const sev = paint(opts.color, SEVERITY_COLOR[d.severity], `${d.severity}[${d.code}]`)
  const out = [
    `${sev}: ${d.message}`,
    `${gutter}--> ${opts.origin ? `${opts.origin}:` : ""}${line}:${column}`,
    `${gutter} |`,
    `${num} | ${shown}`,
    `${gutter} | ${paint(opts.color, SEVERITY_COLOR[d.severity], caret)}`
  ]
  if (d.hint) out.push(`${gutter} = hint: ${d.hint}`)
  return out.join("\n")
}

/** 1-based line and column (in characters) of an offset. */
const position = (source: string, offset: number) => {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: offset - lineStart + 1, lineStart }
}

export const summary = (diagnostics: ReadonlyArray<Diagnostic>): string => {
  const count = (s: Diagnostic["severity"]) => diagnostics.filter((d) => d.severity === s).length
  const parts = [
    [count("error"), "error"],
    [count("warning"), "warning"],
    [count("information"), "note"]
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, w]) => `${n} ${w}${n === 1 ? "" : "s"}`)
  return parts.join(", ")
}

/** The JSON form of a diagnostic (`hint` only when there is one). */
export const diagnosticJson = (d: Diagnostic) => ({
  severity: d.severity,
  code: d.code,
  message: d.message,
  range: { start: d.range.start, end: d.range.end },
  ...(d.hint ? { hint: d.hint } : {})
})
