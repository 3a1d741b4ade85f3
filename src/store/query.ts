/** Small helpers to build the WHERE clauses of list queries, shared by the repositories. */

export interface Clause {
  readonly sql: string
  readonly params: ReadonlyArray<unknown>
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

export type TextOp =
  | "equal"
  | "not_equal"
  | "starts_with"
  | "ends_with"
  | "contains"
  | "starts_with_case_sensitive"
  | "ends_with_case_sensitive"
  | "contains_case_sensitive"

const OPS: ReadonlyArray<TextOp> = [
  "equal",
  "not_equal",
  "starts_with",
  "ends_with",
  "contains",
  "starts_with_case_sensitive",
  "ends_with_case_sensitive",
  "contains_case_sensitive"
]

/** `contains:.org` → ["contains", ".org"]; a value without a known prefix is `equal`. */
export const parseOperator = (raw: string): [TextOp, string] => {
  const i = raw.indexOf(":")
  if (i > 0) {
    const op = raw.slice(0, i) as TextOp
    if (OPS.includes(op)) return [op, raw.slice(i + 1)]
  }
  return ["equal", raw]
}

/** A text comparison; case-insensitive unless the operator says otherwise. */
export const textClause = (column: string, op: TextOp, value: string): Clause => {
  switch (op) {
    case "equal":
      return { sql: `${column} = ? COLLATE NOCASE`, params: [value] }
    case "not_equal":
      return { sql: `${column} <> ? COLLATE NOCASE`, params: [value] }
    case "starts_with":
      return { sql: `${column} LIKE ? ESCAPE '\\'`, params: [`${escapeLike(value)}%`] }
    case "ends_with":
      return { sql: `${column} LIKE ? ESCAPE '\\'`, params: [`%${escapeLike(value)}`] }
    case "contains":
      return { sql: `${column} LIKE ? ESCAPE '\\'`, params: [`%${escapeLike(value)}%`] }
    case "starts_with_case_sensitive":
      return { sql: `substr(${column}, 1, length(?)) = ?`, params: [value, value] }
    case "ends_with_case_sensitive":
      return {
        sql: `(length(${column}) >= length(?) AND substr(${column}, -length(?)) = ?)`,
        params: [value, value, value]
      }
    case "contains_case_sensitive":
      return { sql: `instr(${column}, ?) > 0`, params: [value] }
  }
}

/** Joins filter clauses with AND (`match=all`, the default) or OR (`match=any`); scope clauses always AND. */
export const where = (
  scope: ReadonlyArray<Clause>,
  filters: ReadonlyArray<Clause>,
  match: "any" | "all" = "all"
): Clause => {
  const parts = [...scope]
  if (filters.length > 0) {
    parts.push({
      sql: `(${filters.map((f) => f.sql).join(match === "any" ? " OR " : " AND ")})`,
      params: filters.flatMap((f) => f.params)
    })
  }
  return parts.length === 0
    ? { sql: "", params: [] }
    : { sql: `WHERE ${parts.map((p) => p.sql).join(" AND ")}`, params: parts.flatMap((p) => p.params) }
}

export const inList = (column: string, values: ReadonlyArray<string>): Clause =>
  values.length === 0
    ? { sql: "0", params: [] }
    : { sql: `${column} IN (${values.map(() => "?").join(", ")})`, params: values }

import type Database from "better-sqlite3"

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>()

/** A prepared statement, prepared once per handle and SQL text (list queries repeat their shapes). */
export const stmt = (db: Database.Database, sql: string): Database.Statement => {
  let m = cache.get(db)
  if (!m) cache.set(db, (m = new Map()))
  let s = m.get(sql)
  if (!s) m.set(sql, (s = db.prepare(sql)))
  return s
}

export const json = <A>(s: unknown, fallback: A): A => (typeof s === "string" ? (JSON.parse(s) as A) : fallback)
