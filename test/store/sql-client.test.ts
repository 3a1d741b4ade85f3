/**
 * The store's SQL client (src/store/sql-client.ts): the card's SqliteClient on the handle the store
 * owns, so the handle and the client are one connection; its transactions; its failures as the
 * store's errors.
 */
import { Chunk, Effect, Exit, Stream } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { acquire } from "../../src/store/db.js"
import { migrations } from "../../src/store/migrations.js"
import { storeFailure } from "../../src/store/sql-client.js"
import { StoreError } from "../../src/store/store-error.js"

const tmpFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-sql-client-")), "platform.sqlite")

const withStore = <A, E>(use: (store: Effect.Effect.Success<ReturnType<typeof acquire>>) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(
        // A table of the test's own, without the platform's foreign keys.
        Effect.tap(acquire(tmpFile()), ({ db }) => db.exec("CREATE TABLE notes (id TEXT PRIMARY KEY)")),
        use
      )
    )
  )

describe("the store's SQL client", () => {
  it("records every migration through the Migrator on the store's own connection", async () => {
    const names = await withStore(
      ({ sql }) => sql<{ name: string }>`SELECT name FROM effect_sql_migrations ORDER BY migration_id`
    )
    expect(names.map((r) => r.name)).toEqual(Object.keys(migrations).map((k) => k.replace(/^\d+_/, "")))
  })

  it("is the handle's connection: a synchronous write is read by the client, and a client write by the handle", async () => {
    const seen = await withStore(({ db, sql }) =>
      Effect.gen(function* () {
        db.prepare("INSERT INTO notes (id) VALUES ('z1')").run()
        const byClient = yield* sql<{ id: string }>`SELECT id FROM notes`
        yield* sql`INSERT INTO notes (id) VALUES (${"z2"})`
        const byHandle = db.prepare("SELECT id FROM notes ORDER BY id").all() as Array<{ id: string }>
        return { byClient: byClient.map((r) => r.id), byHandle: byHandle.map((r) => r.id) }
      })
    )
    expect(seen).toEqual({ byClient: ["z1"], byHandle: ["z1", "z2"] })
  })

  it("rolls a failed transaction back whole, and commits a successful one", async () => {
    const rows = await withStore(({ db, sql }) =>
      Effect.gen(function* () {
        const failed = yield* Effect.exit(
          sql.withTransaction(Effect.zipRight(sql`INSERT INTO notes (id) VALUES ('lost')`, Effect.fail("refused")))
        )
        expect(Exit.isFailure(failed)).toBe(true)
        yield* sql.withTransaction(sql`INSERT INTO notes (id) VALUES ('kept')`)
        expect(db.inTransaction).toBe(false)
        return db.prepare("SELECT id FROM notes").all() as Array<{ id: string }>
      })
    )
    expect(rows.map((r) => r.id)).toEqual(["kept"])
  })

  it("runs a transaction without yielding to other fibers: a synchronous write elsewhere never lands in it", async () => {
    const rows = await withStore(({ db, sql }) =>
      Effect.gen(function* () {
        // Enough steps that the scheduler would hand the thread to the other fiber mid-transaction.
        const long = sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`INSERT INTO notes (id) VALUES ('rolled back')`
            for (let i = 0; i < 5000; i++) yield* Effect.sync(() => i)
            return yield* Effect.fail("refused")
          })
        )
        // The other fiber writes as soon as it finds the transaction open (or after it, if it never does).
        const raw = Effect.gen(function* () {
          for (let i = 0; i < 10_000 && !db.inTransaction; i++) yield* Effect.yieldNow()
          db.prepare("INSERT INTO notes (id) VALUES ('raw')").run()
        })
        yield* Effect.all([Effect.exit(long), raw], { concurrency: "unbounded" })
        return db.prepare("SELECT id FROM notes").all() as Array<{ id: string }>
      })
    )
    expect(rows.map((r) => r.id)).toEqual(["raw"])
  })

  it("streams a query's rows in chunks, all of them in order; a failing statement fails the stream with a SqlError", async () => {
    const out = await withStore(({ db, sql }) =>
      Effect.gen(function* () {
        const insert = db.prepare("INSERT INTO notes (id) VALUES (?)")
        for (let i = 0; i < 600; i++) insert.run(`n${String(i).padStart(4, "0")}`)
        const rows = yield* Stream.runCollect(sql<{ id: string }>`SELECT id FROM notes ORDER BY id`.stream)
        const bad = yield* Effect.exit(Stream.runCollect(sql`SELECT * FROM no_such_table`.stream))
        return { ids: Chunk.toArray(rows).map((r) => r.id), bad }
      })
    )
    expect(out.ids).toEqual(Array.from({ length: 600 }, (_, i) => `n${String(i).padStart(4, "0")}`))
    expect(Exit.isFailure(out.bad) && String(out.bad.cause)).toContain("SqlError")
  })

  it("fails with a typed SqlError, which the store maps to its error with SQLite's words", async () => {
    const error = await withStore(({ sql }) =>
      sql`SELECT * FROM no_such_table`.pipe(Effect.mapError(storeFailure("cannot read the table")), Effect.flip)
    )
    expect(error).toBeInstanceOf(StoreError)
    expect(error.message).toBe("cannot read the table: no such table: no_such_table")
  })
})
