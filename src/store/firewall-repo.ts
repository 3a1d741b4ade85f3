/**
 * Firewall filters and rules (area C) in the local platform's store: synchronous prepared
 * statements. Multi-row writes are meant to run inside the caller's `db.transaction` (the server
 * wraps each request's writes in one), so a refused element leaves nothing behind.
 *
 * Other areas (the WAF migration, demo seeds) use `insertFilters`, `insertRules`, `listRules` and
 * `countRules`: their names and the table columns stay stable.
 */
import type Database from "better-sqlite3"
import { nodeCrypto } from "../lazy-builtins.js"
import { json, stmt } from "./query.js"
import { seekPage } from "./seek.js"

export interface FilterRow {
  readonly id: string
  readonly zone_id: string
  readonly expression: string
  readonly paused: boolean
  readonly description: string | null
  readonly ref: string | null
  readonly created_on: string
  readonly modified_on: string
}

/** A rule with its filter; `filter` is null when the filter was deleted (the rule keeps its id). */
export interface RuleRow {
  readonly id: string
  readonly zone_id: string
  readonly filter_id: string
  readonly action: string
  readonly priority: number | null
  readonly paused: boolean
  readonly description: string | null
  readonly ref: string | null
  readonly products: ReadonlyArray<string> | null
  readonly created_on: string
  readonly modified_on: string
  readonly filter: FilterRow | null
}

export interface NewFilter {
  /** Given by seeds for stable ids; a new random id otherwise. */
  readonly id?: string | undefined
  readonly expression: string
  readonly paused?: boolean | undefined
  readonly description?: string | null | undefined
  readonly ref?: string | null | undefined
}

export interface NewRule {
  readonly id?: string | undefined
  readonly filter_id: string
  readonly action: string
  readonly priority?: number | null | undefined
  readonly paused?: boolean | undefined
  readonly description?: string | null | undefined
  readonly ref?: string | null | undefined
  readonly products?: ReadonlyArray<string> | null | undefined
}

/** A 32-hex id, as the platform's. */
export const newId = () => nodeCrypto().randomBytes(16).toString("hex")

type FilterDb = Omit<FilterRow, "paused"> & { paused: number }

const toFilter = (r: FilterDb): FilterRow => ({ ...r, paused: r.paused === 1 })

const FilterCols = "id, zone_id, expression, paused, description, ref, created_on, modified_on"

// ---- filters ----

// Filters and rules list in creation order; the handlers give offsets of whole pages.
const BySeq = [{ expr: "seq", desc: false }]
const pageOf = (p: { readonly offset: number; readonly limit: number }) => ({
  page: Math.floor(p.offset / p.limit) + 1,
  perPage: p.limit
})

export const insertFilters = (
  db: Database.Database,
  zoneId: string,
  filters: ReadonlyArray<NewFilter>,
  now: string
): Array<FilterRow> => {
  const ins = stmt(
    db,
    `INSERT INTO firewall_filters (id, zone_id, expression, paused, description, ref, created_on, modified_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
  )
  return filters.map((f) => {
    const row: FilterRow = {
      id: f.id ?? newId(),
      zone_id: zoneId,
      expression: f.expression,
      paused: f.paused ?? false,
      description: f.description ?? null,
      ref: f.ref ?? null,
      created_on: now,
      modified_on: now
    }
    ins.run(row.id, zoneId, row.expression, row.paused ? 1 : 0, row.description, row.ref, now, now)
    return row
  })
}

export const getFilter = (db: Database.Database, zoneId: string, id: string): FilterRow | undefined => {
  const r = stmt(db, `SELECT ${FilterCols} FROM firewall_filters WHERE zone_id = ? AND id = ?`).get(zoneId, id) as
    FilterDb | undefined
  return r && toFilter(r)
}

/** The zone's filter with exactly this expression, if any (the duplicate check). */
export const findFilterByExpression = (
  db: Database.Database,
  zoneId: string,
  expression: string
): FilterRow | undefined => {
  const r = stmt(db, `SELECT ${FilterCols} FROM firewall_filters WHERE zone_id = ? AND expression = ?`).get(
    zoneId,
    expression
  ) as FilterDb | undefined
  return r && toFilter(r)
}

export interface FilterQuery {
  readonly id?: string | undefined
  readonly paused?: boolean | undefined
  /** Case-insensitive substring. */
  readonly expression?: string | undefined
  /** Case-insensitive substring. */
  readonly description?: string | undefined
  /** Exact. */
  readonly ref?: string | undefined
}

const likeEscape = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

const filterWhere = (zoneId: string, q: FilterQuery) => {
  const parts = ["zone_id = ?"]
  const params: Array<unknown> = [zoneId]
  const where = (clause: string, value: unknown) => {
    parts.push(clause)
    params.push(value)
  }
  if (q.id !== undefined) where("id = ?", q.id)
  if (q.paused !== undefined) where("paused = ?", q.paused ? 1 : 0)
  if (q.expression !== undefined) where("expression LIKE ? ESCAPE '\\'", likeEscape(q.expression))
  if (q.description !== undefined) where("description LIKE ? ESCAPE '\\'", likeEscape(q.description))
  if (q.ref !== undefined) where("ref = ?", q.ref)
  return { sql: parts.join(" AND "), params }
}

/** One page of a zone's filters, in creation order, and the total over all pages. */
export const listFilters = (
  db: Database.Database,
  zoneId: string,
  q: FilterQuery,
  page: { readonly offset: number; readonly limit: number }
): { readonly rows: Array<FilterRow>; readonly total: number } => {
  const w = filterWhere(zoneId, q)
  const r = seekPage(db, {
    select: FilterCols,
    from: "FROM firewall_filters",
    where: { sql: `WHERE ${w.sql}`, params: w.params },
    keys: BySeq,
    ...pageOf(page)
  })
  return { rows: (r.rows as Array<FilterDb>).map(toFilter), total: r.total }
}

/** Replaces the editable fields of an existing filter; answers the filter as stored, or undefined. */
export const updateFilter = (
  db: Database.Database,
  zoneId: string,
  f: {
    readonly id: string
    readonly expression: string
    readonly paused: boolean
    readonly description: string | null
    readonly ref: string | null
  },
  now: string
): FilterRow | undefined => {
  const r = stmt(
    db,
    `UPDATE firewall_filters SET expression = ?, paused = ?, description = ?, ref = ?, modified_on = ? WHERE zone_id = ? AND id = ?`
  ).run(f.expression, f.paused ? 1 : 0, f.description, f.ref, now, zoneId, f.id)
  return r.changes === 0 ? undefined : getFilter(db, zoneId, f.id)
}

/** Deletes the filters that exist; answers the ids deleted. Rules keep pointing at them. */
export const deleteFilters = (db: Database.Database, zoneId: string, ids: ReadonlyArray<string>): Array<string> => {
  const del = stmt(db, `DELETE FROM firewall_filters WHERE zone_id = ? AND id = ?`)
  return ids.filter((id) => del.run(zoneId, id).changes > 0)
}

/** How many rules of the zone use the filter. */
export const filterUses = (db: Database.Database, zoneId: string, filterId: string): number =>
  (
    stmt(db, `SELECT count(*) AS n FROM firewall_rules WHERE zone_id = ? AND filter_id = ?`).get(zoneId, filterId) as {
      n: number
    }
  ).n

// ---- rules ----

type RuleDb = {
  id: string
  zone_id: string
  filter_id: string
  action: string
  priority: number | null
  paused: number
  description: string | null
  ref: string | null
  products: string | null
  created_on: string
  modified_on: string
  f_id: string | null
  f_expression: string | null
  f_paused: number | null
  f_description: string | null
  f_ref: string | null
  f_created_on: string | null
  f_modified_on: string | null
}

const RuleColumns = `r.id, r.zone_id, r.filter_id, r.action, r.priority, r.paused, r.description, r.ref, r.products,
  r.created_on, r.modified_on, f.id AS f_id, f.expression AS f_expression, f.paused AS f_paused,
  f.description AS f_description, f.ref AS f_ref, f.created_on AS f_created_on, f.modified_on AS f_modified_on`
const RuleFrom = "FROM firewall_rules r LEFT JOIN firewall_filters f ON f.id = r.filter_id AND f.zone_id = r.zone_id"
const RuleSelect = `SELECT ${RuleColumns} ${RuleFrom}`

const toRule = (r: RuleDb): RuleRow => ({
  id: r.id,
  zone_id: r.zone_id,
  filter_id: r.filter_id,
  action: r.action,
  priority: r.priority,
  paused: r.paused === 1,
  description: r.description,
  ref: r.ref,
  products: json<ReadonlyArray<string> | null>(r.products, null),
  created_on: r.created_on,
  modified_on: r.modified_on,
  filter:
    r.f_id === null
      ? null
      : {
          id: r.f_id,
          zone_id: r.zone_id,
          expression: r.f_expression!,
          paused: r.f_paused === 1,
          description: r.f_description,
          ref: r.f_ref,
          created_on: r.f_created_on!,
          modified_on: r.f_modified_on!
        }
})

export const insertRules = (
  db: Database.Database,
  zoneId: string,
  rules: ReadonlyArray<NewRule>,
  now: string
): Array<RuleRow> => {
  const ins = stmt(
    db,
    `INSERT INTO firewall_rules (id, zone_id, filter_id, action, priority, paused, description, ref, products, created_on, modified_on)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  const ids = rules.map((r) => {
    const id = r.id ?? newId()
    ins.run(
      id,
      zoneId,
      r.filter_id,
      r.action,
      r.priority ?? null,
      r.paused ? 1 : 0,
      r.description ?? null,
      r.ref ?? null,
      r.products ? JSON.stringify(r.products) : null,
      now,
      now
    )
    return id
  })
  return ids.map((id) => getRule(db, zoneId, id)!)
}

export const getRule = (db: Database.Database, zoneId: string, id: string): RuleRow | undefined => {
  const r = stmt(db, `${RuleSelect} WHERE r.zone_id = ? AND r.id = ?`).get(zoneId, id) as RuleDb | undefined
  return r && toRule(r)
}

/** Every rule of the zone with its filter, in creation order (the firewall orders them itself). */
export const listRules = (db: Database.Database, zoneId: string): Array<RuleRow> =>
  (stmt(db, `${RuleSelect} WHERE r.zone_id = ? ORDER BY r.seq`).all(zoneId) as Array<RuleDb>).map(toRule)

export interface RuleQuery {
  readonly id?: string | undefined
  /** Exact. */
  readonly action?: string | undefined
  /** Case-insensitive substring. */
  readonly description?: string | undefined
  readonly paused?: boolean | undefined
}

/** One page of the zone's rules, in creation order, and the total over all pages. */
export const queryRules = (
  db: Database.Database,
  zoneId: string,
  q: RuleQuery,
  page: { readonly offset: number; readonly limit: number }
): { readonly rows: Array<RuleRow>; readonly total: number } => {
  const parts = ["r.zone_id = ?"]
  const params: Array<unknown> = [zoneId]
  const where = (clause: string, value: unknown) => {
    parts.push(clause)
    params.push(value)
  }
  if (q.id !== undefined) where("r.id = ?", q.id)
  if (q.action !== undefined) where("r.action = ?", q.action)
  if (q.description !== undefined) where("r.description LIKE ? ESCAPE '\\'", likeEscape(q.description))
  if (q.paused !== undefined) where("r.paused = ?", q.paused ? 1 : 0)
  const r = seekPage(db, {
    select: RuleColumns,
    from: RuleFrom,
    where: { sql: `WHERE ${parts.join(" AND ")}`, params },
    keys: [{ expr: "r.seq", desc: false }],
    ...pageOf(page)
  })
  return { rows: (r.rows as Array<RuleDb>).map(toRule), total: r.total }
}

/** Replaces the editable fields of an existing rule (omitted ones are erased, as on the platform). */
export const updateRule = (
  db: Database.Database,
  zoneId: string,
  r: {
    readonly id: string
    readonly filter_id: string
    readonly action: string
    readonly priority: number | null
    readonly paused: boolean
    readonly description: string | null
    readonly ref: string | null
    readonly products: ReadonlyArray<string> | null
  },
  now: string
): RuleRow | undefined => {
  const res = stmt(
    db,
    `UPDATE firewall_rules SET filter_id = ?, action = ?, priority = ?, paused = ?, description = ?, ref = ?, products = ?, modified_on = ?
     WHERE zone_id = ? AND id = ?`
  ).run(
    r.filter_id,
    r.action,
    r.priority,
    r.paused ? 1 : 0,
    r.description,
    r.ref,
    r.products ? JSON.stringify(r.products) : null,
    now,
    zoneId,
    r.id
  )
  return res.changes === 0 ? undefined : getRule(db, zoneId, r.id)
}

export const setRulePriority = (
  db: Database.Database,
  zoneId: string,
  id: string,
  priority: number | null,
  now: string
): RuleRow | undefined => {
  const res = stmt(db, `UPDATE firewall_rules SET priority = ?, modified_on = ? WHERE zone_id = ? AND id = ?`).run(
    priority,
    now,
    zoneId,
    id
  )
  return res.changes === 0 ? undefined : getRule(db, zoneId, id)
}

/** Deletes the rules that exist; answers the ids deleted. Their filters stay. */
export const deleteRules = (db: Database.Database, zoneId: string, ids: ReadonlyArray<string>): Array<string> => {
  const del = stmt(db, `DELETE FROM firewall_rules WHERE zone_id = ? AND id = ?`)
  return ids.filter((id) => del.run(zoneId, id).changes > 0)
}

export const countRules = (db: Database.Database, zoneId: string): number =>
  (stmt(db, `SELECT count(*) AS n FROM firewall_rules WHERE zone_id = ?`).get(zoneId) as { n: number }).n

/** The number of rules the zone may hold (its plan's quota; the free plan's for an unknown plan). */
export const ruleQuota = (db: Database.Database, zoneId: string): { readonly plan: string; readonly rules: number } => {
  const r = stmt(
    db,
    `SELECT coalesce(json_extract(z.plan, '$.legacy_id'), 'free') AS plan, q.rules AS rules FROM zones z
     LEFT JOIN firewall_quotas q ON q.plan = coalesce(json_extract(z.plan, '$.legacy_id'), 'free') WHERE z.id = ?`
  ).get(zoneId) as { plan: string; rules: number | null } | undefined
  if (r && r.rules !== null) return { plan: r.plan, rules: r.rules }
  const free = stmt(db, `SELECT rules FROM firewall_quotas WHERE plan = 'free'`).get() as { rules: number } | undefined
  return { plan: r?.plan ?? "free", rules: free?.rules ?? 5 }
}
