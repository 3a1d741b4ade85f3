/**
 * The legacy security products' rules (Zone Lockdown, User Agent Blocking, rate limiting previous
 * version) in the store: one table, one row per rule holding its wire object (without id and times,
 * which are columns). A zone holds at most a thousand rules of a kind (the enterprise UA quota), so
 * a listing reads the zone's rules of that kind and filters them in code.
 */
import type Database from "better-sqlite3"
import type { LegacyKind } from "../domain/legacy-security.js"
import { stmt } from "./query.js"

export interface LegacyRow {
  readonly id: string
  readonly fields: Record<string, unknown>
  readonly created_on: string
  readonly modified_on: string
}

interface Raw {
  readonly id: string
  readonly rule: string
  readonly created_on: string
  readonly modified_on: string
}

const row = (r: Raw): LegacyRow => ({
  id: r.id,
  fields: JSON.parse(r.rule) as Record<string, unknown>,
  created_on: r.created_on,
  modified_on: r.modified_on
})

/** The zone's rules of one kind, oldest first. */
export const listLegacy = (db: Database.Database, zoneId: string, kind: LegacyKind): Array<LegacyRow> =>
  (
    stmt(
      db,
      `SELECT id, rule, created_on, modified_on FROM legacy_rules WHERE zone_id = ? AND kind = ? ORDER BY seq`
    ).all(zoneId, kind) as Raw[]
  ).map(row)

export const getLegacy = (db: Database.Database, zoneId: string, kind: LegacyKind, id: string) => {
  const r = stmt(
    db,
    `SELECT id, rule, created_on, modified_on FROM legacy_rules WHERE zone_id = ? AND kind = ? AND id = ?`
  ).get(zoneId, kind, id) as Raw | undefined
  return r === undefined ? undefined : row(r)
}

export const countLegacy = (db: Database.Database, zoneId: string, kind: LegacyKind): number =>
  (stmt(db, `SELECT count(*) AS n FROM legacy_rules WHERE zone_id = ? AND kind = ?`).get(zoneId, kind) as { n: number })
    .n

export const insertLegacy = (
  db: Database.Database,
  zoneId: string,
  kind: LegacyKind,
  id: string,
  fields: object,
  at: string
): LegacyRow => {
  stmt(db, `INSERT INTO legacy_rules (id, zone_id, kind, rule, created_on, modified_on) VALUES (?, ?, ?, ?, ?, ?)`).run(
    id,
    zoneId,
    kind,
    JSON.stringify(fields),
    at,
    at
  )
  return { id, fields: fields as Record<string, unknown>, created_on: at, modified_on: at }
}

/** Replaces a rule's fields; undefined when the zone has no such rule. */
export const replaceLegacy = (
  db: Database.Database,
  zoneId: string,
  kind: LegacyKind,
  id: string,
  fields: object,
  at: string
): LegacyRow | undefined => {
  const res = stmt(
    db,
    `UPDATE legacy_rules SET rule = ?, modified_on = ? WHERE zone_id = ? AND kind = ? AND id = ?`
  ).run(JSON.stringify(fields), at, zoneId, kind, id)
  return res.changes === 0 ? undefined : getLegacy(db, zoneId, kind, id)
}

export const deleteLegacy = (db: Database.Database, zoneId: string, kind: LegacyKind, id: string): boolean =>
  stmt(db, `DELETE FROM legacy_rules WHERE zone_id = ? AND kind = ? AND id = ?`).run(zoneId, kind, id).changes > 0

/** The zone's plan id (`free` when it has none). */
export const zonePlan = (db: Database.Database, zoneId: string): string =>
  (
    stmt(db, `SELECT coalesce(json_extract(plan, '$.legacy_id'), 'free') AS plan FROM zones WHERE id = ?`).get(
      zoneId
    ) as { plan: string } | undefined
  )?.plan ?? "free"

export { newId as newLegacyId } from "./firewall-repo.js"
