/**
 * Checks a filter expression with the rules language (src/rules) for the zone's plan. Only errors
 * refuse an expression; warnings (a field above the zone's plan) do not, as on the platform.
 */
import type { ExpressionDiagnostic } from "../domain/expression.js"
import { InvalidExpression } from "../domain/errors.js"
import { check, type Diagnostic, type Plan } from "../rules/index.js"

const Plans: ReadonlyArray<string> = ["free", "pro", "business", "enterprise"]

export const planOf = (plan: string): Plan | undefined => (Plans.includes(plan) ? (plan as Plan) : undefined)

/**
 * The plan-gated operator the rulesets API refuses (10110) below the plans that have it: `matches`
 * (regex) below Business. Other `plan-required` diagnostics (a field or function above the plan) are
 * warnings the platform accepts. The server's check and the migration's plan both ask here.
 */
export const planGatedOperator = <D extends Pick<Diagnostic, "code" | "message">>(diagnostics: ReadonlyArray<D>) =>
  diagnostics.find((d) => d.code === "plan-required" && d.message.startsWith("`matches`"))

export const planGatedMessage = (plan: string) =>
  `\`matches\` (regex) needs the Business or Enterprise plan, this zone is on ${plan}`

export const toWireDiagnostic = (d: Diagnostic): ExpressionDiagnostic => ({
  severity: d.severity,
  code: d.code,
  message: d.message,
  range: { start: d.range.start, end: d.range.end },
  ...(d.hint !== undefined ? { hint: d.hint } : {})
})

/** The platform's text: "Filter parsing error:", the line in backquotes, carets under the span. */
export const parsingMessage = (expression: string, d: Pick<Diagnostic, "message" | "range">) => {
  const lineStart = expression.lastIndexOf("\n", Math.max(0, d.range.start - 1)) + 1
  const nl = expression.indexOf("\n", lineStart)
  const line = expression.slice(lineStart, nl < 0 ? expression.length : nl)
  const col = Math.min(d.range.start - lineStart, line.length)
  const width = Math.max(1, Math.min(d.range.end, lineStart + line.length) - d.range.start)
  return `Filter parsing error:\n\`${line}\`\n${" ".repeat(col + 1)}${"^".repeat(width)} ${d.message}\n`
}

/**
 * The error for an expression that does not check, or undefined when it is valid. `where` names the
 * element (`[2].filter.expression`) when the body held several.
 */
export const expressionError = (
  expression: string,
  plan: string,
  where?: { index: number; field: string }
): InvalidExpression | undefined => {
  const p = planOf(plan)
  const result = check(expression, p !== undefined ? { plan: p } : {})
  if (result.valid) return undefined
  const errors = result.diagnostics.filter((d) => d.severity === "error")
  const first = errors[0] ?? result.diagnostics[0]!
  return new InvalidExpression({
    message: (where ? `[${where.index}].${where.field}: ` : "") + parsingMessage(expression, first),
    diagnostics: result.diagnostics.map(toWireDiagnostic),
    meta: { expression, ...(where ? { index: where.index, field: where.field } : {}) }
  })
}
