/**
 * What `edgectl firewall ...` does (loaded on use). Rules are shown in evaluation order (src/rules'
 * `orderRules`); an invalid expression is shown with carets under the problem (stderr) before the
 * one error line; a two-step create or a quota refusal says which filter exists now and how to
 * reuse or remove it.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import type { ClientConfig } from "../../../api/client.js"
import * as fs from "node:fs"
import { DuplicateFilter, InvalidExpression, type V4Error } from "../../../domain/errors.js"
import {
  isDeletedFilter,
  type Filter,
  type FirewallAction,
  type FirewallDecision,
  type Rule
} from "../../../domain/firewall.js"
import { checkRule, priorityFromText, productsFromText, type RuleProblem } from "../../../firewall/rule-input.js"
import { orderRules } from "../../../rules/index.js"
import * as Fw from "../../../services/firewall.js"
import { resolveZone } from "../../../services/zones.js"
import { renderDiagnostics } from "../../diagnostics.js"
import { opt } from "../../options.js"
import { clip, note, printFields, printJson, printLine, printTable } from "../../output.js"
import { confirmOrRefuse } from "../../prompt.js"
import { CliFailure, positional, run, usage, type TargetFlags } from "../../run.js"
import { hintFor, shellQuote, type Context } from "./hints.js"
import type { Parsed } from "./inputs.js"

const stderrColor = () => process.stderr.isTTY === true && !process.env.NO_COLOR

/** Prints an invalid expression's diagnostics with carets, and makes its message one line. */
const explain =
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
      process.stderr.write(`${renderDiagnostics(source, errors as never, { color: stderrColor() })}\n`)
    }
    // The CLI sends one element: its position in the array says nothing.
    const lead = (e.message.split("Filter parsing error")[0] ?? "").replace(/^\[0\]\.[\w.]+: $/, "")
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

const runFw = <A>(
  what: string,
  o: TargetFlags,
  c: Context,
  effect: Effect.Effect<A, V4Error | CliFailure, HttpClient.HttpClient | ClientConfig>
) => run(what, o, Effect.mapError(effect, explain(c)), hintFor(c))

const nonEmpty = (flag: string, v: string | undefined) =>
  v !== undefined && v.trim() === "" ? Effect.fail(usage(`${flag} needs a value, got an empty string`)) : Effect.void

const parsePriority = (v: string | undefined): Effect.Effect<number | null | undefined, CliFailure> => {
  const p = priorityFromText(v)
  return p.ok ? Effect.succeed(p.value) : Effect.fail(usage(`--priority ${p.problems[0]!.message}`))
}

const parseProducts = (v: string | undefined) => (v === undefined ? undefined : productsFromText(v))

/** Refused rule options, named as flags, on one line: a usage error (nothing was sent). */
const badRule = (what: string, problems: ReadonlyArray<RuleProblem>) =>
  new CliFailure({
    text: `error: ${what}: ${problems.map((p) => `--${p.field} ${p.message}`).join("; ")}`,
    exitCode: 2
  })

const withZone = <A, E>(
  zone: string,
  f: (zoneId: string) => Effect.Effect<A, E, HttpClient.HttpClient | ClientConfig>
) => Effect.flatMap(resolveZone(zone), (z) => f(z.id))

// ---- printing ----

const filterFields = (f: Filter): Array<readonly [string, string]> => [
  ["id", f.id],
  ["paused", f.paused ? "yes" : "no"],
  ["description", f.description ?? "-"],
  ...(f.ref !== undefined ? [["ref", f.ref] as const] : []),
  ["expression", f.expression]
]

const ruleExpression = (r: Rule) =>
  isDeletedFilter(r.filter) ? `(filter ${r.filter.id} was deleted)` : r.filter.expression

const ruleFields = (r: Rule): Array<readonly [string, string]> => [
  ["id", r.id],
  ["action", r.action + (r.products ? ` (skips ${r.products.join(", ")})` : "")],
  ["priority", r.priority === null ? "none (runs after rules with a priority)" : String(r.priority)],
  ["paused", r.paused ? "yes" : "no"],
  ["description", r.description ?? "-"],
  ["filter", `${r.filter.id}${!isDeletedFilter(r.filter) && r.filter.paused ? " (paused)" : ""}`],
  ["expression", ruleExpression(r)]
]

const rulesTable = (rules: ReadonlyArray<Rule>) =>
  printTable(
    ["#", "PRIORITY", "ACTION", "PAUSED", "ID", "DESCRIPTION", "EXPRESSION"],
    orderRules(rules as ReadonlyArray<Rule & { action: FirewallAction }>).map((r, i) => [
      i + 1,
      r.priority ?? "none",
      r.action,
      r.paused ? "paused" : "",
      r.id,
      clip(r.description ?? "", 32),
      clip(ruleExpression(r), 60)
    ])
  )

// ---- filters ----

export const filtersList = (o: Parsed<"filtersList">) =>
  Effect.gen(function* () {
    const c = { zone: o.zone }
    const contains = opt(o.expression)
    const filters = yield* runFw(
      "firewall filters list",
      o,
      c,
      withZone(o.zone, (z) => Fw.allFilters(z))
    )
    const shown =
      contains === undefined
        ? filters
        : filters.filter((f) => f.expression.toLowerCase().includes(contains.toLowerCase()))
    if (o.json) return printJson(shown)
    if (shown.length === 0)
      return printLine(
        `No filters on zone ${o.zone}. Create one with: edgectl firewall filters create --zone ${o.zone} --expression '...'`
      )
    printTable(
      ["ID", "PAUSED", "DESCRIPTION", "EXPRESSION"],
      shown.map((f) => [f.id, f.paused ? "paused" : "", clip(f.description ?? "", 32), clip(f.expression, 60)])
    )
  })

export const filtersCreate = (o: Parsed<"filtersCreate">) =>
  Effect.gen(function* () {
    yield* nonEmpty("--expression", o.expression)
    const c = { zone: o.zone, expression: o.expression }
    const f = yield* runFw(
      "firewall filters create",
      o,
      c,
      withZone(o.zone, (z) =>
        Fw.createFilter(z, {
          expression: o.expression,
          description: opt(o.description),
          ref: opt(o.ref),
          paused: o.paused || undefined
        })
      )
    )
    if (o.json) return printJson(f)
    printLine(
      `Created filter ${f.id} on zone ${o.zone}. Use it: edgectl firewall rules create --zone ${o.zone} --filter-id ${f.id} --action <action>`
    )
  })

export const filtersGet = (o: Parsed<"filtersGet">) =>
  Effect.gen(function* () {
    yield* positional("<filter-id>", o.id)
    const f = yield* runFw(
      "firewall filters get",
      o,
      { zone: o.zone },
      withZone(o.zone, (z) => Fw.getFilter(z, o.id))
    )
    if (o.json) return printJson(f)
    printFields(filterFields(f))
  })

export const filtersUpdate = (o: Parsed<"filtersUpdate">) =>
  Effect.gen(function* () {
    yield* positional("<filter-id>", o.id)
    const expression = opt(o.expression)
    yield* nonEmpty("--expression", expression)
    const paused = opt(o.paused)
    if (expression === undefined && opt(o.description) === undefined && paused === undefined) {
      return yield* Effect.fail(usage("say what to change: --expression, --description or --paused true|false"))
    }
    const changes = {
      expression,
      description: opt(o.description),
      paused: paused === undefined ? undefined : paused === "true"
    }
    const f = yield* runFw(
      "firewall filters update",
      o,
      { zone: o.zone, expression },
      withZone(o.zone, (z) => Fw.updateFilter(z, o.id, changes))
    )
    if (o.json) return printJson(f)
    printLine(`Updated filter ${f.id}.`)
    printFields(filterFields(f))
  })

const usedBy = (n: number) => `${n} other rule${n === 1 ? " uses" : "s use"} it`

export const filtersDelete = (o: Parsed<"filtersDelete">) =>
  Effect.gen(function* () {
    const what = "firewall filters delete"
    yield* positional("<filter-id>", o.id)
    const done = yield* runFw(
      what,
      o,
      { zone: o.zone },
      withZone(o.zone, (z) =>
        Effect.gen(function* () {
          const f = yield* Fw.getFilter(z, o.id)
          const users = (yield* Fw.allRules(z)).filter((r) => r.filter.id === f.id)
          const yes = yield* confirmOrRefuse(
            `Delete filter ${f.id} (${clip(f.expression, 50)})?${users.length > 0 ? ` ${users.length} rule${users.length === 1 ? " uses" : "s use"} it and will point at a deleted filter.` : ""}`,
            { yes: o.yes },
            { what, doing: `deleting filter ${f.id}`, hint: "pass --yes to delete it" }
          )
          if (!yes) return false
          yield* Fw.deleteFilter(z, f.id)
          return true
        })
      )
    )
    if (!done) return note("Not deleted.")
    if (o.json) return printJson({ id: o.id })
    printLine(`Deleted filter ${o.id}.`)
  })

// ---- rules ----

export const rulesList = (o: Parsed<"rulesList">) =>
  Effect.gen(function* () {
    const action = opt(o.action)
    const rules = yield* runFw(
      "firewall rules list",
      o,
      { zone: o.zone },
      withZone(o.zone, (z) => Fw.allRules(z))
    )
    const shown = action === undefined ? rules : rules.filter((r) => r.action === action)
    if (o.json) return printJson(shown)
    if (shown.length === 0)
      return printLine(
        `No firewall rules on zone ${o.zone}. Create one with: edgectl firewall rules create --zone ${o.zone} --expression '...' --action block`
      )
    rulesTable(shown)
  })

export const rulesCreate = (o: Parsed<"rulesCreate">) =>
  Effect.gen(function* () {
    const expression = opt(o.expression)
    const filterId = opt(o.filterId)
    yield* nonEmpty("--expression", expression)
    yield* nonEmpty("--filter-id", filterId)
    if ((expression === undefined) === (filterId === undefined)) {
      return yield* Effect.fail(
        usage(
          expression === undefined
            ? "give the rule's filter: --expression E (a new filter) or --filter-id F (an existing one)"
            : "give --expression or --filter-id, not both"
        )
      )
    }
    if (o.combined && filterId !== undefined)
      return yield* Effect.fail(usage("--combined creates a new filter; it cannot be used with --filter-id"))
    // The whole rule is checked before the filter is created: a refused rule leaves nothing behind.
    const checked = checkRule({
      action: o.action,
      priority: opt(o.priority),
      description: opt(o.description),
      products: opt(o.products),
      paused: o.paused || undefined
    })
    if (!checked.ok) return yield* Effect.fail(badRule("firewall rules create", checked.problems))
    const input = checked.value
    const c = { zone: o.zone, expression, action: o.action, rule: input }
    const result = yield* runFw(
      "firewall rules create",
      o,
      c,
      withZone(o.zone, (z) =>
        filterId !== undefined
          ? Effect.map(Fw.createRuleOnFilter(z, filterId, input), (rule) => ({ rule, created: false }))
          : o.combined
            ? Effect.map(
                Fw.createRuleCombined(z, { expression: expression!, description: opt(o.description) }, input),
                (rule) => ({ rule, created: true })
              )
            : Effect.map(
                Fw.createRuleTwoStep(z, { expression: expression!, description: opt(o.description) }, input),
                (r) => ({ rule: r.rule, created: true })
              )
      )
    )
    if (o.json) return printJson(result.rule)
    const r = result.rule
    printLine(
      result.created
        ? `Created filter ${r.filter.id} and rule ${r.id} (${r.action}) on zone ${o.zone}${o.combined ? " in one call" : ""}.`
        : `Created rule ${r.id} (${r.action}) on filter ${r.filter.id} of zone ${o.zone}.`
    )
    printFields(ruleFields(r))
  })

export const rulesGet = (o: Parsed<"rulesGet">) =>
  Effect.gen(function* () {
    yield* positional("<rule-id>", o.id)
    const r = yield* runFw(
      "firewall rules get",
      o,
      { zone: o.zone },
      withZone(o.zone, (z) => Fw.getRule(z, o.id))
    )
    if (o.json) return printJson(r)
    printFields(ruleFields(r))
  })

export const rulesUpdate = (o: Parsed<"rulesUpdate">) =>
  Effect.gen(function* () {
    yield* positional("<rule-id>", o.id)
    if (o.pause && o.resume) return yield* Effect.fail(usage("give --pause or --resume, not both"))
    const priority = yield* parsePriority(opt(o.priority))
    const changes: Fw.RuleChanges = {
      action: opt(o.action),
      priority,
      description: opt(o.description),
      products: parseProducts(opt(o.products)),
      filterId: opt(o.filterId),
      paused: o.pause ? true : o.resume ? false : undefined
    }
    if (Object.values(changes).every((v) => v === undefined)) {
      return yield* Effect.fail(
        usage("say what to change: --action, --priority, --description, --products, --filter-id, --pause or --resume")
      )
    }
    const r = yield* runFw(
      "firewall rules update",
      o,
      { zone: o.zone, action: changes.action },
      withZone(o.zone, (z) => Fw.updateRule(z, o.id, changes))
    )
    if (o.json) return printJson(r)
    printLine(`Updated rule ${r.id}.`)
    printFields(ruleFields(r))
  })

export const rulesDelete = (o: Parsed<"rulesDelete">) =>
  Effect.gen(function* () {
    const what = "firewall rules delete"
    yield* positional("<rule-id>", o.id)
    const rule = yield* runFw(
      what,
      o,
      { zone: o.zone },
      withZone(o.zone, (z) =>
        Effect.gen(function* () {
          const r = yield* Fw.getRule(z, o.id)
          // Whether another rule uses the filter decides what is said about it (and what is suggested).
          const others = (yield* Fw.allRules(z)).filter((x) => x.id !== r.id && x.filter.id === r.filter.id).length
          const filterFate = o.deleteFilterIfUnused
            ? others > 0
              ? `stays (${usedBy(others)})`
              : "goes too (no other rule uses it)"
            : others > 0
              ? `stays (${usedBy(others)})`
              : "stays"
          const yes = yield* confirmOrRefuse(
            `Delete rule ${r.id} (${r.action}${r.description ? `: ${clip(r.description, 40)}` : ""})? Its filter ${r.filter.id} ${filterFate}.`,
            { yes: o.yes },
            { what, doing: `deleting rule ${r.id}`, hint: "pass --yes to delete it" }
          )
          if (!yes) return undefined
          yield* Fw.deleteRule(z, r.id, { deleteFilterIfUnused: o.deleteFilterIfUnused })
          // Whether the filter went: it exists or it does not.
          const filterDeleted =
            o.deleteFilterIfUnused && (yield* Effect.either(Fw.getFilter(z, r.filter.id)))._tag === "Left"
          return { rule: r, filterDeleted, others }
        })
      )
    )
    if (rule === undefined) return note("Not deleted.")
    const { rule: r, filterDeleted, others } = rule
    if (o.json) return printJson({ id: r.id, filter: { id: r.filter.id, deleted: filterDeleted } })
    if (filterDeleted) return printLine(`Deleted rule ${r.id} and its filter ${r.filter.id} (no other rule used it).`)
    if (isDeletedFilter(r.filter))
      return printLine(`Deleted rule ${r.id} (its filter ${r.filter.id} was already deleted).`)
    printLine(
      others > 0
        ? `Deleted rule ${r.id}. Its filter ${r.filter.id} stays: ${usedBy(others)}.`
        : `Deleted rule ${r.id}. Its filter ${r.filter.id} stays, used by no rule: reuse it with --filter-id ${r.filter.id}, or delete it with: edgectl firewall filters delete ${r.filter.id} --zone ${shellQuote(o.zone)} --yes`
    )
  })

// ---- validate ----

export const validate = (o: Parsed<"validate">) =>
  Effect.gen(function* () {
    const problem = yield* run("firewall validate", o, Fw.validateExpression(o.expression))
    if (o.json) printJson(problem === undefined ? { valid: true } : { valid: false, message: problem.message })
    else if (problem === undefined) printLine("valid")
    // The platform's own text: the expression with a caret under the problem.
    else process.stderr.write(problem.message.endsWith("\n") ? problem.message : `${problem.message}\n`)
    if (problem === undefined) return
    return yield* Effect.fail(
      new CliFailure({ text: "error: firewall validate: the expression is not valid", exitCode: 1 })
    )
  })

// ---- test ----

const readRequest = (file: string): Effect.Effect<unknown, CliFailure> =>
  Effect.try({
    try: () => JSON.parse(fs.readFileSync(file === "-" ? 0 : file, "utf8")) as unknown,
    catch: (e) =>
      new CliFailure({
        text: `error: firewall test: cannot read the request from ${file}: ${e instanceof SyntaxError ? `not valid JSON (${e.message})` : (e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(e)}\nhint: a request is a JSON object of field name to value, e.g. {"http.request.uri.path": "/admin", "ip.src": "192.0.2.1"}`,
        exitCode: 1
      })
  })

const ordinal = (n: number) =>
  `${n}${n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th")}`

const ruleLabel = (r: Rule) => `${r.id}${r.description ? ` (${r.description})` : ""}`

/** `#n`: the rule's place in evaluation order, as `rules list` numbers it (paused rules included). */
const printDecision = (zone: string, d: FirewallDecision & { rules: number }, ordered: ReadonlyArray<Rule>) => {
  const place = (r: Rule) => ordered.findIndex((x) => x.id === r.id) + 1
  printLine(
    d.rule === null
      ? `No rule decides this request to zone ${zone}: it goes through (${d.evaluated} active rule${d.evaluated === 1 ? "" : "s"} evaluated).`
      : `${d.action!.toUpperCase()}: rule ${ruleLabel(d.rule)} decides this request to zone ${zone} (#${place(d.rule)} in \`rules list\`, the ${ordinal(d.evaluated)} active rule evaluated).`
  )
  const fields: Array<readonly [string, string]> = []
  if (d.rule !== null) fields.push(["expression", ruleExpression(d.rule)])
  for (const r of d.logged) fields.push(["logged by", ruleLabel(r)])
  for (const b of d.bypassed) fields.push(["bypassed", `${b.products.join(", ")} by ${ruleLabel(b.rule)}`])
  fields.push(["rules", `${d.rules} on the zone, ${d.evaluated} evaluated`])
  printFields(fields)
  for (const i of d.invalid)
    note(
      `warning: rule ${ruleLabel(i.rule)} never runs: its expression does not check (${i.diagnostics[0]?.message ?? "invalid"})`
    )
}

export const test = (o: Parsed<"test">) =>
  Effect.gen(function* () {
    const request = yield* readRequest(o.request)
    const [d, rules] = yield* runFw(
      "firewall test",
      o,
      { zone: o.zone },
      withZone(o.zone, (z) => Effect.all([Fw.testRequest(z, request), Fw.allRules(z)]))
    )
    if (o.json) return printJson(d)
    printDecision(o.zone, d, orderRules(rules as ReadonlyArray<Rule & { action: FirewallAction }>))
  })
