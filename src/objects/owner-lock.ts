/**
 * One process at a time opens an object's storage: its page log and its WAL assume a single writer,
 * and a second process writing behind a running `edgectl objects dev` would also leave that host's
 * cache stale. The owner writes `owner.lock` (its pid, the pid's start time and its command line)
 * in the object's directory; a lock whose process is gone (a crash, a kill), or whose pid now
 * names another process (the start time differs: the pid was reused), is taken over. Inside one
 * process the lock is counted, so that an object restarted by its host may open before the old
 * instance has closed.
 *
 * The lock's text appears whole or not at all (written to a private file, then linked into place:
 * a reader never sees a half-written lock and takes it for a dead one). Taking over a dead lock is
 * serialized by a second lock, `owner.lock.takeover`, held for the few syscalls of the takeover:
 * without it, two processes that both judged the same lock dead could each remove it and both
 * believe they won (the second removing the first one's new lock).
 */
import * as fs from "node:fs"
import * as path from "node:path"

export const LOCK_FILE = "owner.lock"
const TAKEOVER = `${LOCK_FILE}.takeover`
// A takeover is a few syscalls; one still held after this long belongs to a stopped process.
const TAKEOVER_WAIT_MS = 2000

/** The storage is open in another process; the message names it and what to do. */
export class ObjectBusyError extends Error {
  override readonly name = "ObjectBusyError"
}

export interface LockHolder {
  readonly pid: number
  // /proc/<pid>/stat field 22 (clock ticks after boot) where the system has it: a pid reused by a
  // later process has another start time.
  readonly start?: string
  readonly command: string
}

const held = new Map<string, number>()

/** The start time of a process as Linux records it; undefined where there is no /proc. */
export const processStart = (pid: number): string | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    // Field 2 (the command) may hold spaces and parentheses: count fields after its last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]
  } catch {
    return undefined
  }
}

const myStart = processStart(process.pid)

/** Whether the process that wrote a lock (or a host's registration) is still running. */
export const holderAlive = (h: { pid: number; start?: string | undefined }): boolean => {
  if (h.pid === process.pid) return h.start === undefined || myStart === undefined || h.start === myStart
  try {
    process.kill(h.pid, 0)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false
  }
  if (h.start === undefined) return true
  const now = processStart(h.pid)
  return now === undefined || now === h.start
}

const parseHolder = (text: string | undefined): LockHolder | undefined => {
  if (text === undefined) return undefined
  try {
    const h = JSON.parse(text) as { pid?: unknown; start?: unknown; command?: unknown }
    if (typeof h.pid !== "number") return undefined
    return {
      pid: h.pid,
      ...(typeof h.start === "string" ? { start: h.start } : {}),
      command: typeof h.command === "string" ? h.command : ""
    }
  } catch {
    return undefined
  }
}

const readText = (file: string): string | undefined => {
  try {
    return fs.readFileSync(file, "utf8")
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw e
  }
}

/** The process holding an object's lock, if one is running. */
export const lockHolder = (dir: string): LockHolder | undefined => {
  const h = parseHolder(readText(path.join(dir, LOCK_FILE)))
  return h !== undefined && holderAlive(h) ? h : undefined
}

const me = (): string =>
  JSON.stringify({
    pid: process.pid,
    ...(myStart !== undefined ? { start: myStart } : {}),
    command: ["edgectl", ...process.argv.slice(2)].join(" ").slice(0, 300)
  })

let unique = 0
const privateCopy = (file: string, text: string): string => {
  const tmp = `${file}.${process.pid}.${++unique}.tmp`
  fs.writeFileSync(tmp, text, { mode: 0o600 })
  return tmp
}

// Creates `file` holding `text` if it does not exist, atomically; false if it exists.
const createWhole = (file: string, text: string): boolean => {
  const tmp = privateCopy(file, text)
  try {
    fs.linkSync(tmp, file)
    return true
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false
    throw e
  } finally {
    fs.rmSync(tmp, { force: true })
  }
}

// Removes `file` only if it still holds `text` (a dead takeover lock): moved aside first, put back
// if another process replaced it meanwhile.
const removeIfStill = (file: string, text: string): void => {
  const aside = `${file}.${process.pid}.${++unique}.stale`
  try {
    fs.renameSync(file, aside)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return
    throw e
  }
  if (readText(aside) !== text) {
    try {
      fs.linkSync(aside, file)
    } catch {
      // Yet another takeover lock appeared: it is the one that counts now.
    }
  }
  fs.rmSync(aside, { force: true })
}

const pause = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/** How an ObjectBusyError's message for `dir` begins (the CLI recognizes a refusal by it). */
export const busyPrefix = (dir: string): string => `the object's storage (${dir}) is open in another process: pid `

const busy = (dir: string, file: string, holder: LockHolder): ObjectBusyError =>
  new ObjectBusyError(
    `${busyPrefix(dir)}${holder.pid} (${holder.command || "unknown command"}); ` +
      `stop it, or reach the object through it (e.g. the HTTP endpoint of \`edgectl objects dev\`); ` +
      `if that process is not edgectl, remove ${file}`
  )

// Replaces the dead lock `judged` (the text read from `file`) with ours, under the takeover lock.
// Returns false when the lock changed meanwhile (the caller looks again).
const takeOver = (dir: string, file: string, judged: string, mine: string): boolean => {
  const guard = path.join(dir, TAKEOVER)
  const deadline = Date.now() + TAKEOVER_WAIT_MS
  while (!createWhole(guard, mine)) {
    const text = readText(guard)
    if (text === undefined) continue
    const h = parseHolder(text)
    if (h === undefined || !holderAlive(h) || Date.now() > deadline) removeIfStill(guard, text)
    else pause(2)
  }
  try {
    // Only a takeover replaces an existing lock, and we hold the only right to take over.
    if (readText(file) !== judged) return false
    const tmp = privateCopy(file, mine)
    fs.renameSync(tmp, file)
    return true
  } finally {
    fs.rmSync(guard, { force: true })
  }
}

/** Takes the object's lock (or throws ObjectBusyError); the returned function releases it once. */
export const acquireOwner = (dir: string): (() => void) => {
  const file = path.join(dir, LOCK_FILE)
  const count = held.get(file) ?? 0
  if (count === 0) {
    const mine = me()
    for (;;) {
      if (createWhole(file, mine)) break
      const text = readText(file)
      if (text === undefined) continue
      const holder = parseHolder(text)
      // A lock naming this very process that it does not count was leaked by it: take it over.
      if (holder !== undefined && holder.pid !== process.pid && holderAlive(holder)) throw busy(dir, file, holder)
      if (takeOver(dir, file, text, mine)) break
    }
  }
  held.set(file, count + 1)
  let released = false
  return () => {
    if (released) return
    released = true
    const left = (held.get(file) ?? 1) - 1
    if (left > 0) return void held.set(file, left)
    held.delete(file)
    fs.rmSync(file, { force: true })
  }
}
