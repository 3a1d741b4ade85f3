/**
 * What commands print goes straight to file descriptors 1 and 2 (`fs.writeSync`) for as long as
 * nothing has asked Node for `process.stdout` or `process.stderr`. Node builds those streams on
 * their first touch: node:stream and its twenty modules, and for a pipe node:net too, ~3-5 ms of a
 * cold `zones list` that prints one JSON text and exits. Once a stream exists (the TUI, the language
 * server, help printed by @effect/cli, a prompt), every write goes through it, so output written
 * both ways keeps its order (Node's stream writes are asynchronous on some platforms).
 *
 * A direct write is synchronous, as Node's own stdout is for files, pipes and terminals on Linux; a
 * descriptor left non-blocking by another program (EAGAIN) hands the rest to the stream. A reader
 * gone (EPIPE: `edgectl zones list | head -1`) ends the output silently, as Node's stream does.
 */
import * as fs from "node:fs"

type Name = "stdout" | "stderr"

const fds: Record<Name, 1 | 2> = { stdout: 1, stderr: 2 }
/** Whether Node's stream for a descriptor has been built (by anyone); then every write uses it. */
const built: Record<Name, boolean> = { stdout: false, stderr: false }
/** Whether the descriptor's reader is gone (EPIPE): later writes are dropped. */
const gone: Record<Name, boolean> = { stdout: false, stderr: false }

/**
 * Notes when Node builds `process.stdout` and `process.stderr` (their getters, wrapped once, build
 * them as before). Called once, before anything prints.
 */
export const watchStdio = () => {
  for (const name of ["stdout", "stderr"] as const) {
    const own = Object.getOwnPropertyDescriptor(process, name)
    if (own?.get === undefined || own.configurable !== true) {
      built[name] = true
      continue
    }
    const get = own.get
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: own.enumerable ?? true,
      get() {
        built[name] = true
        return get.call(process)
      }
    })
  }
}

const write = (name: Name, data: string | Uint8Array) => {
  if (gone[name]) return
  if (built[name]) {
    process[name].write(data)
    return
  }
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data
  let at = 0
  try {
    while (at < bytes.length) at += fs.writeSync(fds[name], bytes, at, bytes.length - at)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === "EPIPE") gone[name] = true
    else if (code === "EAGAIN") process[name].write(bytes.subarray(at))
    else throw e
  }
}

/** Writes to stdout. */
export const writeOut = (data: string | Uint8Array) => write("stdout", data)
/** Writes to stderr. */
export const writeErr = (data: string | Uint8Array) => write("stderr", data)

/**
 * Whether stdout (or stderr) is a terminal. A file or a pipe is answered from `fstat` without
 * building the stream; a character device (a terminal, or /dev/null) is asked of the stream.
 */
export const isTerminal = (name: Name = "stdout"): boolean => {
  if (!built[name]) {
    try {
      if (!fs.fstatSync(fds[name]).isCharacterDevice()) return false
    } catch {
      return false
    }
  }
  return process[name].isTTY === true
}

/** Calls `done` once what was written to stdout and stderr has left the process. */
export const whenStdioFlushed = (done: () => void) => {
  const streams = (["stdout", "stderr"] as const).filter((name) => built[name])
  let pending = streams.length
  if (pending === 0) return done()
  for (const name of streams)
    process[name].write("", () => {
      if (--pending === 0) done()
    })
}
