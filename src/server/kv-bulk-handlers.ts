/**
 * The KV bulks: a write of many entries and a delete of many keys (each item checked as it is
 * read from the body; one bad item refuses the whole request, which then writes nothing, and
 * every problem is named), and a read of many keys. A large write is committed in a worker thread.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { InvalidInput } from "../domain/errors.js"
import type { KvBulkGetRequest } from "../domain/kv.js"
import { BulkGetMaxKeys } from "../domain/kv-limits.js"
import { checkEntry, checkKeyItem } from "../kv/entry-checks.js"
import { namespaceNotFound, problemsError } from "../kv/problems.js"
import { StagedEntries, StagedKeys } from "../kv/staging.js"
import { nowSeconds, type Problem } from "../kv/validate.js"
import { commitInWorker } from "../store/commit-worker.js"
import * as Engine from "../store/kv-repo.js"
import { readBulkItems } from "./kv-body.js"
import { withStaged, type KvScope, type NsPath } from "./kv-scope.js"

/** Waits (on a promise, the event loop free) while a worker commit holds the write lock. */
const writesIdle = ({ store }: KvScope) =>
  Effect.suspend(() => {
    const idle = store.gate.idle()
    return idle === undefined ? Effect.void : Effect.promise(() => idle)
  })

/**
 * A bulk's staged entries in one transaction: a large one in a worker thread, on its own
 * connection, so that the event loop keeps serving while it is written (commit-worker.ts).
 * False when the namespace was deleted before the transaction began. Not interruptible: the
 * staging area is released only after the worker is done with it.
 */
const commitBulk = (
  { options, store }: KvScope,
  ns: number,
  staged: StagedEntries,
  now: number
): Effect.Effect<boolean> =>
  staged.bytes < options.workerCommitBytes
    ? Effect.sync(() => {
        Engine.putEntries(store.db, ns, staged.entries(), now)
        return true
      })
    : Effect.uninterruptible(
        Effect.orDie(
          Effect.tryPromise(() =>
            store.gate.hold(() => commitInWorker({ file: store.file, ns, now, staged: staged.handoff() }))
          )
        )
      )

export const bulkPut = (scope: KvScope, path: NsPath, request: HttpServerRequest.HttpServerRequest) =>
  // Each entry is checked as it arrives and kept, checked, until the one transaction writes them
  // all; after a first problem the rest are only checked (every problem is reported).
  withStaged(StagedEntries, (staged) =>
    Effect.gen(function* () {
      const now = nowSeconds()
      const problems: Array<Problem> = []
      yield* readBulkItems(request, "entries", scope.options.maxBulkEntries, (item, i) => {
        const r = checkEntry(item, i, now, problems.length === 0)
        if (r.problems.length > 0) {
          if (problems.length === 0) staged.release()
          problems.push(...r.problems)
        } else if (r.entry !== undefined) staged.add(r.entry)
      })
      if (problems.length > 0) return yield* Effect.fail(problemsError(problems))
      yield* writesIdle(scope)
      const ns = yield* scope.writable(path)
      if (!(yield* commitBulk(scope, ns.seq, staged, now)))
        return yield* Effect.fail(namespaceNotFound(path.namespace_id))
      return { successful_key_count: staged.count, unsuccessful_keys: [] }
    })
  )

export const bulkDelete = (
  { db, options, readable }: KvScope,
  path: NsPath,
  request: HttpServerRequest.HttpServerRequest
) =>
  withStaged(StagedKeys, (staged) =>
    Effect.gen(function* () {
      const problems: Array<Problem> = []
      yield* readBulkItems(request, "keys", options.maxBulkEntries, (raw, i) => {
        const r = checkKeyItem(raw, i)
        if (Either.isLeft(r)) problems.push(r.left)
        else if (problems.length === 0) staged.add(r.right)
      })
      if (problems.length > 0) return yield* Effect.fail(problemsError(problems))
      const ns = yield* readable(path)
      if (ns !== undefined) Engine.deleteKeys(db, ns.seq, staged.keys(), nowSeconds())
      return { successful_key_count: staged.count, unsuccessful_keys: [] }
    })
  )

const bulkKeys = (items: ReadonlyArray<unknown>) => {
  const keys: Array<string> = []
  const problems: Array<Problem> = []
  items.forEach((raw, i) => {
    const r = checkKeyItem(raw, i)
    if (Either.isRight(r)) keys.push(r.right)
    else problems.push(r.left)
  })
  return problems.length > 0 ? Effect.fail(problemsError(problems)) : Effect.succeed(keys)
}

export const bulkGet = ({ db, readable }: KvScope, path: NsPath, payload: KvBulkGetRequest) =>
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
