/**
 * How the Firewall tab names and lays out rules: a rule is `#n` (its place in evaluation order,
 * the table's first column) and its description, never its 32-hex id; the table fits the pane,
 * and below ~90 columns it drops the priority and paused columns (the pause, the rule's or its
 * filter's, leads the description; the line under the table and the detail view show the rest) so that the expression keeps a column of its own.
 */
import * as Either from "effect/Either"
import {
  isDeletedFilter,
  pausedText,
  type FirewallAction,
  type FirewallDecision,
  type Rule
} from "../../src/domain/firewall.js"
import { priorityFromText } from "../../src/firewall/rule-input.js"
import { check, orderRules, type Plan } from "../../src/rules/index.js"
import { cells } from "../components/columns.js"

/** The checker's first error for what is typed so far (shown live under the field), or undefined. */
export const liveDiagnostic = (text: string, plan?: Plan): string | undefined => {
  if (text.trim() === "") return 'type a filter expression, e.g. http.request.uri.path contains "/admin"'
  const e = check(text, plan !== undefined ? { plan } : {}).diagnostics.find((d) => d.severity === "error")
  if (e === undefined) return undefined
  return `error[${e.code}] at ${e.range.start + 1}: ${e.message}${e.hint !== undefined ? ` · ${e.hint}` : ""}`
}

/** The rule's place in evaluation order (1-based), as the table's `#` column shows it. */
export const ruleNumber = (rules: ReadonlyArray<Rule>, r: Rule): number => rules.findIndex((x) => x.id === r.id) + 1

/** `#3 block bad bots`; a rule without a description is named by its action. */
export const ruleName = (rules: ReadonlyArray<Rule>, r: Rule): string => {
  const n = ruleNumber(rules, r)
  return `${n > 0 ? `#${n}` : "new rule"} ${r.description !== undefined && r.description !== "" ? r.description : `(${r.action}, no description)`}`
}

/** The expression on one line (a filter may span several). */
export const expressionOf = (r: Rule): string =>
  isDeletedFilter(r.filter) ? `(filter ${r.filter.id} was deleted)` : r.filter.expression.replace(/\s+/g, " ").trim()

/** The other rules of the zone that use `filterId`. */
export const otherUsers = (rules: ReadonlyArray<Rule>, filterId: string, except?: string): ReadonlyArray<Rule> =>
  rules.filter((r) => r.filter.id === filterId && r.id !== except)

export const numbers = (rules: ReadonlyArray<Rule>, of: ReadonlyArray<Rule>) =>
  of.map((r) => `#${ruleNumber(rules, r)}`).join(", ")

export const priorityText = (r: Rule) => (r.priority === null ? "none" : String(r.priority))

/** The rules in evaluation order (priority, then action), the order the table numbers them in. */
export const inEvaluationOrder = (rules: ReadonlyArray<Rule>): ReadonlyArray<Rule> =>
  orderRules(rules as ReadonlyArray<Rule & { action: FirewallAction }>)

/** What is wrong with a priority as typed (empty is none), as a prompt shows it. */
export const priorityProblem = (text: string): string | undefined => {
  const p = priorityFromText(text)
  return Either.isRight(p) ? undefined : `priority ${p.left[0]!.message}`
}

/** A description prompt's counter (the platform takes 500 characters). */
export const descriptionCounter = (text: string): string => `${text.length}/500`

/** Panes at least this wide show every column. */
const WideColumns = 90

export interface Table {
  readonly header: string
  readonly row: (r: Rule, n: number) => string
}

/** The table for a pane `columns` wide (the list's cursor mark takes 2 of them). */
export const ruleTable = (columns: number): Table => {
  const room = columns - 2
  if (columns >= WideColumns) {
    const fixed: Array<readonly [string, number]> = [
      ["#", 3],
      ["PRIORITY", 8],
      ["ACTION", 17],
      ["PAUSED", 13],
      ["DESCRIPTION", 24]
    ]
    const expr = Math.max(16, room - fixed.reduce((a, [, w]) => a + w + 2, 0))
    return {
      header: cells([...fixed, ["EXPRESSION", expr]]),
      row: (r, n) =>
        cells([
          [String(n), 3],
          [priorityText(r), 8],
          [r.action, 17],
          [pausedText(r), 13],
          [r.description ?? "", 24],
          [expressionOf(r), expr]
        ])
    }
  }
  // The expression gets most of what is left: it is what a rule does (the detail line and the
  // detail view show the rest).
  const description = Math.max("DESCRIPTION".length, Math.min(24, Math.floor((room - 24) * 0.3)))
  const expr = Math.max(12, room - (3 + 2) - (17 + 2) - (description + 2))
  return {
    header: cells([
      ["#", 3],
      ["ACTION", 17],
      ["DESCRIPTION", description],
      ["EXPRESSION", expr]
    ]),
    row: (r, n) =>
      cells([
        [String(n), 3],
        [r.action, 17],
        [`${pausedText(r) !== "" ? `${pausedText(r)} · ` : ""}${r.description ?? ""}`, description],
        [expressionOf(r), expr]
      ])
  }
}

/** The line under the table: everything about the selected rule but its ids. */
export const ruleSummary = (rules: ReadonlyArray<Rule>, r: Rule): string =>
  [
    ruleName(rules, r),
    `${r.action}${r.products ? ` (skips ${r.products.join(", ")})` : ""}`,
    `priority ${priorityText(r)}`,
    ...(pausedText(r) !== "" ? [pausedText(r)] : [])
  ].join(" · ") + `: ${expressionOf(r)}`

/** A test's answer, naming rules as the table does. */
export const decisionText = (rules: ReadonlyArray<Rule>, d: FirewallDecision): string => {
  const name = (r: Rule) => ruleName(rules, r)
  const logged = d.logged.length > 0 ? `; logged by ${d.logged.map(name).join(", ")}` : ""
  const bypassed =
    d.bypassed.length > 0
      ? `; ${d.bypassed.map((b) => `${name(b.rule)} bypassed ${b.products.join(", ")}`).join(", ")}`
      : ""
  return d.rule === null
    ? `no rule decides: the request goes through (${d.evaluated} evaluated${logged}${bypassed})`
    : `${d.action!.toUpperCase()} by ${name(d.rule)}${logged}${bypassed}`
}
