/**
 * The local platform's SQLite store. We own the better-sqlite3 handle (repositories run prepared
 * statements synchronously: no per-query Effect machinery on the hot path); migrations run through
 * @effect/sql's Migrator on @effect/sql-sqlite-node, and only when `user_version` is behind.
 */
import Database from "better-sqlite3"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { makeDirectory } from "../make-directory.js"
import { LatestVersion, migrations } from "./migrations.js"
import { nativeModuleProblem } from "./native.js"

export interface Db {
  readonly db: Database.Database
  readonly file: string
}
export const Db = Context.GenericTag<Db>("edgectl/Db")

export class StoreError extends Error {
  override readonly name = "StoreError"
}

const migrate = (file: string) =>
  Effect.gen(function* () {
    const [SqliteClient, Migrator] = yield* Effect.promise(() =>
      Promise.all([import("@effect/sql-sqlite-node/SqliteClient"), import("@effect/sql/Migrator")])
    )
    yield* Migrator.make({})({ loader: Migrator.fromRecord(migrations) }).pipe(
      Effect.provide(SqliteClient.layer({ filename: file })),
      Effect.mapError((e) => new StoreError(`cannot migrate ${file}: ${String(e)}`))
    )
  })

/**
 * Fills a store after its migrations ran: `fromVersion` is the schema version the store had before
 * (0 for a new store), so a seed adds only what the newer migrations made room for.
 */
export type Seed = (db: Database.Database, fromVersion: number) => void
/** A seed loaded only when a store needs one (the demo world is a module of its own). */
export interface LazySeed {
  readonly load: () => Promise<Seed>
}

/** Opens (creating and migrating when needed) the store at `file`; `:memory:` is not supported. */
export const open = (file: string, seed?: Seed | LazySeed): Effect.Effect<Database.Database, StoreError> =>
  Effect.gen(function* () {
    yield* Effect.try({
      try: () => makeDirectory(path.dirname(file)),
      catch: (e) => new StoreError(e instanceof Error ? e.message : String(e))
    })
    const openDb = () =>
      Effect.try({
        try: () => {
          const db = new Database(file)
          db.pragma("journal_mode = WAL")
          db.pragma("synchronous = NORMAL")
          db.pragma("foreign_keys = ON")
          db.pragma("busy_timeout = 5000")
          return db
        },
        catch: (e) => {
          // The first `new Database` loads the native module: a build for another Node fails here.
          const native = nativeModuleProblem(e)
          return new StoreError(native ?? `cannot open ${file}: ${String(e)}`)
        }
      })
    let db = yield* openDb()
    const version = db.pragma("user_version", { simple: true }) as number
    if (version > LatestVersion) {
      db.close()
      return yield* Effect.fail(new StoreError(`${file} was written by a newer edgectl (schema ${version} > ${LatestVersion})`))
    }
    if (version === LatestVersion) return db
    db.close()
    yield* migrate(file)
    const fill = seed === undefined || typeof seed === "function" ? seed : yield* Effect.promise(seed.load)
    db = yield* openDb()
    const ready = db
    // Seeding and user_version are one transaction: a store interrupted while seeding has neither,
    // and is seeded again from the same version on the next open.
    yield* Effect.try({
      try: () =>
        ready.transaction(() => {
          fill?.(ready, version)
          ready.pragma(`user_version = ${LatestVersion}`)
        })(),
      catch: (e) => {
        ready.close()
        return new StoreError(`cannot seed ${file}: ${String(e)}`)
      }
    })
    return db
  })

/** A scoped Db layer over `file`; the handle closes with the scope. */
export const layer = (file: string, seed?: Seed | LazySeed) =>
  Layer.scoped(
    Db,
    Effect.acquireRelease(
      Effect.map(open(file, seed), (db) => ({ db, file })),
      ({ db }) => Effect.sync(() => db.close())
    )
  )
