/**
 * State files hold secrets (ESC secrets, credential hashes, KV values, objects' data): their
 * directories are 700 and the files 600, whatever the umask. A state directory made by an older
 * edgectl (755 and 644) is tightened when it is opened, and the process says so once on stderr.
 * SQLite creates a database's -wal and -shm with the database file's own mode, so a database
 * created here 600 gets private companions.
 */
import * as fs from "node:fs"
import { makeDirectory } from "./make-directory.js"

let told = false

/** `console.error`: in the TUI, Ink prints it above the app instead of through the screen. */
const tell = (file: string, was: number, now: number) => {
  if (told) return
  told = true
  console.error(
    `notice: ${file} was readable by other users (mode ${was.toString(8)}); edgectl's state holds secrets: ` +
      `made it ${now.toString(8)} (state directories are 700, state files 600)`
  )
}

/**
 * Makes `file` (a file or directory) `mode` when others may read it; absent, nothing. `quiet`: a
 * new state being made (by code that created its directory with the umask's mode), nothing to tell.
 */
const tighten = (file: string, mode: number, quiet = false) => {
  let st: fs.Stats
  try {
    st = fs.statSync(file)
  } catch {
    return
  }
  const was = st.mode & 0o777
  if ((was & 0o077) === 0) return
  try {
    fs.chmodSync(file, mode)
  } catch {
    // Someone else's file: opening it says what is wrong if it matters.
    return
  }
  if (!quiet) tell(file, was, mode)
}

/** Creates `dir` (and missing parents) 700, or makes an existing `dir` 700. */
export const privateDir = (dir: string, quiet = false): void => {
  makeDirectory(dir, 0o700)
  tighten(dir, 0o700, quiet)
}

/** Creates `file` empty and 600 unless `create` is false, or makes an existing one 600. */
export const privateFile = (file: string, create = true): void => {
  if (create) fs.closeSync(fs.openSync(file, "a", 0o600))
  tighten(file, 0o600)
}

/** A SQLite database 600, with its -wal and -shm if they are there. */
export const privateDatabase = (file: string): void => {
  privateFile(file)
  privateFile(`${file}-wal`, false)
  privateFile(`${file}-shm`, false)
}

/** Every file directly in `dir` 600 (an object's directory: its databases, log, base and name). */
export const privateFilesIn = (dir: string, quiet = false): void => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }))
    if (e.isFile()) tighten(`${dir}/${e.name}`, 0o600, quiet)
}
