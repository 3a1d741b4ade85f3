/**
 * `edgectl rules check|eval|format`: the rules language on the command line. Pure commands: they
 * never open the local platform's store.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { CheckOptions, CheckResult } from "../../rules/index.js"
import { readInputText } from "../files.js"
import { diagnosticJson, renderDiagnostics, summary } from "../diagnostics.js"
import { choiceOption, integerOption, json } from "../options.js"
import { printJson, printLine } from "../output.js"
import { CliFailure, usage } from "../run.js"
import { isTerminal, writeErr, writeOut } from "../stdio.js"
import { readProblem } from "../../domain/file-errors.js"

const expressionArg = Args.text({ name: "expression" }).pipe(
  Args.withDescription("the expression, e.g. 'http.request.uri.path contains \"/admin\"'"),
  Args.optional
)
const file = Options.text("file").pipe(
  Options.withPseudoName("FILE"),
  Options.withDescription("read the expression from this file (- for stdin)"),
  Options.optional
)
const scheme = choiceOption("scheme", ["http", "network"]).pipe(
  Options.withDescription("http (firewall, custom and WAF rules; the default) or network (Magic Firewall)"),
  Options.withDefault("http" as const)
)
const plan = choiceOption("plan", ["free", "pro", "business", "enterprise"]).pipe(
  Options.withDescription("warn about fields, functions and operators the zone's plan does not have"),
  Options.optional
)

/** The rules language, loaded when a rules command runs: other commands do not pay for its tables. */
const Rules = Effect.promise(() => import("../../rules/index.js"))

const fail = (what: string, why: string, hint?: string) =>
  Effect.fail(new CliFailure({ text: `error: ${what}: ${why}${hint ? `\nhint: ${hint}` : ""}`, exitCode: 1 }))

/** The expression from the argument or from --file, exactly one of them. */
const readExpression = (what: string, arg: Option.Option<string>, path: Option.Option<string>) =>
  Effect.gen(function* () {
    if (Option.isSome(arg) && Option.isSome(path))
      return yield* Effect.fail(usage(`${what}: give the expression or --file, not both`))
    if (Option.isSome(path)) {
      const p = path.value
      const read = yield* Effect.either(Effect.tryPromise(() => readInputText(p)))
      if (read._tag === "Left") return yield* fail(what, `cannot read ${p}: ${readProblem(read.left.error)}`)
      // A file ends with a newline that is not part of the expression.
      return { source: read.right.replace(/\r?\n$/, ""), origin: p === "-" ? "<stdin>" : p }
    }
    if (Option.isSome(arg)) {
      if (arg.value.startsWith("--"))
        return yield* Effect.fail(
          usage(`${what}: unknown option ${arg.value}; use -- before an expression that starts with -`)
        )
      return { source: arg.value, origin: undefined }
    }
    return yield* Effect.fail(
      usage(`${what}: give an expression, e.g. edgectl ${what} 'http.host eq "example.com"', or --file FILE`)
    )
  })

const checkOptions = (o: Command.Command.ParseConfig<{ scheme: typeof scheme; plan: typeof plan }>): CheckOptions => ({
  scheme: o.scheme,
  ...(Option.isSome(o.plan) ? { plan: o.plan.value } : {})
})

const report = (result: CheckResult, origin: string | undefined, to: "stdout" | "stderr") => {
  if (result.diagnostics.length === 0) return
  const color = isTerminal(to) && !process.env.NO_COLOR
  ;(to === "stdout" ? writeOut : writeErr)(
    `${renderDiagnostics(result.source, result.diagnostics, { color, ...(origin ? { origin } : {}) })}\n\n`
  )
}

const checkCommand = Command.make("check", { json, file, scheme, plan, expression: expressionArg }, (o) =>
  Effect.gen(function* () {
    const { source, origin } = yield* readExpression("rules check", o.expression, o.file)
    const { check } = yield* Rules
    const result = check(source, checkOptions(o))
    if (o.json) printJson({ valid: result.valid, diagnostics: result.diagnostics.map(diagnosticJson) })
    else {
      report(result, origin, "stdout")
      printLine(
        result.valid
          ? `valid${result.diagnostics.length > 0 ? ` (${summary(result.diagnostics)})` : ""}`
          : `invalid: ${summary(result.diagnostics)}`
      )
    }
    if (!result.valid) {
      const errors = result.diagnostics.filter((d) => d.severity === "error").length
      return yield* Effect.fail(
        new CliFailure({
          text: `error: rules check: the expression has ${errors} error${errors === 1 ? "" : "s"}`,
          exitCode: 1
        })
      )
    }
  })
).pipe(Command.withDescription("check an expression: syntax, fields, types, regular expressions, limits"))

const request = Options.text("request").pipe(
  Options.withPseudoName("FILE"),
  Options.withDescription("a JSON file with the request: field name to value (- for stdin)")
)

const readRequest = (path: string) =>
  Effect.gen(function* () {
    const read = yield* Effect.either(Effect.tryPromise(() => readInputText(path)))
    if (read._tag === "Left") return yield* fail("rules eval", `cannot read ${path}: ${readProblem(read.left.error)}`)
    const text = read.right
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (e) {
      return yield* fail("rules eval", `${path} is not valid JSON: ${(e as Error).message}`)
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return yield* fail(
        "rules eval",
        `${path} must hold a JSON object of field name to value`,
        'e.g. {"http.request.uri.path": "/admin", "ip.src": "192.0.2.1"}'
      )
    }
    return value as Record<string, unknown>
  })

const evalCommand = Command.make("eval", { json, file, scheme, request, expression: expressionArg }, (o) =>
  Effect.gen(function* () {
    const { source, origin } = yield* readExpression("rules eval", o.expression, o.file)
    const req = yield* readRequest(o.request)
    const options: CheckOptions = { scheme: o.scheme }
    const { check, compile, displayValue, validateRequest } = yield* Rules
    const result = check(source, options)
    if (result.checked === undefined) {
      if (o.json) printJson({ match: null, valid: false, diagnostics: result.diagnostics.map(diagnosticJson) })
      else report(result, origin, "stderr")
      const errors = result.diagnostics.filter((d) => d.severity === "error").length
      return yield* Effect.fail(
        new CliFailure({
          text: `error: rules eval: the expression has ${errors} error${errors === 1 ? "" : "s"}`,
          exitCode: 1
        })
      )
    }
    const problems = validateRequest(req, result.checked.scheme)
    const bad = problems.filter((p) => !p.message.startsWith("unknown field"))
    if (bad.length > 0) {
      return yield* fail(
        "rules eval",
        `request field ${bad[0]!.field}: ${bad[0]!.message}${bad.length > 1 ? ` (and ${bad.length - 1} more)` : ""}`,
        "see `edgectl rules --help` for how values are written"
      )
    }
    const compiled = compile(result.checked)
    const ctx = compiled.context(req)
    const match = compiled(ctx)
    const scheme = result.checked.scheme
    const fields = Object.fromEntries(
      result.checked.fields.map((f) => [f, displayValue(ctx.get(scheme.fieldId(f))) ?? null])
    )
    const lists = listsUsed(source, req)
    if (o.json) {
      return printJson({
        match,
        fields,
        ...(lists.length ? { missingLists: lists } : {}),
        warnings: problems.map((p) => `${p.field}: ${p.message}`),
        diagnostics: result.diagnostics.map(diagnosticJson)
      })
    }
    report(result, origin, "stderr")
    for (const p of problems) writeErr(`warning: request field ${p.field}: ${p.message}\n`)
    for (const l of lists) writeErr(`warning: the request has no $lists.${l}: the list is treated as empty\n`)
    printLine(match ? "match" : "no match")
    if (result.checked.fields.length > 0) {
      printLine("")
      printLine("fields used:")
      const width = Math.max(...result.checked.fields.map((f) => f.length))
      for (const [f, v] of Object.entries(fields))
        printLine(`  ${f.padEnd(width)}  ${v === null ? "(missing)" : JSON.stringify(v)}`)
    }
  })
).pipe(Command.withDescription("evaluate an expression against a request (a JSON object of field values)"))

/** Lists the expression names that the request does not provide. */
const listsUsed = (source: string, req: Record<string, unknown>): ReadonlyArray<string> => {
  const given = typeof req.$lists === "object" && req.$lists !== null ? Object.keys(req.$lists) : []
  const names = [...source.matchAll(/\$([a-z0-9_.]+)/g)].map((m) => m[1]!)
  return [...new Set(names)].filter((n) => !given.includes(n))
}

const width = integerOption("width", 1, 100_000).pipe(
  Options.withDescription("break long expressions over lines at this width"),
  Options.optional
)

const formatCommand = Command.make("format", { json, file, scheme, width, expression: expressionArg }, (o) =>
  Effect.gen(function* () {
    const { source, origin } = yield* readExpression("rules format", o.expression, o.file)
    const { check, format } = yield* Rules
    const result = check(source, { scheme: o.scheme, maxLength: false })
    if (result.checked === undefined) {
      if (o.json) printJson({ valid: false, diagnostics: result.diagnostics.map(diagnosticJson) })
      else report(result, origin, "stderr")
      return yield* fail("rules format", "only a valid expression can be formatted")
    }
    const text = format(result.checked.expression, Option.isSome(o.width) ? { width: o.width.value } : {})
    if (o.json) return printJson({ valid: true, formatted: text })
    printLine(text)
  })
).pipe(Command.withDescription("print an expression in canonical form (English operators, one space)"))

export const rules = Command.make("rules").pipe(
  Command.withDescription(
    'the rules language: check, evaluate and format filter expressions (no platform needed). Request values: strings, integers, true/false, IP addresses as strings, arrays, objects for maps, {"$base64": ...} for bytes, "$lists": {name: [items]}'
  ),
  Command.withSubcommands([checkCommand, evalCommand, formatCommand])
)
