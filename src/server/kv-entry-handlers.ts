/**
 * One namespace's keys and values: the list of keys (a page after a cursor), and one value's read,
 * write (its body as the raw route reads it, checked whole before anything is stored), delete and
 * metadata.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { KvKeysParams, KvWriteParams } from "../api/contract-kv.js"
import { InvalidInput } from "../domain/errors.js"
import { checkPut } from "../kv/entry-checks.js"
import { keyNotFound, problemsError } from "../kv/problems.js"
import { type FieldIssue, locate, nowSeconds, parseSeconds } from "../kv/validate.js"
import * as Engine from "../store/kv-repo.js"
import * as Pages from "../store/kv-pages.js"
import { readValueBody } from "./kv-body.js"
import { checkedKey, type KvScope, type NsPath } from "./kv-scope.js"

interface KeyPath extends NsPath {
  readonly key_name: string
}

export const listKeys = ({ db, readable }: KvScope, path: NsPath, q: ReturnType<typeof KvKeysParams>["Type"]) =>
  Effect.gen(function* () {
    const ns = yield* readable(path)
    const after = q.cursor !== undefined && q.cursor !== "" ? Pages.decodeCursor(q.cursor) : undefined
    if (q.cursor !== undefined && q.cursor !== "" && after === undefined) {
      return yield* Effect.fail(
        new InvalidInput({
          message: `cursor ${JSON.stringify(q.cursor.slice(0, 40))} is not a cursor this platform returned`
        })
      )
    }
    if (ns === undefined) return { items: [], cursor: "" }
    const page = Pages.listKeys(db, ns.seq, { prefix: q.prefix, limit: q.limit ?? 1000, after }, nowSeconds())
    return { items: page.keys, cursor: page.cursor }
  })

export const getValue = ({ db, readable }: KvScope, path: KeyPath) =>
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

export const putValue = (
  { db, writable }: KvScope,
  path: KeyPath,
  q: ReturnType<typeof KvWriteParams>["Type"],
  request: HttpServerRequest.HttpServerRequest
) =>
  Effect.gen(function* () {
    const key = yield* checkedKey(path.key_name)
    const located = (x: FieldIssue) => problemsError([locate(x, undefined, key)])
    const expiration = yield* Either.mapLeft(parseSeconds("expiration", q.expiration), located)
    const ttl = yield* Either.mapLeft(parseSeconds("expiration_ttl", q.expiration_ttl), located)
    const body = yield* readValueBody(request, key)
    const now = nowSeconds()
    const { expiration: at } = yield* Either.mapLeft(
      checkPut({ key, valueBytes: body.value.length, expiration, expirationTtl: ttl }, now),
      (problems) => problemsError(problems)
    )
    const ns = yield* writable(path)
    Engine.putEntries(db, ns.seq, [{ key, value: body.value, metadata: body.metadata, expiration: at }], now)
    return null
  })

export const deleteValue = ({ db, readable }: KvScope, path: KeyPath) =>
  Effect.gen(function* () {
    const key = yield* checkedKey(path.key_name)
    const ns = yield* readable(path)
    if (ns !== undefined) Engine.deleteKeys(db, ns.seq, [key], nowSeconds())
    return null
  })

export const getMetadata = ({ store, readable }: KvScope, path: KeyPath) =>
  Effect.gen(function* () {
    const key = yield* checkedKey(path.key_name)
    const ns = yield* readable(path)
    // A store that fails the read is the platform's fault: a defect, answered 500.
    const metadata =
      ns === undefined ? undefined : yield* Effect.orDie(Engine.entryMetadata(store.sql, ns.seq, key, nowSeconds()))
    if (metadata === undefined) return yield* Effect.fail(keyNotFound(key))
    return metadata === null ? null : (JSON.parse(metadata) as unknown)
  })
