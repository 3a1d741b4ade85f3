/**
 * The legacy security products' rules (Zone Lockdown, User Agent Blocking, rate limiting previous
 * version) in the store, through the store's SQL client: one table, one row per rule holding its
 * wire object (without id and times, which are columns). A zone holds at most a thousand rules of a
 * kind (the enterprise UA quota), so a listing reads the zone's rules of that kind and filters them
 * in code.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import type { LegacyKind } from "../domain/legacy-security.js"
import { stmt } from "./query.js"
import { storeFailure } from "./sql-client.js"
import type { StoreError } from "./store-error.js"

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

const failing = storeFailure("cannot read or write the legacy rules")

/** The zone's rules of one kind, oldest first. */
export const listLegacy = (
  sql: SqlClient,
  zoneId: string,
  kind: LegacyKind
): Effect.Effect<Array<LegacyRow>, StoreError> =>
  sql<Raw>`SELECT id, rule, created_on, modified_on FROM legacy_rules
           WHERE zone_id = ${zoneId} AND kind = ${kind} ORDER BY seq`.pipe(
    Effect.map((rows) => rows.map(row)),
    Effect.mapError(failing)
  )

export const getLegacy = (
  sql: SqlClient,
  zoneId: string,
  kind: LegacyKind,
  id: string
): Effect.Effect<LegacyRow | undefined, StoreError> =>
  sql<Raw>`SELECT id, rule, created_on, modified_on FROM legacy_rules
           WHERE zone_id = ${zoneId} AND kind = ${kind} AND id = ${id}`.pipe(
    Effect.map(([r]) => (r === undefined ? undefined : row(r))),
    Effect.mapError(failing)
  )

export const countLegacy = (sql: SqlClient, zoneId: string, kind: LegacyKind): Effect.Effect<number, StoreError> =>
  sql<{ n: number }>`SELECT count(*) AS n FROM legacy_rules WHERE zone_id = ${zoneId} AND kind = ${kind}`.pipe(
    Effect.map(([r]) => r?.n ?? 0),
    Effect.mapError(failing)
  )

/** A rule's insert: one text and one row encoding for the client and the demo world's seed. */
const InsertSql = `INSERT INTO legacy_rules (id, zone_id, kind, rule, created_on, modified_on) VALUES (?, ?, ?, ?, ?, ?)`
const inserted = (zoneId: string, kind: LegacyKind, id: string, fields: object, at: string) => ({
  params: [id, zoneId, kind, JSON.stringify(fields), at, at],
  row: { id, fields: fields as Record<string, unknown>, created_on: at, modified_on: at } satisfies LegacyRow
})

export const insertLegacy = (
  sql: SqlClient,
  zoneId: string,
  kind: LegacyKind,
  id: string,
  fields: object,
  at: string
): Effect.Effect<LegacyRow, StoreError> => {
  const { params, row } = inserted(zoneId, kind, id, fields, at)
  return sql.unsafe(InsertSql, params).pipe(Effect.as(row), Effect.mapError(failing))
}

/**
 * `insertLegacy` on the handle, for the demo world's seed: seeds run synchronously inside the
 * store's creating transaction (db.ts `Seed`).
 */
export const seedLegacyRule = (
  db: Database.Database,
  zoneId: string,
  kind: LegacyKind,
  id: string,
  fields: object,
  at: string
): void => {
  stmt(db, InsertSql).run(...inserted(zoneId, kind, id, fields, at).params)
}

/** Replaces a rule's fields; undefined when the zone has no such rule. */
export const replaceLegacy = (
  sql: SqlClient,
  zoneId: string,
  kind: LegacyKind,
  id: string,
  fields: object,
  at: string
): Effect.Effect<LegacyRow | undefined, StoreError> =>
  sql`UPDATE legacy_rules SET rule = ${JSON.stringify(fields)}, modified_on = ${at}
      WHERE zone_id = ${zoneId} AND kind = ${kind} AND id = ${id}`.raw.pipe(
    Effect.mapError(failing),
    Effect.flatMap((res) =>
      (res as Database.RunResult).changes === 0 ? Effect.succeed(undefined) : getLegacy(sql, zoneId, kind, id)
    )
  )

export const deleteLegacy = (
  sql: SqlClient,
  zoneId: string,
  kind: LegacyKind,
  id: string
): Effect.Effect<boolean, StoreError> =>
  sql`DELETE FROM legacy_rules WHERE zone_id = ${zoneId} AND kind = ${kind} AND id = ${id}`.raw.pipe(
    Effect.map((res) => (res as Database.RunResult).changes > 0),
    Effect.mapError(failing)
  )

/** The zone's plan id (`free` when it has none). */
export const zonePlan = (sql: SqlClient, zoneId: string): Effect.Effect<string, StoreError> =>
  sql<{
    plan: string
  }>`SELECT coalesce(json_extract(plan, '$.legacy_id'), 'free') AS plan FROM zones WHERE id = ${zoneId}`.pipe(
    Effect.map(([r]) => r?.plan ?? "free"),
    Effect.mapError(failing)
  )

export { newId as newLegacyId } from "./firewall-repo.js"
