/**
 * Reading a secret from standard input, so that it stays out of shell history: a pipe or file is
 * read whole (one trailing newline dropped); on a terminal the user types it with nothing echoed.
 */
import * as Effect from "effect/Effect"
import { fileProblem, readStdin, stdinIsTerminal } from "./files.js"
import { CliFailure } from "./run.js"

// The shared stdin reader waits for a slow writer (`(sleep 1; pass show x) | edgectl …`).
const fromPipe = Effect.tryPromise({
  try: async () => (await readStdin()).toString("utf8").replace(/\r?\n$/, ""),
  catch: (e) =>
    new CliFailure({ text: `error: --secret-stdin: cannot read standard input: ${fileProblem(e)}`, exitCode: 1 })
})

const fromTerminal = (prompt: string) =>
  Effect.async<string, CliFailure>((resume) => {
    const stdin = process.stdin
    process.stderr.write(prompt)
    let typed = ""
    const done = (result: Effect.Effect<string, CliFailure>) => {
      stdin.off("data", onData)
      stdin.setRawMode(false)
      stdin.pause()
      process.stderr.write("\n")
      resume(result)
    }
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n") return done(Effect.succeed(typed))
        if (ch === "\u0003")
          return done(Effect.fail(new CliFailure({ text: "error: --secret-stdin: cancelled", exitCode: 1 })))
        if (ch === "\u007f" || ch === "\b") typed = [...typed].slice(0, -1).join("")
        else typed += ch
      }
    }
    stdin.setRawMode(true)
    stdin.resume()
    stdin.on("data", onData)
  })

export const readSecret = (prompt: string): Effect.Effect<string, CliFailure> =>
  stdinIsTerminal() ? fromTerminal(prompt) : fromPipe
