// `ctx.storage`: the Promise API of spec area F over one SQLite database per object.
//
// Write coalescing (./storage-commit.ts): the first write opens an implicit SQLite transaction,
// and every write until the event loop turns (setImmediate) joins it; then it commits, its pages
// go to the recovery log, and the output gate opens. So writes with no await between them (and,
// more than the platform promises, awaited writes in the same turn) are committed together or not
// at all.
import type Database from "better-sqlite3"
import * as fs from "node:fs"
import { afterCommit, deleteDatabase, openObjectDatabase } from "./database.js"
import { acquireOwner } from "./owner-lock.js"
import { AlarmSlot } from "./storage-alarm.js"
import { ImplicitTransaction } from "./storage-commit.js"
import { KvTable, type ListOptions } from "./storage-kv.js"
import { checkCount, checkKey, encodeValue, type Stored } from "./limits.js"
import type { PageLog } from "./pitr.js"
import { SqlStorage } from "./sql.js"
import {
  DELETE_ALL_IN_TRANSACTION,
  type GetOptions,
  type PutOptions,
  rejectFrom,
  type StorageConfig
} from "./storage-options.js"
import {
  runTransaction,
  runTransactionSync,
  Savepoints,
  type Transaction,
  type TransactionFrames
} from "./transaction.js"

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
  private readonly tx: ImplicitTransaction
  private readonly savepoints: Savepoints
  private readonly alarm: AlarmSlot
  // alarm() is running and nothing has set or deleted the alarm since it started.
  private alarmRunning = false
  private readonly release: () => void
  // What transaction() and transactionSync() work with (transaction.ts runs them).
  private readonly frames: TransactionFrames

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
    if (config.maxDatabaseBytes !== undefined) {
      const pageSize = this.db.pragma("page_size", { simple: true }) as number
      this.db.pragma(`max_page_count = ${Math.max(1, Math.floor(config.maxDatabaseBytes / pageSize))}`)
    }
    this.kv = new KvTable(this.db)
    this.alarm = new AlarmSlot(this.db)
    this.tx = new ImplicitTransaction(this.db, this.log, this.file, {
      inSavepoint: () => this.savepoints.depth > 0,
      failed: (error) => {
        this.kv.forgetAll()
        this.config.onBroken?.(error)
      }
    })
    this.savepoints = new Savepoints(
      this.db,
      () => this.tx.broken !== null || this.tx.closed,
      () => {
        this.kv.forgetAll()
        this.sql.clearCache()
        this.alarm.forget()
      }
    )
    this.sql = new SqlStorage(this.db, { beforeWrite: () => this.tx.beforeWrite(false), fatal: (e) => this.tx.fail(e) })
    this.frames = { storage: this, tx: this.tx, savepoints: this.savepoints, config }
  }

  // --- gates and lifetime ---------------------------------------------------------------------

  get isBroken(): Error | null {
    return this.tx.broken
  }

  // The output gate: resolves when every confirmed write issued so far is committed.
  outputGate(): Promise<void> {
    return this.tx.outputGate()
  }

  sync(): Promise<void> {
    return this.tx.sync()
  }

  /**
   * Closes the storage, committing the pending writes, or with `discard` (ctx.abort()) rolling
   * them back: the platform's abort cancels the writes not yet flushed, and whoever waits for
   * them gets `discard`.
   */
  close(discard?: Error): void {
    if (this.tx.closed) return
    if (discard === undefined && this.tx.broken === null && this.savepoints.depth === 0) this.tx.flush()
    // A failed commit closes the storage itself (through onBroken).
    if (this.tx.closed) return
    const { rolledBack, waiting } = this.tx.abandon()
    if (rolledBack) {
      // A discarded setAlarm()/deleteAlarm(): the host's timer goes back to the stored alarm.
      this.alarm.forget()
      if (discard !== undefined) this.config.onAlarm?.(this.alarm.read())
    }
    waiting?.reject(discard ?? new Error("the object's storage was closed before its writes were committed"))
    this.tx.markClosed()
    try {
      // The writer's connection closes last, and so checkpoints and removes the log.
      this.log.checkpoints.settle()
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
      this.tx.usable()
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
      this.tx.beforeWrite(options?.allowUnconfirmed === true)
      this.tx.guarded(() => this.kv.writeMany(pairs, options?.noCache === true))
      return Promise.resolve()
    } catch (e) {
      return rejectFrom(this.config.label, e)
    }
  }

  private putOne(key: string, value: unknown, options?: PutOptions): void {
    checkKey(key, "put")
    const buf = encodeValue(value, "put", key)
    this.tx.beforeWrite(options?.allowUnconfirmed === true)
    this.tx.guarded(() => this.kv.write(key, buf, options?.noCache === true))
  }

  delete(key: string, options?: PutOptions): Promise<boolean>
  delete(keys: Array<string>, options?: PutOptions): Promise<number>
  delete(keys: string | Array<string>, options?: PutOptions): Promise<boolean | number> {
    try {
      const noCache = options?.noCache === true
      if (!Array.isArray(keys)) {
        checkKey(keys, "delete")
        this.tx.beforeWrite(options?.allowUnconfirmed === true)
        return Promise.resolve(this.tx.guarded(() => this.kv.delete(keys, noCache)))
      }
      checkCount(keys.length, "delete", "keys")
      for (const k of keys) checkKey(k, "delete")
      this.tx.beforeWrite(options?.allowUnconfirmed === true)
      let n = 0
      this.tx.guarded(() => {
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
      this.tx.usable()
      if (this.savepoints.depth > 0) throw new Error(DELETE_ALL_IN_TRANSACTION)
      // Read before the rollback: an alarm set by this implicit transaction stays set.
      const alarm = this.config.deleteAllDeletesAlarm === true ? null : this.readAlarm()
      this.tx.guarded(() => {
        const { waiting } = this.tx.abandon()
        // Two commits before the page log reads them: no checkpoint may start the log over between.
        this.log.checkpoints.settle()
        deleteDatabase(this.db, () => {
          // The metadata table is gone: the slot looks again before writing the kept alarm.
          this.alarm.forget()
          this.alarm.write(alarm)
        })
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
      return Promise.resolve(this.listNow(options))
    } catch (e) {
      return rejectFrom(this.config.label, e)
    }
  }

  private listNow(options: ListOptions): Map<string, unknown> {
    this.tx.usable()
    if (options.start !== undefined && options.startAfter !== undefined) {
      throw new TypeError("list() cannot be called with both start and startAfter values.")
    }
    if (options.limit !== undefined && !(Number.isInteger(options.limit) && options.limit > 0)) {
      throw new TypeError(`List limit must be positive (got ${options.limit}).`)
    }
    return this.kv.list(options)
  }

  // --- ctx.storage.kv: the platform's synchronous key-value API, over the same table ------------

  kvGet(key: string): unknown {
    this.tx.usable()
    return this.kv.read(checkKey(key, "get"), false)
  }
  kvPut(key: string, value: unknown): void {
    this.putOne(key, value)
  }
  kvDelete(key: string): boolean {
    checkKey(key, "delete")
    this.tx.beforeWrite(false)
    return this.tx.guarded(() => this.kv.delete(key, false))
  }
  kvList(options: ListOptions = {}): IterableIterator<[string, unknown]> {
    return this.listNow(options).entries()
  }

  // --- transactions ---------------------------------------------------------------------------
  //
  // As the platform's: each transaction is a savepoint named for its depth; one started inside
  // another (from its closure) nests in it, depth + 1. transaction.ts runs them.

  transaction<T>(closure: (txn: Transaction) => Promise<T> | T): Promise<T> {
    return runTransaction(this.frames, closure)
  }

  // Synchronous transaction over SQL and key-value writes made inside the callback.
  transactionSync<T>(callback: () => T): T {
    return runTransactionSync(this.frames, callback)
  }

  // --- alarms -------------------------------------------------------------------------------

  getAlarm(_options?: { allowConcurrency?: boolean }): Promise<number | null> {
    try {
      this.tx.usable()
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
      this.tx.beforeWrite(options?.allowUnconfirmed === true)
      this.tx.guarded(() => this.alarm.write(at))
      this.alarmRunning = false
      this.config.onAlarm?.(at)
      return Promise.resolve()
    } catch (e) {
      return rejectFrom(this.config.label, e)
    }
  }

  deleteAlarm(options?: { allowUnconfirmed?: boolean }): Promise<void> {
    try {
      this.tx.beforeWrite(options?.allowUnconfirmed === true)
      this.tx.guarded(() => this.alarm.write(null))
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

  // Not the platform's: the bookmark of the last commit, unchanged until the next one.
  async committedBookmark(): Promise<string> {
    await this.sync()
    return this.log.committed()
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
