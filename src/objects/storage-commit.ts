// The implicit transaction of `ctx.storage` (./storage.ts): write coalescing, the output gate, and
// the failure that resets the object.
//
// The first write opens an SQLite transaction that every write joins until the event loop turns
// (setImmediate); then it commits, its pages go to the recovery log, and whoever waits for the
// commit (the output gate, sync()) is released. A failed write or commit rolls it back and breaks
// the storage for good: every later call throws, and the host resets the object.
import type Database from "better-sqlite3"
import { afterCommit } from "./database.js"
import type { PageLog } from "./pitr.js"
import { BrokenStorageError, ConstraintResetError, type Deferred, deferred } from "./storage-options.js"

export interface CommitHooks {
  // A transaction() is open: the implicit transaction waits for it to end before committing.
  readonly inSavepoint: () => boolean
  // The storage broke (after the rollback): caches to drop, the host to tell.
  readonly failed: (error: Error) => void
}

export class ImplicitTransaction {
  private open = false
  private scheduled = false
  private commit: Deferred | null = null
  private confirmNeeded = false
  private brokenBy: Error | null = null
  private closedFlag = false
  private readonly begin: Database.Statement
  private readonly commitStmt: Database.Statement
  private readonly rollbackStmt: Database.Statement

  constructor(
    private readonly db: Database.Database,
    private readonly log: PageLog,
    private readonly file: string,
    private readonly hooks: CommitHooks
  ) {
    this.begin = db.prepare("BEGIN")
    this.commitStmt = db.prepare("COMMIT")
    this.rollbackStmt = db.prepare("ROLLBACK")
  }

  get broken(): Error | null {
    return this.brokenBy
  }
  get closed(): boolean {
    return this.closedFlag
  }
  get isOpen(): boolean {
    return this.open
  }

  usable(): void {
    if (this.brokenBy !== null) throw new BrokenStorageError(this.brokenBy)
    if (this.closedFlag) throw new Error("this object's storage is closed (the object was aborted or shut down)")
  }

  // Before every write: opens the implicit transaction if none is, and schedules its commit.
  beforeWrite(unconfirmed: boolean): void {
    this.usable()
    if (!unconfirmed) this.confirmNeeded = true
    if (this.open) return
    this.begin.run()
    this.open = true
    this.commit = deferred()
    this.scheduleFlush()
  }

  // After the outermost transaction() ends: the commit it held back is due.
  afterSavepoints(): void {
    if (this.open) this.scheduleFlush()
  }

  private scheduleFlush(): void {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(this.flushSoon)
  }

  private readonly flushSoon = (): void => {
    this.scheduled = false
    if (this.hooks.inSavepoint()) return
    this.flush()
  }

  flush(): void {
    if (!this.open) return
    const done = this.commit!
    try {
      this.commitStmt.run()
      this.open = false
      this.commit = null
      this.confirmNeeded = false
      afterCommit(this.db, this.log, this.file)
    } catch (e) {
      // A constraint checked at commit (deferred foreign keys) is the application's doing: the
      // platform resets the object with its own message.
      const code = (e as { code?: unknown }).code
      this.fail(
        typeof code === "string" && code.startsWith("SQLITE_CONSTRAINT")
          ? new ConstraintResetError(e as Error)
          : (e as Error)
      )
      return
    }
    done.resolve()
  }

  fail(error: Error): void {
    if (this.brokenBy !== null) return
    this.brokenBy = error
    if (this.db.inTransaction) {
      try {
        this.rollbackStmt.run()
      } catch {
        // The transaction may already be gone with the failure.
      }
    }
    this.open = false
    const waiting = this.commit
    this.commit = null
    waiting?.reject(error instanceof ConstraintResetError ? error : new BrokenStorageError(error))
    this.hooks.failed(error)
  }

  // A failed SQLite write leaves the object's storage in doubt: reset it.
  guarded<T>(f: () => T): T {
    try {
      return f()
    } catch (e) {
      this.fail(e as Error)
      throw new BrokenStorageError(e as Error)
    }
  }

  // The output gate: resolves when every confirmed write issued so far is committed.
  outputGate(): Promise<void> {
    if (this.brokenBy !== null) return Promise.reject(new BrokenStorageError(this.brokenBy))
    if (!this.open || !this.confirmNeeded) return Promise.resolve()
    return this.commit!.promise
  }

  sync(): Promise<void> {
    if (this.brokenBy !== null) return Promise.reject(new BrokenStorageError(this.brokenBy))
    // Inside a transaction, as on the platform, the commits before it (transaction() made one).
    if (!this.open || this.hooks.inSavepoint()) return Promise.resolve()
    const p = this.commit!.promise
    this.flush()
    return p
  }

  /**
   * Rolls back what is not committed (the implicit transaction and any savepoint in it), without
   * breaking the storage, and returns whoever waited for its commit, to be told. Returns whether
   * anything was rolled back too.
   */
  abandon(): { rolledBack: boolean; waiting: Deferred | null } {
    const rolledBack = this.db.inTransaction
    if (rolledBack) this.rollbackStmt.run()
    this.open = false
    this.confirmNeeded = false
    const waiting = this.commit
    this.commit = null
    return { rolledBack, waiting }
  }

  markClosed(): void {
    this.closedFlag = true
  }
}
