// `ctx.storage`: the Promise API of spec area F over one SQLite database per object.
//
// Write coalescing: the first write opens an implicit SQLite transaction, and every write until
// the event loop turns (setImmediate) joins it; then it commits, its pages go to the recovery log,
// and the output gate opens. So writes with no await between them (and, more than the platform
// promises, awaited writes in the same turn) are committed together or not at all.
import type Database from "better-sqlite3"
import * as fs from "node:fs"
import { afterCommit, deleteDatabase, openObjectDatabase } from "./database.js"
import { acquireOwner } from "./owner-lock.js"
import { AlarmSlot } from "./storage-alarm.js"
import { KvTable, type ListOptions } from "./storage-kv.js"
import { checkCount, checkKey, encodeValue, type Stored } from "./limits.js"
import type { PageLog } from "./pitr.js"
import { SqlStorage } from "./sql.js"
import {
  BrokenStorageError,
  ConstraintResetError,
  CRITICAL_COMMIT,
  type Deferred,
  deferred,
  DELETE_ALL_IN_TRANSACTION,
  type GetOptions,
  type PutOptions,
  rejectFrom,
  type StorageConfig
} from "./storage-options.js"
import { type Savepoint, Savepoints, Transaction } from "./transaction.js"

export { BrokenStorageError, type GetOptions, type PutOptions, type StorageConfig } from "./storage-options.js"

export class ObjectStorage {
  readonly sql: SqlStorage
  readonly restoredPages: number | null
  private readonly db: Database.Database
  private readonly log: PageLog
  private readonly file: string
  private readonly kv: KvTable
  private readonly now: () => number
  private readonly config: StorageConfig
  private open = false
  private scheduled = false
  private commit: Deferred | null = null
  private confirmNeeded = false
  private readonly savepoints: Savepoints
  private broken: Error | null = null
  private closed = false
  private readonly alarm: AlarmSlot
  // alarm() is running and nothing has set or deleted the alarm since it started.
  private alarmRunning = false
  private readonly begin: Database.Statement
  private readonly commitStmt: Database.Statement
  private readonly rollbackStmt: Database.Statement
  private readonly release: () => void

  constructor(dir: string, config: StorageConfig = {}) {
    this.config = config
    this.now = config.now ?? Date.now
    // An existing object's directory is made private by openObjectDatabase.
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    this.release = acquireOwner(dir)
    let opened: ReturnType<typeof openObjectDatabase>
    try {
      opened = openObjectDatabase(dir, this.now)
    } catch (e) {
      this.release()
      throw e
    }
    this.db = opened.db
    this.log = opened.log
    this.file = opened.file
    this.restoredPages = opened.restoredPages
    this.kv = new KvTable(this.db)
    this.alarm = new AlarmSlot(this.db)
    this.begin = this.db.prepare("BEGIN")
    this.commitStmt = this.db.prepare("COMMIT")
    this.rollbackStmt = this.db.prepare("ROLLBACK")
    this.savepoints = new Savepoints(
      this.db,
      () => this.broken !== null || this.closed,
      () => {
        this.kv.forgetAll()
        this.sql.clearCache()
        this.alarm.forget()
      }
    )
    this.sql = new SqlStorage(this.db, { beforeWrite: () => this.beforeWrite(false), fatal: (e) => this.fail(e) })
  }

  // --- write coalescing and gates -------------------------------------------------------------

  private usable(): void {
    if (this.broken !== null) throw new BrokenStorageError(this.broken)
    if (this.closed) throw new Error("this object's storage is closed (the object was aborted or shut down)")
  }

  private beforeWrite(unconfirmed: boolean): void {
    this.usable()
    if (!unconfirmed) this.confirmNeeded = true
    if (this.open) return
    this.begin.run()
    this.open = true
    this.commit = deferred()
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(this.flushSoon)
    }
  }

  private readonly flushSoon = (): void => {
    this.scheduled = false
    if (this.savepoints.depth > 0) return
    this.flush()
  }

  private flush(): void {
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

  private fail(error: Error): void {
    if (this.broken !== null) return
    this.broken = error
    if (this.db.inTransaction) {
      try {
        this.rollbackStmt.run()
      } catch {
        // The transaction may already be gone with the failure.
      }
    }
    this.open = false
    this.kv.forgetAll()
    const waiting = this.commit
    this.commit = null
    waiting?.reject(error instanceof ConstraintResetError ? error : new BrokenStorageError(error))
    this.config.onBroken?.(error)
  }

  get isBroken(): Error | null {
    return this.broken
  }

  // The output gate: resolves when every confirmed write issued so far is committed.
  outputGate(): Promise<void> {
    if (this.broken !== null) return Promise.reject(new BrokenStorageError(this.broken))
    if (!this.open || !this.confirmNeeded) return Promise.resolve()
    return this.commit!.promise
  }

  sync(): Promise<void> {
    if (this.broken !== null) return Promise.reject(new BrokenStorageError(this.broken))
    // Inside a transaction, as on the platform, the commits before it (transaction() made one).
    if (!this.open || this.savepoints.depth > 0) return Promise.resolve()
    const p = this.commit!.promise
    this.flush()
    return p
  }

  /**
   * Closes the storage, committing the pending writes, or with `discard` (ctx.abort()) rolling
   * them back: the platform's abort cancels the writes not yet flushed, and whoever waits for
   * them gets `discard`.
   */
  close(discard?: Error): void {
    if (this.closed) return
    if (discard === undefined && this.broken === null && this.savepoints.depth === 0) this.flush()
    // A failed commit closes the storage itself (through onBroken).
    if (this.closed) return
    if (this.db.inTransaction) {
      this.rollbackStmt.run()
      // A discarded setAlarm()/deleteAlarm(): the host's timer goes back to the stored alarm.
      this.alarm.forget()
      if (discard !== undefined) this.config.onAlarm?.(this.alarm.read())
    }
    this.open = false
    const waiting = this.commit
    this.commit = null
    waiting?.reject(discard ?? new Error("the object's storage was closed before its writes were committed"))
    this.closed = true
    try {
      this.db.close()
      this.log.walReset()
      this.log.close()
    } finally {
      this.release()
    }
  }

  // --- key-value ----------------------------------------------------------------------------

  get(key: string, options?: GetOptions): Promise<unknown>
  get(keys: Array<string>, options?: GetOptions): Promise<Map<string, unknown>>
  get(keys: string | Array<string>, options?: GetOptions): Promise<unknown> {
    try {
      this.usable()
      const noCache = options?.noCache === true
      if (!Array.isArray(keys)) return Promise.resolve(this.kv.read(checkKey(keys, "get"), noCache))
      checkCount(keys.length, "get", "keys")
      for (const k of keys) checkKey(k, "get")
      return Promise.resolve(this.kv.readMany([...new Set(keys)], noCache))
    } catch (e) {
      return rejectFrom(this.config.label, e)
    }
  }

  put(key: string, value: unknown, options?: PutOptions): Promise<void>
  put(entries: Record<string, unknown>, options?: PutOptions): Promise<void>
  put(a: string | Record<string, unknown>, b?: unknown, c?: PutOptions): Promise<void> {
    try {
      if (typeof a === "string") {
        this.putOne(a, b, c)
        return Promise.resolve()
      }
      if (a === null || typeof a !== "object")
        throw new TypeError("put(): expected a key and a value, or an object of entries")
      const options = b as PutOptions | undefined
      const keys = Object.keys(a)
      checkCount(keys.length, "put", "entries")
      // Every entry is checked before anything is written.
      const pairs = new Array<string | Stored>(keys.length * 2)
      for (let i = 0; i < keys.length; i++) {
        const k = checkKey(keys[i], "put")
        pairs[2 * i] = k
        pairs[2 * i + 1] = encodeValue(a[k], "put", k)
      }
      this.beforeWrite(options?.allowUnconfirmed === true)
      this.guarded(() => this.kv.writeMany(pairs, options?.noCache === true))
      return Promise.resolve()
    } catch (e) {
      return rejectFrom(this.config.label, e)
    }
  }

  private putOne(key: string, value: unknown, options?: PutOptions): void {
    checkKey(key, "put")
    const buf = encodeValue(value, "put", key)
    this.beforeWrite(options?.allowUnconfirmed === true)
    this.guarded(() => this.kv.write(key, buf, options?.noCache === true))
  }

  // A failed SQLite write leaves the object's storage in doubt: reset it.
  private guarded<T>(f: () => T): T {
    try {
      return f()
    } catch (e) {
      this.fail(e as Error)
      throw new BrokenStorageError(e as Error)
    }
  }

  delete(key: string, options?: PutOptions): Promise<boolean>
  delete(keys: Array<string>, options?: PutOptions): Promise<number>
  delete(keys: string | Array<string>, options?: PutOptions): Promise<boolean | number> {
    try {
      const noCache = options?.noCache === true
      if (!Array.isArray(keys)) {
        checkKey(keys, "delete")
        this.beforeWrite(options?.allowUnconfirmed === true)
        return Promise.resolve(this.guarded(() => this.kv.delete(keys, noCache)))
      }
      checkCount(keys.length, "delete", "keys")
      for (const k of keys) checkKey(k, "delete")
      this.beforeWrite(options?.allowUnconfirmed === true)
      let n = 0
      this.guarded(() => {
        for (const k of new Set(keys)) if (this.kv.delete(k, noCache)) n++
      })
      return Promise.resolve(n)
    } catch (e) {
      return rejectFrom(this.config.label, e)
    }
  }

  /**
   * As the platform: deletes the database altogether (the key-value data, every user table, view,
   * index and trigger, however linked by foreign keys). Keeps the alarm, unless the compatibility
   * settings say otherwise (deleteAllDeletesAlarm). Not inside a transaction; the implicit
   * transaction open is rolled back first (its writes would be deleted anyway), and the deletion
   * is committed at once.
   */
  deleteAll(_options?: PutOptions): Promise<void> {
    try {
      this.usable()
      if (this.savepoints.depth > 0) throw new Error(DELETE_ALL_IN_TRANSACTION)
      // Read before the rollback: an alarm set by this implicit transaction stays set.
      const alarm = this.config.deleteAllDeletesAlarm === true ? null : this.readAlarm()
      this.guarded(() => {
        if (this.open) this.rollbackStmt.run()
        this.open = false
        this.confirmNeeded = false
        const waiting = this.commit
        this.commit = null
        deleteDatabase(this.db, () => this.alarm.write(alarm))
        this.kv.cleared()
        this.sql.clearCache()
        afterCommit(this.db, this.log, this.file)
        // The alarm deleted by the compatibility setting counts as touched for a running alarm().
        if (this.config.deleteAllDeletesAlarm === true) this.alarmRunning = false
        if (alarm === null) this.config.onAlarm?.(null)
        waiting?.resolve()
      })
      return Promise.resolve()
    } catch (e) {
      return rejectFrom(this.config.label, e)
    }
  }

  list(options: ListOptions = {}): Promise<Map<string, unknown>> {
    try {
      this.usable()
      if (options.start !== undefined && options.startAfter !== undefined) {
        throw new TypeError("list() cannot be called with both start and startAfter values.")
      }
      if (options.limit !== undefined && !(Number.isInteger(options.limit) && options.limit > 0)) {
        throw new TypeError(`List limit must be positive (got ${options.limit}).`)
      }
      return Promise.resolve(this.kv.list(options))
    } catch (e) {
      return rejectFrom(this.config.label, e)
    }
  }

  // --- transactions ---------------------------------------------------------------------------
  //
  // As the platform's: each transaction is a savepoint named for its depth; one started inside
  // another (from its closure) nests in it, depth + 1. The outermost transaction() commits the
  // implicit transaction first, so a failure inside it never takes earlier writes with it.
  // transactionSync() joins the implicit transaction (the platform's does too). The input gate
  // stays held while a transaction() is open, as on the platform (config.holdInputGate).

  transaction<T>(closure: (txn: Transaction) => Promise<T> | T): Promise<T> {
    try {
      this.usable()
      const outermost = this.savepoints.depth === 0
      if (outermost) this.flush()
      this.beforeWrite(false)
      const frame = this.savepoints.begin("_cf_savepoint_")
      // While the closure awaits a timer or a fetch(), no other event may come in: its writes
      // would land inside this savepoint (and go with its rollback) or nest in it.
      const release = outermost ? this.config.holdInputGate?.() : undefined
      const run = this.runTransaction(closure, frame)
      return release === undefined ? run : run.finally(release)
    } catch (e) {
      return rejectFrom(this.config.label, e)
    }
  }

  private async runTransaction<T>(closure: (txn: Transaction) => Promise<T> | T, frame: Savepoint): Promise<T> {
    const txn = new Transaction(this, () => this.savepoints.end(frame, true))
    try {
      const result = await closure(txn)
      txn.finish()
      // A critical error (disk full) rolled everything back: nothing to commit, and the caller
      // gets that error, as on the platform (a txn.rollback() after it changes nothing).
      if (this.broken !== null) throw this.broken
      if (!txn.rolledBack) this.savepoints.end(frame, false)
      return result
    } catch (e) {
      txn.finish()
      if (!txn.rolledBack) this.savepoints.end(frame, true)
      throw e
    } finally {
      this.savepoints.drop(frame)
      if (this.savepoints.depth === 0 && this.open && !this.scheduled) {
        this.scheduled = true
        setImmediate(this.flushSoon)
      }
    }
  }

  // Synchronous transaction over SQL and key-value writes made inside the callback.
  transactionSync<T>(callback: () => T): T {
    this.beforeWrite(false)
    const frame = this.savepoints.begin("_cf_sync_savepoint_")
    try {
      const result = callback()
      if (this.broken !== null) throw new Error(CRITICAL_COMMIT)
      this.savepoints.end(frame, false)
      return result
    } catch (e) {
      this.savepoints.end(frame, true)
      throw e
    } finally {
      this.savepoints.drop(frame)
    }
  }

  // --- alarms -------------------------------------------------------------------------------

  getAlarm(_options?: { allowConcurrency?: boolean }): Promise<number | null> {
    try {
      this.usable()
      // As on the platform: null while alarm() runs, unless the alarm was set again since.
      return Promise.resolve(this.alarmRunning ? null : this.readAlarm())
    } catch (e) {
      return rejectFrom(this.config.label, e)
    }
  }

  readAlarm(): number | null {
    return this.alarm.read()
  }

  setAlarm(time: number | Date, options?: { allowUnconfirmed?: boolean }): Promise<void> {
    try {
      const ms = time instanceof Date ? time.getTime() : typeof time === "number" ? time : NaN
      if (!Number.isFinite(ms)) {
        throw new TypeError(
          `setAlarm(): the value cannot be converted because it is not a valid Date (got ${String(time)}).`
        )
      }
      // As on the platform: a time in the past means now.
      const at = Math.max(Math.trunc(ms), this.now())
      this.beforeWrite(options?.allowUnconfirmed === true)
      this.guarded(() => this.alarm.write(at))
      this.alarmRunning = false
      this.config.onAlarm?.(at)
      return Promise.resolve()
    } catch (e) {
      return rejectFrom(this.config.label, e)
    }
  }

  deleteAlarm(options?: { allowUnconfirmed?: boolean }): Promise<void> {
    try {
      this.beforeWrite(options?.allowUnconfirmed === true)
      this.guarded(() => this.alarm.write(null))
      this.alarmRunning = false
      this.config.onAlarm?.(null)
      return Promise.resolve()
    } catch (e) {
      return rejectFrom(this.config.label, e)
    }
  }

  // The host around alarm(): began hides the alarm from getAlarm(); ended says whether the handler
  // (or any event meanwhile) left the alarm untouched, so that the host deletes or retries it.
  alarmBegan(): void {
    this.alarmRunning = true
  }
  alarmEnded(): boolean {
    const untouched = this.alarmRunning
    this.alarmRunning = false
    return untouched
  }

  // --- point-in-time recovery ---------------------------------------------------------------

  async getCurrentBookmark(): Promise<string> {
    await this.sync()
    return this.log.current()
  }

  async getBookmarkForTime(timestamp: number | Date): Promise<string> {
    const ms = timestamp instanceof Date ? timestamp.getTime() : typeof timestamp === "number" ? timestamp : NaN
    if (!Number.isFinite(ms)) throw new TypeError(`getBookmarkForTime(): not a valid time: ${String(timestamp)}`)
    await this.sync()
    return this.log.forTime(ms)
  }

  // Returns the bookmark of the present, which undoes the restore when restored to in turn.
  async onNextSessionRestoreBookmark(bookmark: string): Promise<string> {
    this.log.check(bookmark)
    await this.sync()
    const undo = this.log.current()
    this.log.pending = bookmark
    return undo
  }

  history(limit?: number): ReturnType<PageLog["commits"]> {
    return this.log.commits(limit)
  }

  get pendingRestore(): string | null {
    return this.log.pending
  }
}
