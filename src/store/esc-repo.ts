/**
 * ESC disable settings of zones and accounts in the local platform's store, through the store's SQL
 * client. Each change is one statement, so it is atomic; a scope with nothing set has no row.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { EscChange } from "../domain/esc-change.js"
import { NothingSet, type EscSetting } from "../domain/esc.js"
import { storeFailure } from "./sql-client.js"
import type { StoreError } from "./store-error.js"

export type EscScope = "zone" | "account"

const table = {
  zone: { name: "esc_zone", key: "zone_id" },
  account: { name: "esc_account", key: "account_id" }
} as const

type Row = { always: number; secret: string | null }

const failing = storeFailure("cannot read or write the ESC settings")

export const getEsc = (sql: SqlClient, scope: EscScope, id: string): Effect.Effect<EscSetting, StoreError> => {
  const t = table[scope]
  return sql<Row>`SELECT always, secret FROM ${sql(t.name)} WHERE ${sql(t.key)} = ${id}`.pipe(
    Effect.map(([r]) => (r ? { always: r.always === 1, with_secret: r.secret } : NothingSet)),
    Effect.mapError(failing)
  )
}

/** `always` keeps the secret and a new secret keeps `always` (the spec: "same status, secret stored"). */
export const changeEsc = (
  sql: SqlClient,
  scope: EscScope,
  id: string,
  change: EscChange
): Effect.Effect<EscSetting, StoreError> => {
  const t = table[scope]
  const write =
    change.kind === "always"
      ? sql`INSERT INTO ${sql(t.name)} (${sql(t.key)}, always) VALUES (${id}, 1)
            ON CONFLICT (${sql(t.key)}) DO UPDATE SET always = 1`
      : sql`INSERT INTO ${sql(t.name)} (${sql(t.key)}, secret) VALUES (${id}, ${change.secret})
            ON CONFLICT (${sql(t.key)}) DO UPDATE SET secret = excluded.secret`.pipe(
          Effect.zipRight(forgetOldPages(sql))
        )
  return write.pipe(Effect.mapError(failing), Effect.zipRight(getEsc(sql, scope, id)))
}

/**
 * A secret replaced or cleared stays in the write-ahead log's older frames until a checkpoint: with
 * `secure_delete`, a checkpoint that empties the log leaves it nowhere (a reader still open in
 * another process may keep the log; SQLite then empties it at the next checkpoint).
 */
const forgetOldPages = (sql: SqlClient) => sql.unsafe("PRAGMA wal_checkpoint(TRUNCATE)")

/** ESC on again: neither `always` nor a secret. */
export const clearEsc = (sql: SqlClient, scope: EscScope, id: string): Effect.Effect<EscSetting, StoreError> => {
  const t = table[scope]
  return sql`DELETE FROM ${sql(t.name)} WHERE ${sql(t.key)} = ${id}`.pipe(
    Effect.zipRight(forgetOldPages(sql)),
    Effect.as(NothingSet),
    Effect.mapError(failing)
  )
}
