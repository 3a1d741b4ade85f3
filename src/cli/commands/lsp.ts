/**
 * `edgectl lsp` (the language server on stdio) and `edgectl check FILES...` (its checks for CI).
 * Both load their modules with import() so that other commands do not pay for them at start-up.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { fileProblem, readInputBytes } from "../files.js"
import { choiceOption, json } from "../options.js"
import { CliFailure, usage } from "../run.js"
import { version } from "../../version.js"
import { isTerminal, writeErr, writeOut } from "../stdio.js"

export const lsp = Command.make(
  "lsp",
  {
    stdio: Options.boolean("stdio").pipe(
      Options.withDescription("talk LSP over stdin/stdout (the default and only transport)")
    )
  },
  () =>
    Effect.promise(async () => {
      const { serveStdio } = await import("../../lsp/server.js")
      await serveStdio()
    })
).pipe(
  Command.withDescription(
    "the language server (LSP 3.17 over stdio): rule expressions, KV bulk files, WAF documents, Terraform"
  )
)

const formatOption = choiceOption("format", ["text", "json", "sarif"]).pipe(
  Options.withDescription(
    "text (file:line:col and a caret; the default), json, or sarif (SARIF 2.1.0 for code scanning)"
  ),
  Options.optional
)

export const check = Command.make(
  "check",
  {
    format: formatOption,
    json: json.pipe(Options.withDescription("the same as --format json")),
    kind: choiceOption("kind", ["rules", "json", "tf"]).pipe(
      Options.withDescription(
        "the kind of every file named (for `-`, a pipe or a name of no known kind): rules (an expression), json (firewall rules, filters, KV bulk files, WAF documents: told apart by content) or tf (Terraform)"
      ),
      Options.optional
    ),
    files: Args.text({ name: "FILES" }).pipe(
      Args.withDescription(
        "*.rules, *.json (firewall rules, filters, KV bulk files, WAF configurations and exports) and *.tf files; a directory: its files of those kinds; - for stdin (with --kind)"
      ),
      Args.atLeast(1)
    )
  },
  (o) =>
    Effect.gen(function* () {
      const bad = o.files.find((f) => f.startsWith("-") && f.length > 1)
      if (bad !== undefined)
        return yield* Effect.fail(new CliFailure({ text: `error: check: unknown option ${bad}`, exitCode: 2 }))
      const given = Option.getOrUndefined(o.format)
      if (o.json && given !== undefined && given !== "json")
        return yield* Effect.fail(usage(`--json is --format json; it cannot be used with --format ${given}`))
      const format = o.json ? "json" : (given ?? "text")
      const out = yield* Effect.promise(async () => {
        const { checkFiles } = await import("../../lsp/check-files.js")
        const color = isTerminal("stdout") && !process.env.NO_COLOR
        const kind = Option.getOrUndefined(o.kind)
        return checkFiles(o.files, format, color, version(), {
          kind: kind === "tf" ? "terraform" : kind,
          read: async (path) => {
            try {
              return (await readInputBytes(path)).toString("utf8")
            } catch (e) {
              throw new Error(fileProblem(e), { cause: e })
            }
          }
        })
      })
      if (out.stdout) writeOut(out.stdout)
      // The exit code goes through the CLI's failure path, which prints the summary last on stderr.
      if (out.exitCode !== 0)
        return yield* Effect.fail(new CliFailure({ text: out.stderr.replace(/\n$/, ""), exitCode: 1 }))
      if (out.stderr) writeErr(out.stderr)
    })
).pipe(
  Command.withDescription(
    "check rule expressions (*.rules, firewall/filter JSON), KV bulk files, WAF documents and Terraform files; exit 1 on any error"
  )
)
