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
 *
 * Any other failure to write stdout (a full disk, `>/dev/full`; a closed descriptor, `>&-`) is the
 * command's failure: it is recorded, later output is dropped, and the exit path (src/cli/main.ts)
 * reports it as one `error: cannot write the output: …` line with exit 1. Nothing throws, so a
 * command never turns a lost write into an error of its own.
 */
import * as fs from "node:fs"

type Name = "stdout" | "stderr"

const fds: Record<Name, 1 | 2> = { stdout: 1, stderr: 2 }
/** Whether Node's stream for a descriptor has been built (by anyone); then every write uses it. */
const built: Record<Name, boolean> = { stdout: false, stderr: false }
/** Whether the descriptor's reader is gone (EPIPE): later writes are dropped. */
const gone: Record<Name, boolean> = { stdout: false, stderr: false }
/** Why stdout could not be written (a full disk, a closed descriptor), once it failed. */
let lost: string | undefined
/** Whether the first write to stdout has looked at what descriptor 1 is. */
let checked = false

/** `ENOSPC: no space left on device, write` → `no space left on device`. */
const reason = (e: NodeJS.ErrnoException): string => {
  if (e.code === "EBADF") return "standard output is closed"
  return /^[A-Z]+: (.*?)(?:, \w+)?$/.exec(e.message)?.[1] ?? e.message
}

const fail = (e: NodeJS.ErrnoException) => {
  gone.stdout = true
  // A stream that failed refuses later writes (ERR_STREAM_DESTROYED): the first error says why.
  if (e.code !== "EPIPE" && !e.code?.startsWith("ERR_STREAM_")) lost ??= reason(e)
}

/** A stream write's callback: its error comes before the stream's `error` event, which may come too late. */
const whenWritten = (e?: Error | null) => {
  if (e) fail(e)
}

/**
 * Whether descriptor 1 was closed when the process started (`edgectl … >&-`). Node then opens
 * /dev/null read-write on it before any JavaScript runs, so a write "succeeds" into nothing; a
 * shell's `>/dev/null` opens it write-only. Linux tells the two apart in /proc; elsewhere nothing
 * is known and the output goes where Node put it.
 */
const closedAtStart = (): boolean => {
  try {
    if (fs.readlinkSync("/proc/self/fd/1") !== "/dev/null") return false
    const flags = /^flags:\s*([0-7]+)$/m.exec(fs.readFileSync("/proc/self/fdinfo/1", "utf8"))?.[1]
    return flags !== undefined && (Number.parseInt(flags, 8) & 3) === fs.constants.O_RDWR
  } catch {
    return false
  }
}

/**
 * Notes when Node builds `process.stdout` and `process.stderr` (their getters, wrapped once, build
 * them as before). Called once, before anything prints.
 */
export const watchStdio = () => {
  for (const name of ["stdout", "stderr"] as const) {
    const own = Object.getOwnPropertyDescriptor(process, name)
    if (own?.get === undefined || own.configurable !== true) {
      built[name] = true
      if (name === "stdout") process.stdout.on("error", fail)
      continue
    }
    const get = own.get
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: own.enumerable ?? true,
      get() {
        const stream = get.call(process) as NodeJS.WriteStream
        if (!built[name] && name === "stdout") stream.on("error", fail)
        built[name] = true
        return stream
      }
    })
  }
}

const write = (name: Name, data: string | Uint8Array) => {
  if (gone[name]) return
  if (name === "stdout" && !checked && data.length > 0) {
    checked = true
    if (closedAtStart()) return fail(Object.assign(new Error("closed"), { code: "EBADF" }))
  }
  if (built[name]) {
    process[name].write(data, name === "stdout" ? whenWritten : undefined)
    return
  }
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data
  let at = 0
  try {
    while (at < bytes.length) at += fs.writeSync(fds[name], bytes, at, bytes.length - at)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === "EAGAIN") process[name].write(bytes.subarray(at))
    else if (name === "stdout") fail(e as NodeJS.ErrnoException)
    else gone[name] = true
  }
}

/** Why what the command printed could not be written to stdout, if it could not (EPIPE is no failure). */
export const stdoutLost = (): string | undefined => lost

/**
 * Whether stdout still takes output: false once its reader left (EPIPE) or a write failed. A
 * command printing as it reads (a streamed `--json` list) stops reading there.
 */
export const stdoutOpen = (): boolean => !gone.stdout

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
    process[name].write("", (e) => {
      if (name === "stdout") whenWritten(e)
      if (--pending === 0) done()
    })
}
