/**
 * The Console @effect/cli prints help and validation errors through: no ANSI escapes off a TTY or
 * with NO_COLOR, and validation errors in the house style (`error: …` on stderr).
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { polishHelp } from "./help.js"
import { booleanProblem } from "./options.js"

const ANSI = /\u001b\[[0-9;]*m/g

const plain = (stream: NodeJS.WriteStream) => !stream.isTTY || process.env.NO_COLOR !== undefined

const render = (stream: NodeJS.WriteStream, args: ReadonlyArray<unknown>) => {
  const text = args.map((a) => (typeof a === "string" ? a : String(a))).join(" ")
  return plain(stream) ? text.replace(ANSI, "") : text
}

/** Help fits the terminal it is shown on; off a terminal (a pipe, a file) 100 columns. */
const helpWidth = () => (process.stdout.isTTY && process.stdout.columns > 0 ? process.stdout.columns : 100)

const write = (stream: NodeJS.WriteStream, text: string) => Effect.sync(() => void stream.write(`${text}\n`))

/**
 * `--proxied maybe`: @effect/cli takes the boolean flag alone and reports "maybe" as an unknown
 * argument. A word left over right after a bare `--flag` (a text option would have taken it) is
 * that flag's value: the error names the flag.
 */
const unknownAfterFlag = (text: string, line: ReadonlyArray<string>): string => {
  const m = /^Received unknown argument: '(.*)'$/s.exec(text)
  if (m === null) return text
  const i = line.indexOf(m[1]!)
  const flag = i > 0 ? line[i - 1]! : ""
  return /^--[\w-]+$/.test(flag) && line.slice(0, i - 1).indexOf("--") === -1 ? booleanProblem(flag, m[1]!) : text
}

const toStderr = (args: ReadonlyArray<unknown>, line: ReadonlyArray<string>) => {
  // @effect/cli's primitive options say "'x' is not a integer"; edgectl's own integerOption names
  // the option, this keeps the grammar right where the library's is still used.
  const text = unknownAfterFlag(
    render(process.stderr, args)
      .trim()
      .replace(/\bis not a (?=[aeiou])/g, "is not an "),
    line
  )
  if (text === "") return Effect.void
  // Several problems of one command line come as paragraphs: one `error:` line says them all.
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
  const hint = lines.find((l) => l.startsWith("hint:"))
  const problems = lines.filter((l) => !l.startsWith("hint:")).map((l) => l.replace(/^error:\s*/, ""))
  return write(process.stderr, [`error: ${problems.join("; ")}`, ...(hint !== undefined ? [hint] : [])].join("\n"))
}

/** `args`: the command line (its words name the command whose help is printed). */
export const cliConsole = (base: Console.Console, args: ReadonlyArray<string> = []): Console.Console => ({
  ...base,
  log: (...text) => write(process.stdout, polishHelp(render(process.stdout, text), args, helpWidth())),
  info: (...text) => write(process.stdout, polishHelp(render(process.stdout, text), args, helpWidth())),
  error: (...text) => toStderr(text, args),
  warn: (...text) => toStderr(text, args)
})
