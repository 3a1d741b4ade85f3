/**
 * Keyset ("seek") pagination behind the platform's page numbers, for every paginated list of the
 * store. `LIMIT ? OFFSET k` walks k rows before the page and `COUNT(*)` walks every row: a client
 * reading N rows page by page cost O(N²/perPage). Here a listing (its query, parameters and order)
 * remembers, while the store is unchanged, its total and where each page it answered ended; the
 * next page seeks past that key through the order's index, and a page nearer the end is read
 * backwards from the end. Any write anywhere (this connection's `total_changes()`, or another
 * connection's commit, `PRAGMA data_version`) forgets it all: totals and pages stay exactly what
 * `COUNT(*)` and `OFFSET` would answer on the store as it is now.
 */
import type Database from "better-sqlite3"
import { stmt, type Clause } from "./query.js"

type Row = Record<string, unknown>

/** One column (or expression) of a listing's order; the whole key must be unique and NOT NULL. */
interface SeekKey {
  readonly expr: string
  readonly desc: boolean
  /** The row's property that holds the value when the selected columns have it, else it is selected as `_kN`. */
  readonly column?: string
}

export interface SeekListing {
  /** The columns the rows need; keys without a `column` are added as `_k0`, `_k1`, ... */
  readonly select: string
  /** `FROM ...` with its joins, without the WHERE. */
  readonly from: string
  /** The listing's conditions (the `where()` helper's clause, `WHERE ...` or empty). */
  readonly where: Clause
  readonly keys: ReadonlyArray<SeekKey>
  readonly page: number
  readonly perPage: number
  /** The total when the caller counted it already (with `seekTotal`, perhaps under other conditions). */
  readonly total?: number | undefined
}

interface Listing {
  total: number | undefined
  /** Row position -> the key of the row just before it. */
  readonly marks: Map<number, ReadonlyArray<unknown>>
}

interface Memo {
  version: string
  readonly listings: Map<string, Listing>
}

// Bounds on what a handle remembers: listings are few per client, pages up to a long listing's.
const MAX_LISTINGS = 64
const MAX_MARKS = 100_000

const memos = new WeakMap<Database.Database, Memo>()

// Two prepared statements: the table-valued `pragma_data_version` prepares a PRAGMA statement on
// every call.
const versionOf = (db: Database.Database): string =>
  `${stmt(db, "SELECT total_changes()").pluck().get() as number}:${stmt(db, "PRAGMA data_version").pluck().get() as number}`

const memoOf = (db: Database.Database): Memo => {
  const version = versionOf(db)
  let memo = memos.get(db)
  if (memo === undefined) memos.set(db, (memo = { version, listings: new Map() }))
  else if (memo.version !== version) {
    memo.version = version
    memo.listings.clear()
  }
  return memo
}

const listingOf = (memo: Memo, id: string): Listing => {
  let l = memo.listings.get(id)
  if (l === undefined) {
    if (memo.listings.size >= MAX_LISTINGS) memo.listings.delete(memo.listings.keys().next().value!)
    memo.listings.set(id, (l = { total: undefined, marks: new Map() }))
  }
  return l
}

const and = (w: Clause, extra: string): string => (w.sql === "" ? `WHERE ${extra}` : `${w.sql} AND ${extra}`)

/**
 * The rows strictly after `key` in the order: a range on the leading keys that share a direction
 * (which the order's index answers) and the exact lexicographic test for mixed directions.
 */
const afterKey = (keys: ReadonlyArray<SeekKey>, key: ReadonlyArray<unknown>): Clause => {
  const lead = keys.findIndex((k) => k.desc !== keys[0]!.desc)
  const n = lead < 0 ? keys.length : lead
  const cols = keys.slice(0, n).map((k) => k.expr)
  const op = keys[0]!.desc ? "<=" : ">="
  const range =
    n === 1
      ? { sql: `${cols[0]} ${op} ?`, params: [key[0]] }
      : { sql: `(${cols.join(", ")}) ${op} (${cols.map(() => "?").join(", ")})`, params: key.slice(0, n) }
  const strict = (i: number): Clause => {
    const k = keys[i]!
    const beyond = { sql: `${k.expr} ${k.desc ? "<" : ">"} ?`, params: [key[i]] }
    if (i === keys.length - 1) return beyond
    const rest = strict(i + 1)
    return {
      sql: `(${beyond.sql} OR (${k.expr} = ? AND ${rest.sql}))`,
      params: [...beyond.params, key[i], ...rest.params]
    }
  }
  const s = strict(0)
  return { sql: `${range.sql} AND ${s.sql}`, params: [...range.params, ...s.params] }
}

const orderBy = (keys: ReadonlyArray<SeekKey>, reverse: boolean) =>
  keys.map((k) => `${k.expr} ${k.desc !== reverse ? "DESC" : "ASC"}`).join(", ")

const keyCols = (keys: ReadonlyArray<SeekKey>) =>
  keys.flatMap((k, i) => (k.column === undefined ? [`, ${k.expr} AS _k${i}`] : [])).join("")

const keyOf = (row: Row, keys: ReadonlyArray<SeekKey>): ReadonlyArray<unknown> =>
  keys.map((k, i) => row[k.column ?? `_k${i}`])

const totalOf = (db: Database.Database, memo: Memo, from: string, where: Clause): number => {
  const listing = listingOf(memo, `count\0${from}\0${where.sql}\0${JSON.stringify(where.params)}`)
  listing.total ??= (stmt(db, `SELECT COUNT(*) AS n ${from} ${where.sql}`).get(...where.params) as { n: number }).n
  return listing.total
}

/** The listing's total, counted once while the store is unchanged. */
export const seekTotal = (db: Database.Database, from: string, where: Clause): number =>
  totalOf(db, memoOf(db), from, where)

/** One page of the listing and its total: the rows `ORDER BY keys LIMIT perPage OFFSET (page-1)*perPage` would answer. */
export const seekPage = (
  db: Database.Database,
  q: SeekListing
): { readonly rows: Array<Row>; readonly total: number } => {
  const memo = memoOf(db)
  const total = q.total ?? totalOf(db, memo, q.from, q.where)
  const offset = (q.page - 1) * q.perPage
  if (offset >= total) return { rows: [], total }
  const listing = listingOf(
    memo,
    `page\0${q.select}\0${q.from}\0${q.where.sql}\0${JSON.stringify(q.where.params)}\0${orderBy(q.keys, false)}`
  )
  const head = `SELECT ${q.select}${keyCols(q.keys)} ${q.from}`
  // The nearest page end at or before the offset, else the start.
  let from = 0
  let key: ReadonlyArray<unknown> | undefined = listing.marks.get(offset)
  if (key !== undefined) from = offset
  else {
    for (const [at, k] of listing.marks) {
      if (at <= offset && at > from) {
        from = at
        key = k
      }
    }
  }
  let rows: Array<Row>
  const want = Math.min(q.perPage, total - offset)
  if (total - offset - want < offset - from) {
    // Nearer the end: read the page backwards from the last row.
    rows = stmt(db, `${head} ${q.where.sql} ORDER BY ${orderBy(q.keys, true)} LIMIT ? OFFSET ?`).all(
      ...q.where.params,
      want,
      total - offset - want
    ) as Array<Row>
    rows.reverse()
  } else if (key === undefined) {
    rows = stmt(db, `${head} ${q.where.sql} ORDER BY ${orderBy(q.keys, false)} LIMIT ? OFFSET ?`).all(
      ...q.where.params,
      q.perPage,
      offset
    ) as Array<Row>
  } else {
    const after = afterKey(q.keys, key)
    rows = stmt(db, `${head} ${and(q.where, after.sql)} ORDER BY ${orderBy(q.keys, false)} LIMIT ? OFFSET ?`).all(
      ...q.where.params,
      ...after.params,
      q.perPage,
      offset - from
    ) as Array<Row>
  }
  if (rows.length > 0 && listing.marks.size < MAX_MARKS) {
    listing.marks.set(offset + rows.length, keyOf(rows[rows.length - 1]!, q.keys))
  }
  return { rows, total }
}
