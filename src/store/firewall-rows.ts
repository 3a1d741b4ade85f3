/**
 * The firewall tables' rows (area C): their shapes, how a row is read from a query and written as
 * statement parameters, one text per insert. The client's writes (firewall-repo.ts), the
 * synchronous listings (firewall-listings.ts) and the demo world's seeds share them, so a row is
 * encoded and decoded in one place.
 */
import type Database from "better-sqlite3"
import type { FilterFields } from "../firewall/body.js"
import { nodeCrypto } from "../lazy-builtins.js"
import { json, stmt } from "./query.js"

export interface FilterRow extends FilterFields {
  readonly id: string
  readonly zone_id: string
  readonly created_on: string
  readonly modified_on: string
}

/** A rule's editable fields, its filter's id among them. */
export interface RuleFields {
  readonly filter_id: string
  readonly action: string
  readonly priority: number | null
  readonly paused: boolean
  readonly description: string | null
  readonly ref: string | null
  readonly products: ReadonlyArray<string> | null
}

/** A rule with its filter; `filter` is null when the filter was deleted (the rule keeps its id). */
export interface RuleRow extends RuleFields {
  readonly id: string
  readonly zone_id: string
  readonly created_on: string
  readonly modified_on: string
  readonly filter: FilterRow | null
}

/** A 32-hex id, as the platform's. */
export const newId = () => nodeCrypto().randomBytes(16).toString("hex")

export type FilterDb = Omit<FilterRow, "paused"> & { paused: number }

export const decodeFilter = (r: FilterDb): FilterRow => ({ ...r, paused: r.paused === 1 })

export const FilterCols = "id, zone_id, expression, paused, description, ref, created_on, modified_on"

export type RuleDb = Omit<RuleRow, "paused" | "products" | "filter"> & {
  paused: number
  products: string | null
  f_id: string | null
  f_expression: string | null
  f_paused: number | null
  f_description: string | null
  f_ref: string | null
  f_created_on: string | null
  f_modified_on: string | null
}

export const RuleColumns = `r.id, r.zone_id, r.filter_id, r.action, r.priority, r.paused, r.description, r.ref, r.products,
  r.created_on, r.modified_on, f.id AS f_id, f.expression AS f_expression, f.paused AS f_paused,
  f.description AS f_description, f.ref AS f_ref, f.created_on AS f_created_on, f.modified_on AS f_modified_on`
export const RuleFrom =
  "FROM firewall_rules r LEFT JOIN firewall_filters f ON f.id = r.filter_id AND f.zone_id = r.zone_id"

export const decodeRule = (r: RuleDb): RuleRow => ({
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

export const InsertFilterSql = `INSERT INTO firewall_filters (id, zone_id, expression, paused, description, ref, created_on, modified_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`

/** A new filter's row and its insert's parameters. */
export const filterInsert = (zoneId: string, id: string, f: FilterFields, now: string) => ({
  row: { id, zone_id: zoneId, ...f, created_on: now, modified_on: now } satisfies FilterRow,
  params: [id, zoneId, f.expression, f.paused ? 1 : 0, f.description, f.ref, now, now]
})

export const InsertRuleSql = `INSERT INTO firewall_rules (id, zone_id, filter_id, action, priority, paused, description, ref, products, created_on, modified_on)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

/** Stored as JSON text; none is NULL. */
export const productsText = (products: ReadonlyArray<string> | null) => (products ? JSON.stringify(products) : null)

export const ruleInsertParams = (zoneId: string, id: string, r: RuleFields, now: string) => [
  id,
  zoneId,
  r.filter_id,
  r.action,
  r.priority,
  r.paused ? 1 : 0,
  r.description,
  r.ref,
  productsText(r.products),
  now,
  now
]

/**
 * Filters and rules written on the handle, for the demo world's seeds (they run synchronously
 * inside the store's creating transaction, db.ts `Seed`) and for tests that fill a zone as another
 * client would: the client's inserts' statements and encoding.
 */
export const seedFilter = (db: Database.Database, zoneId: string, id: string, f: FilterFields, now: string): void => {
  stmt(db, InsertFilterSql).run(...filterInsert(zoneId, id, f, now).params)
}

export const seedRule = (db: Database.Database, zoneId: string, id: string, r: RuleFields, now: string): void => {
  stmt(db, InsertRuleSql).run(...ruleInsertParams(zoneId, id, r, now))
}
