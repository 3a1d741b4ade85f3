/**
 * A store that cannot load its native module (better-sqlite3 built for another Node) fails with a
 * message of src/store/native.ts; the CLI and the TUI recognise it here to hint the rebuild,
 * without loading the store. So for a store whose file is damaged (SQLite's own messages).
 */

/** Recognises the message of `nativeModuleProblem` (src/store/native.ts) in an error that carries it. */
export const NativeModule = /the native SQLite module \(better-sqlite3\) was built for/
export const RebuildHint = "run `npm rebuild better-sqlite3` in edgectl's directory, with the Node you use now"

/**
 * A state file that is not SQLite or was cut short: SQLite's SQLITE_NOTADB and SQLITE_CORRUPT. Issue
 * 29: such a store was told "the state directory must be writable", which it was.
 */
export const DamagedStore = /file is not a database|database disk image is malformed|SQLITE_(NOTADB|CORRUPT)\b/
export const DamagedStoreHint =
  "the state directory's database (platform.sqlite) is damaged: move it aside (a new one is made), or pick another directory with --persist-to DIR"

/**
 * A state directory deleted (or moved) while a process had its store open: SQLite goes on writing
 * to the unlinked file, so every later write would say it saved what no one will read again
 * (issue 29). The local platform refuses writes then (src/server/auth.ts), and the Objects screen
 * its own; the TUI gives the hint below.
 */
export const stateDirGone = (dir: string): string =>
  `the state directory ${dir} is gone (deleted or moved while edgectl ran): nothing was written`
export const StateDirGone = /the state directory .* is gone \(deleted or moved while edgectl ran\)/
export const StateDirGoneHint =
  "q quits; start edgectl again to make a new state (the demo world), or put the directory back first to keep what it held"
