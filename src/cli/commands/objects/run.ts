/** What the `edgectl objects` commands do (loaded when one runs). */
import * as Either from "effect/Either"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as fs from "node:fs"
import { makeDirectory } from "../../../make-directory.js"
import { CLASS_NAME, listStored, objectDir, rememberName, resolveId } from "../../../objects/ids.js"
import { ObjectStorage } from "../../../objects/storage.js"
import { type ObjectRequest, type ResultOf, runRequest } from "../../../objects/control-ops.js"
import { alarmText, parseAlarmTime } from "../../../objects/alarm-time.js"
import { clip, printJson, printLine, printTable, note } from "../../output.js"
import { CliFailure, usage } from "../../run.js"
import { quote } from "../../hints.js"
import { failure, stateDir, stateFlag } from "./common.js"
import { throughHostOr } from "./live.js"
import type { OnObject, Parsed } from "./options.js"
import { missingObject } from "./missing.js"

// Opens the object's storage for the duration of `f`; only `kv put` and `sql --create` create an object.
const withStorage = <A>(
  what: string,
  o: OnObject,
  mustExist: boolean,
  f: (s: ObjectStorage) => Promise<A>,
  create?: string
): Effect.Effect<A, CliFailure> =>
  Effect.suspend(() => {
    if (!CLASS_NAME.test(o.className))
      return Effect.fail(usage(`${what}: not a class name: ${JSON.stringify(o.className)}`))
    const id = resolveId(o.className, o.name)
    const dir = objectDir(stateDir(o), o.className, id)
    if (mustExist && !fs.existsSync(dir))
      return Effect.fail(missingObject(what, stateDir(o), o.className, o.name, stateFlag(o), create))
    return Effect.tryPromise({
      try: async () => {
        makeDirectory(dir)
        rememberName(dir, id)
        const s = new ObjectStorage(dir)
        try {
          const result = await f(s)
          await s.sync()
          return result
        } finally {
          s.close()
        }
      },
      catch: (e) => (e instanceof CliFailure ? e : failure(what, e))
    })
  })

// The request, through the running host of the object if there is one, else on its storage here.
const request = <R extends ObjectRequest>(
  what: string,
  o: OnObject,
  mustExist: boolean,
  r: R,
  create?: string
): Effect.Effect<ResultOf<R>, CliFailure> =>
  throughHostOr(
    { what, state: stateDir(o), className: o.className, name: o.name, mustExist },
    r,
    withStorage(what, o, mustExist, (s) => runRequest(s, r), create)
  )

const show = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v, jsonReplacer))
const jsonReplacer = (_k: string, v: unknown) =>
  v instanceof Map
    ? Object.fromEntries(v)
    : v instanceof Set
      ? [...v]
      : typeof v === "bigint"
        ? v.toString()
        : ArrayBuffer.isView(v)
          ? { $bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64") }
          : v instanceof ArrayBuffer
            ? { $bytes: Buffer.from(v).toString("base64") }
            : v
const jsonSafe = (v: unknown): unknown => JSON.parse(JSON.stringify(v, jsonReplacer) ?? "null")

export const list = (o: Parsed<"list">): Effect.Effect<void, CliFailure> =>
  Effect.sync(() => {
    const objects = listStored(stateDir(o))
    if (o.json) return printJson(objects.map(({ dir: _d, ...rest }) => rest))
    if (objects.length === 0) return note(`no objects under ${stateDir(o)}`)
    printTable(
      ["CLASS", "NAME", "ID", "BYTES"],
      objects.map((x) => [x.className, x.name, x.id, x.bytes])
    )
  })

export const kv = (o: Parsed<"kv">): Effect.Effect<void, CliFailure> => {
  const what = `objects kv ${o.action}`
  const want = o.action === "put" ? 2 : o.action === "list" ? 0 : 1
  if (o.rest.length !== want) {
    return Effect.fail(
      usage(
        `${what}: expected ${want === 0 ? "no argument" : want === 1 ? "KEY" : "KEY VALUE"}, got ${o.rest.length} argument(s)`
      )
    )
  }
  let value: unknown = o.rest[1]
  if (o.action === "put" && o.valueJson) {
    try {
      value = JSON.parse(o.rest[1]!)
    } catch (e) {
      return Effect.fail(usage(`${what}: --value-json: the value is not JSON: ${(e as Error).message}`))
    }
  }
  const key = o.rest[0]!
  switch (o.action) {
    case "get":
      return Effect.flatMap(request(what, o, true, { op: "get", key }), ({ found, value: v }) => {
        if (o.json) return Effect.sync(() => printJson({ key, found, value: jsonSafe(v) }))
        if (!found)
          return Effect.fail(new CliFailure({ text: `error: ${what}: no key ${JSON.stringify(key)}`, exitCode: 1 }))
        return Effect.sync(() => printLine(show(v)))
      })
    case "put":
      return Effect.map(request(what, o, false, { op: "put", key, value }), () =>
        o.json ? printJson({ key, written: true }) : note(`wrote ${JSON.stringify(key)}`)
      )
    case "delete":
      return Effect.map(request(what, o, true, { op: "delete", key }), (existed) =>
        o.json
          ? printJson({ key, deleted: existed })
          : note(existed ? `deleted ${JSON.stringify(key)}` : `no key ${JSON.stringify(key)} (nothing deleted)`)
      )
    case "list": {
      const limit = Option.getOrUndefined(o.limit)
      const r = {
        op: "list",
        ...(Option.isSome(o.prefix) ? { prefix: o.prefix.value } : {}),
        ...(limit !== undefined ? { limit } : {})
      } as const
      return Effect.map(request(what, o, true, r), (m) => {
        if (o.json) return printJson(m.map(([k, v]) => ({ key: k, value: jsonSafe(v) })))
        if (m.length === 0) return note("no keys")
        return printTable(
          ["KEY", "VALUE"],
          m.map(([k, v]) => [k, clip(show(v), 80)])
        )
      })
    }
  }
}

export const sql = (o: Parsed<"sql">): Effect.Effect<void, CliFailure> =>
  Effect.map(
    request("objects sql", o, !o.create, { op: "sql", query: o.query }, "`--create` makes a new object"),
    (cursor) => {
      const { rows, columns } = cursor
      if (o.json) {
        return printJson({
          columns,
          rows: rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, jsonSafe(r[i])]))),
          rowsRead: cursor.rowsRead,
          rowsWritten: cursor.rowsWritten
        })
      }
      if (columns.length > 0)
        printTable(
          columns,
          rows.map((r) =>
            r.map((v) => (v instanceof ArrayBuffer ? `<${v.byteLength} bytes>` : (v as string | number | null)))
          )
        )
      note(`${rows.length} row(s); rows read ${cursor.rowsRead}, rows written ${cursor.rowsWritten}`)
    }
  )

const parseTime = (what: string, text: string): Either.Either<number, CliFailure> => {
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text)
  return Number.isFinite(ms)
    ? Either.right(ms)
    : Either.left(
        usage(
          `${what}: --at: not a time: ${JSON.stringify(text)} (ISO 8601 like 2026-11-23T08:00:00Z, or ms since the epoch)`
        )
      )
}

export const bookmark = (o: Parsed<"bookmark">): Effect.Effect<void, CliFailure> => {
  const parsed = Option.match(o.at, {
    onNone: () => Either.right(undefined),
    onSome: (t) => parseTime("objects bookmark", t)
  })
  if (Either.isLeft(parsed)) return Effect.fail(parsed.left)
  const at = parsed.right
  if (o.history) {
    return Effect.map(request("objects bookmark", o, true, { op: "history", limit: 100 }), (commits) => {
      if (o.json)
        return printJson(
          commits.map((c) => ({ bookmark: c.bookmark, time: new Date(c.time).toISOString(), restore: c.restore }))
        )
      return printTable(
        ["BOOKMARK", "TIME", "KIND"],
        commits.map((c) => [c.bookmark, new Date(c.time).toISOString(), c.restore ? "restore" : "write"])
      )
    })
  }
  return Effect.map(
    request("objects bookmark", o, true, { op: "bookmark", ...(at !== undefined ? { at } : {}) }),
    (b) => (o.json ? printJson({ bookmark: b }) : printLine(b))
  )
}

export const restore = (o: Parsed<"restore">): Effect.Effect<void, CliFailure> => {
  if (Option.isSome(o.at) === Option.isSome(o.bookmark))
    return Effect.fail(usage("objects restore: give exactly one of --bookmark B and --at TIME"))
  // Exactly one was given (checked above): the bookmark, or the time to find one at.
  const chosen: Either.Either<{ readonly bookmark: string } | { readonly at: number }, CliFailure> = Option.isSome(
    o.bookmark
  )
    ? Either.right({ bookmark: o.bookmark.value })
    : Either.map(
        parseTime(
          "objects restore",
          Option.getOrElse(o.at, () => "")
        ),
        (at) => ({ at })
      )
  if (Either.isLeft(chosen)) return Effect.fail(chosen.left)
  const to = chosen.right
  const direct = Effect.flatMap(
    withStorage("objects restore", o, true, async (s) => {
      const target = "bookmark" in to ? to.bookmark : await s.getBookmarkForTime(to.at)
      const undo = await s.onNextSessionRestoreBookmark(target)
      return { target, undo }
    }),
    // The restore applies when the object next opens: open it now, so it is done when we return.
    (r) =>
      Effect.map(
        withStorage("objects restore", o, true, async (s) => s.restoredPages),
        (pages) => ({ ...r, pages })
      )
  )
  const live = { what: "objects restore", state: stateDir(o), className: o.className, name: o.name, mustExist: true }
  return Effect.map(throughHostOr(live, { op: "restore", ...to }, direct), (r) => {
    if (o.json) return printJson({ restoredTo: r.target, undoBookmark: r.undo, pages: r.pages })
    note(`restored ${o.className} ${JSON.stringify(o.name)} to ${r.target} (${r.pages ?? 0} page(s) rewritten)`)
    note(
      `undo with: edgectl objects restore ${quote(o.className)} ${quote(o.name)} --bookmark ${r.undo}${stateFlag(o)}`
    )
    printLine(r.undo)
  })
}

export const alarm = (o: Parsed<"alarm">): Effect.Effect<void, CliFailure> => {
  const what = "objects alarm"
  if (Option.isSome(o.set) && o.delete)
    return Effect.fail(usage(`${what}: give at most one of --set TIME and --delete`))
  const now = Date.now()
  if (Option.isSome(o.set)) {
    const time = parseAlarmTime(o.set.value, now, "--set")
    if (typeof time !== "number") return Effect.fail(usage(`${what}: ${time.problem}`))
    return Effect.map(request(what, o, true, { op: "setAlarm", time }), (at) =>
      o.json
        ? printJson({ alarm: at === null ? null : new Date(at).toISOString() })
        : note(`alarm set to ${at === null ? "none" : alarmText(at, Date.now())}`)
    )
  }
  if (o.delete)
    return Effect.map(request(what, o, true, { op: "deleteAlarm" }), () =>
      o.json ? printJson({ alarm: null }) : note("alarm deleted")
    )
  return Effect.map(request(what, o, true, { op: "alarm" }), (at) =>
    o.json
      ? printJson({ alarm: at === null ? null : new Date(at).toISOString() })
      : printLine(at === null ? "none" : alarmText(at, Date.now()))
  )
}

export { dev } from "./dev.js"
