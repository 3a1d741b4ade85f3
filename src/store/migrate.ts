/**
 * Creating or upgrading a store: its migrations, its seed and `user_version`, as one transaction on
 * the caller's own handle, begun IMMEDIATE. Several processes opening a new state directory at once
 * (three commands and `serve`) queue on SQLite's write lock: the first creates and seeds, the others
 * find `user_version` current once they hold the lock and use what it made. On a second connection,
 * as @effect/sql-sqlite-node would open, two migrators and two seeds raced (a UNIQUE constraint on
 * the seed, or "migrations already running" taken as done before the tables existed).
 */
import * as Migrator from "@effect/sql-sqlite-node/SqliteMigrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import { storeFailure, type SqliteClient } from "./sql-client.js"
import { StoreError } from "./store-error.js"
import { LatestVersion, migrations } from "./migrations.js"

/** How long a process waits for another one creating the store (seeding a big world takes seconds). */
const CreateWaitMs = 120_000

/**
 * Brings the store open on `db` to `LatestVersion` (migrations, then `fill` from the version it
 * had, then `user_version`), or does nothing when another process did it first, through the
 * store's client `sql` on `db` (the Migrator's queries and the seed's statements on one connection,
 * in one of the client's transactions). `fill` is a `Seed` (db.ts), written out by its shape because
 * db.ts imports this module: its statements on the handle and its client effect both land in the
 * transaction.
 */
export const createOrUpgrade = (
  db: Database.Database,
  sql: SqliteClient,
  file: string,
  fill: ((db: Database.Database, fromVersion: number, sql: SqliteClient) => Effect.Effect<void, StoreError>) | undefined
): Effect.Effect<void, StoreError> =>
  Effect.gen(function* () {
    const work = Effect.gen(function* () {
      const from = db.pragma("user_version", { simple: true }) as number
      if (from >= LatestVersion) return
      yield* Migrator.make({})({ loader: Migrator.fromRecord(migrations) }).pipe(
        Effect.mapError((e) => new StoreError(`cannot migrate ${file}: ${String(e)}`))
      )
      const seeding = fill === undefined ? Effect.void : Effect.suspend(() => fill(db, from, sql))
      yield* seeding.pipe(
        Effect.zipRight(Effect.sync(() => db.pragma(`user_version = ${LatestVersion}`))),
        Effect.catchAllDefect((e) => Effect.fail(new StoreError(String(e)))),
        Effect.mapError((e) => new StoreError(`cannot seed ${file}: ${e.message}`))
      )
    }).pipe(Effect.provideService(SqlClient.SqlClient, sql))
    const waited = db.pragma("busy_timeout", { simple: true }) as number
    db.pragma(`busy_timeout = ${CreateWaitMs}`)
    yield* sql.withTransaction(work).pipe(
      Effect.catchTag("SqlError", (e) => Effect.fail(storeFailure(`cannot create ${file}`)(e))),
      Effect.ensuring(Effect.sync(() => db.pragma(`busy_timeout = ${waited}`)))
    )
  })
