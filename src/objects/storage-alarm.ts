// The object's alarm: one row of `_cf_METADATA` (key 1, the time in ms), read once and cached.
// The table is created when an alarm is first set, as on the platform (a new object is one page).
import type Database from "better-sqlite3"
import { tableExists } from "./storage-kv.js"

const ALARM_KEY = 1
const METADATA_TABLE = "CREATE TABLE IF NOT EXISTS _cf_METADATA (key INTEGER PRIMARY KEY, value BLOB)"

export class AlarmSlot {
  // undefined: not read yet (or in doubt after a rollback).
  private cached: number | null | undefined = undefined
  private readonly db: Database.Database
  private present: boolean
  private stmts: { select: Database.Statement; upsert: Database.Statement; remove: Database.Statement } | null = null

  constructor(db: Database.Database) {
    this.db = db
    this.present = tableExists(db, "_cf_METADATA")
  }

  private get s(): NonNullable<AlarmSlot["stmts"]> {
    this.stmts ??= {
      select: this.db.prepare("SELECT value FROM _cf_METADATA WHERE key = ?").pluck(),
      upsert: this.db.prepare(
        "INSERT INTO _cf_METADATA (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
      ),
      remove: this.db.prepare("DELETE FROM _cf_METADATA WHERE key = ?")
    }
    return this.stmts
  }

  read(): number | null {
    if (this.cached === undefined)
      this.cached = this.present ? ((this.s.select.get(ALARM_KEY) as number | null | undefined) ?? null) : null
    return this.cached
  }

  write(time: number | null): void {
    if (time === null) {
      if (this.present) this.s.remove.run(ALARM_KEY)
    } else {
      if (!this.present) {
        this.db.exec(METADATA_TABLE)
        this.present = true
      }
      this.s.upsert.run(ALARM_KEY, time)
    }
    this.cached = time
  }

  // After a rollback or deleteAll(): the value, and whether the table exists, are read again.
  forget(): void {
    this.cached = undefined
    this.present = tableExists(this.db, "_cf_METADATA")
    this.stmts = null
  }
}
