/**
 * `mkdir -p` that always returns. Node 20's `fs.mkdirSync(dir, { recursive: true })` loops forever
 * at full CPU when a directory exists but refuses new entries with ENOENT (/proc, /proc/self): it
 * creates the parent, sees it exists, and tries the child again. Here each missing level is made
 * once, from the nearest existing ancestor down, and a refusal names the level and why.
 */
import * as fs from "node:fs"
import * as path from "node:path"

const why = (parent: string, e: NodeJS.ErrnoException): string => {
  switch (e.code) {
    case "ENOENT":
      return `${parent} does not take new directories`
    case "EACCES":
    case "EPERM":
      return `${parent} is not writable (${e.code})`
    case "EROFS":
      return `${parent} is on a read-only file system`
    case "ENOTDIR":
      return `${parent} is not a directory`
    default:
      return e.message
  }
}

/** Makes `dir` and its missing parents (`mode` for those it makes); throws an Error saying which level failed and why. */
export const makeDirectory = (dir: string, mode?: number): void => {
  const missing: Array<string> = []
  for (let at = path.resolve(dir); ;) {
    let found: fs.Stats | undefined
    try {
      found = fs.statSync(at)
    } catch (e) {
      const err = e as NodeJS.ErrnoException
      if (err.code !== "ENOENT")
        // eslint-disable-next-line preserve-caught-error -- the message says why; a cause would change what callers print
        throw new Error(
          `cannot create ${dir}: ${err.code === "ENOTDIR" ? `a part of ${at} is a file, not a directory` : err.message}`
        )
    }
    if (found !== undefined) {
      if (!found.isDirectory()) throw new Error(`cannot create ${dir}: ${at} is a file, not a directory`)
      break
    }
    missing.push(at)
    const up = path.dirname(at)
    if (up === at) break
    at = up
  }
  for (const level of missing.reverse()) {
    try {
      fs.mkdirSync(level, mode === undefined ? undefined : { mode })
    } catch (e) {
      const err = e as NodeJS.ErrnoException
      // Made meanwhile by another process: as good as made here.
      if (err.code === "EEXIST" && fs.statSync(level, { throwIfNoEntry: false })?.isDirectory() === true) continue
      // eslint-disable-next-line preserve-caught-error -- the message says why; a cause would change what callers print
      throw new Error(`cannot create ${level}: ${why(path.dirname(level), err)}`)
    }
  }
}
