// What object code's SQL may do, decided as the platform's runtime decides it: by SQLite's
// authorizer (what a statement does: the tables it reads and writes, the pragmas and functions it
// calls), not by the statement's text. The runtime's rules (workerd, src/workerd/util/sqlite.c++
// isAuthorized and setupSecurity; the issue lists the current allowlist): its pragma allowlist
// with boolean values checked, no sqlite_*() introspection functions, no TEMP objects, no ATTACH,
// virtual tables of four modules only, the reserved `_cf_` names unreachable, and its limits.
// Called only inside the guarded window around object code's statements (sql.ts): edgectl's own
// statements on _cf_KV are never asked.
import type Database from "better-sqlite3"
import { nativeGuard, type NativeGuard } from "./sqlite-binding.js"

// sqlite3.h's authorizer action codes and results.
const A = {
  CREATE_INDEX: 1,
  CREATE_TABLE: 2,
  CREATE_TEMP_INDEX: 3,
  CREATE_TEMP_TABLE: 4,
  CREATE_TEMP_TRIGGER: 5,
  CREATE_TEMP_VIEW: 6,
  CREATE_TRIGGER: 7,
  CREATE_VIEW: 8,
  DELETE: 9,
  DROP_INDEX: 10,
  DROP_TABLE: 11,
  DROP_TEMP_INDEX: 12,
  DROP_TEMP_TABLE: 13,
  DROP_TEMP_TRIGGER: 14,
  DROP_TEMP_VIEW: 15,
  DROP_TRIGGER: 16,
  DROP_VIEW: 17,
  INSERT: 18,
  PRAGMA: 19,
  READ: 20,
  SELECT: 21,
  TRANSACTION: 22,
  UPDATE: 23,
  ALTER_TABLE: 26,
  REINDEX: 27,
  ANALYZE: 28,
  CREATE_VTABLE: 29,
  DROP_VTABLE: 30,
  FUNCTION: 31,
  SAVEPOINT: 32,
  RECURSIVE: 33
} as const
const OK = 0
const DENY = 1

// sqlite3_limit ids and the platform's values.
export const SQL_LIMITS = {
  sqlLength: 100_000,
  columns: 100,
  expressionDepth: 100,
  compoundSelectTerms: 5,
  likePatternBytes: 50,
  boundParameters: 100,
  triggerDepth: 10,
  attached: 0
} as const
const LIMIT_PAIRS = new Int32Array([
  1,
  SQL_LIMITS.sqlLength,
  2,
  SQL_LIMITS.columns,
  3,
  SQL_LIMITS.expressionDepth,
  4,
  SQL_LIMITS.compoundSelectTerms,
  7,
  SQL_LIMITS.attached,
  8,
  SQL_LIMITS.likePatternBytes,
  9,
  SQL_LIMITS.boundParameters,
  10,
  SQL_LIMITS.triggerDepth
])

const TRANSACTION_REFUSED =
  "To execute a transaction, please use the state.storage.transaction() or state.storage.transactionSync() APIs instead of the SQL BEGIN TRANSACTION or SAVEPOINT statements. The JavaScript API is safer because it will automatically roll back on exceptions, and because it interacts correctly with automatic atomic write coalescing."

type Signature = "none" | "boolean" | "name" | "optionalName"
const PRAGMAS = new Map<string, Signature>([
  ["data_version", "none"],
  ["page_size", "none"],
  ["quick_check", "none"],
  ["optimize", "none"],
  ["case_sensitive_like", "boolean"],
  ["foreign_keys", "boolean"],
  ["defer_foreign_keys", "boolean"],
  ["ignore_check_constraints", "boolean"],
  ["legacy_alter_table", "boolean"],
  ["recursive_triggers", "boolean"],
  ["reverse_unordered_selects", "boolean"],
  ["foreign_key_check", "optionalName"],
  ["foreign_key_list", "name"],
  ["index_info", "name"],
  ["index_list", "name"],
  ["index_xinfo", "name"],
  ["table_info", "name"],
  ["table_xinfo", "name"],
  ["table_list", "none"]
])
const BOOLEANS = new Set(["true", "false", "yes", "no", "on", "off", "1", "0"])
const VIRTUAL_MODULES = new Set(["fts5", "fts5vocab", "rtree", "rtree_i32"])
// ALTER TABLE runs these itself (SQLite's alter.c); every other sqlite_*() function reveals the build.
const SQLITE_INTERNAL_FUNCTIONS = new Set([
  "sqlite_rename_column",
  "sqlite_rename_table",
  "sqlite_rename_test",
  "sqlite_drop_column",
  "sqlite_rename_quotefix"
])
// Eponymous virtual tables that list every table, the internal ones with them.
const REVEALING_TABLES = new Set(["dbstat"])

const reserved = (name: string | null): boolean => name !== null && name.slice(0, 4).toLowerCase() === "_cf_"

const unquote = (v: string): string =>
  v.length >= 2 && (v[0] === "'" || v[0] === '"') && v[v.length - 1] === v[0] ? v.slice(1, -1) : v

const NOT_AUTHORIZED = "not authorized"

/**
 * The authorizer of one connection. `denial` keeps the platform's words for the last refusal
 * (SQLite itself only says "not authorized").
 */
class SqlAuthorizer {
  denial: string | null = null

  readonly authorize = (
    action: number,
    a: string | null,
    b: string | null,
    dbName: string | null,
    _trigger: string | null
  ): number => {
    const verdict = this.decide(action, a, b, dbName)
    if (verdict === null) return OK
    // SQLite stops at the first refusal; later calls of the same statement keep its reason.
    this.denial ??= verdict
    return DENY
  }

  // null: allowed; else the message of the refusal.
  private decide(action: number, a: string | null, b: string | null, dbName: string | null): string | null {
    if (dbName !== null && dbName !== "main") {
      // TEMP objects hold no data of the object's (the runtime stores only main); nothing attached.
      if (dbName === "temp" && (action === A.READ || action === A.UPDATE)) return reserved(a) ? NOT_AUTHORIZED : null
      return NOT_AUTHORIZED
    }
    switch (action) {
      case A.SELECT:
      case A.RECURSIVE:
        return null
      case A.READ:
      case A.UPDATE:
        if (reserved(a)) return `access to ${a}.${b ?? ""} is prohibited`
        return a !== null && REVEALING_TABLES.has(a.toLowerCase()) ? NOT_AUTHORIZED : null
      case A.CREATE_TABLE:
      case A.DELETE:
      case A.DROP_TABLE:
      case A.INSERT:
      case A.ANALYZE:
      case A.CREATE_VIEW:
      case A.DROP_VIEW:
      case A.REINDEX:
        return reserved(a) ? NOT_AUTHORIZED : null
      case A.ALTER_TABLE:
        return reserved(b) ? NOT_AUTHORIZED : null
      case A.CREATE_INDEX:
      case A.DROP_INDEX:
      case A.CREATE_TRIGGER:
      case A.DROP_TRIGGER:
        return reserved(a) || reserved(b) ? NOT_AUTHORIZED : null
      case A.TRANSACTION:
      case A.SAVEPOINT:
        return TRANSACTION_REFUSED
      case A.PRAGMA:
        return this.pragma((a ?? "").toLowerCase(), b)
      case A.FUNCTION: {
        const name = (b ?? "").toLowerCase()
        return name.startsWith("sqlite_") && !SQLITE_INTERNAL_FUNCTIONS.has(name) ? NOT_AUTHORIZED : null
      }
      case A.CREATE_VTABLE:
      case A.DROP_VTABLE:
        return b !== null && VIRTUAL_MODULES.has(b.toLowerCase()) && !reserved(a) ? null : NOT_AUTHORIZED
      default:
        // ATTACH, DETACH, TEMP objects, COPY and any action SQLite adds later.
        return NOT_AUTHORIZED
    }
  }

  private pragma(name: string, arg: string | null): string | null {
    switch (PRAGMAS.get(name)) {
      case "none":
        return arg === null ? null : NOT_AUTHORIZED
      case "boolean":
        return arg === null || BOOLEANS.has(unquote(arg).toLowerCase()) ? null : NOT_AUTHORIZED
      case "name":
        return arg !== null && !reserved(unquote(arg)) ? null : NOT_AUTHORIZED
      case "optionalName":
        return arg === null || !reserved(unquote(arg)) ? null : NOT_AUTHORIZED
      default:
        return NOT_AUTHORIZED
    }
  }
}

/**
 * The guard of one object's connection: its authorizer and limits, switched on around object
 * code's statements only (`on()` / `off()`), and double-quoted string literals accepted (the
 * platform's SQLite build accepts them; better-sqlite3's compiles them off).
 */
export class SqlGuard {
  readonly authorizer = new SqlAuthorizer()
  private readonly native: NativeGuard

  constructor(db: Database.Database) {
    this.native = nativeGuard(db)
    this.native.edgectlDoubleQuotedStrings(true)
    this.native.edgectlGuardConfigure(this.authorizer.authorize, LIMIT_PAIRS)
  }

  private active = false

  on(): void {
    this.authorizer.denial = null
    this.native.edgectlGuard(true)
    this.active = true
  }

  // Once only: a failure may have closed the connection (the object reset) before a finally.
  off(): void {
    if (!this.active) return
    this.active = false
    this.native.edgectlGuard(false)
  }

  /** The platform's words for a failure while guarded; call before off(). */
  explain(e: unknown): unknown {
    const err = e as { code?: unknown; message?: unknown }
    if (typeof err.message !== "string") return e
    if (err.code === "SQLITE_AUTH" && this.authorizer.denial !== null) err.message = this.authorizer.denial
    else if (err.code === "SQLITE_ERROR" && /syntax error|incomplete input|unrecognized token/.test(err.message)) {
      const offset = this.native.edgectlErrorOffset()
      if (offset >= 0) err.message = `${err.message} at offset ${offset}`
    }
    return e
  }
}
