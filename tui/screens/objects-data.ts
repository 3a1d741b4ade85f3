/** What the objects screen reads and does: each call opens the object's storage and closes it. */
import { createContext } from "react"
import * as path from "node:path"
import { DEFAULT_PERSIST_TO, listStored, type StoredObject } from "../../src/objects/ids.js"
import { ObjectStorage } from "../../src/objects/storage.js"

/** The state directory whose objects the screen shows (the TUI's --persist-to). */
export const ObjectsDirContext = createContext<string>(path.resolve(DEFAULT_PERSIST_TO))

export type { StoredObject }
export const storedObjects = (dir: string): Array<StoredObject> => listStored(dir)

export interface ObjectView {
  readonly alarm: number | null
  readonly entries: ReadonlyArray<readonly [string, string]>
  readonly history: ReadonlyArray<{ bookmark: string; time: number; restore: boolean }>
  readonly bytes: number
  /** The object's current bookmark: it changes with every commit, so a SQL result can tell it is out of date. */
  readonly bookmark: string
}

const show = (v: unknown): string => {
  if (typeof v === "string") return v
  try {
    return JSON.stringify(v, (_k, x) => (x instanceof Map ? Object.fromEntries(x) : typeof x === "bigint" ? `${x}n` : x)) ?? String(v)
  } catch {
    return String(v)
  }
}

const using = async <A>(o: StoredObject, f: (s: ObjectStorage) => Promise<A>): Promise<A> => {
  const s = new ObjectStorage(o.dir)
  try {
    const r = await f(s)
    await s.sync()
    return r
  } finally {
    s.close()
  }
}

export const readObject = (o: StoredObject): Promise<ObjectView> =>
  using(o, async (s) => ({
    alarm: await s.getAlarm(),
    entries: [...(await s.list({ limit: 1000 }))].map(([k, v]) => [k, show(v)] as const),
    history: s.history(200),
    bytes: s.sql.databaseSize,
    bookmark: await s.getCurrentBookmark()
  }))

export interface SqlResult {
  readonly columns: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
  readonly rowsRead: number
  readonly rowsWritten: number
  /** The object's bookmark right after the query ran (its own writes included). */
  readonly bookmark: string
}

export const runSql = (o: StoredObject, query: string): Promise<SqlResult> =>
  using(o, async (s) => {
    const c = s.sql.exec(query)
    const rows = c.raw().toArray().map((r) => r.map((v) => (v instanceof ArrayBuffer ? `<${v.byteLength} bytes>` : v === null ? "NULL" : String(v))))
    return { columns: c.columnNames, rows, rowsRead: c.rowsRead, rowsWritten: c.rowsWritten, bookmark: await s.getCurrentBookmark() }
  })

/** Restores now (the object is reopened here) and returns the undo bookmark. */
export const restoreTo = async (o: StoredObject, bookmark: string): Promise<string> => {
  const undo = await using(o, (s) => s.onNextSessionRestoreBookmark(bookmark))
  await using(o, async () => undefined)
  return undo
}
