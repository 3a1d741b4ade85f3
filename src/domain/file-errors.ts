/**
 * Why a file could not be read or written, in the words edgectl's messages use, from node's error
 * codes: the one place that tests them (`ENOENT`, `EISDIR`, …) for the commands, the cores and
 * the services alike.
 */
import * as fs from "node:fs"
import * as path from "node:path"

const codeOf = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | null | undefined)?.code

/** Nothing at that path (ENOENT): a file that may be absent is not an error there. */
export const isMissing = (e: unknown): boolean => codeOf(e) === "ENOENT"

/** `no such file`, `it is a directory`, `permission denied`, or the system's message: after `cannot read FILE: `. */
export const readProblem = (e: unknown): string => {
  switch (codeOf(e)) {
    case "ENOENT":
      return "no such file"
    case "EISDIR":
      return "it is a directory"
    case "EACCES":
      return "permission denied"
    default:
      return e instanceof Error ? e.message : String(e)
  }
}

/**
 * The same for a file named in an option (src/cli/files.ts): a path through a file is no such
 * file either, and the system's words lose their code and path (`ENOSPC: no space left on device,
 * write` → `no space left on device`).
 */
export const fileProblem = (e: unknown): string => {
  const err = e as NodeJS.ErrnoException
  switch (err.code) {
    case "ENOENT":
    case "ENOTDIR":
      return "no such file"
    case "EISDIR":
      return "it is a directory, not a file"
    case "EACCES":
      return "permission denied"
    default:
      return /^[A-Z]+: (.*?)(?:, \w+(?: '.*')?)?$/.exec(err.message)?.[1] ?? err.message
  }
}

/**
 * Why `file` could not be opened for writing, after `cannot write FILE: `: its directory missing
 * (ENOENT on a write is the directory, not the file), a directory where the file goes, no right,
 * a read-only or full disk.
 */
export const writeProblem = (file: string, e: unknown): string => {
  switch (codeOf(e)) {
    case "ENOENT": {
      // Or a directory that takes no new files (/proc answers ENOENT too).
      const dir = path.dirname(path.resolve(file))
      return fs.existsSync(dir) ? `${dir} takes no new files` : `no such directory: ${dir}`
    }
    case "ENOTDIR":
      return "a part of its path is a file, not a directory"
    case "EROFS":
      return "the file system is read-only"
    default:
      return fileProblem(e)
  }
}
