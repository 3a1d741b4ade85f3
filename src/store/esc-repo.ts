/**
 * ESC disable settings of zones and accounts in the local platform's store. Each change is one
 * statement, so it is atomic; a scope with nothing set has no row.
 */
import type Database from "better-sqlite3"
import type { EscChange } from "../domain/esc-change.js"
import { NothingSet, type EscSetting } from "../domain/esc.js"
import { stmt } from "./query.js"

export type EscScope = "zone" | "account"

const table = {
  zone: { name: "esc_zone", key: "zone_id" },
  account: { name: "esc_account", key: "account_id" }
} as const

type Row = { always: number; secret: string | null }

export const getEsc = (db: Database.Database, scope: EscScope, id: string): EscSetting => {
  const t = table[scope]
  const r = stmt(db, `SELECT always, secret FROM ${t.name} WHERE ${t.key} = ?`).get(id) as Row | undefined
  return r ? { always: r.always === 1, with_secret: r.secret } : NothingSet
}

/** `always` keeps the secret and a new secret keeps `always` (the spec: "same status, secret stored"). */
export const changeEsc = (db: Database.Database, scope: EscScope, id: string, change: EscChange): EscSetting => {
  const t = table[scope]
  if (change.kind === "always") {
    stmt(
      db,
      `INSERT INTO ${t.name} (${t.key}, always) VALUES (?, 1) ON CONFLICT (${t.key}) DO UPDATE SET always = 1`
    ).run(id)
  } else {
    stmt(
      db,
      `INSERT INTO ${t.name} (${t.key}, secret) VALUES (?, ?) ON CONFLICT (${t.key}) DO UPDATE SET secret = excluded.secret`
    ).run(id, change.secret)
    forgetOldPages(db)
  }
  return getEsc(db, scope, id)
}

/**
 * A secret replaced or cleared stays in the write-ahead log's older frames until a checkpoint: with
 * `secure_delete`, a checkpoint that empties the log leaves it nowhere (a reader still open in
 * another process may keep the log; SQLite then empties it at the next checkpoint).
 */
const forgetOldPages = (db: Database.Database) => db.pragma("wal_checkpoint(TRUNCATE)")

/** ESC on again: neither `always` nor a secret. */
export const clearEsc = (db: Database.Database, scope: EscScope, id: string): EscSetting => {
  const t = table[scope]
  stmt(db, `DELETE FROM ${t.name} WHERE ${t.key} = ?`).run(id)
  forgetOldPages(db)
  return NothingSet
}
