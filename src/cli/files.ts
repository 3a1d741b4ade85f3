/**
 * The files commands read and write, one way for all: an option that reads a file takes a path, `-`
 * for standard input, `/dev/stdin`, a FIFO or a process substitution (`<(…)`, a /dev/fd path); one
 * that writes a file takes `-` for standard output.
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { CliFailure } from "./run.js"
import { writeOut } from "./stdio.js"
import { fileProblem, writeProblem } from "../domain/file-errors.js"

/** `-`: standard input (for an option that reads) or standard output (for one that writes). */
export const STDIO = "-"

/** Why a file named in an option could not be read or written (src/domain/file-errors.ts). */
export { fileProblem }

/**
 * Whether standard input is a terminal. A pipe or a file is answered from `fstat`, without building
 * `process.stdin` (node:net for a pipe, and a pipe left non-blocking); a character device is asked
 * of the stream, as stdout is (src/cli/stdio.ts).
 */
export const stdinIsTerminal = (): boolean => {
  try {
    if (!fs.fstatSync(0).isCharacterDevice()) return false
  } catch {
    return false
  }
  return process.stdin.isTTY === true
}

/**
 * All of standard input, however slowly its writer writes (`(sleep 1; echo s) | edgectl …`). Read
 * with blocking reads; a descriptor another program (or Node's own stdin stream) made non-blocking
 * answers EAGAIN when the writer has not written yet, and the rest is then read from the stream,
 * which waits for it.
 */
export const readStdin = (): Promise<Buffer> => {
  const chunks: Array<Buffer> = []
  const buf = Buffer.alloc(1 << 16)
  try {
    for (;;) {
      const n = fs.readSync(0, buf, 0, buf.length, null)
      if (n === 0) return Promise.resolve(Buffer.concat(chunks))
      chunks.push(Buffer.from(buf.subarray(0, n)))
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === "EOF") return Promise.resolve(Buffer.concat(chunks))
    if (code !== "EAGAIN") return Promise.reject(e as Error)
  }
  return new Promise((resolve, reject) => {
    const stdin = process.stdin
    stdin.on("data", (d: Buffer) => chunks.push(d))
    stdin.once("end", () => resolve(Buffer.concat(chunks)))
    stdin.once("error", reject)
  })
}

/** The bytes of `file` (`-`: standard input); FIFOs and /dev/fd paths are read to their end. */
export const readInputBytes = (file: string): Promise<Buffer> =>
  file === STDIO ? readStdin() : fs.promises.readFile(file)

/**
 * The UTF-8 text of `file` (`-`: standard input) without a leading byte-order mark: editors on
 * Windows write one, and `kv bulk` and the wrangler files took it already, so every reader does.
 */
export const readInputText = async (file: string): Promise<string> => {
  const text = (await readInputBytes(file)).toString("utf8")
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** The text of `--NAME FILE` (`-`: standard input); a file that cannot be read fails with exit 1, naming it and why. */
export const readInput = (name: string, file: string): Effect.Effect<string, CliFailure> =>
  Effect.tryPromise({
    try: () => readInputText(file),
    catch: (e) =>
      new CliFailure({
        text: `error: --${name}: cannot read ${file === STDIO ? "standard input" : file}: ${fileProblem(e)}`,
        exitCode: 1
      })
  })

/**
 * Why `--NAME FILE` cannot be read, before any work: missing, a directory, not readable. `-` (stdin),
 * a FIFO, /dev/stdin and /dev/fd paths are readable inputs, opened only when read.
 */
export const inputProblem = (file: string): string | undefined => {
  if (file === STDIO) return undefined
  try {
    if (fs.statSync(file).isDirectory()) return `${file} is a directory, not a file`
    return undefined
  } catch (e) {
    return `${file}: ${fileProblem(e)}`
  }
}

/** `file` opened for writing (`flags` "w" or "a"), or the failure naming it and why, exit 1. */
export const openOutput = (what: string, file: string, flags: "w" | "a" = "w"): Effect.Effect<number, CliFailure> =>
  Effect.try({
    try: () => fs.openSync(file, flags),
    catch: (e) =>
      new CliFailure({ text: `error: ${what}: cannot write ${file}: ${writeProblem(file, e)}`, exitCode: 1 })
  })

/** Writes `text` to `file`, `-` meaning standard output. */
export const writeOutput = (file: string, text: string) => {
  if (file === STDIO) writeOut(text)
  else fs.writeFileSync(file, text)
}
