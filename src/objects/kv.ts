// The key-value half of `ctx.storage`: the reserved `_cf_KV` table (SQLite's BINARY collation
// compares TEXT as UTF-8 bytes, which is the platform's key order) behind a cache of stored
// values (strings, or serialized bytes, so that every get() returns a fresh structured clone).
import type Database from "better-sqlite3"
import { decodeValue, MAX_KEYS, type Stored } from "./limits.js"

export const KV_SCHEMA = `
  CREATE TABLE IF NOT EXISTS _cf_KV (key TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS _cf_METADATA (key INTEGER PRIMARY KEY, value BLOB);
`

const CACHE_BYTES = 32 * 1024 * 1024
// A list() that finds at most this many of its values missing from the cache reads them one by one.
const FEW = 16

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
  // The stored value, or null for a key known to be absent.
  private readonly cache = new Map<string, Stored | null>()
  private cacheBytes = 0
  private readonly selectOne: Database.Statement
  private readonly upsert: Database.Statement
  private readonly remove: Database.Statement
  // Reads of 1..128 keys in one statement, by number of keys.
  private readonly selectMany: Array<Database.Statement | undefined> = []
  // Upserts of 1..128 rows in one statement: a put(entries) costs one call into SQLite.
  private readonly upserts: Array<Database.Statement | undefined> = []
  // Per list() shape, one statement for the keys and one for the values (see list()).
  private readonly lists = new Map<string, readonly [Database.Statement, Database.Statement]>()

  constructor(db: Database.Database) {
    this.db = db
    this.selectOne = db.prepare("SELECT value FROM _cf_KV WHERE key = ?").pluck()
    this.upsert = db.prepare("INSERT INTO _cf_KV (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
    this.remove = db.prepare("DELETE FROM _cf_KV WHERE key = ?")
  }

  private remember(key: string, buf: Stored | null): void {
    const old = this.cache.get(key)
    if (old) this.cacheBytes -= old.length + key.length
    else if (old === undefined) this.cacheBytes += key.length
    this.cache.delete(key)
    this.cache.set(key, buf)
    if (buf !== null) this.cacheBytes += buf.length
    while (this.cacheBytes > CACHE_BYTES && this.cache.size > 0) {
      const [k, v] = this.cache.entries().next().value as [string, Stored | null]
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

  readRaw(key: string, noCache: boolean): Stored | undefined {
    const hit = this.cache.get(key)
    if (hit !== undefined) return hit ?? undefined
    const buf = this.selectOne.get(key) as Stored | undefined
    if (!noCache) this.remember(key, buf ?? null)
    return buf
  }

  // The values of `keys` (distinct) that exist, in key order: the cached ones from the cache, the
  // others in one query (rows come back in key order; SQLite walks an IN list sorted).
  readMany(keys: ReadonlyArray<string>, noCache: boolean): Map<string, unknown> {
    const found: Array<[string, Stored]> = []
    const missing: Array<string> = []
    for (const k of keys) {
      const hit = this.cache.get(k)
      if (hit === undefined) missing.push(k)
      else if (hit !== null) found.push([k, hit])
    }
    if (missing.length > 0) {
      let stmt = this.selectMany[missing.length]
      if (stmt === undefined) {
        stmt = this.db.prepare(`SELECT key, value FROM _cf_KV WHERE key IN (${"?, ".repeat(missing.length - 1)}?) ORDER BY key`).raw(true)
        this.selectMany[missing.length] = stmt
      }
      const rows = stmt.all(missing) as Array<[string, Stored]>
      if (!noCache) {
        const absent = new Set(missing)
        for (const [k, v] of rows) {
          absent.delete(k)
          this.remember(k, v)
        }
        for (const k of absent) this.remember(k, null)
      }
      if (found.length === 0) return new Map(rows.map(([k, v]) => [k, decodeValue(v)]))
      for (const row of rows) found.push(row)
    }
    found.sort((a, b) => compareUtf8(a[0], b[0]))
    const out = new Map<string, unknown>()
    for (const [k, v] of found) out.set(k, decodeValue(v))
    return out
  }

  read(key: string, noCache: boolean): unknown {
    const buf = this.readRaw(key, noCache)
    return buf === undefined ? undefined : decodeValue(buf)
  }

  write(key: string, buf: Stored, noCache: boolean): void {
    this.upsert.run(key, buf)
    if (noCache) this.forget(key)
    else this.remember(key, buf)
  }

  // keys and values alternate in `pairs`; the keys are distinct (an object's own keys).
  writeMany(pairs: Array<string | Stored>, noCache: boolean): void {
    const n = pairs.length >> 1
    if (n === 0) return
    if (n === 1) return this.write(pairs[0] as string, pairs[1]!, noCache)
    let stmt = this.upserts[n]
    if (stmt === undefined) {
      if (n > MAX_KEYS) throw new RangeError(`writeMany(): ${n} rows`)
      stmt = this.db.prepare(
        `INSERT INTO _cf_KV (key, value) VALUES ${"(?, ?), ".repeat(n - 1)}(?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`
      )
      this.upserts[n] = stmt
    }
    stmt.run(pairs)
    for (let i = 0; i < pairs.length; i += 2) {
      if (noCache) this.forget(pairs[i] as string)
      else this.remember(pairs[i] as string, pairs[i + 1]!)
    }
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
    let stmts = this.lists.get(shape)
    if (stmts === undefined) {
      const rest = `FROM _cf_KV${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY key ${
        o.reverse === true ? "DESC" : "ASC"
      }${o.limit !== undefined ? " LIMIT ?" : ""}`
      stmts = [this.db.prepare(`SELECT key ${rest}`).pluck(), this.db.prepare(`SELECT value ${rest}`).pluck()]
      this.lists.set(shape, stmts)
    }
    if (o.limit !== undefined) args.push(o.limit)
    // The keys first, then the values from the cache, and only the values it lacks from SQLite:
    // single-column reads, because better-sqlite3 builds an array per row of several columns,
    // which costs more than a second walk of the range (nothing can write between the two: this
    // connection is ours and the calls are synchronous).
    const keys = stmts[0].all(args) as Array<string>
    let values = new Array<Stored | null | undefined>(keys.length)
    let missing = 0
    for (let i = 0; i < keys.length; i++) if ((values[i] = this.cache.get(keys[i]!)) == null) missing++
    if (missing > 0) {
      // What was read is cached, as get() would (not with noCache): a range listed once is
      // listed again from memory, but for its keys.
      const fill = o.noCache !== true
      const all = missing > FEW ? (stmts[1].all(args) as Array<Stored>) : null
      if (all !== null && all.length !== keys.length) throw new Error(`list(): ${keys.length} keys but ${all.length} values`)
      for (let i = 0; i < keys.length; i++) {
        if (values[i] != null) continue
        const v = all === null ? (this.selectOne.get(keys[i]!) as Stored) : all[i]!
        values[i] = v
        if (fill) this.remember(keys[i]!, v)
      }
    }
    const result = new Map<string, unknown>()
    for (let i = 0; i < keys.length; i++) result.set(keys[i]!, decodeValue(values[i]!))
    return result
  }

  count(): number {
    return this.db.prepare("SELECT count(*) FROM _cf_KV").pluck().get() as number
  }
}

// UTF-8 byte order is code point order. Comparing UTF-16 units gives the same answer except for a
// surrogate (half of a code point above U+FFFF) against a unit at or above U+E000, so surrogates
// are lifted above the rest of the BMP before comparing.
const lift = (u: number): number => (u < 0xd800 ? u : u < 0xe000 ? u + 0x2000 : u - 0x800)
export const compareUtf8 = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return lift(x) - lift(y)
  }
  return a.length - b.length
}
