/**
 * One process at a time opens an object's storage: its page log and its WAL assume a single writer,
 * and a second process writing behind a running `edgectl objects dev` would also leave that host's
 * cache stale. The owner writes `owner.lock` (its pid and command line) in the object's directory;
 * a lock whose process is gone (a crash, a kill) is taken over. Inside one process the lock is
 * counted, so that an object restarted by its host may open before the old instance has closed.
 */
import * as fs from "node:fs"
import * as path from "node:path"

export const LOCK_FILE = "owner.lock"

/** The storage is open in another process; the message names it and what to do. */
export class ObjectBusyError extends Error {
  override readonly name = "ObjectBusyError"
}

const held = new Map<string, number>()

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

const holderOf = (file: string): { pid: number; command: string } | undefined => {
  try {
    const h = JSON.parse(fs.readFileSync(file, "utf8")) as { pid?: unknown; command?: unknown }
    return typeof h.pid === "number" ? { pid: h.pid, command: typeof h.command === "string" ? h.command : "" } : undefined
  } catch {
    return undefined
  }
}

/** Takes the object's lock (or throws ObjectBusyError); the returned function releases it once. */
export const acquireOwner = (dir: string): (() => void) => {
  const file = path.join(dir, LOCK_FILE)
  const count = held.get(file) ?? 0
  if (count === 0) {
    const me = JSON.stringify({ pid: process.pid, command: ["edgectl", ...process.argv.slice(2)].join(" ").slice(0, 300) })
    for (let attempt = 0; ; attempt++) {
      try {
        fs.writeFileSync(file, me, { flag: "wx" })
        break
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw e
        const holder = holderOf(file)
        if (holder !== undefined && holder.pid !== process.pid && alive(holder.pid)) {
          throw new ObjectBusyError(
            `the object's storage (${dir}) is open in another process: pid ${holder.pid} (${holder.command || "unknown command"}); ` +
              `stop it, or reach the object through it (e.g. the HTTP endpoint of \`edgectl objects dev\`); ` +
              `if that process is not edgectl, remove ${file}`
          )
        }
        // Left by a process that is gone: take it over.
        fs.rmSync(file, { force: true })
      }
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
