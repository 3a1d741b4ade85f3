/** Writes an expanded world into a fresh store, in one transaction. */
import type Database from "better-sqlite3"
import type { Rows } from "./world.js"

export const insertRows = (db: Database.Database, rows: Rows) => {
  const tables = [
    "accounts",
    "users",
    "memberships",
    "tokens",
    "token_accounts",
    "zones",
    "dns_records",
    "certificate_packs",
    "certificates",
    "invites"
  ] as const
  db.transaction(() => {
    for (const table of tables) {
      const list = rows[table]
      if (list.length === 0) continue
      const cols = Object.keys(list[0]!)
      const stmt = db.prepare(
        `INSERT INTO ${table} (${cols.join(", ")}) VALUES (${cols.map((c) => `@${c}`).join(", ")})`
      )
      for (const row of list) stmt.run(row)
    }
  })()
}
