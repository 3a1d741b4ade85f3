// The key-value half of `ctx.storage`: the reserved `_cf_KV` table (SQLite's BINARY collation
// compares TEXT as UTF-8 bytes, which is the platform's key order) behind a cache of serialized
// values. Values are kept serialized so that every get() returns a fresh structured clone.
import type Database from "better-sqlite3"
import { decodeValue } from "./limits.js"

export const KV_SCHEMA = `
  CREATE TABLE IF NOT EXISTS _cf_KV (key TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS _cf_METADATA (key INTEGER PRIMARY KEY, value BLOB);
`

const CACHE_BYTES = 32 * 1024 * 1024

export interface ListOptions {
  readonly start?: string
  readonly startAfter?: string
  readonly end?: string
  readonly prefix?: string
  readonly reverse?: boolean
  readonly limit?: number
  readonly allowConcurrency?: boolean
  readonly noCache?: boolean
}

// The smallest string greater, in UTF-8 byte order, than every string that starts with `prefix`.
export const prefixEnd = (prefix: string): string | undefined => {
  const cps = Array.from(prefix)
  while (cps.length > 0) {
    const cp = cps.pop()!.codePointAt(0)!
    if (cp < 0x10ffff) {
      const next = cp + 1 === 0xd800 ? 0xe000 : cp + 1
      return cps.join("") + String.fromCodePoint(next)
    }
  }
  return undefined
}

export class KvTable {
  private readonly db: Database.Database
  // value Buffer, or null for a key known to be absent.
  private readonly cache = new Map<string, Buffer | null>()
  private cacheBytes = 0
  private readonly selectOne: Database.Statement
  private readonly upsert: Database.Statement
  private readonly remove: Database.Statement
  private readonly lists = new Map<string, Database.Statement>()

  constructor(db: Database.Database) {
    this.db = db
    this.selectOne = db.prepare("SELECT value FROM _cf_KV WHERE key = ?").pluck()
    this.upsert = db.prepare("INSERT INTO _cf_KV (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
    this.remove = db.prepare("DELETE FROM _cf_KV WHERE key = ?")
  }

  private remember(key: string, buf: Buffer | null): void {
    const old = this.cache.get(key)
    if (old) this.cacheBytes -= old.length + key.length
    else if (old === undefined) this.cacheBytes += key.length
    this.cache.delete(key)
    this.cache.set(key, buf)
    if (buf !== null) this.cacheBytes += buf.length
    while (this.cacheBytes > CACHE_BYTES && this.cache.size > 0) {
      const [k, v] = this.cache.entries().next().value as [string, Buffer | null]
      this.cache.delete(k)
      this.cacheBytes -= k.length + (v?.length ?? 0)
    }
  }

  forget(key: string): void {
    const old = this.cache.get(key)
    if (old === undefined) return
    this.cacheBytes -= key.length + (old?.length ?? 0)
    this.cache.delete(key)
  }

  forgetAll(): void {
    this.cache.clear()
    this.cacheBytes = 0
  }

  readRaw(key: string, noCache: boolean): Buffer | undefined {
    const hit = this.cache.get(key)
    if (hit !== undefined) return hit ?? undefined
    const buf = this.selectOne.get(key) as Buffer | undefined
    if (!noCache) this.remember(key, buf ?? null)
    return buf
  }

  read(key: string, noCache: boolean): unknown {
    const buf = this.readRaw(key, noCache)
    return buf === undefined ? undefined : decodeValue(buf)
  }

  write(key: string, buf: Buffer, noCache: boolean): void {
    this.upsert.run(key, buf)
    if (noCache) this.forget(key)
    else this.remember(key, buf)
  }

  delete(key: string, noCache: boolean): boolean {
    const hit = this.cache.get(key)
    if (hit === null) return false
    const existed = this.remove.run(key).changes > 0
    if (noCache) this.forget(key)
    else this.remember(key, null)
    return existed
  }

  deleteAll(): void {
    this.db.prepare("DELETE FROM _cf_KV").run()
    this.forgetAll()
  }

  list(o: ListOptions): Map<string, unknown> {
    const where: Array<string> = []
    const args: Array<unknown> = []
    if (o.start !== undefined) where.push("key >= ?") && args.push(String(o.start))
    if (o.startAfter !== undefined) where.push("key > ?") && args.push(String(o.startAfter))
    if (o.end !== undefined) where.push("key < ?") && args.push(String(o.end))
    if (o.prefix !== undefined && o.prefix !== "") {
      where.push("key >= ?")
      args.push(String(o.prefix))
      const upper = prefixEnd(String(o.prefix))
      if (upper !== undefined) where.push("key < ?") && args.push(upper)
    }
    const shape = `${where.join(" AND ")}|${o.reverse === true}|${o.limit !== undefined}`
    let stmt = this.lists.get(shape)
    if (stmt === undefined) {
      stmt = this.db
        .prepare(
          `SELECT key, value FROM _cf_KV${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY key ${
            o.reverse === true ? "DESC" : "ASC"
          }${o.limit !== undefined ? " LIMIT ?" : ""}`
        )
        .raw(true)
      this.lists.set(shape, stmt)
    }
    if (o.limit !== undefined) args.push(o.limit)
    const rows = stmt.all(...args) as Array<[string, Buffer]>
    const result = new Map<string, unknown>()
    for (const [k, v] of rows) result.set(k, decodeValue(v))
    return result
  }

  count(): number {
    return this.db.prepare("SELECT count(*) FROM _cf_KV").pluck().get() as number
  }
}
