/**
 * SQLite's answers that tell of the machine, not of a bug: a full disk, a lock another process held
 * past the busy timeout, a disk that answered an I/O error, a file made read-only. The local
 * platform answers each with its own status and a sentence a user can act on (src/server/errors.ts),
 * where it answered "internal error of the local platform" before; the CLI and the TUI recognise the
 * sentence to give the way out (src/cli/hints.ts). A damaged file is native-module.ts's.
 */

/** What the platform answers for a store condition: the status and the message of its envelope. */
export interface StoreCondition {
  readonly status: number
  readonly message: string
}

/** How long a write waits on another process's lock (src/store/commit-worker.ts `configure`). */
export const BusyTimeoutMs = 5000

const conditions: ReadonlyArray<{
  readonly code: RegExp
  readonly status: number
  readonly says: string
  readonly hint: string
}> = [
  {
    code: /^SQLITE_FULL$/,
    // 507 Insufficient Storage: trying again changes nothing until space is freed.
    status: 507,
    says: "the disk that holds the state directory is full",
    hint: "free space on the disk that holds the state directory, or pick another with --persist-to DIR"
  },
  {
    code: /^SQLITE_BUSY/,
    status: 503,
    says: `another process held the state directory's lock for over ${BusyTimeoutMs / 1000} s`,
    hint: "another edgectl (serve, the TUI, a command) is writing the same state directory: try again when it is done"
  },
  {
    code: /^SQLITE_READONLY/,
    status: 500,
    says: "the state directory's database cannot be written (read-only)",
    hint: "make the state directory and its files writable by this user, or pick another with --persist-to DIR"
  },
  {
    code: /^SQLITE_IOERR/,
    status: 500,
    says: "the disk that holds the state directory answered an I/O error",
    hint: "check the disk that holds the state directory (space, errors in the system log), or pick another with --persist-to DIR"
  }
]

/** SQLite's extended result code on an error or on one of its causes (SqlError wraps SqliteError). */
const sqliteCode = (u: unknown): string | undefined => {
  const seen = new Set<unknown>()
  for (let e = u; typeof e === "object" && e !== null && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e)
    const code = (e as { code?: unknown }).code
    if (typeof code === "string" && code.startsWith("SQLITE_")) return code
  }
  return undefined
}

/**
 * The condition a failure of the store is, or undefined for anything else (a bug: internal error).
 * `write`: the request was a write, refused whole (the store's writes are transactions).
 */
export const storeCondition = (u: unknown, write = false): StoreCondition | undefined => {
  const code = sqliteCode(u)
  if (code === undefined) return undefined
  const c = conditions.find((x) => x.code.test(code))
  return c === undefined
    ? undefined
    : { status: c.status, message: `${c.says} (${code})${write ? ": nothing was written" : ""}` }
}

/** The way out of a condition, from a message that carries one (an envelope's, or a start failure's). */
export const storeConditionHint = (message: string): string | undefined => {
  const code = /\((SQLITE_[A-Z_]+)\)/.exec(message)?.[1] ?? sqliteMessageCode(message)
  return code === undefined ? undefined : conditions.find((x) => x.code.test(code))?.hint
}

/** SQLite's own sentences, as a store that fails to open says them (no code in the text). */
const sqliteMessageCode = (message: string): string | undefined =>
  /database or disk is full/.test(message)
    ? "SQLITE_FULL"
    : /database is locked/.test(message)
      ? "SQLITE_BUSY"
      : /attempt to write a readonly database/.test(message)
        ? "SQLITE_READONLY"
        : /disk I\/O error/.test(message)
          ? "SQLITE_IOERR"
          : undefined
