/**
 * Handlers of the KV endpoints, over the store's KV storage (src/store/kv-repo.ts). Every write is validated first
 * (src/kv/validate.ts) and then stored in one transaction: a bulk request with one bad entry is
 * refused whole and writes nothing.
 * `KvOptions` (kv-options.ts) is how local mode differs from the wire.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { Principal } from "../api/contract-core.js"
import { KvApi } from "../api/contract-kv.js"
import { pageInfo } from "../domain/envelope.js"
import { Conflict, InvalidInput, NotFound } from "../domain/errors.js"
import * as Engine from "../store/kv-repo.js"
import { BulkGetMaxKeys, TitleMaxLength } from "../domain/kv-limits.js"
import { keyNotFound, namespaceNotFound, problemsError } from "../kv/problems.js"
import { checkEntry, checkKeyItem, checkPut } from "../kv/entry-checks.js"
import { checkKey, isIssue, locate, nowSeconds, parseSeconds, type Problem } from "../kv/validate.js"
import { commitInWorker } from "../store/commit-worker.js"
import { Db } from "../store/db.js"
import { KvOptions } from "./kv-options.js"
import { readBulkItems, readValueBody } from "./kv-body.js"
import { StagedEntries, StagedKeys } from "../kv/staging.js"

interface NsPath {
  readonly account_id: string
  readonly namespace_id: string
}

const noAccount = (accountId: string) =>
  new NotFound({
    message: `Could not route to /accounts/${accountId}/storage/kv/namespaces, perhaps your object identifier is invalid?`
  })

const visibleAccount = (accountId: string) =>
  Effect.flatMap(Principal, (p) =>
    p.accountIds.includes(accountId) ? Effect.succeed(p) : Effect.fail(noAccount(accountId))
  )

const checkTitle = (title: string) => {
  const t = title.trim()
  if (t === "") return Effect.fail(new InvalidInput({ message: "title is empty; a namespace needs a title" }))
  if (t.length > TitleMaxLength) {
    return Effect.fail(new InvalidInput({ message: `title is ${t.length} characters, the limit is ${TitleMaxLength}` }))
  }
  // A control character would be printed as is by every list of namespaces (a terminal acts on it).
  const bad = /[\p{Cc}\p{Cs}]/u.exec(t)
  if (bad !== null) {
    const code = `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`
    return Effect.fail(
      new InvalidInput({
        message: `title has a control character (${code}) at character ${bad.index + 1}; a title is printable text`
      })
    )
  }
  return Effect.succeed(t)
}

const duplicateTitle = (title: string) =>
  new Conflict({ message: `a namespace with this account ID and title already exists: ${JSON.stringify(title)}` })

const toWire = (n: Engine.NamespaceRow) => ({ id: n.id, title: n.title, supports_url_encoding: true })

const checkedKey = (key: string): Effect.Effect<string, InvalidInput> => {
  const bad = checkKey(key)
  return bad === undefined ? Effect.succeed(key) : Effect.fail(problemsError([locate(bad, undefined, key)]))
}

/** A namespace id that local mode may create: what wrangler's local storage takes, within reason. */
const implicitIdProblem = (id: string) =>
  id.length === 0 || id.length > 255 || /[\p{Cc}\s]/u.test(id)
    ? new InvalidInput({
        message: `namespace id must be 1 to 255 printable characters without whitespace, got ${JSON.stringify(id.slice(0, 60))}`
      })
    : undefined

/** `use` with a new staging area, released (its temporary file deleted) however the request ends. */
const withStaged = <S extends { release(): void }, A, E, R>(
  Staged: new () => S,
  use: (staged: S) => Effect.Effect<A, E, R>
) =>
  Effect.acquireUseRelease(
    Effect.sync(() => new Staged()),
    use,
    (staged) => Effect.sync(() => staged.release())
  )

export const KvLive = HttpApiBuilder.group(KvApi(), "kv", (handlers) =>
  Effect.gen(function* () {
    const options = yield* KvOptions
    const { db, file, gate } = yield* Db

    /** Waits (on a promise, the event loop free) while a worker commit holds the write lock. */
    const writesIdle = Effect.suspend(() => {
      const idle = gate.idle()
      return idle === undefined ? Effect.void : Effect.promise(() => idle)
    })

    /**
     * A bulk's staged entries in one transaction: a large one in a worker thread, on its own
     * connection, so that the event loop keeps serving while it is written (commit-worker.ts).
     * False when the namespace was deleted before the transaction began. Not interruptible: the
     * staging area is released only after the worker is done with it.
     */
    const commitBulk = (ns: number, staged: StagedEntries, now: number): Effect.Effect<boolean> =>
      staged.bytes < options.workerCommitBytes
        ? Effect.sync(() => {
            Engine.putEntries(db, ns, staged.entries(), now)
            return true
          })
        : Effect.uninterruptible(
            Effect.orDie(
              Effect.tryPromise(() => gate.hold(() => commitInWorker({ file, ns, now, staged: staged.handoff() })))
            )
          )

    /** The namespace of the path, for reading: undefined when local mode has not seen it yet. */
    const readable = (path: NsPath) =>
      Effect.gen(function* () {
        const p = yield* visibleAccount(path.account_id)
        const ns = Engine.findNamespace(
          db,
          path.namespace_id,
          options.implicitNamespaces ? p.accountIds : [path.account_id]
        )
        if (ns !== undefined || options.implicitNamespaces) return ns
        return yield* Effect.fail(namespaceNotFound(path.namespace_id))
      })

    /** The namespace of the path, for writing: local mode creates an unknown one. */
    const writable = (path: NsPath) =>
      Effect.gen(function* () {
        const ns = yield* readable(path)
        if (ns !== undefined) return ns
        const bad = implicitIdProblem(path.namespace_id)
        if (bad !== undefined) return yield* Effect.fail(bad)
        // Looked up again with the creation: another process may have made it since.
        const p = yield* visibleAccount(path.account_id)
        const made = Engine.namespaceForWrite(db, path.namespace_id, p.accountIds, path.account_id)
        // Another account (not visible to this caller) owns that id: namespace ids are global.
        return made ?? (yield* Effect.fail(namespaceNotFound(path.namespace_id)))
      })

    /** The namespace object itself (get, rename, delete): never implicit. */
    const existing = (path: NsPath) =>
      Effect.flatMap(readable(path), (ns) =>
        ns !== undefined ? Effect.succeed(ns) : Effect.fail(namespaceNotFound(path.namespace_id))
      )

    const bulkKeys = (items: ReadonlyArray<unknown>) => {
      const keys: Array<string> = []
      const problems: Array<Problem> = []
      items.forEach((raw, i) => {
        const r = checkKeyItem(raw, i)
        if ("key" in r && !("field" in r)) keys.push(r.key)
        else problems.push(r as Problem)
      })
      return problems.length > 0 ? Effect.fail(problemsError(problems)) : Effect.succeed(keys)
    }

    const bulkDelete = (path: NsPath, request: HttpServerRequest.HttpServerRequest) =>
      withStaged(StagedKeys, (staged) =>
        Effect.gen(function* () {
          const problems: Array<Problem> = []
          yield* readBulkItems(request, "keys", options.maxBulkEntries, (raw, i) => {
            const r = checkKeyItem(raw, i)
            if ("field" in r) problems.push(r)
            else if (problems.length === 0) staged.add(r.key)
          })
          if (problems.length > 0) return yield* Effect.fail(problemsError(problems))
          const ns = yield* readable(path)
          if (ns !== undefined) Engine.deleteKeys(db, ns.seq, staged.keys(), nowSeconds())
          return { successful_key_count: staged.count, unsuccessful_keys: [] }
        })
      )

    return handlers
      .handle("listNamespaces", ({ path, urlParams: q }) =>
        Effect.gen(function* () {
          yield* visibleAccount(path.account_id)
          const page = q.page ?? 1
          const perPage = q.per_page ?? 20
          const { rows, total } = Engine.listNamespaces(db, path.account_id, {
            page,
            perPage,
            order: q.order ?? "title",
            direction: q.direction ?? "asc"
          })
          return { items: rows.map(toWire), info: pageInfo(page, perPage, total, rows.length) }
        })
      )
      .handle("createNamespace", ({ path, payload }) =>
        Effect.gen(function* () {
          yield* visibleAccount(path.account_id)
          const title = yield* checkTitle(payload.title)
          if (Engine.titleTaken(db, path.account_id, title)) return yield* Effect.fail(duplicateTitle(title))
          return toWire(Engine.createNamespace(db, path.account_id, title))
        })
      )
      .handle("getNamespace", ({ path }) => Effect.map(existing(path), toWire))
      .handle("renameNamespace", ({ path, payload }) =>
        Effect.gen(function* () {
          const ns = yield* existing(path)
          const title = yield* checkTitle(payload.title)
          if (title !== ns.title && Engine.titleTaken(db, ns.accountId, title))
            return yield* Effect.fail(duplicateTitle(title))
          Engine.renameNamespace(db, ns.seq, title)
          return { ...toWire(ns), title }
        })
      )
      .handle("deleteNamespace", ({ path }) =>
        Effect.gen(function* () {
          const ns = yield* existing(path)
          Engine.deleteNamespace(db, ns.seq)
          return null
        })
      )
      .handle("listKeys", ({ path, urlParams: q }) =>
        Effect.gen(function* () {
          const ns = yield* readable(path)
          const after = q.cursor !== undefined && q.cursor !== "" ? Engine.decodeCursor(q.cursor) : undefined
          if (q.cursor !== undefined && q.cursor !== "" && after === undefined) {
            return yield* Effect.fail(
              new InvalidInput({
                message: `cursor ${JSON.stringify(q.cursor.slice(0, 40))} is not a cursor this platform returned`
              })
            )
          }
          if (ns === undefined) return { items: [], cursor: "" }
          const page = Engine.listKeys(db, ns.seq, { prefix: q.prefix, limit: q.limit ?? 1000, after }, nowSeconds())
          return { items: page.keys, cursor: page.cursor }
        })
      )
      .handleRaw("getValue", ({ path }) =>
        Effect.gen(function* () {
          const key = yield* checkedKey(path.key_name)
          const ns = yield* readable(path)
          const entry = ns === undefined ? undefined : Engine.getEntry(db, ns.seq, key, nowSeconds())
          if (entry === undefined) return yield* Effect.fail(keyNotFound(key))
          return HttpServerResponse.uint8Array(entry.value, {
            contentType: "application/octet-stream",
            headers: entry.expiration !== null ? { expiration: String(entry.expiration) } : {}
          })
        })
      )
      .handleRaw("putValue", ({ path, urlParams: q, request }) =>
        Effect.gen(function* () {
          const key = yield* checkedKey(path.key_name)
          const expiration = parseSeconds("expiration", q.expiration)
          const ttl = parseSeconds("expiration_ttl", q.expiration_ttl)
          for (const x of [expiration, ttl])
            if (isIssue(x)) return yield* Effect.fail(problemsError([locate(x, undefined, key)]))
          const body = yield* readValueBody(request, key)
          const now = nowSeconds()
          const checked = checkPut({ key, valueBytes: body.value.length, expiration, expirationTtl: ttl }, now)
          if (Array.isArray(checked)) return yield* Effect.fail(problemsError(checked))
          const { expiration: at } = checked as { expiration: number | null }
          const ns = yield* writable(path)
          Engine.putEntries(db, ns.seq, [{ key, value: body.value, metadata: body.metadata, expiration: at }], now)
          return null
        })
      )
      .handle("deleteValue", ({ path }) =>
        Effect.gen(function* () {
          const key = yield* checkedKey(path.key_name)
          const ns = yield* readable(path)
          if (ns !== undefined) Engine.deleteKeys(db, ns.seq, [key], nowSeconds())
          return null
        })
      )
      .handle("getMetadata", ({ path }) =>
        Effect.gen(function* () {
          const key = yield* checkedKey(path.key_name)
          const ns = yield* readable(path)
          const entry = ns === undefined ? undefined : Engine.getEntry(db, ns.seq, key, nowSeconds())
          if (entry === undefined) return yield* Effect.fail(keyNotFound(key))
          return entry.metadata === null ? null : (JSON.parse(entry.metadata) as unknown)
        })
      )
      .handleRaw("bulkPut", ({ path, request }) =>
        // Each entry is checked as it arrives and kept, checked, until the one transaction writes them
        // all; after a first problem the rest are only checked (every problem is reported).
        withStaged(StagedEntries, (staged) =>
          Effect.gen(function* () {
            const now = nowSeconds()
            const problems: Array<Problem> = []
            yield* readBulkItems(request, "entries", options.maxBulkEntries, (item, i) => {
              const r = checkEntry(item, i, now, problems.length === 0)
              if (r.problems.length > 0) {
                if (problems.length === 0) staged.release()
                problems.push(...r.problems)
              } else if (r.entry !== undefined) staged.add(r.entry)
            })
            if (problems.length > 0) return yield* Effect.fail(problemsError(problems))
            yield* writesIdle
            const ns = yield* writable(path)
            if (!(yield* commitBulk(ns.seq, staged, now)))
              return yield* Effect.fail(namespaceNotFound(path.namespace_id))
            return { successful_key_count: staged.count, unsuccessful_keys: [] }
          })
        )
      )
      .handleRaw("bulkDelete", ({ path, request }) => bulkDelete(path, request))
      .handleRaw("bulkDeletePost", ({ path, request }) => bulkDelete(path, request))
      .handle("bulkGet", ({ path, payload }) =>
        Effect.gen(function* () {
          if (payload.keys.length > BulkGetMaxKeys) {
            return yield* Effect.fail(
              new InvalidInput({ message: `keys has ${payload.keys.length} keys, the limit is ${BulkGetMaxKeys}` })
            )
          }
          const keys = yield* bulkKeys(payload.keys)
          const ns = yield* readable(path)
          const now = nowSeconds()
          const values: Record<string, unknown> = {}
          for (const key of keys) {
            const entry = ns === undefined ? undefined : Engine.getEntry(db, ns.seq, key, now)
            if (entry === undefined) {
              values[key] = null
              continue
            }
            const text = entry.value.toString("utf8")
            let value: unknown = text
            if (payload.type === "json") {
              try {
                value = JSON.parse(text)
              } catch {
                return yield* Effect.fail(
                  new InvalidInput({
                    message: `the value of key ${JSON.stringify(key)} is not JSON; ask for type "text"`
                  })
                )
              }
            }
            values[key] = payload.withMetadata
              ? {
                  value,
                  metadata: entry.metadata === null ? null : (JSON.parse(entry.metadata) as unknown),
                  ...(entry.expiration !== null ? { expiration: entry.expiration } : {})
                }
              : value
          }
          return { values }
        })
      )
  })
)
