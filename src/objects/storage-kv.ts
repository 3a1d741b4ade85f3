// The key-value half of `ctx.storage`: the reserved `_cf_KV` table (SQLite's BINARY collation
// compares TEXT as UTF-8 bytes, which is the platform's key order) behind a cache of stored
// values (strings, or serialized bytes, so that every get() returns a fresh structured clone).
import type Database from "better-sqlite3"
import { KeyIndex, type Bounds } from "./key-index.js"
import { compareUtf8 } from "./key-order.js"
import { decodeValue, MAX_KEYS, type Stored } from "./limits.js"

// As on the platform, created on the first write, not with the object (a new object is one page).
const KV_TABLE = "CREATE TABLE IF NOT EXISTS _cf_KV (key TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID"

export const tableExists = (db: Database.Database, name: string): boolean =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined

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
const prefixEnd = (prefix: string): string | undefined => {
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

// The cache, and the index of all keys while the cache holds the whole table:
// - `cache` maps a key to its stored value, or to null when the key is known to be absent;
// - `index`, when not null, lists every key of the table, and every one of them is in `cache`
//   with its value; then a key missing from `cache` is absent, and list() reads only memory.
//   It exists from the start for an empty table, or from a full list() of a table that fits in
//   the cache, and is dropped as soon as a value leaves memory (eviction, noCache, rollback).
export class KvTable {
  private readonly db: Database.Database
  private readonly cache = new Map<string, Stored | null>()
  private cacheBytes = 0
  private evictions = 0
  private index: KeyIndex | null
  // Whether _cf_KV exists; without it every read finds nothing, and a write creates it.
  private present: boolean
  private base: { selectOne: Database.Statement; upsert: Database.Statement; remove: Database.Statement } | null = null
  // Reads of 1..128 keys in one statement, by number of keys.
  private readonly selectMany: Array<Database.Statement | undefined> = []
  // Upserts of 1..128 rows in one statement: a put(entries) costs one call into SQLite.
  private readonly upserts: Array<Database.Statement | undefined> = []
  // Per list() shape, one statement for the keys and one for the values (see listStored()).
  private readonly lists = new Map<string, readonly [Database.Statement, Database.Statement]>()

  constructor(db: Database.Database) {
    this.db = db
    this.present = tableExists(db, "_cf_KV")
    this.index = !this.present || db.prepare("SELECT 1 FROM _cf_KV LIMIT 1").get() === undefined ? new KeyIndex() : null
  }

  private get stmts(): NonNullable<KvTable["base"]> {
    this.base ??= {
      selectOne: this.db.prepare("SELECT value FROM _cf_KV WHERE key = ?").pluck(),
      upsert: this.db.prepare(
        "INSERT INTO _cf_KV (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
      ),
      remove: this.db.prepare("DELETE FROM _cf_KV WHERE key = ?")
    }
    return this.base
  }

  // Before a write: the table, created in the open transaction (a rollback takes it back).
  private ensure(): void {
    if (this.present) return
    this.db.exec(KV_TABLE)
    this.present = true
  }

  // The table may have come or gone (a rollback, deleteAll()): its statements are prepared again.
  private reset(): void {
    this.present = tableExists(this.db, "_cf_KV")
    this.base = null
    this.selectMany.length = 0
    this.upserts.length = 0
    this.lists.clear()
  }

  private remember(key: string, value: Stored | null): void {
    const old = this.cache.get(key)
    if (old !== undefined) {
      this.cacheBytes -= key.length + (old === null ? 0 : old.length)
      this.cache.delete(key)
    }
    this.cache.set(key, value)
    this.cacheBytes += key.length + (value === null ? 0 : value.length)
    if (this.cacheBytes > CACHE_BYTES) this.evict()
  }

  private evict(): void {
    this.index = null
    this.evictions++
    while (this.cacheBytes > CACHE_BYTES && this.cache.size > 0) {
      const [k, v] = this.cache.entries().next().value as [string, Stored | null]
      this.cache.delete(k)
      this.cacheBytes -= k.length + (v === null ? 0 : v.length)
    }
  }

  forget(key: string): void {
    this.index = null
    const old = this.cache.get(key)
    if (old === undefined) return
    this.cacheBytes -= key.length + (old === null ? 0 : old.length)
    this.cache.delete(key)
  }

  forgetAll(): void {
    this.index = null
    this.cache.clear()
    this.cacheBytes = 0
    this.reset()
  }

  // With the index, a key that is not cached is absent.
  private lookup(key: string): Stored | null | undefined {
    const hit = this.cache.get(key)
    return hit === undefined && this.index !== null ? null : hit
  }

  readRaw(key: string, noCache: boolean): Stored | undefined {
    const hit = this.lookup(key)
    if (hit !== undefined) return hit ?? undefined
    const buf = this.present ? (this.stmts.selectOne.get(key) as Stored | undefined) : undefined
    if (!noCache) this.remember(key, buf ?? null)
    return buf
  }

  // The values of `keys` (distinct) that exist, in key order: the cached ones from the cache, the
  // others in one query (rows come back in key order; SQLite walks an IN list sorted).
  readMany(keys: ReadonlyArray<string>, noCache: boolean): Map<string, unknown> {
    const found: Array<[string, Stored]> = []
    const missing: Array<string> = []
    for (const k of keys) {
      const hit = this.lookup(k)
      if (hit === undefined) missing.push(k)
      else if (hit !== null) found.push([k, hit])
    }
    if (missing.length > 0 && !this.present) {
      if (!noCache) for (const k of missing) this.remember(k, null)
    } else if (missing.length > 0) {
      let stmt = this.selectMany[missing.length]
      if (stmt === undefined) {
        stmt = this.db
          .prepare(`SELECT key, value FROM _cf_KV WHERE key IN (${"?, ".repeat(missing.length - 1)}?) ORDER BY key`)
          .raw(true)
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

  // Called after the row is written.
  private written(key: string, value: Stored, noCache: boolean): void {
    if (noCache) return this.forget(key)
    if (this.index !== null && this.lookup(key) === null) this.index.insert(key)
    this.remember(key, value)
  }

  write(key: string, value: Stored, noCache: boolean): void {
    this.ensure()
    this.stmts.upsert.run(key, value)
    this.written(key, value, noCache)
  }

  // keys and values alternate in `pairs`; the keys are distinct (an object's own keys).
  writeMany(pairs: Array<string | Stored>, noCache: boolean): void {
    const n = pairs.length >> 1
    if (n === 0) return
    if (n === 1) return this.write(pairs[0] as string, pairs[1]!, noCache)
    this.ensure()
    let stmt = this.upserts[n]
    if (stmt === undefined) {
      if (n > MAX_KEYS) throw new RangeError(`writeMany(): ${n} rows`)
      stmt = this.db.prepare(
        `INSERT INTO _cf_KV (key, value) VALUES ${"(?, ?), ".repeat(n - 1)}(?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`
      )
      this.upserts[n] = stmt
    }
    stmt.run(pairs)
    for (let i = 0; i < pairs.length; i += 2) this.written(pairs[i] as string, pairs[i + 1]!, noCache)
  }

  delete(key: string, noCache: boolean): boolean {
    if (this.lookup(key) === null || !this.present) return false
    const existed = this.stmts.remove.run(key).changes > 0
    if (existed) this.index?.remove(key)
    if (noCache) this.forget(key)
    else this.remember(key, null)
    return existed
  }

  // The table was emptied (deleteAll()): it holds no key.
  cleared(): void {
    this.forgetAll()
    this.index = new KeyIndex()
  }

  list(o: ListOptions): Map<string, unknown> {
    const prefix = o.prefix !== undefined && o.prefix !== "" ? String(o.prefix) : undefined
    const upper = prefix === undefined ? undefined : prefixEnd(prefix)
    // noCache lists read SQLite (so that they are a check of the index, too).
    if (this.index !== null && o.noCache !== true) {
      const keys = this.index.range(bounds(o, prefix, upper))
      const result = new Map<string, unknown>()
      let i = 0
      for (; i < keys.length; i++) {
        const v = this.cache.get(keys[i]!)
        if (v == null) break
        result.set(keys[i]!, decodeValue(v))
      }
      if (i === keys.length) return result
      // Cannot happen (every indexed key is cached); should it, SQLite is the truth.
      this.index = null
    }
    return this.listStored(o, prefix, upper)
  }

  private listStored(o: ListOptions, prefix: string | undefined, upper: string | undefined): Map<string, unknown> {
    if (!this.present) return new Map()
    const where: Array<string> = []
    const args: Array<unknown> = []
    if (o.start !== undefined) where.push("key >= ?") && args.push(String(o.start))
    if (o.startAfter !== undefined) where.push("key > ?") && args.push(String(o.startAfter))
    if (o.end !== undefined) where.push("key < ?") && args.push(String(o.end))
    if (prefix !== undefined) {
      where.push("key >= ?")
      args.push(prefix)
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
    const evictions = this.evictions
    const keys = stmts[0].all(args) as Array<string>
    const values = new Array<Stored | null | undefined>(keys.length)
    let missing = 0
    for (let i = 0; i < keys.length; i++) if ((values[i] = this.cache.get(keys[i]!)) == null) missing++
    // What was read is cached, as get() would (not with noCache): a range listed once is listed
    // again from memory, but for its keys.
    const fill = o.noCache !== true
    if (missing > 0) {
      const all = missing > FEW ? (stmts[1].all(args) as Array<Stored>) : null
      if (all !== null && all.length !== keys.length)
        throw new Error(`list(): ${keys.length} keys but ${all.length} values`)
      for (let i = 0; i < keys.length; i++) {
        const cached = values[i]
        if (cached != null) continue
        const k = keys[i]!
        const v = all === null ? (this.stmts.selectOne.get(k) as Stored) : all[i]!
        values[i] = v
        if (!fill) continue
        // A key not in the cache at all (the usual case) is added as is; the size is checked once.
        if (cached === undefined) {
          this.cache.set(k, v)
          this.cacheBytes += k.length + v.length
        } else this.remember(k, v)
      }
      if (this.cacheBytes > CACHE_BYTES) this.evict()
    }
    // A whole table that fits in the cache: from now on, list() reads memory.
    // (Every key is cached now, unless filling the cache evicted some.)
    if (fill && this.index === null && where.length === 0 && o.limit === undefined && this.evictions === evictions) {
      this.index = KeyIndex.fromSorted(o.reverse === true ? [...keys].reverse() : keys)
    }
    const result = new Map<string, unknown>()
    for (let i = 0; i < keys.length; i++) result.set(keys[i]!, decodeValue(values[i]!))
    return result
  }

  count(): number {
    return this.present ? (this.db.prepare("SELECT count(*) FROM _cf_KV").pluck().get() as number) : 0
  }
}

// The index's bounds for list() options: the greater of the lower bounds, the lesser of the upper.
const bounds = (o: ListOptions, prefix: string | undefined, prefixUpper: string | undefined): Bounds => {
  let lower: string | undefined
  let lowerStrict = false
  const raise = (key: string, strict: boolean): void => {
    const c = lower === undefined ? 1 : compareUtf8(key, lower)
    if (c > 0 || (c === 0 && strict)) {
      lower = key
      lowerStrict = strict
    }
  }
  if (o.start !== undefined) raise(String(o.start), false)
  if (o.startAfter !== undefined) raise(String(o.startAfter), true)
  if (prefix !== undefined) raise(prefix, false)
  let upper: string | undefined
  for (const u of [o.end === undefined ? undefined : String(o.end), prefixUpper]) {
    if (u !== undefined && (upper === undefined || compareUtf8(u, upper) < 0)) upper = u
  }
  return {
    ...(lower === undefined ? {} : { lower, lowerStrict }),
    ...(upper === undefined ? {} : { upper }),
    reverse: o.reverse === true,
    ...(o.limit === undefined ? {} : { limit: o.limit })
  }
}
