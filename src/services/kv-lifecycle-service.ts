/**
 * A namespace's whole life (`kv export`, `kv import`, `kv clear`, `kv copy`, `kv diff`): its keys
 * read page by page along the list cursor, each with its value, metadata and expiration, as entries
 * of the bulk put format, so what `export` writes is what `bulk put` and `import` read. Writes go
 * through the bulk service (./kv-bulk-service.ts), which checks a whole file before sending it.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { call, ClientConfig, type ClientEnv } from "../api/client.js"
import { LocalBase } from "../api/target.js"
import { KvEndpoints } from "../api/contract-kv.js"
import { InvalidInput, type V4Error } from "../domain/errors.js"
import { writeProblem } from "../domain/file-errors.js"
import type { KvKey } from "../domain/kv.js"
import * as path from "node:path"
import {
  EntriesSegment,
  entriesText,
  EntryWriter,
  entryOf,
  type ExportEntry,
  scratchDir
} from "../kv/lifecycle-files.js"
import { bulkPutFile } from "./kv-bulk-service.js"
import { BulkGetMaxKeys } from "../domain/kv-limits.js"
import { bulkGet, getValue, isKeyNotFound, listKeysPage } from "./kv-service.js"

/** The platform's largest page of keys (api-reference 10.2: `limit` up to 1,000). */
const PageSize = 1000

export interface ReadOptions {
  /** Called with each page of entries, in key order, as soon as it is read. */
  readonly onPage: (page: EntryPage) => void
  /** Where to start: a cursor a stopped export reported (its checkpoint). */
  readonly cursor?: string | undefined
  readonly prefix?: string | undefined
}

/**
 * The values of a page of keys: 100 per bulk get (as text). A value that came back with U+FFFD may
 * be bytes that are not UTF-8 (the platform decodes them with replacements): it is read again
 * alone, as bytes (GET …/values/:key), so a binary value is exported exactly. A key gone between
 * the listing and the read is skipped.
 */
const valuesOf = (accountId: string, namespaceId: string, keys: ReadonlyArray<KvKey>, concurrency: number) =>
  Effect.gen(function* () {
    const chunks: Array<ReadonlyArray<KvKey>> = []
    for (let at = 0; at < keys.length; at += BulkGetMaxKeys) chunks.push(keys.slice(at, at + BulkGetMaxKeys))
    const read = yield* Effect.forEach(
      chunks,
      (chunk) =>
        Effect.gen(function* () {
          const { values } = yield* bulkGet(
            accountId,
            namespaceId,
            chunk.map((k) => k.name)
          )
          return yield* Effect.forEach(chunk, (key) => {
            const text = values[key.name]
            if (typeof text === "string" && !text.includes("\uFFFD"))
              return Effect.succeed(entryOf(key, Buffer.from(text, "utf8")))
            if (text === null || text === undefined) return Effect.succeed(undefined)
            return getValue(accountId, namespaceId, key.name).pipe(
              Effect.map((v) => entryOf(key, v.bytes)),
              Effect.catchIf(isKeyNotFound, () => Effect.succeed(undefined))
            )
          })
        }),
      { concurrency }
    )
    return read.flat().filter((e): e is ExportEntry => e !== undefined)
  })

/**
 * A page of entries read straight from the local store (src/server/door/kv-entries-route.ts, answered
 * by the in-process transport only): one request a page instead of a listing and ten bulk gets.
 * `undefined` when it was not answered (an unknown namespace, a cursor not ours…): the caller
 * reads that page through the API, which answers it or says what is wrong.
 */
/** The first line of a local page, `{"cursor", "count"}`; undefined when it is not JSON. */
const headOf = (line: string): { cursor?: unknown; count?: unknown } | undefined => {
  try {
    return JSON.parse(line) as { cursor?: unknown; count?: unknown }
  } catch {
    return undefined
  }
}

const localPage = (
  config: ClientConfig,
  accountId: string,
  namespaceId: string,
  q: { cursor: string | undefined; prefix: string | undefined }
) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const params = new URLSearchParams({ limit: String(PageSize) })
    if (q.cursor !== undefined && q.cursor !== "") params.set("cursor", q.cursor)
    if (q.prefix !== undefined && q.prefix !== "") params.set("prefix", q.prefix)
    const url = `${config.baseUrl}/accounts/${accountId}/storage/kv/namespaces/${namespaceId}/${EntriesSegment}?${params}`
    const token = config.credentials.kind === "token" ? config.credentials.token : ""
    const response = yield* client.execute(HttpClientRequest.get(url).pipe(HttpClientRequest.bearerToken(token)))
    if (response.status !== 200) return undefined
    // JSON Lines: `{"cursor", "count"}`, then the entries as the export writes them.
    const text = yield* response.text
    const nl = text.indexOf("\n")
    const head = nl < 0 ? undefined : headOf(text.slice(0, nl))
    const lines = text.slice(nl + 1)
    if (typeof head?.cursor !== "string" || !Number.isInteger(head.count) || (head.count === 0) !== (lines === ""))
      return undefined
    return new EntryLines(lines, head.count as number, head.cursor)
  }).pipe(Effect.orElseSucceed(() => undefined))

/** One page of a namespace's entries in key order, and the cursor of the next ("" after the last). */
export interface EntryPage {
  readonly entries: ReadonlyArray<ExportEntry>
  readonly cursor: string
  readonly count: number
  /** The entries as the export writes them (`entriesText`: one a line), for a writer to copy. */
  readonly lines: string
}

/** A page read as its lines (the local store's, `localPage`): its entries decoded only if asked (`kv diff`). */
class EntryLines implements EntryPage {
  private decoded: ReadonlyArray<ExportEntry> | undefined
  constructor(
    readonly lines: string,
    readonly count: number,
    readonly cursor: string
  ) {}
  get entries(): ReadonlyArray<ExportEntry> {
    this.decoded ??= this.count === 0 ? [] : this.lines.split("\n").map((l) => JSON.parse(l) as ExportEntry)
    return this.decoded
  }
}

/** A page read as entries (through the API): its lines written only if asked (an export). */
const entriesPage = (entries: ReadonlyArray<ExportEntry>, cursor: string): EntryPage => ({
  entries,
  cursor,
  count: entries.length,
  get lines() {
    return entriesText(entries)
  }
})

/**
 * The page of entries after `cursor`: from the in-process store when the target is (`localPage`),
 * else a listing and its values through the API, the requests concurrently against a remote platform.
 */
export const entryPage = (
  accountId: string,
  namespaceId: string,
  q: { readonly cursor?: string | undefined; readonly prefix?: string | undefined }
): Effect.Effect<EntryPage, V4Error, ClientEnv> =>
  Effect.gen(function* () {
    const config = yield* ClientConfig
    const fast =
      config.baseUrl === LocalBase
        ? yield* localPage(config, accountId, namespaceId, { cursor: q.cursor, prefix: q.prefix })
        : undefined
    if (fast !== undefined) return fast
    const listed = yield* listKeysPage(accountId, namespaceId, { cursor: q.cursor, limit: PageSize, prefix: q.prefix })
    const entries = yield* valuesOf(accountId, namespaceId, listed.items, config.target === "remote" ? 4 : 1)
    return entriesPage(entries, listed.cursor)
  })

/** Reads every key of a namespace with its value, a page at a time (bounded memory: one page of values). */
export const readEntries = (
  accountId: string,
  namespaceId: string,
  o: ReadOptions
): Effect.Effect<number, V4Error, ClientEnv> =>
  Effect.gen(function* () {
    let count = 0
    for (let cursor = o.cursor; ;) {
      const page = yield* entryPage(accountId, namespaceId, { cursor, prefix: o.prefix })
      count += page.count
      o.onPage(page)
      if (page.cursor === "") return count
      cursor = page.cursor
    }
  })

/** Every key name of a namespace, along the cursor (`kv clear` counts them before it asks). */
export const keyNames = (accountId: string, namespaceId: string) =>
  Effect.gen(function* () {
    const names: Array<string> = []
    for (let cursor: string | undefined = undefined; ;) {
      const page: { items: ReadonlyArray<KvKey>; cursor: string } = yield* listKeysPage(accountId, namespaceId, {
        cursor,
        limit: PageSize
      })
      for (const k of page.items) names.push(k.name)
      if (page.cursor === "") return names
      cursor = page.cursor
    }
  })

/** The platform's limit of keys per bulk delete (api-reference 10.2). */
const DeleteBatch = 10_000

/** Deletes `names` in requests of at most 10,000 keys; `onBatch` after each answered request. */
export const deleteKeys = (
  accountId: string,
  namespaceId: string,
  names: ReadonlyArray<string>,
  onBatch: (done: number) => void
) =>
  Effect.gen(function* () {
    let done = 0
    for (let at = 0; at < names.length; at += DeleteBatch) {
      const chunk = names.slice(at, at + DeleteBatch)
      yield* call(KvEndpoints.bulkDelete, {
        path: { account_id: accountId, namespace_id: namespaceId },
        body: { bytes: Buffer.from(JSON.stringify(chunk), "utf8"), contentType: "application/json" }
      })
      done += chunk.length
      onBatch(done)
    }
    return done
  })

// ---------------------------------------------------------------------------------------------
// Diff

type DiffField = "value" | "metadata" | "expiration"

export interface NamespaceDiff {
  readonly equal: boolean
  readonly only_in_first: ReadonlyArray<string>
  readonly only_in_second: ReadonlyArray<string>
  readonly different: ReadonlyArray<{ readonly key: string; readonly fields: ReadonlyArray<DiffField> }>
}

const canonical = (v: unknown) => (v === undefined ? "" : JSON.stringify(v))

/** The fields in which two entries of the same key differ. */
const fieldsOf = (a: ExportEntry, b: ExportEntry): Array<DiffField> => {
  const fields: Array<DiffField> = []
  if (a.value !== b.value || a.base64 !== b.base64) fields.push("value")
  if (canonical(a.metadata) !== canonical(b.metadata)) fields.push("metadata")
  if (a.expiration !== b.expiration) fields.push("expiration")
  return fields
}

/** A code unit placed as its code point's UTF-8 bytes sort: surrogates (code points above U+FFFF) after U+E000–U+FFFF. */
const byteRank = (unit: number) =>
  unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit

/** Keys in the order the platform lists them: by their UTF-8 bytes (JS's `<` compares UTF-16 units). */
const compareKeys = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return byteRank(x) - byteRank(y)
  }
  return a.length - b.length
}

/**
 * What differs between two namespaces, read as two streams of pages in key order and merged: one
 * page of each side in memory at a time (and the keys that differ), whatever their size.
 * `first`/`second` give the page after a cursor (`entryPage`, each in its own client).
 */
export const diffPages = <E, R>(
  first: (cursor: string | undefined) => Effect.Effect<EntryPage, E, R>,
  second: (cursor: string | undefined) => Effect.Effect<EntryPage, E, R>
): Effect.Effect<NamespaceDiff & { readonly count: number }, E, R> =>
  Effect.gen(function* () {
    const onlyFirst: Array<string> = []
    const onlySecond: Array<string> = []
    const different: Array<{ key: string; fields: Array<DiffField> }> = []
    let count = 0
    let a = yield* first(undefined)
    let b = yield* second(undefined)
    let i = 0
    let j = 0
    for (;;) {
      // Refill a side whose page is used up and that has more.
      if (i === a.entries.length && a.cursor !== "") {
        a = yield* first(a.cursor)
        i = 0
        continue
      }
      if (j === b.entries.length && b.cursor !== "") {
        b = yield* second(b.cursor)
        j = 0
        continue
      }
      const x = a.entries[i]
      const y = b.entries[j]
      if (x === undefined && y === undefined) break
      const order = x === undefined ? 1 : y === undefined ? -1 : compareKeys(x.key, y.key)
      if (order < 0) {
        onlyFirst.push(x!.key)
        count++
        i++
      } else if (order > 0) {
        onlySecond.push(y!.key)
        j++
      } else {
        const fields = fieldsOf(x!, y!)
        if (fields.length > 0) different.push({ key: x!.key, fields })
        count++
        i++
        j++
      }
    }
    return {
      equal: onlyFirst.length === 0 && onlySecond.length === 0 && different.length === 0,
      only_in_first: onlyFirst,
      only_in_second: onlySecond,
      different,
      count
    }
  })

/** A whole namespace written to `file` in the bulk put format (the TUI's export; the CLI's adds checkpoints). */
export const exportToFile = (accountId: string, namespaceId: string, file: string) =>
  Effect.acquireUseRelease(
    Effect.try({
      try: () => fs.openSync(file, "w"),
      catch: (e) => new InvalidInput({ message: `cannot write ${file}: ${writeProblem(file, e)}`, clientSide: true })
    }),
    (fd) =>
      Effect.gen(function* () {
        const writer = new EntryWriter((t) => fs.writeSync(fd, t), "json")
        writer.begin()
        yield* readEntries(accountId, namespaceId, { onPage: (page) => writer.writeLines(page.lines, page.count) })
        writer.end()
        return writer.count
      }),
    (fd) => Effect.sync(() => fs.closeSync(fd))
  )

/**
 * Every key of a namespace written into another of the same account (the TUI's copy): exported to
 * a scratch file, then written as `kv import` writes a file (checked whole, then sent).
 */
export const copyNamespace = (accountId: string, from: string, to: string) =>
  Effect.acquireUseRelease(
    Effect.sync(() => scratchDir()),
    (dir) =>
      Effect.gen(function* () {
        const file = path.join(dir, "entries.json")
        yield* exportToFile(accountId, from, file)
        const r = yield* bulkPutFile(accountId, to, file, { maxEntries: 10_000 })
        return r.count
      }),
    (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
  )
