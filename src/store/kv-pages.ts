/**
 * A KV namespace's pages of keys and of entries (keys with their values), in the byte order of
 * their keys, on the store's handle: a page is one synchronous query, answered before the app for a
 * local export (kv-entries-route.ts) and by the key list's handler (docs/architecture.md, "The
 * store"). Its cursor is the last key listed, opaque to the client.
 */
import type Database from "better-sqlite3"
import { stmt } from "./query.js"

type Row = Record<string, unknown>

/** A key as the store holds it: its UTF-8 bytes (BLOB), so the `(ns, key)` index orders keys as the platform lists them. */
export const keyBytes = (key: string) => Buffer.from(key, "utf8")

export interface ListedKey {
  readonly name: string
  readonly expiration?: number
  readonly metadata?: unknown
}

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
