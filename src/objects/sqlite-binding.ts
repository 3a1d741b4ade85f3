// The SQLite binding that objects' databases open: better-sqlite3's JavaScript over a patched copy
// of its addon (build/native/build-sqlite.mjs, run on install), which adds to the native Database
// the authorizer, limits, double-quoted strings and error offset the platform's SQL dialect needs.
// Every connection to an object's database file goes through here: two copies of SQLite in one
// process must never open the same file (each keeps its own table of POSIX locks, and closing a
// descriptor in one drops the locks the other holds).
import Database from "better-sqlite3"
import { createRequire } from "node:module"
import * as path from "node:path"

/** What the patch adds to better-sqlite3's native Database (build/native/sqlite-guard.cpp). */
export interface NativeGuard {
  edgectlGuardConfigure(
    authorizer: (
      action: number,
      a: string | null,
      b: string | null,
      db: string | null,
      trigger: string | null
    ) => number,
    limits: Int32Array
  ): void
  edgectlGuard(on: boolean): void
  edgectlDoubleQuotedStrings(on: boolean): void
  edgectlErrorOffset(): number
}
interface Addon {
  readonly Database: abstract new (...args: Array<never>) => NativeGuard
}

const REBUILD = "npm run build:sqlite"
const nodeRequire = createRequire(import.meta.url)
let addon: Addon | undefined

/** Where the install put the patched addon: beside better-sqlite3, in the same node_modules. */
const bindingFile = (): string =>
  path.join(
    path.dirname(path.dirname(nodeRequire.resolve("better-sqlite3/package.json"))),
    ".edgectl-sqlite",
    "build",
    "Release",
    "better_sqlite3.node"
  )

/** The addon's file: EDGECTL_SQLITE_BINDING, else the build's (a worker thread loads the same one). */
export const sqliteBindingFile = (): string => process.env.EDGECTL_SQLITE_BINDING ?? bindingFile()

/** The patched addon, loaded once; throws the error naming the file and the rebuild command. */
export const loadSqliteBinding = (): Addon => {
  if (addon !== undefined) return addon
  const file = sqliteBindingFile()
  let loaded: Addon
  try {
    loaded = nodeRequire(file) as Addon
  } catch (e) {
    const why = (e as { code?: string }).code === "MODULE_NOT_FOUND" ? "missing" : (e as Error).message.split("\n")[0]
    throw new Error(
      `the SQLite binding for objects cannot be loaded: ${file}: ${why}; rebuild it with \`${REBUILD}\``,
      {
        cause: e
      }
    )
  }
  if (typeof (loaded.Database?.prototype as Partial<NativeGuard> | undefined)?.edgectlGuard !== "function")
    throw new Error(`the SQLite binding for objects is not edgectl's build: ${file}; rebuild it with \`${REBUILD}\``)
  addon = loaded
  return loaded
}

/** Opens an object's database file with the patched binding. */
export const openObjectSqlite = (file: string, options: Database.Options = {}): Database.Database =>
  new Database(file, { ...options, nativeBinding: loadSqliteBinding() as unknown as string })

/**
 * The native handle behind a Database: better-sqlite3 keeps it in an own property named by a
 * private Symbol() (lib/util.js `cppdb`); test/build/library-internals.test.ts pins that.
 */
export const nativeGuard = (db: Database.Database): NativeGuard => {
  const native = loadSqliteBinding().Database
  const holder = db as unknown as Record<symbol, unknown>
  for (const s of Object.getOwnPropertySymbols(db)) {
    const v = holder[s]
    if (v instanceof native) return v
  }
  throw new Error(
    "better-sqlite3's Database keeps no native handle under a symbol property (lib/util.js cppdb): update src/objects/sqlite-binding.ts"
  )
}
