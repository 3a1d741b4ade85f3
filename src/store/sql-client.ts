/**
 * The store's SQL client: the design card's `SqliteClient` (@effect/sql-sqlite-node) over the
 * better-sqlite3 handle the store owns (db.ts). The package's own `SqliteClient.make` opens a second
 * connection and keeps it private; the platform needs one connection for the client and for the
 * places that must run SQL synchronously (the objects' `ctx.storage.sql`, the bulk commit worker,
 * the hot reads: docs/architecture.md), so a synchronous write is seen by the next client query and
 * the Migrator runs on the same lock as the repositories. Built as the package builds its own
 * (prepared statements reused, one permit for a statement or a whole transaction).
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as Client from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import { SqliteClient, TypeId } from "@effect/sql-sqlite-node/SqliteClient"
import type Database from "better-sqlite3"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { stmt } from "./query.js"
import { StoreError } from "./store-error.js"

export { SqliteClient }

const failed = (cause: unknown, message: string) => new SqlError({ cause, message })

/** Rows per chunk of a streamed query. */
const StreamChunk = 256

const connectionOf = (db: Database.Database): Connection => {
  const run = (sql: string, params: ReadonlyArray<unknown>, raw: boolean) =>
    Effect.try({
      try: () => {
        const s = stmt(db, sql)
        if (s.reader) return s.all(...params) as ReadonlyArray<unknown>
        const r = s.run(...params)
        return (raw ? r : []) as ReadonlyArray<unknown>
      },
      catch: (cause) => failed(cause, "Failed to execute statement")
    })
  const rows = <A>(effect: Effect.Effect<ReadonlyArray<unknown>, SqlError>, f?: (rows: Array<object>) => A) =>
    f ? Effect.map(effect, (r) => f(r as Array<object>)) : effect
  return {
    execute: (sql, params, f) => rows(run(sql, params, false), f),
    executeRaw: (sql, params) => run(sql, params, true),
    executeUnprepared: (sql, params, f) => rows(run(sql, params ?? [], false), f),
    executeValues: (sql, params) =>
      Effect.try({
        try: () => {
          // Its own statement: the cached one answers objects, and `raw` would change it for all.
          const s = db.prepare(sql)
          if (!s.reader) {
            s.run(...params)
            return []
          }
          return s.raw(true).all(...params) as ReadonlyArray<ReadonlyArray<unknown>>
        },
        catch: (cause) => failed(cause, "Failed to execute statement")
      }),
    // Rows read from the statement's iterator a chunk at a time (each chunk synchronous: SQLite's
    // cursor cannot yield mid-step); the iterator is closed when the stream ends or is interrupted.
    executeStream: (sql, params, f) => {
      const rows = Stream.flatMap(
        Stream.acquireRelease(
          Effect.try({
            try: () => db.prepare(sql).iterate(...params) as IterableIterator<object>,
            catch: (cause) => failed(cause, "Failed to execute statement")
          }),
          (it) => Effect.sync(() => it.return?.())
        ),
        (it) =>
          Stream.repeatEffectChunkOption(
            Effect.flatMap(
              Effect.mapError(
                Effect.try({
                  try: () => {
                    const chunk: Array<object> = []
                    for (let r = it.next(); r.done !== true; r = it.next()) {
                      chunk.push(r.value)
                      if (chunk.length === StreamChunk) break
                    }
                    return chunk
                  },
                  catch: (cause) => failed(cause, "Failed to read the statement's rows")
                }),
                Option.some
              ),
              (chunk) =>
                chunk.length === 0 ? Effect.fail(Option.none()) : Effect.succeed(Chunk.unsafeFromArray(chunk))
            )
          )
      )
      return f === undefined ? rows : Stream.mapChunks(rows, (c) => Chunk.unsafeFromArray(f(Chunk.toArray(c))))
    }
  }
}

/**
 * The client over `db` (`file` is its path, as the package's config names it). Its transactions
 * begin IMMEDIATE: every one the store runs writes, and taking the write lock first makes a second
 * process wait on `busy_timeout` instead of failing when a deferred reader upgrades.
 */
export const sqliteClientOn = (db: Database.Database, file: string): Effect.Effect<SqliteClient> =>
  Effect.gen(function* () {
    const conn = connectionOf(db)
    const semaphore = yield* Effect.makeSemaphore(1)
    const client = yield* Client.make({
      acquirer: semaphore.withPermits(1)(Effect.succeed(conn)),
      transactionAcquirer: Effect.uninterruptibleMask((restore) =>
        Effect.as(
          Effect.zipRight(
            restore(semaphore.take(1)),
            Effect.tap(Effect.scope, (scope) => Scope.addFinalizer(scope, semaphore.release(1)))
          ),
          conn
        )
      ),
      compiler: Statement.makeCompilerSqlite(),
      spanAttributes: [["db.system.name", "sqlite"]],
      beginTransaction: "BEGIN IMMEDIATE"
    })
    // The package's interface types `updateValues` as never (SQLite has no UPDATE ... FROM VALUES),
    // which no client built by `Client.make` satisfies.
    const withTransaction = client.withTransaction
    return Object.assign(client, {
      // A transaction never hands the thread to another fiber: code on the handle (a hot read's
      // cache, a KV write) runs synchronously and would otherwise land inside it, and be rolled back
      // with it. The store's transactions do only synchronous SQL, so they end before anything else.
      withTransaction: <R, E, A>(self: Effect.Effect<A, E, R>) =>
        Effect.withMaxOpsBeforeYield(withTransaction(self), Number.MAX_SAFE_INTEGER),
      [TypeId]: TypeId,
      config: { filename: file },
      export: Effect.try({ try: () => db.serialize(), catch: (c) => failed(c, "Failed to export database") }),
      backup: (destination: string) =>
        Effect.tryPromise({ try: () => db.backup(destination), catch: (c) => failed(c, "Failed to backup database") }),
      loadExtension: (path: string) =>
        Effect.try({ try: () => db.loadExtension(path), catch: (c) => failed(c, "Failed to load extension") })
    }) as unknown as SqliteClient
  }).pipe(Effect.provideServiceEffect(Reactivity.Reactivity, Reactivity.make))

/** A store query's failure as the store's error, naming what was asked and SQLite's own words. */
export const storeFailure = (what: string) => (e: SqlError) =>
  // The cause is kept: SQLite's code tells a full disk or a held lock from a bug (store-conditions.ts).
  new StoreError(`${what}: ${e.cause instanceof Error ? e.cause.message : String(e.cause ?? e.message)}`, {
    cause: e.cause ?? e
  })
