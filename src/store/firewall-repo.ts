/**
 * Firewall filters and rules (area C) in the local platform's store, through the store's SQL
 * client: the rows each write leaves, read back as stored. The checks are the server's
 * (src/server/firewall-checks.ts); a write of several rows runs inside the caller's
 * `sql.withTransaction`, which holds the checks too, so a refused element leaves nothing behind.
 * The paged listings are synchronous on the handle (firewall-listings.ts), and the rows' shapes and
 * encodings are firewall-rows.ts's.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import type { FilterFields } from "../firewall/body.js"
import {
  decodeFilter,
  decodeRule,
  FilterCols,
  filterInsert,
  InsertFilterSql,
  InsertRuleSql,
  newId,
  productsText,
  RuleColumns,
  RuleFrom,
  ruleInsertParams,
  type FilterDb,
  type FilterRow,
  type RuleDb,
  type RuleFields,
  type RuleRow
} from "./firewall-rows.js"
import { storeFailure } from "./sql-client.js"
import type { StoreError } from "./store-error.js"

export { newId }

type Stored<A> = Effect.Effect<A, StoreError>

const failing = storeFailure("cannot read or write the firewall filters and rules")

const changed = (res: unknown) => (res as Database.RunResult).changes > 0

// ---- filters ----

const filterById = (sql: SqlClient, zoneId: string, id: string) =>
  Effect.map(
    sql<FilterDb>`SELECT ${sql.literal(FilterCols)} FROM firewall_filters WHERE zone_id = ${zoneId} AND id = ${id}`,
    ([r]) => r && decodeFilter(r)
  )

export const getFilter = (sql: SqlClient, zoneId: string, id: string): Stored<FilterRow | undefined> =>
  Effect.mapError(filterById(sql, zoneId, id), failing)

/**
 * The zone's filters whose expression is one of `expressions`, by expression (the duplicate check
 * of a whole body: one query per 500 expressions, not one per element).
 */
export const filterIdsByExpression = (
  sql: SqlClient,
  zoneId: string,
  expressions: ReadonlyArray<string>
): Stored<ReadonlyMap<string, string>> =>
  Effect.gen(function* () {
    const found = new Map<string, string>()
    const distinct = [...new Set(expressions)]
    for (let i = 0; i < distinct.length; i += 500) {
      const rows = yield* sql<{ id: string; expression: string }>`SELECT id, expression FROM firewall_filters
        WHERE zone_id = ${zoneId} AND expression IN ${sql.in(distinct.slice(i, i + 500))}`
      for (const r of rows) found.set(r.expression, r.id)
    }
    return found as ReadonlyMap<string, string>
  }).pipe(Effect.mapError(failing))

/**
 * Rows inserted with `insertSql` (one row's `INSERT … VALUES (?, …)`), several to a statement: a
 * 1,000-element body is a few statements, not 1,000 (each statement is an Effect of its own). In
 * the order given, so their `seq` (the listing's creation order) is that order; at most 999
 * parameters a statement (SQLite's smallest limit).
 */
const insertRows = (sql: SqlClient, insertSql: string, rows: ReadonlyArray<ReadonlyArray<unknown>>) =>
  Effect.gen(function* () {
    const head = insertSql.slice(0, insertSql.lastIndexOf("VALUES"))
    const width = rows[0]?.length ?? 1
    const tuple = `(${Array.from({ length: width }, () => "?").join(", ")})`
    const perStatement = Math.floor(999 / width)
    for (let i = 0; i < rows.length; i += perStatement) {
      const chunk = rows.slice(i, i + perStatement)
      yield* sql.unsafe(`${head}VALUES ${chunk.map(() => tuple).join(", ")}`, chunk.flat())
    }
  })

/** New filters, each with a new id. */
export const insertFilters = (
  sql: SqlClient,
  zoneId: string,
  filters: ReadonlyArray<FilterFields>,
  now: string
): Stored<Array<FilterRow>> => {
  const inserts = filters.map((f) => filterInsert(zoneId, newId(), f, now))
  return insertRows(
    sql,
    InsertFilterSql,
    inserts.map((f) => f.params)
  ).pipe(Effect.as(inserts.map((f) => f.row)), Effect.mapError(failing))
}

const setFilter = (sql: SqlClient, zoneId: string, f: FilterFields & { readonly id: string }, now: string) =>
  sql`UPDATE firewall_filters SET expression = ${f.expression}, paused = ${f.paused ? 1 : 0},
      description = ${f.description}, ref = ${f.ref}, modified_on = ${now} WHERE zone_id = ${zoneId} AND id = ${f.id}`

/** Replaces the editable fields of existing filters; answers them as stored. */
export const updateFilters = (
  sql: SqlClient,
  zoneId: string,
  filters: ReadonlyArray<FilterFields & { readonly id: string }>,
  now: string
): Stored<Array<FilterRow>> =>
  Effect.gen(function* () {
    // Two filters may swap expressions in one call: clear them first so the unique index holds.
    yield* Effect.forEach(filters, (f) => setFilter(sql, zoneId, { ...f, expression: `\u0000${f.id}` }, now))
    // Each read back after its own write, as a body naming a filter twice saw it in turn.
    return yield* Effect.forEach(filters, (f) =>
      Effect.zipRight(
        setFilter(sql, zoneId, f, now),
        Effect.map(filterById(sql, zoneId, f.id), (r) => r!)
      )
    )
  }).pipe(Effect.mapError(failing))

/** Deletes the filters that exist; answers the ids deleted. Rules keep pointing at them. */
export const deleteFilters = (sql: SqlClient, zoneId: string, ids: ReadonlyArray<string>): Stored<Array<string>> =>
  Effect.filter(ids, (id) =>
    Effect.map(sql`DELETE FROM firewall_filters WHERE zone_id = ${zoneId} AND id = ${id}`.raw, changed)
  ).pipe(Effect.mapError(failing))

// ---- rules ----

const RuleSelect = `SELECT ${RuleColumns} ${RuleFrom}`

const ruleById = (sql: SqlClient, zoneId: string, id: string) =>
  Effect.map(
    sql<RuleDb>`${sql.literal(RuleSelect)} WHERE r.zone_id = ${zoneId} AND r.id = ${id}`,
    ([r]) => r && decodeRule(r)
  )

export const getRule = (sql: SqlClient, zoneId: string, id: string): Stored<RuleRow | undefined> =>
  Effect.mapError(ruleById(sql, zoneId, id), failing)

/** A rule just written, read back as stored. */
const writtenRule = (sql: SqlClient, zoneId: string, id: string) => Effect.map(ruleById(sql, zoneId, id), (r) => r!)

/** Rules just written (each id once), read back as stored, in the order of `ids`: one query per 500. */
const writtenRules = (sql: SqlClient, zoneId: string, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const byId = new Map<string, RuleRow>()
    for (let i = 0; i < ids.length; i += 500) {
      const rows =
        yield* sql<RuleDb>`${sql.literal(RuleSelect)} WHERE r.zone_id = ${zoneId} AND r.id IN ${sql.in(ids.slice(i, i + 500))}`
      for (const r of rows) byId.set(r.id, decodeRule(r))
    }
    return ids.map((id) => byId.get(id)!)
  })

/** A new rule: its filter an existing one, or one written with it (the combined call). */
type NewRule = Omit<RuleFields, "filter_id"> & {
  readonly filter:
    { readonly kind: "id"; readonly id: string } | { readonly kind: "new"; readonly filter: FilterFields }
}

/** New rules, each with a new id, and the new filters they name before them. */
export const insertRules = (
  sql: SqlClient,
  zoneId: string,
  rules: ReadonlyArray<NewRule>,
  now: string
): Stored<Array<RuleRow>> =>
  Effect.gen(function* () {
    const filters: Array<ReturnType<typeof filterInsert>> = []
    const inserts = rules.map((r) => {
      let filterId: string
      if (r.filter.kind === "id") filterId = r.filter.id
      else {
        const f = filterInsert(zoneId, newId(), r.filter.filter, now)
        filters.push(f)
        filterId = f.row.id
      }
      const id = newId()
      return { id, params: ruleInsertParams(zoneId, id, { ...r, filter_id: filterId }, now) }
    })
    yield* insertRows(
      sql,
      InsertFilterSql,
      filters.map((f) => f.params)
    )
    yield* insertRows(
      sql,
      InsertRuleSql,
      inserts.map((r) => r.params)
    )
    return yield* writtenRules(
      sql,
      zoneId,
      inserts.map((r) => r.id)
    )
  }).pipe(Effect.mapError(failing))

/**
 * Replaces the editable fields of existing rules (omitted ones are erased, as on the platform); each
 * is read back after its own write, as a body naming a rule twice saw it in turn.
 */
export const updateRules = (
  sql: SqlClient,
  zoneId: string,
  rules: ReadonlyArray<RuleFields & { readonly id: string }>,
  now: string
): Stored<Array<RuleRow>> =>
  Effect.forEach(rules, (r) =>
    Effect.zipRight(
      sql`UPDATE firewall_rules SET filter_id = ${r.filter_id}, action = ${r.action}, priority = ${r.priority},
          paused = ${r.paused ? 1 : 0}, description = ${r.description}, ref = ${r.ref},
          products = ${productsText(r.products)}, modified_on = ${now} WHERE zone_id = ${zoneId} AND id = ${r.id}`,
      writtenRule(sql, zoneId, r.id)
    )
  ).pipe(Effect.mapError(failing))

/** Sets the priority of existing rules; answers each as stored after its write. */
export const setPriorities = (
  sql: SqlClient,
  zoneId: string,
  rules: ReadonlyArray<{ readonly id: string; readonly priority: number | null }>,
  now: string
): Stored<Array<RuleRow>> =>
  Effect.forEach(rules, (r) =>
    Effect.zipRight(
      sql`UPDATE firewall_rules SET priority = ${r.priority}, modified_on = ${now} WHERE zone_id = ${zoneId} AND id = ${r.id}`,
      writtenRule(sql, zoneId, r.id)
    )
  ).pipe(Effect.mapError(failing))

/** Deletes the rules that exist; answers the ids deleted. Their filters stay. */
export const deleteRules = (sql: SqlClient, zoneId: string, ids: ReadonlyArray<string>): Stored<Array<string>> =>
  Effect.filter(ids, (id) =>
    Effect.map(sql`DELETE FROM firewall_rules WHERE zone_id = ${zoneId} AND id = ${id}`.raw, changed)
  ).pipe(Effect.mapError(failing))

/**
 * Deletes one rule and, with `withUnusedFilter`, its filter when no other rule of the zone uses it;
 * answers whether the rule was there.
 */
export const deleteRule = (sql: SqlClient, zoneId: string, id: string, withUnusedFilter: boolean): Stored<boolean> =>
  Effect.gen(function* () {
    const [rule] = yield* sql<{ filter_id: string }>`DELETE FROM firewall_rules WHERE zone_id = ${zoneId} AND id = ${id}
                                                     RETURNING filter_id`
    if (rule === undefined) return false
    if (withUnusedFilter) {
      yield* sql`DELETE FROM firewall_filters WHERE zone_id = ${zoneId} AND id = ${rule.filter_id}
                 AND NOT EXISTS (SELECT 1 FROM firewall_rules WHERE zone_id = ${zoneId} AND filter_id = ${rule.filter_id})`
    }
    return true
  }).pipe(Effect.mapError(failing))

export const countRules = (sql: SqlClient, zoneId: string): Stored<number> =>
  sql<{ n: number }>`SELECT count(*) AS n FROM firewall_rules WHERE zone_id = ${zoneId}`.pipe(
    Effect.map(([r]) => r?.n ?? 0),
    Effect.mapError(failing)
  )

/** The number of rules the zone may hold (its plan's quota; the free plan's for an unknown plan). */
export const ruleQuota = (sql: SqlClient, zoneId: string): Stored<{ readonly plan: string; readonly rules: number }> =>
  sql<{ plan: string; rules: number | null }>`
    SELECT p.plan AS plan, coalesce((SELECT rules FROM firewall_quotas WHERE plan = p.plan),
      (SELECT rules FROM firewall_quotas WHERE plan = 'free')) AS rules
    FROM (SELECT coalesce((SELECT json_extract(plan, '$.legacy_id') FROM zones WHERE id = ${zoneId}), 'free') AS plan) p`.pipe(
    Effect.map(([r]) => ({ plan: r?.plan ?? "free", rules: r?.rules ?? 5 })),
    Effect.mapError(failing)
  )
