/** What `edgectl firewall validate|test` do (loaded when one of them runs): an expression, a request. */
import * as Effect from "effect/Effect"
import type { FirewallAction, FirewallDecision, Rule } from "../../../domain/firewall.js"
import { readInputText } from "../../files.js"
import { orderRules } from "../../../rules/index.js"
import * as Fw from "../../../services/firewall-service.js"
import { note, printFields, printJson, printLine } from "../../output.js"
import { CliFailure, run } from "../../run.js"
import { ruleExpression, runFw, withZone } from "./common.js"
import type { Parsed } from "./options.js"
import { writeErr } from "../../stdio.js"
import { isMissing } from "../../../domain/file-errors.js"

// ---- validate ----

export const validate = (o: Parsed<"validate">) =>
  Effect.gen(function* () {
    const problem = yield* run("firewall validate", o, Fw.validateExpression(o.expression))
    if (o.json) printJson(problem === undefined ? { valid: true } : { valid: false, message: problem.message })
    else if (problem === undefined) printLine("valid")
    // The platform's own text: the expression with a caret under the problem.
    else writeErr(problem.message.endsWith("\n") ? problem.message : `${problem.message}\n`)
    if (problem === undefined) return
    return yield* Effect.fail(
      new CliFailure({ text: "error: firewall validate: the expression is not valid", exitCode: 1 })
    )
  })

// ---- test ----

const readRequest = (file: string): Effect.Effect<unknown, CliFailure> =>
  Effect.tryPromise({
    try: async () => JSON.parse(await readInputText(file)) as unknown,
    catch: (e) =>
      new CliFailure({
        text: `error: firewall test: cannot read the request from ${file}: ${e instanceof SyntaxError ? `not valid JSON (${e.message})` : isMissing(e) ? "no such file" : String(e)}\nhint: a request is a JSON object of field name to value, e.g. {"http.request.uri.path": "/admin", "ip.src": "192.0.2.1"}`,
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
