// What `edgectl objects kv|sql|bookmark|restore` ask of an object's storage, as data: the same
// request runs against storage the CLI opened itself, or inside a running host (as one event of
// the object, over the control channel), so both give the same answers.
import type { Commit } from "./pitr.js"
import type { ObjectStorage } from "./storage.js"

export type ObjectRequest =
  | { readonly op: "get"; readonly key: string }
  | { readonly op: "put"; readonly key: string; readonly value: unknown }
  | { readonly op: "delete"; readonly key: string }
  // The alarm: read, set to a time (ms since the epoch; one in the past means now), deleted.
  | { readonly op: "alarm" }
  | { readonly op: "setAlarm"; readonly time: number }
  | { readonly op: "deleteAlarm" }
  | { readonly op: "list"; readonly prefix?: string; readonly limit?: number }
  | { readonly op: "sql"; readonly query: string }
  | { readonly op: "bookmark"; readonly at?: number }
  | { readonly op: "history"; readonly limit: number }
  // What a viewer of the object shows (the TUI's Objects screen), read as one event.
  | { readonly op: "view"; readonly limit: number; readonly historyLimit: number }
  // A query typed in a viewer's SQL console and the view right after it, as one event: the
  // result is never marked out of date by its own writes, nor current despite another's.
  | { readonly op: "console"; readonly query: string; readonly limit: number; readonly historyLimit: number }
  | { readonly op: "restore"; readonly bookmark?: string; readonly at?: number }

interface SqlResult {
  readonly columns: Array<string>
  readonly rows: Array<Array<unknown>>
  readonly rowsRead: number
  readonly rowsWritten: number
}
export interface RestoreResult {
  readonly target: string
  readonly undo: string
  readonly pages: number | null
}

interface ObjectView {
  readonly alarm: number | null
  readonly entries: Array<[string, unknown]>
  readonly history: Array<Commit & { bookmark: string }>
  readonly bytes: number
  // The object's current bookmark: it changes with every commit.
  readonly bookmark: string
}

interface Results {
  get: { found: boolean; value: unknown }
  put: true
  delete: boolean
  alarm: number | null
  setAlarm: number | null
  deleteAlarm: null
  list: Array<[string, unknown]>
  sql: SqlResult
  bookmark: string
  history: Array<Commit & { bookmark: string }>
  view: ObjectView
  console: { sql: SqlResult; view: ObjectView }
  restore: RestoreResult
}
export type ResultOf<R extends ObjectRequest> = Results[R["op"]]

/** Which object a request is for, as the control channel names it. */
export interface Addressed {
  readonly className: string
  readonly id: string
  readonly name?: string
}

const sql = (s: ObjectStorage, query: string): SqlResult => {
  const cursor = s.sql.exec(query)
  const rows = cursor.raw().toArray() as Array<Array<unknown>>
  return { columns: cursor.columnNames, rows, rowsRead: cursor.rowsRead, rowsWritten: cursor.rowsWritten }
}

// The bookmark first: it commits the event's writes so far, which the history then includes.
const view = async (s: ObjectStorage, limit: number, historyLimit: number): Promise<ObjectView> => {
  // The last commit's, not a new one: a SQL result compares it to tell it is out of date.
  const bookmark = await s.committedBookmark()
  return {
    alarm: await s.getAlarm(),
    entries: [...(await s.list({ limit }))],
    history: s.history(historyLimit),
    bytes: s.sql.databaseSize,
    bookmark
  }
}

// Runs a request other than a restore (which ends the storage's session: see the host and the CLI).
export const runRequest = async <R extends ObjectRequest>(s: ObjectStorage, r: R): Promise<ResultOf<R>> => {
  const out = async (): Promise<Results[keyof Results]> => {
    switch (r.op) {
      case "get": {
        const value = await s.get(r.key)
        return { found: value !== undefined, value }
      }
      case "put":
        await s.put(r.key, r.value)
        return true
      case "delete":
        return s.delete(r.key)
      case "alarm":
        return s.getAlarm()
      // The alarm as stored (a past time became now), read back in the same event.
      case "setAlarm":
        await s.setAlarm(r.time)
        return s.getAlarm()
      case "deleteAlarm":
        await s.deleteAlarm()
        return null
      case "list": {
        const m = await s.list({
          ...(r.prefix !== undefined ? { prefix: r.prefix } : {}),
          ...(r.limit !== undefined ? { limit: r.limit } : {})
        })
        return [...m]
      }
      case "sql":
        return sql(s, r.query)
      case "bookmark":
        return r.at !== undefined ? s.getBookmarkForTime(r.at) : s.getCurrentBookmark()
      case "history":
        return s.history(r.limit)
      case "view":
        return view(s, r.limit, r.historyLimit)
      case "console": {
        const result = sql(s, r.query)
        return { sql: result, view: await view(s, r.limit, r.historyLimit) }
      }
      case "restore":
        throw new Error("a restore ends the storage's session; it is not run as a request")
      default:
        // A client newer than the host that answers it.
        throw new TypeError(`unknown request ${JSON.stringify((r as { op?: unknown }).op)}`)
    }
  }
  return (await out()) as ResultOf<R>
}
