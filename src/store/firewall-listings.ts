/**
 * The firewall's listings (area C), synchronous on the store's handle: a page of a zone's filters
 * or rules goes through seek.ts, whose keyset memo checks the store's version and reads the page in
 * one synchronous stretch (a write landing between them would leave a stale page end), and a
 * zone's rules and filters lists are answered before the app by the fast route
 * (firewall-lists-route.ts), which runs without a fiber (docs/architecture.md, "The store"). The WAF's previous-WAF reads take a
 * zone's whole rules list here too (waf-firewall.ts, for waf-repo.ts, itself on the handle).
 */
import type Database from "better-sqlite3"
import {
  decodeFilter,
  decodeRule,
  FilterCols,
  RuleColumns,
  RuleFrom,
  type FilterDb,
  type FilterRow,
  type RuleDb,
  type RuleRow
} from "./firewall-rows.js"
import { stmt } from "./query.js"
import { seekPage } from "./seek.js"

/** A page as the handlers give it: offsets of whole pages. */
export interface Page {
  readonly offset: number
  readonly limit: number
}

// Filters and rules list in creation order.
const pageOf = (p: Page) => ({ page: Math.floor(p.offset / p.limit) + 1, perPage: p.limit })

const likeEscape = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** `zone = ?` and the query's conditions, in the order given. */
const conditions = (zoneColumn: string, zoneId: string) => {
  const parts = [`${zoneColumn} = ?`]
  const params: Array<unknown> = [zoneId]
  const where = (clause: string, value: unknown) => {
    parts.push(clause)
    params.push(value)
  }
  return { where, clause: () => ({ sql: `WHERE ${parts.join(" AND ")}`, params }) }
}

interface FilterQuery {
  readonly id?: string | undefined
  readonly paused?: boolean | undefined
  /** Case-insensitive substring. */
  readonly expression?: string | undefined
  /** Case-insensitive substring. */
  readonly description?: string | undefined
  /** Exact. */
  readonly ref?: string | undefined
}

/** One page of a zone's filters, in creation order, and the total over all pages. */
export const listFilters = (
  db: Database.Database,
  zoneId: string,
  q: FilterQuery,
  page: Page
): { readonly rows: Array<FilterRow>; readonly total: number } => {
  const c = conditions("zone_id", zoneId)
  if (q.id !== undefined) c.where("id = ?", q.id)
  if (q.paused !== undefined) c.where("paused = ?", q.paused ? 1 : 0)
  if (q.expression !== undefined) c.where("expression LIKE ? ESCAPE '\\'", likeEscape(q.expression))
  if (q.description !== undefined) c.where("description LIKE ? ESCAPE '\\'", likeEscape(q.description))
  if (q.ref !== undefined) c.where("ref = ?", q.ref)
  const r = seekPage(db, {
    select: FilterCols,
    from: "FROM firewall_filters",
    where: c.clause(),
    keys: [{ expr: "seq", desc: false }],
    ...pageOf(page)
  })
  return { rows: (r.rows as Array<FilterDb>).map(decodeFilter), total: r.total }
}

interface RuleQuery {
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
  page: Page
): { readonly rows: Array<RuleRow>; readonly total: number } => {
  const c = conditions("r.zone_id", zoneId)
  if (q.id !== undefined) c.where("r.id = ?", q.id)
  if (q.action !== undefined) c.where("r.action = ?", q.action)
  if (q.description !== undefined) c.where("r.description LIKE ? ESCAPE '\\'", likeEscape(q.description))
  if (q.paused !== undefined) c.where("r.paused = ?", q.paused ? 1 : 0)
  const r = seekPage(db, {
    select: RuleColumns,
    from: RuleFrom,
    where: c.clause(),
    keys: [{ expr: "r.seq", desc: false }],
    ...pageOf(page)
  })
  return { rows: (r.rows as Array<RuleDb>).map(decodeRule), total: r.total }
}

/** Every rule of the zone with its filter, in creation order (the firewall orders them itself). */
export const listRules = (db: Database.Database, zoneId: string): Array<RuleRow> =>
  (stmt(db, `SELECT ${RuleColumns} ${RuleFrom} WHERE r.zone_id = ? ORDER BY r.seq`).all(zoneId) as Array<RuleDb>).map(
    decodeRule
  )
