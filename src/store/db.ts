/**
 * The local platform's SQLite store. We own the better-sqlite3 handle and build the design card's
 * SQL client on it (sql-client.ts): repositories query through the client, and only what needs
 * synchronous SQL uses the handle (docs/architecture.md, "The store"); migrations run through the
 * Migrator on the same client, only when `user_version` is behind (migrate.ts).
 */
import Database from "better-sqlite3"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { configure, WriteGate } from "./commit-worker.js"
import { LatestVersion } from "./migrations.js"
import { nativeModuleProblem } from "./native.js"
import { sqliteClientOn, type SqliteClient } from "./sql-client.js"
import { privateDatabase, privateDir } from "../private-files.js"
import { StoreError } from "./store-error.js"
import { storeCondition } from "../domain/store-conditions.js"

export interface Db {
  /** The handle, for what must run synchronously (the hot reads, the objects' storage, seeds). */
  readonly db: Database.Database
  /** The card's SQL client on the same connection: typed `SqlError`, transactions through it. */
  readonly sql: SqliteClient
  readonly file: string
  /** Closed while another connection of this process (a bulk's commit worker) holds the write lock. */
  readonly gate: WriteGate
  /**
   * Whether `file` is no longer the file opened (its directory deleted or moved, the file replaced):
   * SQLite would go on writing to the unlinked file. One stat.
   */
  readonly gone: () => boolean
}

/** A file's identity (device and inode), or "" when it is not there. */
const identityOf = (file: string): string => {
  try {
    const s = fs.statSync(file)
    return `${s.dev}:${s.ino}`
  } catch {
    return ""
  }
}
export const Db = Context.GenericTag<Db>("edgectl/Db")

/**
 * Fills a store after its migrations ran: `fromVersion` is the schema version the store had before
 * (0 for a new store), so a seed adds only what the newer migrations made room for. It writes on
 * the handle or through the client (`sql`, for what a repository on the client writes); both run
 * inside the creating transaction.
 */
export type Seed = (db: Database.Database, fromVersion: number, sql: SqliteClient) => Effect.Effect<void, StoreError>
/** A seed loaded only when a store needs one (the demo world is a module of its own). */
export interface LazySeed {
  readonly load: () => Promise<Seed>
}

/** Opens (creating and migrating when needed) the store at `file`; `:memory:` is not supported. */
const openStore = (
  file: string,
  seed?: Seed | LazySeed
): Effect.Effect<{ db: Database.Database; sql: SqliteClient }, StoreError> =>
  Effect.gen(function* () {
    // A directory made for other state (objects) before this store existed is made private quietly.
    const created = !fs.existsSync(file)
    yield* Effect.try({
      try: () => privateDir(path.dirname(file), created),
      catch: (e) => new StoreError(e instanceof Error ? e.message : String(e))
    })
    const openDb = () =>
      Effect.try({
        try: () => {
          privateDatabase(file)
          const db = new Database(file)
          configure(db)
          return db
        },
        catch: (e) => {
          // The first `new Database` loads the native module: a build for another Node fails here.
          const native = nativeModuleProblem(e)
          return new StoreError(native ?? `cannot open ${file}: ${storeCondition(e)?.message ?? String(e)}`)
        }
      })
    const db = yield* openDb()
    const sql = yield* sqliteClientOn(db, file)
    const version = db.pragma("user_version", { simple: true }) as number
    if (version > LatestVersion) {
      db.close()
      return yield* Effect.fail(
        new StoreError(`${file} was written by a newer edgectl (schema ${version} > ${LatestVersion})`)
      )
    }
    if (version === LatestVersion) return { db, sql }
    const fill = seed === undefined || typeof seed === "function" ? seed : yield* Effect.promise(seed.load)
    const { createOrUpgrade } = yield* Effect.promise(() => import("./migrate.js"))
    // Migrations, seed and user_version are one transaction: a store interrupted while seeding has
    // none of them, and is created again on the next open.
    yield* createOrUpgrade(db, sql, file, fill).pipe(Effect.tapError(() => Effect.sync(() => db.close())))
    return { db, sql }
  })

/** The handle of the store at `file`, opened as `acquire` opens it (for tests and tools). */
export const open = (file: string, seed?: Seed | LazySeed): Effect.Effect<Database.Database, StoreError> =>
  Effect.map(openStore(file, seed), ({ db }) => db)

/** The store at `file`, open for the scope: closed with it. */
export const acquire = (file: string, seed?: Seed | LazySeed) =>
  Effect.acquireRelease(
    Effect.map(openStore(file, seed), ({ db, sql }): Db => {
      const opened = identityOf(file)
      return { db, sql, file, gate: new WriteGate(), gone: () => identityOf(file) !== opened }
    }),
    ({ db }) => Effect.sync(() => db.close())
  )
