// The object's alarm: one row of `_cf_METADATA` (key 1, the time in ms), read once and cached.
import type Database from "better-sqlite3"

export const ALARM_KEY = 1

export class AlarmSlot {
  // undefined: not read yet (or in doubt after a rollback).
  private cached: number | null | undefined = undefined
  private readonly select: Database.Statement
  private readonly upsert: Database.Statement
  private readonly remove: Database.Statement

  constructor(db: Database.Database) {
    this.select = db.prepare("SELECT value FROM _cf_METADATA WHERE key = ?").pluck()
    this.upsert = db.prepare(
      "INSERT INTO _cf_METADATA (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
    )
    this.remove = db.prepare("DELETE FROM _cf_METADATA WHERE key = ?")
  }

  read(): number | null {
    if (this.cached === undefined) this.cached = (this.select.get(ALARM_KEY) as number | null | undefined) ?? null
    return this.cached
  }

  write(time: number | null): void {
    if (time === null) this.remove.run(ALARM_KEY)
    else this.upsert.run(ALARM_KEY, time)
    this.cached = time
  }

  forget(): void {
    this.cached = undefined
  }
}
