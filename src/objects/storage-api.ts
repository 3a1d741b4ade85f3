// `ctx.storage` as object code sees it: the platform's API and nothing else. ObjectStorage holds
// the database handle, the page log and the key-value table in its fields, which JavaScript can
// reach however TypeScript marks them; these objects only close over it, so none of edgectl's
// internals is reachable from object code (`ctx.storage.sql.db`, the internal table's class).
import type { ListOptions } from "./storage-kv.js"
import type { GetOptions, PutOptions } from "./storage-options.js"
import type { ObjectStorage } from "./storage.js"
import type { SqlStorageCursor, SqlValue } from "./sql.js"

/** `ctx.storage.kv`: synchronous reads and writes that join the implicit transaction. */
interface SyncKvStorage {
  get<T = unknown>(key: string): T | undefined
  put(key: string, value: unknown): void
  delete(key: string): boolean
  list<T = unknown>(options?: ListOptions): IterableIterator<[string, T]>
}

interface SqlStorageApi {
  exec<T extends Record<string, SqlValue> = Record<string, SqlValue>>(
    query: string,
    ...bindings: Array<unknown>
  ): SqlStorageCursor<T>
  readonly databaseSize: number
}

export interface StorageApi {
  get<T = unknown>(key: string, options?: GetOptions): Promise<T | undefined>
  get<T = unknown>(keys: Array<string>, options?: GetOptions): Promise<Map<string, T>>
  put(key: string, value: unknown, options?: PutOptions): Promise<void>
  put(entries: Record<string, unknown>, options?: PutOptions): Promise<void>
  delete(key: string, options?: PutOptions): Promise<boolean>
  delete(keys: Array<string>, options?: PutOptions): Promise<number>
  deleteAll(options?: PutOptions): Promise<void>
  list<T = unknown>(options?: ListOptions): Promise<Map<string, T>>
  transaction: ObjectStorage["transaction"]
  transactionSync: ObjectStorage["transactionSync"]
  getAlarm: ObjectStorage["getAlarm"]
  setAlarm: ObjectStorage["setAlarm"]
  deleteAlarm: ObjectStorage["deleteAlarm"]
  sync(): Promise<void>
  getCurrentBookmark(): Promise<string>
  getBookmarkForTime(timestamp: number | Date): Promise<string>
  onNextSessionRestoreBookmark(bookmark: string): Promise<string>
  readonly sql: SqlStorageApi
  readonly kv: SyncKvStorage
}

export const storageApi = (s: ObjectStorage): StorageApi => {
  const sql: SqlStorageApi = Object.freeze({
    exec: (query: string, ...bindings: Array<unknown>) => s.sql.exec(query, ...bindings),
    get databaseSize() {
      return s.sql.databaseSize
    }
  }) as SqlStorageApi
  const kv: SyncKvStorage = Object.freeze({
    get: (key: string) => s.kvGet(key),
    put: (key: string, value: unknown) => s.kvPut(key, value),
    delete: (key: string) => s.kvDelete(key),
    list: (options?: ListOptions) => s.kvList(options)
  }) as SyncKvStorage
  return Object.freeze({
    get: (keys: string | Array<string>, options?: GetOptions) => s.get(keys as string, options),
    put: (a: string | Record<string, unknown>, b?: unknown, c?: PutOptions) =>
      typeof a === "string" ? s.put(a, b, c) : s.put(a, b as PutOptions | undefined),
    delete: (keys: string | Array<string>, options?: PutOptions) => s.delete(keys as string, options),
    deleteAll: (options?: PutOptions) => s.deleteAll(options),
    list: (options?: ListOptions) => s.list(options),
    transaction: (closure: Parameters<ObjectStorage["transaction"]>[0]) => s.transaction(closure),
    transactionSync: <T>(callback: () => T) => s.transactionSync(callback),
    getAlarm: (options?: { allowConcurrency?: boolean }) => s.getAlarm(options),
    setAlarm: (time: number | Date, options?: { allowUnconfirmed?: boolean }) => s.setAlarm(time, options),
    deleteAlarm: (options?: { allowUnconfirmed?: boolean }) => s.deleteAlarm(options),
    sync: () => s.sync(),
    getCurrentBookmark: () => s.getCurrentBookmark(),
    getBookmarkForTime: (timestamp: number | Date) => s.getBookmarkForTime(timestamp),
    onNextSessionRestoreBookmark: (bookmark: string) => s.onNextSessionRestoreBookmark(bookmark),
    sql,
    kv
  }) as unknown as StorageApi
}
