/** The demo world's ESC disable settings, written into the ESC tables of the store. */
import type Database from "better-sqlite3"

/** The demo world's ESC settings (Acme Corp, the enterprise account, was testing its replacements). */
export const seedEsc = (db: Database.Database) => {
  const zone = (name: string, always: number, secret: string | null) =>
    db
      .prepare("INSERT INTO esc_zone (zone_id, always, secret) SELECT id, ?, ? FROM zones WHERE name = ?")
      .run(always, secret, name)
  zone("acme-legacy.com", 1, null)
  zone("acme.com", 0, "acme-esc-preview-7Qx2")
}
