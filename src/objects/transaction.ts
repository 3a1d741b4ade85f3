// The `txn` handed to transaction(closure): the same key-value operations, inside a savepoint.
// After rollback() (or once the closure has finished) every operation throws.
import type Database from "better-sqlite3"
import type { ImplicitTransaction } from "./storage-commit.js"
import type { ListOptions } from "./storage-kv.js"
import { CRITICAL_COMMIT, type GetOptions, type PutOptions, rejectFrom, type StorageConfig } from "./storage-options.js"

/**
 * What a transaction passes its operations on to: ObjectStorage, by the shape it has, since
 * storage.ts makes transactions (importing it here would make the two import each other).
 */
interface Operations {
  get(key: string, options?: GetOptions): Promise<unknown>
  put(key: string, value: unknown, options?: PutOptions): Promise<void>
  put(entries: Record<string, unknown>, options?: PutOptions): Promise<void>
  delete(key: string, options?: PutOptions): Promise<boolean | number>
  list(options?: ListOptions): Promise<Map<string, unknown>>
}

export class Transaction {
  #state: "open" | "rolledBack" | "finished" = "open"
  // Truly private (#): object code holds the txn, and the storage behind it is edgectl's.
  readonly #storage: Operations
  readonly #undo: () => void
  constructor(storage: Operations, undo: () => void) {
    this.#storage = storage
    this.#undo = undo
  }

  get rolledBack(): boolean {
    return this.#state === "rolledBack"
  }

  finish(): void {
    if (this.#state === "open") this.#state = "finished"
  }

  private live(method: string): Operations {
    if (this.#state === "rolledBack")
      throw new Error(`txn.${method}(): the transaction was rolled back; no further operations are allowed on it`)
    if (this.#state === "finished") throw new Error(`txn.${method}(): the transaction has already finished`)
    return this.#storage
  }

  get(key: string | Array<string>, options?: GetOptions): Promise<unknown> {
    return this.live("get").get(key as string, options)
  }
  put(a: string | Record<string, unknown>, b?: unknown, c?: PutOptions): Promise<void> {
    return typeof a === "string" ? this.live("put").put(a, b, c) : this.live("put").put(a, b as PutOptions)
  }
  delete(keys: string | Array<string>, options?: PutOptions): Promise<boolean | number> {
    return this.live("delete").delete(keys as string, options)
  }
  list(options?: ListOptions): Promise<Map<string, unknown>> {
    return this.live("list").list(options)
  }
  rollback(): void {
    this.live("rollback")
    this.#state = "rolledBack"
    this.#undo()
  }
}

export interface Savepoint {
  readonly name: string
}

/**
 * The savepoints of the open transaction() and transactionSync() calls, outermost first, each
 * named for its depth as the platform names them (`_cf_savepoint_N`, `_cf_sync_savepoint_N`).
 */
export class Savepoints {
  private readonly open: Array<Savepoint> = []
  constructor(
    private readonly db: Database.Database,
    // True when every savepoint is gone at once: a critical error or an abort rolled back all.
    private readonly gone: () => boolean,
    private readonly rolledBack: () => void
  ) {}

  get depth(): number {
    return this.open.length
  }

  begin(prefix: string): Savepoint {
    const sp: Savepoint = { name: `${prefix}${this.open.length}` }
    this.db.exec(`SAVEPOINT ${sp.name}`)
    this.open.push(sp)
    return sp
  }

  // Releases or rolls back `sp`, unless it is gone already (with everything, or with an enclosing
  // savepoint that ended first).
  end(sp: Savepoint, rollback: boolean): void {
    const at = this.open.indexOf(sp)
    if (at < 0 || this.gone()) return
    if (rollback) {
      this.db.exec(`ROLLBACK TO ${sp.name}; RELEASE ${sp.name}`)
      this.rolledBack()
    } else this.db.exec(`RELEASE ${sp.name}`)
    this.open.length = at
  }

  // Forgets `sp` (and any savepoint inside it) once its call has returned.
  drop(sp: Savepoint): void {
    const at = this.open.indexOf(sp)
    if (at >= 0) this.open.length = at
  }
}

/** What ObjectStorage's transaction() and transactionSync() work with. */
export interface TransactionFrames {
  readonly storage: Operations
  readonly tx: ImplicitTransaction
  readonly savepoints: Savepoints
  readonly config: StorageConfig
}

// transaction(): a savepoint over the closure, awaited. The outermost one commits the pending
// implicit transaction first, so a failure inside it never takes earlier writes with it. The
// input gate stays held while it is open, as on the platform (config.holdInputGate).
export const runTransaction = <T>(f: TransactionFrames, closure: (txn: Transaction) => Promise<T> | T): Promise<T> => {
  try {
    f.tx.usable()
    const outermost = f.savepoints.depth === 0
    if (outermost) f.tx.flush()
    f.tx.beforeWrite(false)
    const frame = f.savepoints.begin("_cf_savepoint_")
    // While the closure awaits a timer or a fetch(), no other event may come in: its writes
    // would land inside this savepoint (and go with its rollback) or nest in it.
    const release = outermost ? f.config.holdInputGate?.() : undefined
    const run = runInFrame(f, closure, frame)
    return release === undefined ? run : run.finally(release)
  } catch (e) {
    return rejectFrom(f.config.label, e)
  }
}

const runInFrame = async <T>(
  f: TransactionFrames,
  closure: (txn: Transaction) => Promise<T> | T,
  frame: Savepoint
): Promise<T> => {
  const txn = new Transaction(f.storage, () => f.savepoints.end(frame, true))
  try {
    const result = await closure(txn)
    txn.finish()
    // A critical error (disk full) rolled everything back: nothing to commit, and the caller
    // gets that error, as on the platform (a txn.rollback() after it changes nothing).
    if (f.tx.broken !== null) throw f.tx.broken
    if (!txn.rolledBack) f.savepoints.end(frame, false)
    return result
  } catch (e) {
    txn.finish()
    if (!txn.rolledBack) f.savepoints.end(frame, true)
    throw e
  } finally {
    f.savepoints.drop(frame)
    if (f.savepoints.depth === 0) f.tx.afterSavepoints()
  }
}

// transactionSync(): joins the implicit transaction (the platform's does too).
export const runTransactionSync = <T>(f: TransactionFrames, callback: () => T): T => {
  f.tx.beforeWrite(false)
  const frame = f.savepoints.begin("_cf_sync_savepoint_")
  try {
    const result = callback()
    if (f.tx.broken !== null) throw new Error(CRITICAL_COMMIT)
    f.savepoints.end(frame, false)
    return result
  } catch (e) {
    f.savepoints.end(frame, true)
    throw e
  } finally {
    f.savepoints.drop(frame)
  }
}
