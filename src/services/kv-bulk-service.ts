/**
 * `kv bulk put|get|delete FILE`: a bulk file checked once, then sent in the requests wrangler makes
 * (api-reference 10.2), counted as they are answered (`BulkTally`) so that a bulk stopped halfway,
 * by a refusal, a signal or a platform that does not answer, says what was written.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { call, ClientConfig, type ClientEnv } from "../api/client.js"
import { KvEndpoints, type KvBulkAnswer } from "../api/contract-kv.js"
import { InvalidInput, NoAnswer, V4ErrorClasses, type V4Error } from "../domain/errors.js"
import { BulkGetMaxKeys, BulkMaxBytes } from "../domain/kv-limits.js"
import { batchCount, batches, checkFile, keysOf, type BulkKind, type CheckedFile } from "../kv/bulk-file.js"
import { problemsError } from "../kv/problems.js"
import { nowSeconds } from "../kv/validate.js"
import { bulkGet } from "./kv-service.js"

const nsPath = (accountId: string, namespaceId: string) => ({ account_id: accountId, namespace_id: namespaceId })

/** One key as `kv bulk get` prints it: its text value (null when missing), and with metadata its metadata and expiration. */
interface BulkGotten {
  readonly value: string | null
  readonly metadata?: unknown
  readonly expiration?: number
}

/**
 * `kv bulk get FILE`: the file is checked as a keys file (strings or `{"name": key}`), then read in
 * requests of the platform's 100 keys; every key once, in the file's order.
 */
export const bulkGetFile = (
  accountId: string,
  namespaceId: string,
  file: string,
  o: BulkOptions & { readonly withMetadata?: boolean } = {}
) =>
  Effect.gen(function* () {
    const keys = yield* withChecked(file, "keys", o, (f) => Effect.sync(() => keysOf(f)), "nothing was read")
    const out: Record<string, BulkGotten> = {}
    for (let at = 0; at < keys.length; at += BulkGetMaxKeys) {
      const chunk = keys.slice(at, at + BulkGetMaxKeys)
      const { values } = yield* bulkGet(accountId, namespaceId, chunk, o.withMetadata === true)
      for (const key of chunk) {
        const v = values[key] as { value: string; metadata: unknown; expiration?: number } | string | null | undefined
        out[key] =
          v === null || v === undefined
            ? { value: null, ...(o.withMetadata === true ? { metadata: null } : {}) }
            : typeof v === "string"
              ? { value: v }
              : {
                  value: v.value,
                  metadata: v.metadata,
                  ...(v.expiration !== undefined ? { expiration: v.expiration } : {})
                }
      }
      o.onProgress?.({
        phase: "reading",
        done: Math.min(at + BulkGetMaxKeys, keys.length),
        total: keys.length,
        unit: "entries"
      })
    }
    return out
  })

// ---------------------------------------------------------------------------------------------
// Bulk files

interface BulkProgress {
  readonly phase: "checking" | "writing" | "reading"
  readonly done: number
  readonly total: number
  /** Unit of done/total: bytes of the file while checking, entries while writing. */
  readonly unit: "bytes" | "entries"
}

export interface BulkOptions {
  readonly onProgress?: (p: BulkProgress) => void
  /** Called once the file is checked, before anything is sent (warnings about it). */
  readonly onChecked?: (checked: CheckedFile) => void
  /** Kept up to date as requests go and are answered: what a stopped bulk reports (`BulkTally`). */
  readonly tally?: BulkTally
  /** Entries per request against a remote platform (default wrangler's 1,000; `kv import` sends 10,000). */
  readonly maxEntries?: number
  /** Requests a journal says were answered before (`kv import` resumed): they are not sent again. */
  readonly skipRequests?: number
  /** After each answered request, with the number answered so far (what a journal records). */
  readonly onRequest?: (answered: number) => void
}

/**
 * Where a bulk write is: read when it stops halfway (a signal, src/cli/signals.ts), so it is set
 * before each request goes and after each answer, never only at the end.
 */
export interface BulkTally {
  /** Entries (or keys) in the checked file; undefined while it is being checked. */
  count?: number | undefined
  /** Requests the file takes, when known beforehand (bulk-file.ts `batchCount`). */
  requests?: number | undefined
  /** Requests answered, and the entries they carried. */
  answered: number
  done: number
  /** Entries of the request sent and not answered yet, if one is. */
  inFlight?: number | undefined
}

/** A tally of nothing sent yet. */
export const newTally = (): BulkTally => ({ answered: 0, done: 0 })

/**
 * Request sizes: wrangler's 1,000 entries per request against a remote platform; one request per
 * 100 MB in local mode, whose platform takes any number of entries (so a file is one transaction).
 */
const limitsFor = (target: "local" | "remote") =>
  target === "local"
    ? { maxEntries: Number.POSITIVE_INFINITY, maxBytes: BulkMaxBytes }
    : { maxEntries: 1000, maxBytes: BulkMaxBytes }

/**
 * Reads and checks a bulk file (once). `outcome` says what a refused file means: nothing written,
 * deleted or read. The refusal's `meta` carries every problem (`problems`, `count`,
 * `invalid_entries`), not only the first ones the message shows.
 */
const checked = (
  file: string,
  kind: BulkKind,
  o: BulkOptions,
  outcome = kind === "keys" ? "nothing was deleted" : "nothing was written"
) =>
  Effect.gen(function* () {
    // Read here before any request: no platform answered, so no platform code.
    const r = yield* Either.mapLeft(
      checkFile(file, kind, nowSeconds(), (read, size) =>
        o.onProgress?.({ phase: "checking", done: read, total: size, unit: "bytes" })
      ),
      (e) => new InvalidInput({ message: e.message, clientSide: true })
    )
    if (r.problemCount > 0) {
      r.spool.release()
      const e = problemsError(r.problems, outcome)
      return yield* Effect.fail(
        new InvalidInput({
          code: e.code,
          message: `${r.file}: ${e.message}`,
          meta: { problems: r.problems, count: r.problemCount, invalid_entries: r.invalidEntries }
        })
      )
    }
    o.onChecked?.(r)
    return r
  })

/** `use` of a checked file; its bytes are let go afterwards (a temp copy deleted). */
const withChecked = <A, E, R>(
  file: string,
  kind: BulkKind,
  o: BulkOptions,
  use: (f: CheckedFile) => Effect.Effect<A, E, R>,
  outcome?: string
) => Effect.acquireUseRelease(checked(file, kind, o, outcome), use, (f) => Effect.sync(() => f.spool.release()))

/** The same error with another message. */
const withMessage = <E extends V4Error>(e: E, message: string): E => {
  const Class = V4ErrorClasses[e._tag] as unknown as new (fields: object) => E
  const extra =
    e._tag === "ApiError"
      ? { status: e.status }
      : e._tag === "RateLimited" && e.retryAfter !== undefined
        ? { retryAfter: e.retryAfter }
        : {}
  return new Class({
    code: e.code,
    message,
    ...(e.chain ? { chain: e.chain } : {}),
    ...(e.meta !== undefined ? { meta: e.meta } : {}),
    ...extra
  })
}

/** What a request that failed halfway through a bulk says: what was written before it, and that a rerun is safe. */
const midwayError = <E extends V4Error>(e: E, t: BulkTally): E => {
  const before = `after ${t.done} of ${t.count} entries were written in ${t.answered} requests`
  if (e._tag === "NoAnswer")
    return new NoAnswer({
      method: e.method,
      path: e.path,
      seconds: e.seconds,
      message: `${e.message} (request ${t.answered + 1}, with ${t.inFlight} entries, ${before}; running the same command again is safe)`
    }) as E
  if (t.done === 0) return e
  return withMessage(e, `${e.message} (${before}; running the same command again is safe)`)
}

const sendAll = <E extends V4Error>(
  file: CheckedFile,
  kind: BulkKind,
  send: (body: Uint8Array) => Effect.Effect<KvBulkAnswer, E, ClientEnv>,
  o: BulkOptions
) =>
  Effect.gen(function* () {
    const config = yield* ClientConfig
    const limits = {
      ...limitsFor(config.target),
      ...(config.target === "remote" && o.maxEntries ? { maxEntries: o.maxEntries } : {})
    }
    const skip = o.skipRequests ?? 0
    const t = o.tally ?? newTally()
    t.count = file.count
    t.requests = batchCount(file, limits)
    const unsuccessful: Array<string> = []
    o.onProgress?.({ phase: "writing", done: 0, total: file.count, unit: "entries" })
    let index = 0
    for (const batch of batches(file, kind, limits)) {
      if (index++ < skip) {
        t.answered++
        t.done += batch.count
        continue
      }
      t.inFlight = batch.count
      const answer = yield* send(batch.body).pipe(Effect.mapError((e) => midwayError(e, t)))
      t.inFlight = undefined
      t.answered++
      t.done += batch.count
      if (answer !== null && "unsuccessful_keys" in answer) unsuccessful.push(...answer.unsuccessful_keys)
      o.onRequest?.(t.answered)
      o.onProgress?.({ phase: "writing", done: t.done, total: file.count, unit: "entries" })
    }
    return {
      count: file.count,
      requests: t.answered,
      skipped: Math.min(skip, index),
      result: { successful_key_count: t.done - unsuccessful.length, unsuccessful_keys: unsuccessful }
    }
  })

/** `kv bulk put FILE`: checks the whole file, then writes it (PUT …/bulk). */
export const bulkPutFile = (accountId: string, namespaceId: string, file: string, o: BulkOptions = {}) =>
  withChecked(file, "entries", o, (f) =>
    sendAll(
      f,
      "entries",
      (body) =>
        call(KvEndpoints.bulkPut, {
          path: nsPath(accountId, namespaceId),
          body: { bytes: body, contentType: "application/json" }
        }),
      o
    )
  )

/** Deletes the keys of a checked keys file (DELETE …/bulk, as wrangler does). */
export const bulkDeleteChecked = (accountId: string, namespaceId: string, file: CheckedFile, o: BulkOptions = {}) =>
  sendAll(
    file,
    "keys",
    (body) =>
      call(KvEndpoints.bulkDelete, {
        path: nsPath(accountId, namespaceId),
        body: { bytes: body, contentType: "application/json" }
      }),
    o
  )

/** `kv bulk delete FILE` in one call: checks the whole keys file, then deletes its keys. */
export const bulkDeleteFile = (accountId: string, namespaceId: string, file: string, o: BulkOptions = {}) =>
  withChecked(file, "keys", o, (f) => bulkDeleteChecked(accountId, namespaceId, f, o))

/** How many keys a keys file lists, checked whole (every problem named) before anything is deleted. */
export const keysFileCount = (file: string, o: BulkOptions = {}) =>
  withChecked(file, "keys", o, (f) => Effect.succeed(f.count))

/** Checks a bulk file without writing anything: every problem, or what it holds (its bytes kept until the scope closes). */
export const checkBulkFile = (file: string, kind: BulkKind, o: BulkOptions = {}) =>
  Effect.acquireRelease(checked(file, kind, o), (f) => Effect.sync(() => f.spool.release()))
