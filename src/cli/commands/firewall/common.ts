/**
 * What the `edgectl firewall` handlers share: running a command against its zone (an invalid
 * expression is shown with carets under the problem on stderr before the one error line; the
 * hints say which filter exists now and how to reuse or remove it), checking rule options, and
 * printing filters and rules (rules in evaluation order, src/rules' `orderRules`).
 */
import * as Either from "effect/Either"
import * as Effect from "effect/Effect"
import type { ClientEnv } from "../../../api/client.js"
import { DuplicateFilter, InvalidExpression, type V4Error } from "../../../domain/errors.js"
import { isDeletedFilter, pausedText, type Filter, type FirewallAction, type Rule } from "../../../domain/firewall.js"
import { priorityFromText, productsFromText, type RuleProblem } from "../../../firewall/rule-input.js"
import { orderRules } from "../../../rules/index.js"
import { resolveZone } from "../../../services/zones-service.js"
import { renderDiagnostics } from "../../diagnostics.js"
import { clip, printTable } from "../../output.js"
import { CliFailure, run, usage, type TargetFlags } from "../../run.js"
import { hintFor, type Context } from "./hints.js"
import { isTerminal, writeErr } from "../../stdio.js"

const stderrColor = () => isTerminal("stderr") && !process.env.NO_COLOR

/** Prints an invalid expression's diagnostics with carets, and makes its message one line. */
export const explain =
  (c: Context) =>
  <E extends V4Error | CliFailure>(e: E): E | InvalidExpression | DuplicateFilter => {
    // The CLI sends one filter: "[0].expression is the expression of filter F" says less than this.
    if (e._tag === "DuplicateFilter") {
      return new DuplicateFilter({
        code: e.code,
        existingId: e.existingId,
        message: `filter ${e.existingId} already has this expression (${e.message.split(":")[0]})`,
        ...(e.meta !== undefined ? { meta: e.meta } : {})
      })
    }
    if (e._tag !== "InvalidExpression") return e
    const source = ((e.meta as { expression?: unknown } | undefined)?.expression as string | undefined) ?? c.expression
    const errors = e.diagnostics.filter((d) => d.severity === "error")
    if (source !== undefined && errors.length > 0) {
      writeErr(`${renderDiagnostics(source, errors as never, { color: stderrColor() })}\n`)
    }
    // A refusal that is not a parse error (`matches` above the zone's plan) is one message already.
    if (!e.message.includes("Filter parsing error")) return e
    // The field path of the parse error (`[0].expression`, `rules[2].expression`) is a place in the
    // request body, not something the user typed: the expression was theirs. What comes before it
    // (another error of the same answer) stays, kept apart from this one.
    const before = (e.message.split("Filter parsing error")[0] ?? "").replace(/(?:rules)?\[\d+\]\.[\w.]+: $/, "")
    const lead = before === "" || /[;:] $/.test(before) ? before : `${before.trimEnd()}; `
    const first = errors[0]
    const why = first
      ? `${first.message} (at character ${first.range.start + 1})`
      : e.message.replace(/\s+/g, " ").trim()
    return new InvalidExpression({
      code: e.code,
      message: `${lead}invalid expression: ${why}`,
      diagnostics: e.diagnostics,
      ...(e.meta !== undefined ? { meta: e.meta } : {})
    })
  }

export const runFw = <A>(
  what: string,
  o: TargetFlags,
  c: Context,
  effect: Effect.Effect<A, V4Error | CliFailure, ClientEnv>
) => run(what, o, Effect.mapError(effect, explain(c)), hintFor(c))

export const nonEmpty = (flag: string, v: string | undefined) =>
  v !== undefined && v.trim() === "" ? Effect.fail(usage(`${flag} needs a value, got an empty string`)) : Effect.void

export const parsePriority = (v: string | undefined): Effect.Effect<number | null | undefined, CliFailure> => {
  return Either.mapLeft(priorityFromText(v), (problems) => usage(`--priority ${problems[0]!.message}`))
}

export const parseProducts = (v: string | undefined) => (v === undefined ? undefined : productsFromText(v))

/** Refused rule options, named as flags, on one line: a usage error (nothing was sent). */
export const badRule = (what: string, problems: ReadonlyArray<RuleProblem>) =>
  new CliFailure({
    text: `error: ${what}: ${problems.map((p) => `--${p.field} ${p.message}`).join("; ")}`,
    exitCode: 2
  })

export const withZone = <A, E>(zone: string, f: (zoneId: string) => Effect.Effect<A, E, ClientEnv>) =>
  Effect.flatMap(resolveZone(zone), (z) => f(z.id))

// ---- printing ----

export const filterFields = (f: Filter): Array<readonly [string, string]> => [
  ["id", f.id],
  ["paused", f.paused ? "yes" : "no"],
  ["description", f.description ?? "-"],
  ...(f.ref !== undefined ? [["ref", f.ref] as const] : []),
  ["expression", f.expression]
]

export const ruleExpression = (r: Rule) =>
  isDeletedFilter(r.filter) ? `(filter ${r.filter.id} was deleted)` : r.filter.expression

export const ruleFields = (r: Rule): Array<readonly [string, string]> => [
  ["id", r.id],
  ["action", r.action + (r.products ? ` (skips ${r.products.join(", ")})` : "")],
  ["priority", r.priority === null ? "none (runs after rules with a priority)" : String(r.priority)],
  ["paused", r.paused ? "yes" : "no"],
  ["description", r.description ?? "-"],
  ["filter", `${r.filter.id}${!isDeletedFilter(r.filter) && r.filter.paused ? " (paused)" : ""}`],
  ["expression", ruleExpression(r)]
]

export const rulesTable = (rules: ReadonlyArray<Rule>) =>
  printTable(
    ["#", "PRIORITY", "ACTION", "PAUSED", "ID", "DESCRIPTION", "EXPRESSION"],
    orderRules(rules as ReadonlyArray<Rule & { action: FirewallAction }>).map((r, i) => [
      i + 1,
      r.priority ?? "none",
      r.action,
      pausedText(r),
      r.id,
      clip(r.description ?? "", 32),
      clip(ruleExpression(r), 60)
    ])
  )
