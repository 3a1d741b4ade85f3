/**
 * What every KV handler stands on: the caller's accounts, the namespace a path names (for reading,
 * for writing, or the namespace object itself), a key checked once, and the staging areas of
 * bulks. `KvOptions` (kv-options.ts) is how local mode differs from the wire.
 */
import * as Effect from "effect/Effect"
import { Principal } from "../api/contract-core.js"
import { InvalidInput, NotFound } from "../domain/errors.js"
import { namespaceNotFound, problemsError } from "../kv/problems.js"
import { checkKey, locate } from "../kv/validate.js"
import { Db } from "../store/db.js"
import * as Engine from "../store/kv-repo.js"
import { KvOptions } from "./kv-options.js"

export interface NsPath {
  readonly account_id: string
  readonly namespace_id: string
}

const noAccount = (accountId: string) =>
  new NotFound({
    message: `Could not route to /accounts/${accountId}/storage/kv/namespaces, perhaps your object identifier is invalid?`
  })

export const visibleAccount = (accountId: string) =>
  Effect.flatMap(Principal, (p) =>
    p.accountIds.includes(accountId) ? Effect.succeed(p) : Effect.fail(noAccount(accountId))
  )

export const checkedKey = (key: string): Effect.Effect<string, InvalidInput> => {
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
export const withStaged = <S extends { release(): void }, A, E, R>(
  Staged: new () => S,
  use: (staged: S) => Effect.Effect<A, E, R>
) =>
  Effect.acquireUseRelease(
    Effect.sync(() => new Staged()),
    use,
    (staged) => Effect.sync(() => staged.release())
  )

/** The store, the options, and the namespace of a path as each kind of request takes it. */
export const kvScope = Effect.gen(function* () {
  const options = yield* KvOptions
  const store = yield* Db
  const { db } = store

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

  return { options, store, db, readable, writable, existing }
})

export type KvScope = Effect.Effect.Success<typeof kvScope>
