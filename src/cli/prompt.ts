/**
 * Confirmations: asked on stderr, answered on a terminal's stdin. Off a terminal (or with --yes)
 * nothing is asked: the default is taken, and a question without a default is refused.
 */
import * as Effect from "effect/Effect"
import { nodeReadline } from "../lazy-builtins.js"
import { CliFailure } from "./run.js"

export type Confirmation = "yes" | "no" | "refused"

/** Where a question is asked (a terminal's stdin and stderr unless a test says otherwise). */
export interface PromptIo {
  readonly input: NodeJS.ReadableStream
  readonly output: NodeJS.WritableStream
  readonly interactive: boolean
}

const terminal = (): PromptIo => ({
  input: process.stdin,
  output: process.stderr,
  interactive: process.stdin.isTTY === true && process.stderr.isTTY === true
})

/** Asks questions on one readline; undefined when the input ends (ctrl+d) before an answer. */
const asker = (io: PromptIo) => {
  // Most runs of the commands that can prompt never do.
  const rl = nodeReadline().createInterface({
    input: io.input,
    output: io.output,
    terminal: io.output === process.stderr
  })
  const lines: Array<string> = []
  let waiting: ((line: string | undefined) => void) | undefined
  let closed = false
  rl.on("line", (line) => {
    if (waiting) {
      const w = waiting
      waiting = undefined
      w(line)
    } else lines.push(line)
  })
  rl.on("close", () => {
    closed = true
    waiting?.(undefined)
  })
  return {
    ask: (question: string) =>
      new Promise<string | undefined>((resolve) => {
        io.output.write(question)
        const next = lines.shift()
        if (next !== undefined) return resolve(next)
        if (closed) return resolve(undefined)
        waiting = resolve
      }),
    close: () => rl.close()
  }
}

/**
 * `[y/n]` (no default: asked again until answered), `[Y/n]` (default yes) or `[y/N]`. `yes` is the
 * --yes flag.
 */
export const confirm = (
  question: string,
  o: { readonly default?: boolean; readonly yes: boolean; readonly io?: PromptIo }
): Effect.Effect<Confirmation> =>
  Effect.promise(async () => {
    if (o.yes) return "yes"
    const io = o.io ?? terminal()
    if (!io.interactive) return o.default === undefined ? "refused" : o.default ? "yes" : "no"
    const choices = o.default === undefined ? "[y/n]" : o.default ? "[Y/n]" : "[y/N]"
    const a = asker(io)
    try {
      for (;;) {
        const answer = await a.ask(`${question} ${choices} `)
        if (answer === undefined) {
          io.output.write("\n")
          return "no"
        }
        const t = answer.trim().toLowerCase()
        if (t === "y" || t === "yes") return "yes"
        if (t === "n" || t === "no") return "no"
        if (t === "" && o.default !== undefined) return o.default ? "yes" : "no"
      }
    } finally {
      a.close()
    }
  })

/** Why a command will not go on without an answer: `what` failed, not `doing` it; `hint` says how to confirm. */
export interface Refusal {
  readonly what: string
  readonly doing: string
  readonly hint: string
}

/**
 * `confirm` for a question that has no default: off a terminal and without --yes the command
 * fails (exit 1) saying what it did not do and how to confirm it. True when the answer is yes.
 */
export const confirmOrRefuse = (
  question: string,
  o: { readonly yes: boolean },
  refusal: Refusal
): Effect.Effect<boolean, CliFailure> =>
  Effect.flatMap(confirm(question, o), (answer) =>
    answer === "refused"
      ? Effect.fail(
          new CliFailure({
            text: `error: ${refusal.what}: not ${refusal.doing} without a confirmation: stdin is not a terminal\nhint: ${refusal.hint}`,
            exitCode: 1
          })
        )
      : Effect.succeed(answer === "yes")
  )
