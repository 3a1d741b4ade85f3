/** Options every command shares: output and target. */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as fs from "node:fs"
import { inputProblem } from "./files.js"
import { parseRateLimit } from "../domain/rate-budget.js"
import { timeoutProblem } from "../api/target.js"
import { CliFailure } from "./run.js"
import { isMissing } from "../domain/file-errors.js"

export const json = Options.boolean("json").pipe(Options.withDescription("print only JSON on stdout"))
export const remote = Options.boolean("remote").pipe(
  Options.withDescription("use the real platform (CLOUDFLARE_API_TOKEN or CLOUDFLARE_API_KEY + CLOUDFLARE_EMAIL)")
)

/**
 * `--NAME PSEUDO` whose value is a path, checked by edgectl rather than by @effect/cli's path
 * options: theirs answer a path under a file with an internal error, name no option ("Path ...
 * must exist"), and load the Node file system (with node:crypto) on every start. `refusal` gets
 * the path's stat, or the error that stat gave, and says why the path will not do.
 */
const pathOption = (
  name: string,
  pseudo: string,
  refusal: (path: string, found: fs.Stats | NodeJS.ErrnoException) => string | undefined
) =>
  Options.text(name).pipe(
    Options.withPseudoName(pseudo),
    Options.mapEffect((p) =>
      Effect.suspend(() => {
        let found: fs.Stats | NodeJS.ErrnoException
        try {
          found = fs.statSync(p)
        } catch (e) {
          found = e as NodeJS.ErrnoException
        }
        const why = refusal(p, found)
        return why === undefined
          ? Effect.succeed(p)
          : Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--${name}: ${why}`)))
      })
    )
  )

/**
 * `--NAME FILE`: an input file. Whether it is there is checked when the command runs
 * (`inputFile`): a missing file is a failure the user can fix (exit 1), as for every command
 * that reads one, not a usage error.
 */
export const fileOption = (name: string) => Options.text(name).pipe(Options.withPseudoName("FILE"))

/**
 * `path` of `--NAME` if it can be read (a file that exists, `-` for stdin, a FIFO, /dev/stdin, a
 * /dev/fd path); else exit 1 naming the option and why (src/cli/files.ts).
 */
export const inputFile = (name: string, path: string): Effect.Effect<string, CliFailure> =>
  Effect.suspend(() => {
    const why = inputProblem(path)
    return why === undefined
      ? Effect.succeed(path)
      : Effect.fail(new CliFailure({ text: `error: --${name}: ${why}`, exitCode: 1 }))
  })

/** A state directory: one that exists, or a path where one can be made (the store creates it). */
export const persistTo = pathOption("persist-to", "DIR", (dir, found) => {
  if (dir === "") return "expected a directory, got an empty path"
  if (found instanceof fs.Stats) return found.isDirectory() ? undefined : `${dir} is a file, not a directory`
  if (isMissing(found)) return undefined
  return found.code === "ENOTDIR" ? `${dir}: a part of the path is a file, not a directory` : `${dir}: ${found.message}`
}).pipe(Options.withDescription("directory of the local platform's state (default .edgectl/state)"), Options.optional)

/**
 * `--timeout SECONDS`: how long a remote request may wait for its answer once sent (and for its
 * connection, up to 30 s); EDGECTL_TIMEOUT when not given, else 120 (src/api/target.ts).
 */
export const timeout = Options.text("timeout").pipe(
  Options.withPseudoName("SECONDS"),
  Options.mapEffect((text) => {
    const why = timeoutProblem(text)
    return why === undefined
      ? Effect.succeed(Number(text))
      : Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--timeout: ${why}`)))
  }),
  Options.withDescription(
    "seconds a request to the remote platform may go unanswered (default 120, or EDGECTL_TIMEOUT)"
  ),
  Options.optional
)

/**
 * `--rate-limit N/SECONDS`: the API budget a remote command keeps within (src/api/rate-budget.ts);
 * EDGECTL_RATE_LIMIT when not given, else the platform's 1200/300.
 */
export const rateLimit = Options.text("rate-limit").pipe(
  Options.withPseudoName("N/SECONDS"),
  Options.mapEffect((text) => {
    const parsed = parseRateLimit(text)
    return typeof parsed === "string"
      ? Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--rate-limit: ${parsed}`)))
      : Effect.succeed(parsed)
  }),
  Options.withDescription(
    "API budget of remote requests, N per SECONDS (default 1200/300, the platform's, or EDGECTL_RATE_LIMIT)"
  ),
  Options.optional
)

/** The value of an optional option or argument, or undefined when it was not given. */
export const opt = <A>(o: Option.Option<A>): A | undefined => Option.getOrUndefined(o)

/** The words @effect/cli takes as a boolean option's value. */
const BooleanWord = /^(true|false|yes|no|y|n|on|off|1|0)$/i
const triStates = new Set<string>()

/**
 * `--proxied=maybe`: a usage error naming the option (@effect/cli drops a value after `=` that is
 * not a boolean word when the option is not first on the line, and takes the flag as true).
 */
export const triStateProblem = (args: ReadonlyArray<string>): string | undefined => {
  for (const arg of args) {
    if (arg === "--") return undefined
    const m = /^(--[^=]+)=(.*)$/s.exec(arg)
    if (m !== null && triStates.has(m[1]!) && !BooleanWord.test(m[2]!)) return booleanProblem(m[1]!, m[2]!)
  }
  return undefined
}

/** The error line of a boolean option given a value it does not take. */
export const booleanProblem = (option: string, value: string) =>
  `${option}: expected true or false (or no value), got ${JSON.stringify(value)}`

/**
 * A boolean option that knows whether it was given: None when absent. @effect/cli's
 * `Options.boolean` defaults to false; its inner single option (the same parser: a bare flag, or
 * true/false after it or after `=`) has no default.
 */
export const triState = (name: string, description: string): Options.Options<Option.Option<boolean>> => {
  triStates.add(`--${name}`)
  const flag = Options.boolean(name) as unknown as { readonly _tag: string; readonly options: Options.Options<boolean> }
  if (flag._tag !== "WithDefault")
    throw new Error(`@effect/cli changed Options.boolean: expected WithDefault, got ${flag._tag}`)
  return Options.optional(Options.withDescription(flag.options, description))
}

/**
 * `--local` (the default) and `--local false`, which means `--remote` on every command, as in
 * wrangler's KV commands (run.ts `isRemote`).
 */
export const local = triState("local", "use the embedded local platform (the default; --local false means --remote)")

export const target = { json, remote, local, persistTo, timeout, rateLimit }

/** `--NAME PSEUDO`: an optional text option. */
export const optionalText = (name: string, pseudo: string, description: string) =>
  Options.text(name).pipe(Options.withPseudoName(pseudo), Options.withDescription(description), Options.optional)

/** `--zone ZONE`: the zone a command acts on, by id or name (the service resolves a name). */
export const zoneOption = (description = "the zone, by id or name") =>
  Options.text("zone").pipe(Options.withPseudoName("ZONE"), Options.withDescription(description))

const show = (n: number) => (Math.abs(n) >= 100_000 ? n.toLocaleString("en-US") : String(n))

const badValue = (name: string, why: string) =>
  Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--${name}: ${why}`)))

/**
 * `--NAME N`: a whole number from `min` to `max`. Anything else (a word, a fraction, a number out
 * of range) is a usage error naming the option, the range and the value given; @effect/cli's own
 * integer option takes any integer and names neither.
 */
export const integerOption = (name: string, min: number, max: number) =>
  Options.text(name).pipe(
    Options.withPseudoName("N"),
    Options.mapEffect((text) => {
      const n = /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : Number.NaN
      const range = `an integer from ${show(min)} to ${show(max)}`
      return Number.isSafeInteger(n) && n >= min && n <= max
        ? Effect.succeed(n)
        : badValue(name, `expected ${range}, got ${JSON.stringify(text)}`)
    })
  )

/** `--NAME VALUE` where VALUE is one of `values` (`ignoreCase`: in any case); else a usage error naming the option, the choices and the value. */
export const choiceOption = <const A extends string>(
  name: string,
  values: ReadonlyArray<A>,
  o: { readonly ignoreCase?: boolean } = {}
) =>
  Options.text(name).pipe(
    Options.withPseudoName(values.join("|")),
    Options.mapEffect((text) => {
      const found = values.find((v) => (o.ignoreCase === true ? v.toLowerCase() === text.toLowerCase() : v === text))
      return found !== undefined
        ? Effect.succeed(found)
        : badValue(name, `expected one of ${values.join(", ")}, got ${JSON.stringify(text)}`)
    })
  )
