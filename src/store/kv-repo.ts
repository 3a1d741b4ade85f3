/**
 * The key-value storage engine of the local platform: namespaces and entries in the platform's
 * SQLite store. What is not hot goes through the store's SQL client (a namespace's create, rename
 * and delete, a key's metadata); the hot reads and writes stay synchronous prepared statements on
 * the handle, with no per-call Effect machinery (a value's get and put, the bulk commit worker's
 * transaction, the namespace look-up every request makes, the first write's implicit namespace and
 * a namespace page through seek.ts: docs/architecture.md, "The store"). Pages of keys and entries
 * are kv-pages.ts.
 *
 * Keys are stored as their UTF-8 bytes (BLOB), so the unique index `(ns, key)` orders them exactly
 * as the platform lists them. Entries past their expiration are invisible to every read and are
 * purged lazily: the one that a read meets, and all of them at the start of each write.
 *
 * Inputs are validated by the callers (src/kv/validate.ts): the engine only stores.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import { nodeCrypto } from "../lazy-builtins.js"
import { stmt } from "./query.js"
import { keyBytes } from "./kv-pages.js"
import { seekPage } from "./seek.js"
import { storeFailure } from "./sql-client.js"
import type { StoreError } from "./store-error.js"
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

const TitleTakenSql = "SELECT 1 FROM kv_namespaces WHERE account_id = ? AND title = ?"

const titleTaken = (db: Database.Database, accountId: string, title: string): boolean =>
  stmt(db, TitleTakenSql).get(accountId, title) !== undefined

const failing = storeFailure("cannot read or write the KV namespaces")

/** A namespace's insert and its read back: one text and one row encoding for the client and the handle. */
const InsertNamespaceSql =
  "INSERT INTO kv_namespaces (id, account_id, title, created_on, implicit) VALUES (?, ?, ?, ?, ?)"
const NamespaceByIdSql = "SELECT * FROM kv_namespaces WHERE id = ?"

interface NewNamespace {
  readonly id?: string
  readonly implicit?: boolean
  readonly createdOn?: string
}

const insertParams = (accountId: string, title: string, options: NewNamespace) => ({
  id: options.id ?? newNamespaceId(),
  rest: [accountId, title, options.createdOn ?? new Date().toISOString(), options.implicit ? 1 : 0]
})

/**
 * Creates a namespace on the handle, for the first write's implicit namespace (inside its
 * transaction, `namespaceForWrite`) and the demo world's seed; the caller checked that the title is
 * free in the account.
 */
export const createNamespace = (
  db: Database.Database,
  accountId: string,
  title: string,
  options: NewNamespace = {}
): NamespaceRow => {
  const { id, rest } = insertParams(accountId, title, options)
  stmt(db, InsertNamespaceSql).run(id, ...rest)
  return toNamespace(stmt(db, NamespaceByIdSql).get(id) as Row)
}

/**
 * Creates a namespace titled `title` in the account through the client, or answers undefined when
 * the account has a namespace of that title: the check and the insert are one transaction, so two
 * creates of one title never both succeed.
 */
export const createTitledNamespace = (
  sql: SqlClient,
  accountId: string,
  title: string
): Effect.Effect<NamespaceRow | undefined, StoreError> =>
  Effect.gen(function* () {
    if ((yield* sql.unsafe(TitleTakenSql, [accountId, title])).length > 0) return undefined
    const { id, rest } = insertParams(accountId, title, {})
    yield* sql.unsafe(InsertNamespaceSql, [id, ...rest])
    const [row] = yield* sql.unsafe<Row>(NamespaceByIdSql, [id])
    return toNamespace(row!)
  }).pipe(sql.withTransaction, Effect.mapError(failing))

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

/**
 * Renames the namespace `seq`, or answers false when another namespace of its account has that
 * title (the check and the rename are one transaction).
 */
export const renameNamespace = (sql: SqlClient, ns: NamespaceRow, title: string): Effect.Effect<boolean, StoreError> =>
  Effect.gen(function* () {
    if (title !== ns.title && (yield* sql.unsafe(TitleTakenSql, [ns.accountId, title])).length > 0) return false
    yield* sql`UPDATE kv_namespaces SET title = ${title}, implicit = 0 WHERE seq = ${ns.seq}`
    return true
  }).pipe(sql.withTransaction, Effect.mapError(failing))

/** Whether the namespace `seq` still exists (a write that began before its delete). */
export const namespaceExists = (db: Database.Database, seq: number): boolean =>
  stmt(db, "SELECT 1 FROM kv_namespaces WHERE seq = ?").get(seq) !== undefined

/** Deletes a namespace and everything in it, in one transaction. */
export const deleteNamespace = (sql: SqlClient, seq: number): Effect.Effect<void, StoreError> =>
  sql`DELETE FROM kv_entries WHERE ns = ${seq}`.pipe(
    Effect.zipRight(sql`DELETE FROM kv_namespaces WHERE seq = ${seq}`),
    sql.withTransaction,
    Effect.asVoid,
    Effect.mapError(failing)
  )

// ---------------------------------------------------------------------------------------------
// Entries

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

/** Removes the entry under a key when it has expired: a read that meets one purges it. */
const PurgeKeySql = "DELETE FROM kv_entries WHERE ns = ? AND key = ? AND expiration <= ?"
const expired = (expiration: number | null, now: number) => expiration !== null && expiration <= now

/** The live entry under `key`; an expired one is purged and reads as absent. */
export const getEntry = (db: Database.Database, ns: number, key: string, now: number): StoredValue | undefined => {
  const k = keyBytes(key)
  const r = stmt(db, "SELECT value, metadata, expiration FROM kv_entries WHERE ns = ? AND key = ?").get(ns, k) as
    Row | undefined
  if (r === undefined) return undefined
  const expiration = (r.expiration as number | null) ?? null
  if (expired(expiration, now)) {
    stmt(db, PurgeKeySql).run(ns, k, now)
    return undefined
  }
  return { value: r.value as Buffer, metadata: (r.metadata as string | null) ?? null, expiration }
}

/**
 * The metadata of the live entry under `key` (the text stored, or null), or undefined when there
 * is none, through the client; its value is not read. An expired one is purged, as `getEntry` does.
 */
export const entryMetadata = (
  sql: SqlClient,
  ns: number,
  key: string,
  now: number
): Effect.Effect<string | null | undefined, StoreError> => {
  const k = keyBytes(key)
  return sql<{ metadata: string | null; expiration: number | null }>`
    SELECT metadata, expiration FROM kv_entries WHERE ns = ${ns} AND key = ${k}`.pipe(
    Effect.flatMap(([r]) =>
      r === undefined
        ? Effect.succeed(undefined)
        : expired(r.expiration, now)
          ? Effect.as(sql.unsafe(PurgeKeySql, [ns, k, now]), undefined)
          : Effect.succeed(r.metadata)
    ),
    Effect.mapError(storeFailure("cannot read the KV entries"))
  )
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
