/**
 * The `edgectl` entry point: parses the command line, runs the command, sets the exit code.
 *
 * Each top-level command's module is loaded only when it runs: `edgectl zones list` evaluates the
 * zones commands and what they use, not the KV, WAF or firewall ones. The whole tree is loaded for
 * anything else (`--help`, `--version`, a mistyped command), so help and errors list every command.
 *
 * Every area declares its commands one way, as @effect/cli's examples do: `Command.make(name,
 * { ...options }, handler).pipe(Command.withDescription(about))`, grouped with
 * `Command.withSubcommands`. Where the work is light (zones, invites, esc, rules, serve, lsp, tui)
 * the handler is written there; an area whose work pulls in more (kv, firewall, custom-rules, waf,
 * objects) is a folder: index.ts declares the tree, run.ts (loaded when one of its commands runs)
 * exports one handler per command, picked by name with `lazyHandlers` (./lazy.ts); kv and firewall
 * load each group's `<group>-run.ts` alone (a `rules list` never evaluates the migration). What areas
 * share lives here in src/cli: options.ts (the options every command takes, `opt`), output.ts
 * (tables, fields, `clip`, errors), prompt.ts (`confirm`, `confirmOrRefuse`), run.ts (the target,
 * `CliFailure`).
 */
import * as Command from "@effect/cli/Command"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { notUtf8Argument } from "./arguments.js"
import { checkCommandLine, walkCommand, type AnyCommand } from "./command-line.js"
import { cliConsole } from "./console.js"
import { cliEnvironment } from "./environment.js"
import { rewriteColonSpelling } from "./commands/kv/colon.js"
import { openTui, tui } from "./commands/tui.js"
import { triStateProblem } from "./options.js"
import { CliFailure, usage } from "./run.js"
import { version } from "../version.js"
import { stdoutLost, watchStdio, whenStdioFlushed, writeErr } from "./stdio.js"

/** Every top-level command, in the order help lists them, and the module that declares it. */
const commands: ReadonlyArray<readonly [string, () => Promise<AnyCommand>]> = [
  ["zones", () => import("./commands/zones.js").then((m) => m.zones)],
  ["dns", () => import("./commands/zones.js").then((m) => m.dns)],
  ["certs", () => import("./commands/zones.js").then((m) => m.certs)],
  ["accounts", () => import("./commands/zones.js").then((m) => m.accounts)],
  ["invites", () => import("./commands/invites.js").then((m) => m.invites)],
  ["rules", () => import("./commands/rules.js").then((m) => m.rules)],
  ["kv", () => import("./commands/kv/index.js").then((m) => m.kv)],
  ["esc", () => import("./commands/esc.js").then((m) => m.esc)],
  ["firewall", () => import("./commands/firewall/index.js").then((m) => m.firewall)],
  ["custom-rules", () => import("./commands/custom-rules/index.js").then((m) => m.customRules)],
  ["waf", () => import("./commands/waf/index.js").then((m) => m.waf)],
  ["objects", () => import("./commands/objects/index.js").then((m) => m.objects)],
  ["check", () => import("./commands/lsp.js").then((m) => m.check)],
  ["scan", () => import("./commands/scan.js").then((m) => m.scan)],
  ["migrate", () => import("./commands/migrate.js").then((m) => m.migrate)],
  ["lsp", () => import("./commands/lsp.js").then((m) => m.lsp)],
  ["serve", () => import("./commands/serve.js").then((m) => m.serve)],
  // Imported statically: `edgectl` alone on a terminal opens the TUI (openTui), and the module is small
  // (the TUI itself is loaded by openTui, on use).
  ["tui", () => Promise.resolve(tui)]
] as unknown as ReadonlyArray<readonly [string, () => Promise<AnyCommand>]>

/**
 * `edgectl firewall rules list --zone acme.com --help`: `--help` (or `-h`) anywhere before `--` asks
 * for the help of the command the line names (@effect/cli takes it only right after the command).
 */
const helpAsked = (args: ReadonlyArray<string>) => {
  const end = args.indexOf("--")
  const head = end < 0 ? args : args.slice(0, end)
  return head.includes("--help") || head.includes("-h")
}

/** The CLI with the root command over the subcommand `args` names, or over all of them. */
const cliFor = async (args: ReadonlyArray<string>) => {
  const named = commands.find(([name]) => name === args[0])
  // `edgectl rate-limits`: named as a subcommand's mistake is (@effect/cli: "Invalid subcommand for edgectl").
  const first = args[0]
  if (named === undefined && first !== undefined && !first.startsWith("-")) {
    const problem = usage(`unknown command "${first}" (edgectl has: ${commands.map(([name]) => name).join(", ")})`)
    return () => Effect.fail(problem)
  }
  const loaded = await Promise.all((named !== undefined ? [named] : commands).map(([, load]) => load()))
  const root = Command.make("edgectl").pipe(
    Command.withDescription(
      "terminal UI, CLI and migration assistant for the edge platform's v4 API (local by default, --remote for the real platform); without a command, or with only --persist-to DIR or --remote, it opens the TUI"
    ),
    Command.withSubcommands([loaded[0]!, ...loaded.slice(1)])
  )
  const run = Command.run(root, { name: "edgectl", version: version() })
  if (named !== undefined && helpAsked(args)) {
    const walked = walkCommand(loaded[0]!, args)
    return (argv: ReadonlyArray<string>) =>
      Either.isLeft(walked) ? Effect.fail(walked.left) : run([...argv.slice(0, 2), ...walked.right.path, "--help"])
  }
  const badFlag = triStateProblem(args)
  const line = named !== undefined ? checkCommandLine(loaded[0]!, args) : Either.right(args)
  const problem = Either.isLeft(line) ? line.left : badFlag !== undefined ? usage(badFlag) : undefined
  const parsed = Either.getOrElse(line, () => args)
  return (argv: ReadonlyArray<string>) =>
    problem !== undefined ? Effect.fail(problem) : run([...argv.slice(0, 2), ...parsed])
}

/** The options every platform command takes, with the number of values each takes after it. */
const TargetOptions = new Map([
  ["--persist-to", 1],
  ["--remote", 0],
  ["--local", 0],
  ["--json", 0],
  ["--timeout", 1]
])

/**
 * `edgectl --persist-to DIR zones list`: target options before the command are the command's
 * (@effect/cli reads the command's name as the options' and calls the valid subcommand invalid).
 * The command then checks them as its own: one it does not take is named as usual.
 */
const leadingOptionsAfter = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  let i = 0
  while (i < args.length) {
    const name = /^(--[^=]+)/.exec(args[i]!)?.[1]
    const values = name !== undefined ? TargetOptions.get(name) : undefined
    if (values === undefined) break
    i += args[i]!.includes("=") ? 1 : 1 + values
  }
  if (i === 0 || i >= args.length || !commands.some(([name]) => name === args[i])) return args
  const end = args.indexOf("--", i)
  const head = end < 0 ? args.slice(i) : args.slice(i, end)
  return [...head, ...args.slice(0, i), ...(end < 0 ? [] : args.slice(end))]
}

/**
 * `edgectl --persist-to DIR`, `edgectl --remote`: the bare command takes the TUI's options and
 * opens the TUI, as `edgectl` alone does; anything else on the line is left to the commands.
 */
const onlyTuiOptions = (args: ReadonlyArray<string>): boolean => {
  if (args.length === 0) return false
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (a === "--remote" || a === "--local" || a.startsWith("--persist-to=")) continue
    if (a === "--persist-to" && i + 1 < args.length) {
      i++
      continue
    }
    return false
  }
  return true
}

const report = (exit: Exit.Exit<unknown, unknown>): number => {
  if (Exit.isSuccess(exit)) return 0
  const failure = Option.getOrUndefined(Cause.failureOption(exit.cause))
  if (failure instanceof CliFailure) {
    writeErr(`${failure.text}\n`)
    return failure.exitCode
  }
  // @effect/cli has already printed a validation error (unknown flag, missing argument): usage.
  if (failure !== undefined && ValidationError.isValidationError(failure)) return 2
  if (Cause.isInterruptedOnly(exit.cause)) return 130
  const debug = process.env.EDGECTL_DEBUG === "1"
  writeErr(`error: internal: ${debug ? Cause.pretty(exit.cause) : Cause.squash(exit.cause)}\n`)
  if (!debug) writeErr("hint: run again with EDGECTL_DEBUG=1 for details\n")
  return 1
}

export const main = async (rawArgv: ReadonlyArray<string>): Promise<number> => {
  watchStdio()
  const notUtf8 = notUtf8Argument(rawArgv.slice(2))
  if (notUtf8 !== undefined) {
    writeErr(`error: ${notUtf8}\n`)
    return 2
  }
  const colon = rewriteColonSpelling(rawArgv.slice(2))
  if (colon.warning !== undefined) writeErr(`${colon.warning}\n`)
  const args = onlyTuiOptions(colon.args) ? ["tui", ...colon.args] : leadingOptionsAfter(colon.args)
  const argv = [...rawArgv.slice(0, 2), ...args]
  const program =
    args.length === 0 && process.stdin.isTTY && process.stdout.isTTY
      ? openTui({ remote: false, persistTo: Option.none() })
      : Effect.flatMap(
          Effect.promise(() => cliFor(args)),
          (cli) => cli(argv)
        )
  const exit = await Effect.runPromiseExit(
    Effect.flatMap(Effect.console, (base) => Effect.withConsole(program, cliConsole(base, args))).pipe(
      Effect.provide(cliEnvironment)
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
  whenStdioFlushed(() => {
    // Output that never reached stdout fails a command that otherwise succeeded (a failed one has
    // already said why it failed, with its own exit code).
    const lost = stdoutLost()
    if (lost === undefined || code !== 0) return process.exit(code)
    writeErr(`error: cannot write the output: ${lost}\n`)
    process.exitCode = 1
    whenStdioFlushed(() => process.exit(1))
  })
}

main(process.argv).then(exitWhenFlushed, (e: unknown) => {
  writeErr(`error: internal: ${String(e)}\n`)
  exitWhenFlushed(1)
})
