/**
 * The temporary files of bulk spools (./bulk-source.ts): a private directory per spool under the
 * temp directory, named with the pid of the process that made it, removed on every way out of the
 * process, and swept by the next bulk when a process was killed before it could remove its own.
 * They hold every key and value of a bulk (a 53 MB file leaves 52 MB): left behind, they would
 * outlive the store's secure_delete and fill the temp directory run after run.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

const Prefix = "edgectl-bulk-"
/** A dead process's spool younger than this is left alone (another pid namespace sharing the temp directory may still write it). */
const StaleMs = 60_000
const Signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const

/** A new private directory for one spool's file, named for this process. */
export const makeSpoolDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), `${Prefix}${process.pid}-`))

const live = new Set<() => void>()

const releaseAll = () => {
  for (const release of [...live]) {
    try {
      release()
    } catch {
      // One that cannot be removed must not keep the others.
    }
  }
}

/**
 * A signal nobody else handles would end the process without its `exit` event: the spools are
 * removed, then the signal is raised again with no listener left, so the process ends by it as it
 * would have. When another listener handles it (a write under `stoppable`, `edgectl serve`), that
 * listener decides: it ends the process through `exit`, or lets the work's finalizers release.
 */
const onSignal = (signal: NodeJS.Signals) => {
  if (process.listenerCount(signal) > 1) return
  releaseAll()
  unlisten()
  process.kill(process.pid, signal)
}

let listening = false
const listen = () => {
  if (listening) return
  listening = true
  process.on("exit", releaseAll)
  // First, so that it counts the others before a `once` listener (edgectl serve's) takes itself off.
  for (const s of Signals) process.prependListener(s, onSignal)
}
const unlisten = () => {
  if (!listening) return
  listening = false
  process.off("exit", releaseAll)
  for (const s of Signals) process.off(s, onSignal)
}

/** Keeps `release` to run if the process ends before the spool is released (listening only while one is live). */
export const track = (release: () => void): void => {
  live.add(release)
  listen()
}

export const untrack = (release: () => void): void => {
  live.delete(release)
  if (live.size === 0) unlisten()
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    // EPERM: alive, another user's.
    return (e as NodeJS.ErrnoException).code !== "ESRCH"
  }
}

/** The newest change to the directory or a file in it, in ms. */
const lastChange = (dir: string) => {
  let newest = fs.statSync(dir).mtimeMs
  for (const name of fs.readdirSync(dir)) newest = Math.max(newest, fs.statSync(path.join(dir, name)).mtimeMs)
  return newest
}

/**
 * Removes the spools of processes that are gone (killed with SIGKILL, or by the system) and that
 * nothing changed for a minute. Returns how many were removed. Never fails: what cannot be read or
 * removed (another user's) is left.
 */
const sweepStaleSpools = (tmp = os.tmpdir(), now = Date.now()): number => {
  let names: Array<string>
  try {
    names = fs.readdirSync(tmp)
  } catch {
    return 0
  }
  let removed = 0
  for (const name of names) {
    const m = /^edgectl-bulk-(\d+)-/.exec(name)
    if (m === null) continue
    const pid = Number(m[1])
    if (pid === process.pid || alive(pid)) continue
    const dir = path.join(tmp, name)
    try {
      if (now - lastChange(dir) < StaleMs) continue
      fs.rmSync(dir, { recursive: true, force: true })
      removed++
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
  return removed
}

let swept = false
/** `sweepStaleSpools` once per process, at its first bulk. */
export const sweepOnce = (): void => {
  if (swept) return
  swept = true
  sweepStaleSpools()
}
