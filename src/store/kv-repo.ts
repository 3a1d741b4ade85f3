/**
 * The key-value storage engine of the local platform: namespaces and entries in the platform's
 * SQLite store, with synchronous prepared statements (no per-call Effect machinery on the hot path).
 *
 * Keys are stored as their UTF-8 bytes (BLOB), so the unique index `(ns, key)` orders them exactly
 * as the platform lists them; a listing page seeks past its cursor in that index, so its cost does
 * not grow with the namespace. Entries past their expiration are invisible to every read and are
 * purged lazily: the one that a read meets, and all of them at the start of each write.
 *
 * Inputs are validated by the callers (src/kv/validate.ts): the engine only stores.
 */
import type Database from "better-sqlite3"
import { nodeCrypto } from "../lazy-builtins.js"
import { stmt } from "./query.js"
import { seekPage } from "./seek.js"
import type { WriteEntry } from "../kv/entry-checks.js"

export interface NamespaceRow {
  readonly seq: number
  readonly id: string
  readonly accountId: string
  readonly title: string
  /** Made by a first write to an unknown id (local mode), not by a create. */
  readonly implicit: boolean
}

export interface StoredValue {
  readonly value: Buffer
  readonly metadata: string | null
  readonly expiration: number | null
}

export interface ListedKey {
  readonly name: string
  readonly expiration?: number
  readonly metadata?: unknown
}

type Row = Record<string, unknown>

const toNamespace = (r: Row): NamespaceRow => ({
  seq: r.seq as number,
  id: r.id as string,
  accountId: r.account_id as string,
  title: r.title as string,
  implicit: r.implicit === 1
})

/** A new namespace id: 32 hex characters, like the platform's. */
const newNamespaceId = () => nodeCrypto().randomUUID().replace(/-/g, "")

// ---------------------------------------------------------------------------------------------
// Namespaces

/** The namespace `id` if it belongs to one of `accountIds`. */
export const findNamespace = (
  db: Database.Database,
  id: string,
  accountIds: ReadonlyArray<string>
): NamespaceRow | undefined => {
  const r = stmt(db, "SELECT * FROM kv_namespaces WHERE id = ?").get(id) as Row | undefined
  return r !== undefined && accountIds.includes(r.account_id as string) ? toNamespace(r) : undefined
}

/** Whether `id` is taken by any account (namespace ids are global). */
const namespaceIdTaken = (db: Database.Database, id: string): boolean =>
  stmt(db, "SELECT 1 FROM kv_namespaces WHERE id = ?").get(id) !== undefined

export interface NamespaceQuery {
  readonly page: number
  readonly perPage: number
  readonly order: "id" | "title"
  readonly direction: "asc" | "desc"
}

export const listNamespaces = (
  db: Database.Database,
  accountId: string,
  q: NamespaceQuery
): { readonly rows: ReadonlyArray<NamespaceRow>; readonly total: number } => {
  const { rows, total } = seekPage(db, {
    select: "*",
    from: "FROM kv_namespaces",
    where: { sql: "WHERE account_id = ?", params: [accountId] },
    // Ids are unique, and titles within an account.
    keys: [
      {
        expr: q.order === "id" ? "id" : "title",
        desc: q.direction === "desc",
        column: q.order === "id" ? "id" : "title"
      }
    ],
    page: q.page,
    perPage: q.perPage
  })
  return { rows: rows.map(toNamespace), total }
}

export const titleTaken = (db: Database.Database, accountId: string, title: string): boolean =>
  stmt(db, "SELECT 1 FROM kv_namespaces WHERE account_id = ? AND title = ?").get(accountId, title) !== undefined

/** Creates a namespace; the caller checked that the title is free in the account. */
export const createNamespace = (
  db: Database.Database,
  accountId: string,
  title: string,
  options: { readonly id?: string; readonly implicit?: boolean; readonly createdOn?: string } = {}
): NamespaceRow => {
  const id = options.id ?? newNamespaceId()
  stmt(db, "INSERT INTO kv_namespaces (id, account_id, title, created_on, implicit) VALUES (?, ?, ?, ?, ?)").run(
    id,
    accountId,
    title,
    options.createdOn ?? new Date().toISOString(),
    options.implicit ? 1 : 0
  )
  return toNamespace(stmt(db, "SELECT * FROM kv_namespaces WHERE id = ?").get(id) as Row)
}

/**
 * A namespace made by the first write to an unknown id (local mode, as wrangler's local storage
 * does): its title is the id, or the id with a number if an account already has that title.
 */
export const createImplicitNamespace = (db: Database.Database, accountId: string, id: string): NamespaceRow => {
  let title = id
  for (let n = 2; titleTaken(db, accountId, title); n++) title = `${id} (${n})`
  return createNamespace(db, accountId, title, { id, implicit: true })
}

/**
 * The namespace `id` for a write in local mode: the one visible to `accountIds`, else made for
 * `accountId` by this write, else undefined when another account owns the id. The look-up and the
 * creation are one IMMEDIATE transaction: two processes writing first to the same new id queue on the
 * write lock and the second finds the first's namespace (looked up apart, it found none, then could
 * not insert its own: "namespace not found", or a UNIQUE constraint).
 */
export const namespaceForWrite = (
  db: Database.Database,
  id: string,
  accountIds: ReadonlyArray<string>,
  accountId: string
): NamespaceRow | undefined =>
  db
    .transaction(() => {
      const found = findNamespace(db, id, accountIds)
      if (found !== undefined) return found
      return namespaceIdTaken(db, id) ? undefined : createImplicitNamespace(db, accountId, id)
    })
    .immediate()

export const renameNamespace = (db: Database.Database, seq: number, title: string): void => {
  stmt(db, "UPDATE kv_namespaces SET title = ?, implicit = 0 WHERE seq = ?").run(title, seq)
}

/** Whether the namespace `seq` still exists (a write that began before its delete). */
export const namespaceExists = (db: Database.Database, seq: number): boolean =>
  stmt(db, "SELECT 1 FROM kv_namespaces WHERE seq = ?").get(seq) !== undefined

/** Deletes a namespace and everything in it, in one transaction. */
export const deleteNamespace = (db: Database.Database, seq: number): void => {
  db.transaction(() => {
    stmt(db, "DELETE FROM kv_entries WHERE ns = ?").run(seq)
    stmt(db, "DELETE FROM kv_namespaces WHERE seq = ?").run(seq)
  })()
}

// ---------------------------------------------------------------------------------------------
// Entries

const keyBytes = (key: string) => Buffer.from(key, "utf8")

/** Removes every entry whose expiration has passed (the partial index finds them). */
const purgeExpired = (db: Database.Database, now: number): number =>
  stmt(db, "DELETE FROM kv_entries WHERE expiration IS NOT NULL AND expiration <= ?").run(now).changes

/**
 * Writes entries (insert or replace) inside the caller's transaction. `entries` may be read as they
 * are written (a bulk's staged entries, not all in memory at once).
 */
export const writeEntries = (db: Database.Database, ns: number, entries: Iterable<WriteEntry>, now: number): void => {
  const upsert = stmt(
    db,
    "INSERT INTO kv_entries (ns, key, value, metadata, expiration) VALUES (?, ?, ?, ?, ?) " +
      "ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, metadata = excluded.metadata, expiration = excluded.expiration"
  )
  purgeExpired(db, now)
  for (const e of entries) upsert.run(ns, keyBytes(e.key), e.value, e.metadata, e.expiration)
}

/** Writes entries (insert or replace), all in one transaction: all of them or none. */
export const putEntries = (db: Database.Database, ns: number, entries: Iterable<WriteEntry>, now: number): void => {
  db.transaction(() => writeEntries(db, ns, entries, now))()
}

/** The live entry under `key`; an expired one is purged and reads as absent. */
export const getEntry = (db: Database.Database, ns: number, key: string, now: number): StoredValue | undefined => {
  const k = keyBytes(key)
  const r = stmt(db, "SELECT value, metadata, expiration FROM kv_entries WHERE ns = ? AND key = ?").get(ns, k) as
    Row | undefined
  if (r === undefined) return undefined
  const expiration = (r.expiration as number | null) ?? null
  if (expiration !== null && expiration <= now) {
    stmt(db, "DELETE FROM kv_entries WHERE ns = ? AND key = ? AND expiration <= ?").run(ns, k, now)
    return undefined
  }
  return { value: r.value as Buffer, metadata: (r.metadata as string | null) ?? null, expiration }
}

/** Deletes keys (absent ones are fine), in one transaction; the number that existed. */
export const deleteKeys = (db: Database.Database, ns: number, keys: Iterable<string>, now: number): number => {
  const del = stmt(db, "DELETE FROM kv_entries WHERE ns = ? AND key = ?")
  let n = 0
  db.transaction(() => {
    purgeExpired(db, now)
    for (const key of keys) n += del.run(ns, keyBytes(key)).changes
  })()
  return n
}

// ---------------------------------------------------------------------------------------------
// Listing

const CursorVersion = 1

/** An opaque cursor: the last key listed, versioned, base64url. */
const encodeCursor = (key: Buffer): string => Buffer.concat([Buffer.of(CursorVersion), key]).toString("base64url")

/** The key a cursor points after, or undefined if the text is not one of our cursors. */
export const decodeCursor = (cursor: string): Buffer | undefined => {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined
  const bytes = Buffer.from(cursor, "base64url")
  if (bytes.length < 2 || bytes[0] !== CursorVersion || bytes.length > 1 + 512) return undefined
  return bytes.subarray(1)
}

/** The smallest byte string greater than every string that starts with `prefix`, if any. */
const prefixEnd = (prefix: Buffer): Buffer | undefined => {
  const end = Buffer.from(prefix)
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]!++
      return end.subarray(0, i + 1)
    }
  }
  return undefined
}

export interface KeyQuery {
  readonly prefix?: string | undefined
  readonly limit: number
  /** The key to list after (from decodeCursor). */
  readonly after?: Buffer | undefined
}

/** A page's query of live keys in byte order, after the cursor and within the prefix: `limit + 1` rows. */
const pageQuery = (columns: string, ns: number, q: KeyQuery, now: number) => {
  const prefix = q.prefix !== undefined && q.prefix !== "" ? keyBytes(q.prefix) : undefined
  const params: Array<unknown> = [ns]
  let sql = `SELECT ${columns} FROM kv_entries WHERE ns = ?`
  // One lower bound, the tighter of the cursor and the prefix, so the index seek starts there.
  if (q.after !== undefined && (prefix === undefined || Buffer.compare(q.after, prefix) >= 0)) {
    sql += " AND key > ?"
    params.push(q.after)
  } else if (prefix !== undefined) {
    sql += " AND key >= ?"
    params.push(prefix)
  }
  const end = prefix !== undefined ? prefixEnd(prefix) : undefined
  if (end !== undefined) {
    sql += " AND key < ?"
    params.push(end)
  }
  sql += " AND (expiration IS NULL OR expiration > ?) ORDER BY key LIMIT ?"
  params.push(now, q.limit + 1)
  return { sql, params }
}

/** One page of live keys in byte order; `cursor` is empty on the last page. */
export const listKeys = (
  db: Database.Database,
  ns: number,
  q: KeyQuery,
  now: number
): { readonly keys: ReadonlyArray<ListedKey>; readonly cursor: string } => {
  const { sql, params } = pageQuery("key, expiration, metadata", ns, q, now)
  const rows = stmt(db, sql).all(...params) as Array<Row>
  const more = rows.length > q.limit
  const page = more ? rows.slice(0, q.limit) : rows
  const keys = page.map((r): ListedKey => {
    const out: { name: string; expiration?: number; metadata?: unknown } = {
      name: (r.key as Buffer).toString("utf8")
    }
    if (r.expiration !== null) out.expiration = r.expiration as number
    if (r.metadata !== null) out.metadata = JSON.parse(r.metadata as string) as unknown
    return out
  })
  return { keys, cursor: more ? encodeCursor(page[page.length - 1]!.key as Buffer) : "" }
}

/** A key of a page of entries with its value: text that is its bytes exactly, or the bytes. */
export interface ListedEntry extends ListedKey {
  readonly value: string | Buffer
}

/**
 * Whether SQLite's text of `bytes` bytes is those bytes exactly: UTF-8 decodes invalid sequences
 * to U+FFFD (or, were a decoder lenient, to a lone surrogate or to fewer bytes), so a text without
 * them and of the same UTF-8 length is the bytes themselves.
 */
const faithful = (text: string, bytes: number) =>
  !text.includes("\uFFFD") &&
  Buffer.byteLength(text, "utf8") === bytes &&
  (text as string & { isWellFormed(): boolean }).isWellFormed()

/**
 * One page of live entries (keys with their values) in byte order, for a local export
 * (src/server/door/kv-entries-route.ts). Keys and values are read as text by SQLite, in raw rows: a
 * Buffer per key and per value was two thirds of a page's cost. A key or value whose text is not
 * its bytes (a binary value) is read again as bytes by its row.
 */
export const listEntries = (
  db: Database.Database,
  ns: number,
  q: KeyQuery,
  now: number
): { readonly entries: ReadonlyArray<ListedEntry>; readonly cursor: string } => {
  const { sql, params } = pageQuery(
    "CAST(key AS TEXT), length(key), CAST(value AS TEXT), length(value), expiration, metadata, rowid",
    ns,
    q,
    now
  )
  const rows = stmt(db, sql)
    .raw(true)
    .all(...params) as Array<[string, number, string, number, number | null, string | null, number]>
  const more = rows.length > q.limit
  const n = more ? q.limit : rows.length
  const entries: Array<ListedEntry> = []
  let lastKey: Buffer | undefined
  for (let i = 0; i < n; i++) {
    const [name, nameBytes, text, valueBytes, expiration, metadata, rowid] = rows[i]!
    let value: string | Buffer = text
    let key = name
    if (!faithful(text, valueBytes) || !faithful(name, nameBytes)) {
      const bytes = stmt(db, "SELECT key, value FROM kv_entries WHERE rowid = ?").get(rowid) as Row
      key = (bytes.key as Buffer).toString("utf8")
      if (!faithful(text, valueBytes)) value = bytes.value as Buffer
      if (i === n - 1) lastKey = bytes.key as Buffer
    }
    const out: { name: string; value: string | Buffer; expiration?: number; metadata?: unknown } = { name: key, value }
    if (expiration !== null) out.expiration = expiration
    if (metadata !== null) out.metadata = JSON.parse(metadata) as unknown
    entries.push(out)
  }
  const cursor = more ? encodeCursor(lastKey ?? keyBytes(rows[n - 1]![0])) : ""
  return { entries, cursor }
}
