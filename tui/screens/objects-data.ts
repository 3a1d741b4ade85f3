/**
 * What the objects screen reads and does. Each call goes through the running host that runs the
 * object (`edgectl objects dev`, any ObjectHost with a state directory), as one event of the
 * object, or else opens the object's storage for the call and closes it (control-client.ts
 * routes, exactly as the CLI's objects commands do).
 */
import { createContext } from "react"
import * as fs from "node:fs"
import * as path from "node:path"
import { readRegistrations, type Registration } from "../../src/objects/control-channel.js"
import { routeObject } from "../../src/objects/control-client.js"
import type { ObjectRequest, ResultOf } from "../../src/objects/control-ops.js"
import { DEFAULT_PERSIST_TO, listStored, ObjectId, type StoredObject as Stored } from "../../src/objects/ids.js"
import { holderAlive, LOCK_FILE, lockHolder } from "../../src/objects/owner-lock.js"
import { stateDirGone } from "../../src/domain/native-module.js"
import { shellWord } from "../../src/domain/shell-word.js"

/** The state directory whose objects the screen shows (the TUI's --persist-to). */
export const ObjectsDirContext = createContext<string>(path.resolve(DEFAULT_PERSIST_TO))

/**
 * `edgectl objects WORDS` as the screen suggests it: on the screen's state directory (` --persist-to
 * DIR` unless it is the default), so the command acts on the objects shown.
 */
export const objectsCommand = (dir: string, words: string) =>
  `edgectl objects ${words}${dir === path.resolve(DEFAULT_PERSIST_TO) ? "" : ` --persist-to ${shellWord(dir)}`}`

/** Where the screen sends a value it does not edit (not a string): the CLI's JSON put. */
export const putJsonHint = (dir: string, className: string) =>
  `use \`${objectsCommand(dir, `kv ${className} NAME put KEY JSON --value-json`)}\``

/** A running host, as the screen names it. */
export interface Host {
  readonly pid: number
  readonly start?: string
  readonly module: string
  readonly socket: string
}

export interface StoredObject extends Stored {
  readonly state: string
  /** The host whose instance of the object is running now (it holds the object's lock). */
  readonly host: Host | undefined
}

const asHost = (r: Registration): Host => ({
  pid: r.pid,
  ...(r.start !== undefined ? { start: r.start } : {}),
  module: r.module,
  socket: r.socket
})

/** Whether a host still serves: it removes its socket when it stops; one killed leaves it, but is gone. */
export const hostServing = (h: Host): boolean => fs.existsSync(h.socket) && holderAlive(h)

/**
 * The stored objects, each with the host running it, and the hosts serving the state directory now
 * (registrations of processes that are gone are not): the registrations are read once for both.
 */
export const readStored = (state: string): { objects: Array<StoredObject>; hosts: Array<Host> } => {
  const hosts = readRegistrations(state).filter(holderAlive)
  const objects = listStored(state).map((o) => {
    const holder = hosts.length === 0 ? undefined : lockHolder(o.dir)
    const host =
      holder === undefined ? undefined : hosts.find((h) => h.pid === holder.pid && h.classes.includes(o.className))
    return { ...o, state, host: host === undefined ? undefined : asHost(host) }
  })
  return { objects, hosts: hosts.map(asHost) }
}

export interface ObjectView {
  readonly alarm: number | null
  readonly entries: ReadonlyArray<readonly [string, string]>
  readonly history: ReadonlyArray<{ bookmark: string; time: number; restore: boolean }>
  readonly bytes: number
  /** The object's current bookmark: it changes with every commit, so a SQL result can tell it is out of date. */
  readonly bookmark: string
  /** The host that answered (undefined: the storage was opened here). */
  readonly host: Host | undefined
}

const show = (v: unknown): string => {
  if (typeof v === "string") return v
  // Bytes as their size (enter shows them as a hex dump), not as JSON of every index.
  if (v instanceof ArrayBuffer) return `<${v.byteLength} bytes>`
  if (ArrayBuffer.isView(v)) return `<${v.byteLength} bytes>`
  try {
    return (
      JSON.stringify(v, (_k, x) => (x instanceof Map ? Object.fromEntries(x) : typeof x === "bigint" ? `${x}n` : x)) ??
      String(v)
    )
  } catch {
    return String(v)
  }
}

/**
 * Every read and write of the screen. Opening the storage of an object whose directory is gone
 * would make it again, empty (and the state directory with it, when that was deleted under the
 * TUI; a running host would write to its unlinked files): refused, saying which is gone (issue 29).
 */
const route = async <R extends ObjectRequest>(
  o: StoredObject,
  request: R
): Promise<{ result: ResultOf<R>; host: Registration | undefined }> => {
  if (!fs.existsSync(o.state)) throw new Error(stateDirGone(o.state))
  if (!fs.existsSync(o.dir))
    throw new Error(
      `${o.className} ${o.name ?? o.id} is no longer stored under ${o.state} (deleted since it was listed)`
    )
  return routeObject(o.state, o.className, new ObjectId(o.id, o.name ?? undefined), request)
}

const LIMITS = { limit: 1000, historyLimit: 200 } as const

const toView = (
  v: ResultOf<{ op: "view"; limit: number; historyLimit: number }>,
  host: Registration | undefined
): ObjectView => ({
  alarm: v.alarm,
  entries: v.entries.map(([k, x]) => [k, show(x)] as const),
  history: v.history,
  bytes: v.bytes,
  bookmark: v.bookmark,
  host: host === undefined ? undefined : asHost(host)
})

export const readObject = async (o: StoredObject): Promise<ObjectView> => {
  const { result, host } = await route(o, { op: "view", ...LIMITS })
  return toView(result, host)
}

export interface SqlResult {
  readonly columns: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
  readonly rowsRead: number
  readonly rowsWritten: number
  /** The object's bookmark right after the query ran (its own writes included). */
  readonly bookmark: string
}

/** Runs a query and reads the view after it, as one event of the object. */
export const runSql = async (o: StoredObject, query: string): Promise<{ result: SqlResult; view: ObjectView }> => {
  const { result, host } = await route(o, { op: "console", query, ...LIMITS })
  const rows = result.sql.rows.map((r) =>
    r.map((v) => (v instanceof ArrayBuffer ? `<${v.byteLength} bytes>` : v === null ? "NULL" : String(v)))
  )
  return { result: { ...result.sql, rows, bookmark: result.view.bookmark }, view: toView(result.view, host) }
}

/**
 * A bookmark in a row of 80 columns: its time and sequence parts (which order and name the commit)
 * and "…" for its 32-digit check part. A bookmark of an older state directory is short already.
 */
export const shortBookmark = (bookmark: string): string => {
  const parts = bookmark.split("-")
  return parts.length === 4 ? `${parts.slice(0, 3).join("-")}…` : bookmark
}

/** Restores now (a running object is reset, as the platform does) and returns the undo bookmark. */
export const restoreTo = async (o: StoredObject, bookmark: string): Promise<string> =>
  (await route(o, { op: "restore", bookmark })).result.undo

/**
 * A write, through the same requests as `edgectl objects kv put|delete` and `objects alarm`.
 */
const write = async <R extends ObjectRequest>(o: StoredObject, request: R): Promise<ResultOf<R>> =>
  (await route(o, request)).result

/** A key's value as stored (a string, a number, bytes, an object...), or `found: false`. */
export const readValue = async (o: StoredObject, key: string): Promise<{ found: boolean; value: unknown }> =>
  (await route(o, { op: "get", key })).result

/** Stores `value` (a string, as the CLI's `objects kv put` without --value-json) under `key`. */
export const putKey = (o: StoredObject, key: string, value: string): Promise<true> =>
  write(o, { op: "put", key, value })

/** Whether the key was there. */
export const deleteKey = (o: StoredObject, key: string): Promise<boolean> => write(o, { op: "delete", key })

/** The alarm as stored (a past time becomes now). */
export const setAlarm = (o: StoredObject, time: number): Promise<number | null> => write(o, { op: "setAlarm", time })

export const deleteAlarm = (o: StoredObject): Promise<null> => write(o, { op: "deleteAlarm" })

const FILES = ["db.sqlite", "db.sqlite-wal", "pitr.sqlite", "pitr.sqlite-wal"]

/**
 * What changes when anyone commits to the object (the database and its recovery log, and their
 * write-ahead logs, which grow by each commit) or when a process takes or leaves it (the lock):
 * a few stat calls, cheap enough to compare several times a second. Opening the storage to read
 * it and closing it again leaves this unchanged (an empty write-ahead log counts as none).
 */
export const storageSignature = (dir: string): string =>
  [...FILES, LOCK_FILE]
    .map((f) => {
      try {
        const s = fs.statSync(path.join(dir, f))
        return s.size === 0 && f.endsWith("-wal") ? "" : `${s.size}:${s.mtimeMs}:${s.ino}`
      } catch {
        return ""
      }
    })
    .join("|")
