/**
 * Confirmations: asked on stderr, answered on a terminal's stdin. Off a terminal (or with --yes)
 * nothing is asked: the default is taken, and a question without a default is refused.
 */
import { Effect } from "effect"
import * as readline from "node:readline"

export type Confirmation = "yes" | "no" | "refused"

const ask = (question: string): Promise<string | undefined> =>
  new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true })
    let answered = false
    rl.question(question, (answer) => {
      answered = true
      rl.close()
      resolve(answer)
    })
    // ctrl+d or ctrl+c: no answer.
    rl.on("close", () => {
      if (!answered) {
        process.stderr.write("\n")
        resolve(undefined)
      }
    })
  })

/**
 * `[y/n]` (no default: asked again until answered), `[Y/n]` (default yes) or `[y/N]`. `yes` is the
 * --yes flag; `interactive` is whether stdin and stderr are terminals.
 */
export const confirm = (
  question: string,
  o: { readonly default?: boolean; readonly yes: boolean; readonly interactive?: boolean }
): Effect.Effect<Confirmation> =>
  Effect.promise(async () => {
    if (o.yes) return "yes"
    const interactive = o.interactive ?? (process.stdin.isTTY === true && process.stderr.isTTY === true)
    if (!interactive) return o.default === undefined ? "refused" : o.default ? "yes" : "no"
    const choices = o.default === undefined ? "[y/n]" : o.default ? "[Y/n]" : "[y/N]"
    for (;;) {
      const answer = await ask(`${question} ${choices} `)
      if (answer === undefined) return "no"
      const a = answer.trim().toLowerCase()
      if (a === "y" || a === "yes") return "yes"
      if (a === "n" || a === "no") return "no"
      if (a === "" && o.default !== undefined) return o.default ? "yes" : "no"
    }
  })
