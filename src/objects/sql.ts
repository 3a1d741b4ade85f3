// `ctx.storage.sql`: exec() over the object's database, with the platform's cursor. Statements are
// prepared once per SQL text; rows are read eagerly (better-sqlite3 keeps the connection busy
// while an iterator is open, and a cursor must not block the object's other storage calls), and
// the counters grow as the cursor is consumed, as the platform reports them.
import type Database from "better-sqlite3"
import { out, rowBuilder, type RowBuilder, type SqlValue } from "./rows.js"
import { SQL_LIMITS, SqlGuard } from "./sql-authorizer.js"
import {
  guardStatement,
  hasParameters,
  MULTI_PARAMETERS,
  NO_STATEMENT,
  splitSql,
  type SqlStatement
} from "./sql-text.js"

export type { SqlValue } from "./rows.js"
type Row = Record<string, SqlValue>

interface Prepared {
  readonly stmt: Database.Statement
  readonly reader: boolean
  readonly readonly: boolean
  readonly ddl: boolean
  /** Has parameters: only the last statement of a query may (the runtime refuses it earlier). */
  readonly params: boolean
  readonly columns: ReadonlyArray<string>
  readonly build: RowBuilder
}

export interface SqlHooks {
  // Called before any statement that may write: opens the implicit transaction.
  readonly beforeWrite: () => void
  // Called with SQLite failures that leave the object's storage in doubt (disk full, I/O errors).
  readonly fatal: (error: Error) => void
}

const FATAL = /^SQLITE_(FULL|IOERR|CORRUPT|NOMEM|CANTOPEN|READONLY|NOTADB)/
const CACHE_LIMIT = 500
const DDL = new Set(["CREATE", "DROP", "ALTER"])

const sqlError = (e: unknown): Error => {
  if (e instanceof RangeError && /parameter|bind/i.test(e.message)) {
    return new Error("Wrong number of parameter bindings for SQL query.")
  }
  const code = (e as { code?: unknown }).code
  if (typeof code === "string" && code.startsWith("SQLITE_")) {
    const err = new Error(`${(e as Error).message}: ${code}`)
    ;(err as Error & { code: string }).code = code
    return err
  }
  return e instanceof Error ? e : new Error(String(e))
}

const bind = (v: unknown): unknown => {
  if (v === null || v === undefined) return null
  switch (typeof v) {
    case "number":
    case "string":
      return v
    case "boolean":
      return String(v)
    case "bigint":
      throw new TypeError("Cannot convert a BigInt value to a number")
  }
  if (v instanceof ArrayBuffer) return Buffer.from(v)
  if (ArrayBuffer.isView(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength)
  throw new TypeError(`sql.exec(): cannot bind a value of type ${Object.prototype.toString.call(v).slice(8, -1)}`)
}

export class SqlStorage {
  private readonly db: Database.Database
  private readonly hooks: SqlHooks
  private readonly cache = new Map<string, ReadonlyArray<Prepared>>()
  // The platform's authorizer and limits, on only while object code's statements prepare and run.
  private readonly guard: SqlGuard

  constructor(db: Database.Database, hooks: SqlHooks) {
    this.db = db
    this.hooks = hooks
    this.guard = new SqlGuard(db)
  }

  get databaseSize(): number {
    const pages = this.db.pragma("page_count", { simple: true }) as number
    const size = this.db.pragma("page_size", { simple: true }) as number
    return pages * size
  }

  clearCache(): void {
    this.cache.clear()
  }

  private prepareOne(st: SqlStatement): Prepared {
    // The runtime hands SQLite the text with its length, which SQLite checks against the limit
    // first ("statement too long"); better-sqlite3 hands it NUL-terminated, checked only later.
    if (st.text.length * 3 > SQL_LIMITS.sqlLength && Buffer.byteLength(st.text) > SQL_LIMITS.sqlLength) {
      throw Object.assign(new Error("statement too long: SQLITE_TOOBIG"), { code: "SQLITE_TOOBIG" })
    }
    let stmt: Database.Statement
    this.guard.on()
    try {
      stmt = this.db.prepare(st.text)
    } catch (e) {
      throw sqlError(this.guard.explain(e))
    } finally {
      this.guard.off()
    }
    const reader = stmt.reader
    if (reader) stmt.raw(true)
    const first = st.words[0]!.toUpperCase()
    const columns = reader ? stmt.columns().map((c) => c.name) : []
    return {
      stmt,
      reader,
      readonly: stmt.readonly,
      ddl: first === "CREATE" || first === "DROP" || first === "ALTER",
      params: hasParameters(st),
      columns,
      build: rowBuilder(columns)
    }
  }

  // Statements are prepared as they run when the query changes the schema (a later statement may
  // name a table created by an earlier one); other queries are prepared once and kept.
  private prepare(query: string): ReadonlyArray<Prepared | SqlStatement> {
    const hit = this.cache.get(query)
    if (hit !== undefined) return hit
    const statements = splitSql(query)
    for (const st of statements) guardStatement(st)
    // A piece of comments only is not prepared: it fails when the statements before it have run.
    if (statements.some((st) => st.words.length === 0 || DDL.has(st.words[0]!.toUpperCase()))) return statements
    const prepared = statements.map((st) => this.prepareOne(st))
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!)
    this.cache.set(query, prepared)
    return prepared
  }

  exec<T extends Row = Row>(query: string, ...bindings: Array<unknown>): SqlStorageCursor<T> {
    if (typeof query !== "string") throw new TypeError("sql.exec(): the query must be a string")
    const prepared = this.prepare(query)
    const args = bindings
    for (let i = 0; i < args.length; i++) {
      const v = args[i]
      if (typeof v !== "number" && typeof v !== "string" && v !== null) args[i] = bind(v)
    }
    // The common case: one statement, prepared before.
    if (prepared.length === 1) {
      const p = prepared[0]!
      if ("stmt" in p && !p.ddl) return this.one(p, args) as SqlStorageCursor<T>
    }
    let read = 0
    let written = 0
    let rows: Array<Array<unknown>> = []
    let columns: ReadonlyArray<string> = []
    let build = NO_BUILD
    const last = prepared.length - 1
    for (let i = 0; i <= last; i++) {
      const item = prepared[i]!
      if (!("stmt" in item) && item.words.length === 0) throw new Error(NO_STATEMENT)
      const p = "stmt" in item ? item : this.prepareOne(item)
      if (i < last && p.params) throw new Error(MULTI_PARAMETERS)
      const a = i === last ? args : []
      if (!p.readonly) this.hooks.beforeWrite()
      this.guard.on()
      try {
        if (p.reader) {
          const r = p.stmt.all(...a) as Array<Array<unknown>>
          if (!p.readonly) written += r.length
          if (i === last) {
            rows = r
            columns = p.columns
            build = p.build
          } else read += r.length
        } else {
          const info = p.stmt.run(...a)
          if (!p.readonly) {
            read += info.changes
            written += info.changes
          }
        }
      } catch (e) {
        throw this.failed(this.guard.explain(e))
      } finally {
        this.guard.off()
      }
      if (p.ddl) this.cache.clear()
    }
    return new SqlStorageCursor<T>(columns, build, rows, read, written)
  }

  private one(p: Prepared, args: Array<unknown>): SqlStorageCursor {
    try {
      if (!p.readonly) this.hooks.beforeWrite()
    } catch (e) {
      throw this.failed(e)
    }
    // Guarded while it runs too: SQLite prepares again what a schema change expired, and a
    // pragma function (pragma_table_info(...)) prepares its PRAGMA as it steps.
    this.guard.on()
    try {
      if (p.reader) {
        const rows = p.stmt.all(...args) as Array<Array<unknown>>
        return new SqlStorageCursor(p.columns, p.build, rows, 0, p.readonly ? 0 : rows.length)
      }
      const info = p.stmt.run(...args)
      const n = p.readonly ? 0 : info.changes
      return new SqlStorageCursor(NO_COLUMNS, NO_BUILD, NO_ROWS, n, n)
    } catch (e) {
      throw this.failed(this.guard.explain(e))
    } finally {
      this.guard.off()
    }
  }

  // A failed statement's error as the platform words it; storage in doubt breaks the object.
  private failed(e: unknown): Error {
    this.guard.off()
    const err = sqlError(e)
    const code = (err as { code?: string }).code
    if (code !== undefined && FATAL.test(code)) this.hooks.fatal(err)
    return err
  }
}

const NO_COLUMNS: ReadonlyArray<string> = []
const NO_ROWS: Array<Array<unknown>> = []
const NO_BUILD = rowBuilder(NO_COLUMNS)

export class SqlStorageCursor<T extends Row = Row> implements IterableIterator<T> {
  readonly columnNames: Array<string>
  private readonly rows: Array<Array<unknown>>
  private readonly build: RowBuilder
  private at = 0
  private readonly readBefore: number
  private readonly written: number

  constructor(
    columns: ReadonlyArray<string>,
    build: RowBuilder,
    rows: Array<Array<unknown>>,
    read: number,
    written: number
  ) {
    this.columnNames = [...columns]
    this.build = build
    this.rows = rows
    this.readBefore = read
    this.written = written
  }

  // As on the platform, one row ahead: the first row is stepped before the cursor is read, and
  // reading a row steps to the next one.
  get rowsRead(): number {
    return this.readBefore + Math.min(this.rows.length, this.at + 1)
  }
  get rowsWritten(): number {
    return this.written
  }

  private object(raw: Array<unknown>): T {
    return this.build(raw) as T
  }

  private nextRaw(): Array<SqlValue> | undefined {
    if (this.at >= this.rows.length) return undefined
    const raw = this.rows[this.at++]!
    for (let i = 0; i < raw.length; i++) if (typeof raw[i] === "object" && raw[i] !== null) raw[i] = out(raw[i])
    return raw as Array<SqlValue>
  }

  next(): IteratorResult<T> {
    if (this.at >= this.rows.length) return { done: true } as IteratorResult<T>
    return { done: false, value: this.object(this.rows[this.at++]!) }
  }

  toArray(): Array<T> {
    const result = new Array<T>(this.rows.length - this.at)
    for (let i = 0; this.at < this.rows.length; i++) result[i] = this.object(this.rows[this.at++]!)
    return result
  }

  one(): T {
    const left = this.rows.length - this.at
    if (left === 0) throw new Error("Expected exactly one result from SQL query, but got no results.")
    if (left > 1) throw new Error("Expected exactly one result from SQL query, but got multiple results.")
    return this.object(this.rows[this.at++]!)
  }

  raw<R extends Array<SqlValue> = Array<SqlValue>>(): RawCursor<R> {
    return new RawCursor<R>(
      this as unknown as SqlStorageCursor,
      () => this.nextRaw() as R | undefined,
      () => this.rows.length - this.at
    )
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this
  }
}

export class RawCursor<R extends Array<SqlValue>> implements IterableIterator<R> {
  constructor(
    private readonly parent: SqlStorageCursor,
    private readonly take: () => R | undefined,
    private readonly left: () => number
  ) {}
  get columnNames(): Array<string> {
    return this.parent.columnNames
  }
  get rowsRead(): number {
    return this.parent.rowsRead
  }
  get rowsWritten(): number {
    return this.parent.rowsWritten
  }
  next(): IteratorResult<R> {
    const r = this.take()
    return r === undefined ? ({ done: true } as IteratorResult<R>) : { done: false, value: r }
  }
  toArray(): Array<R> {
    const result: Array<R> = []
    for (let r = this.take(); r !== undefined; r = this.take()) result.push(r)
    return result
  }
  one(): R {
    const left = this.left()
    if (left === 0) throw new Error("Expected exactly one result from SQL query, but got no results.")
    if (left > 1) throw new Error("Expected exactly one result from SQL query, but got multiple results.")
    return this.take()!
  }
  [Symbol.iterator](): IterableIterator<R> {
    return this
  }
}
