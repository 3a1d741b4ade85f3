/** The `edgectl` entry point: parses the command line, runs the command, sets the exit code. */
import { CliConfig, Command, ValidationError } from "@effect/cli"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import { cliConsole } from "./console.js"
import { accounts, certs, dns, zones } from "./commands/zones.js"
import { esc } from "./commands/esc.js"
import { firewall } from "./commands/firewall/index.js"
import { invites } from "./commands/invites.js"
import { kv, rewriteColonSpelling } from "./commands/kv/index.js"
import { check, lsp } from "./commands/lsp.js"
import { objects } from "./commands/objects.js"
import { rules } from "./commands/rules.js"
import { serve } from "./commands/serve.js"
import { waf } from "./commands/waf.js"
import { openTui, tui } from "./commands/tui.js"
import { CliFailure } from "./run.js"

const VERSION = "0.1.0"

const root = Command.make("edgectl").pipe(
  Command.withDescription("terminal UI, CLI and migration assistant for the edge platform's v4 API (local by default, --remote for the real platform)"),
  Command.withSubcommands([zones, dns, certs, accounts, invites, rules, kv, esc, firewall, waf, objects, check, lsp, serve, tui])
)

const cli = Command.run(root, { name: "edgectl", version: VERSION })

const report = (exit: Exit.Exit<unknown, unknown>): number => {
  if (Exit.isSuccess(exit)) return 0
  const failure = Option.getOrUndefined(Cause.failureOption(exit.cause))
  if (failure instanceof CliFailure) {
    process.stderr.write(`${failure.text}\n`)
    return failure.exitCode
  }
  // @effect/cli has already printed a validation error (unknown flag, missing argument): usage.
  if (failure !== undefined && ValidationError.isValidationError(failure)) return 2
  if (Cause.isInterruptedOnly(exit.cause)) return 130
  const debug = process.env.EDGECTL_DEBUG === "1"
  process.stderr.write(`error: internal: ${debug ? Cause.pretty(exit.cause) : Cause.squash(exit.cause)}\n`)
  if (!debug) process.stderr.write("hint: run again with EDGECTL_DEBUG=1 for details\n")
  return 1
}

export const main = async (rawArgv: ReadonlyArray<string>): Promise<number> => {
  const colon = rewriteColonSpelling(rawArgv.slice(2))
  if (colon.warning !== undefined) process.stderr.write(`${colon.warning}\n`)
  const argv = [...rawArgv.slice(0, 2), ...colon.args]
  const args = colon.args
  const program =
    args.length === 0 && process.stdin.isTTY && process.stdout.isTTY
      ? openTui({ remote: false, persistTo: Option.none() })
      : cli(argv)
  const exit = await Effect.runPromiseExit(
    Effect.flatMap(Effect.console, (base) => Effect.withConsole(program, cliConsole(base))).pipe(
      Effect.provide(Layer.merge(NodeContext.layer, CliConfig.layer({ showBuiltIns: false })))
    )
  )
  return report(exit)
}

/**
 * Ends the process once stdout and stderr are flushed. Every command has finished its work when
 * `main` resolves (servers, the TUI and the language server resolve only when they stop); left to
 * itself, Node takes another 10-20 ms to wind its event loop down, a tenth of a scripted command.
 */
const exitWhenFlushed = (code: number) => {
  process.exitCode = code
  let pending = 2
  const flushed = () => {
    if (--pending === 0) process.exit(code)
  }
  process.stdout.write("", flushed)
  process.stderr.write("", flushed)
}

main(process.argv).then(exitWhenFlushed, (e: unknown) => {
  process.stderr.write(`error: internal: ${String(e)}\n`)
  exitWhenFlushed(1)
})
