// The options of `ctx.storage` calls, its configuration by the host, and small shared pieces.

export interface GetOptions {
  readonly allowConcurrency?: boolean
  readonly noCache?: boolean
}
export interface PutOptions {
  readonly allowUnconfirmed?: boolean
  readonly noCache?: boolean
}

export interface StorageConfig {
  readonly now?: () => number
  // The alarm time changed (ms, or null when deleted); the host reschedules its timer.
  readonly onAlarm?: (time: number | null) => void
  // A write failed: the object must be reset.
  readonly onBroken?: (error: Error) => void
  // Holds the object's input gate until the returned release is called: the platform holds it
  // for the whole of a transaction(), so that no other event writes into its savepoint.
  readonly holdInputGate?: () => () => void
  // Names the object in reports of rejections nobody handled (see rejectFrom).
  readonly label?: string
  // deleteAll() deletes the alarm too: the platform's `delete_all_deletes_alarm` (compatibility
  // date 2026-02-24 on, or the flag). Off, it keeps the alarm, as before that date.
  readonly deleteAllDeletesAlarm?: boolean
  // The most the database may hold (the platform's storage limit per object); object code can no
  // longer set max_page_count itself (the platform's authorizer refuses that pragma).
  readonly maxDatabaseBytes?: number
}

export interface Deferred {
  readonly promise: Promise<void>
  resolve: () => void
  reject: (e: Error) => void
}
export const deferred = (): Deferred => {
  let resolve!: () => void
  let reject!: (e: Error) => void
  const promise = new Promise<void>((res, rej) => {
    resolve = res
    reject = rej
  })
  promise.catch(() => undefined)
  return { promise, resolve, reject }
}

// SQLite's primary result code of an error (SQLITE_FULL for SQLITE_FULL, SQLITE_CONSTRAINT for
// SQLITE_CONSTRAINT_FOREIGNKEY), which the platform's messages end with.
const primaryCode = (e: Error): string | undefined => {
  const code = (e as { code?: unknown }).code
  return typeof code === "string" ? /^SQLITE_[A-Z]+/.exec(code)?.[0] : undefined
}

/**
 * A critical error (disk full, I/O error) ended the object's storage: the failed call, and every
 * call after it, throws this. As on the platform, an `Error` with the critical error's message
 * ("database or disk is full: SQLITE_FULL"); the class is edgectl's, for `instanceof`.
 */
export class BrokenStorageError extends Error {
  constructor(cause: Error) {
    const code = primaryCode(cause)
    super(code === undefined || cause.message.endsWith(code) ? cause.message : `${cause.message}: ${code}`, {
      cause
    })
    this.name = "Error"
  }
}

// The platform's words (workerd's actor-sqlite.c++ and sql.c++), so that code catching them
// behaves the same locally and deployed.
export const CRITICAL_COMMIT = "Cannot commit transaction due to an earlier SQL critical error"
export const DELETE_ALL_IN_TRANSACTION = "Cannot call deleteAll() within a transaction"

/**
 * A commit refused by a constraint (deferred foreign keys left violated): the platform resets the
 * object and rolls its storage back to the last commit. SQLite's primary result code ends the
 * message (SQLITE_CONSTRAINT, not the extended SQLITE_CONSTRAINT_FOREIGNKEY), as the platform's.
 */
export class ConstraintResetError extends Error {
  readonly durableObjectReset = true
  constructor(cause: Error) {
    const code = primaryCode(cause) ?? "SQLITE_CONSTRAINT"
    super(
      "Durable Object was reset and rolled back to its last known good state because the application " +
        `left the database in a state where constraints were violated: ${cause.message}: ${code}`,
      { cause }
    )
  }
}

// Promises of `ctx.storage` calls that rejected, and the object that made each: a host reporting
// an unhandled rejection (a put() never awaited) can name the object.
const rejectedBy = new WeakMap<Promise<unknown>, string>()
export const rejectFrom = <T>(label: string | undefined, e: unknown): Promise<T> => {
  const p = Promise.reject(e as Error)
  if (label !== undefined) rejectedBy.set(p, label)
  return p
}
export const rejectionSource = (p: Promise<unknown>): string | undefined => rejectedBy.get(p)
