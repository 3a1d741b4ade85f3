/**
 * A page of a namespace's entries (keys, values, metadata, expirations) read straight from the
 * store, for a local `kv export` (and `kv copy`, `kv diff`): the in-process transport answers
 * `GET .../storage/kv/namespaces/{id}/entries?limit=&cursor=&prefix=` with one query per page
 * (JSON Lines: `{"cursor", "count"}`, then one entry a line, as the export writes them),
 * where the platform's API takes a key listing and ten bulk gets (each checked, decoded and
 * encoded by the app) for a thousand keys: that path read ~70,000 keys/s, issue 34 asks 200,000.
 *
 * This path is not the platform's: only the in-process transport answers it (local-transport.ts),
 * and the export asks it only there (kv-lifecycle-service.ts `readEntries`). The listing is the
 * store's own (`listEntries`, on the query of `listKeys`, which the `listKeys` handler reads) and each entry is written by
 * `entryOf` (src/kv/lifecycle-files.ts), the one writer of the export format, so a page is what the
 * API path reads (test/cli/kv-export-fast.test.ts compares the bytes with an export over `serve`).
 *
 * It answers only what it understands plainly (the table's rule, route-table.ts): a known account
 * of the credentials, an existing namespace, a cursor of ours, a limit of 1 to 1,000; anything
 * else is left to the caller, which then reads that page through the API and meets its error.
 */
import * as Either from "effect/Either"
import { BasePath } from "../../api/contract-core.js"
import { EntriesSegment, entriesText, entryOf } from "../../kv/lifecycle-files.js"
import { nowSeconds } from "../../kv/validate.js"
import type { Db } from "../../store/db.js"
import * as Engine from "../../store/kv-repo.js"
import * as Pages from "../../store/kv-pages.js"
import { authenticate } from "../auth.js"
import type { KvOptions } from "../kv-options.js"
import { isBodilessGet, orApp, type TableRequest } from "./route-table.js"

const ROUTE = new RegExp(
  `^${BasePath}/accounts/([A-Za-z0-9_-]{1,64})/storage/kv/namespaces/([A-Za-z0-9_-]{1,255})/${EntriesSegment}(?:\\?(.*))?$`
)

/** The route over the store `db`, with the KV behaviour the app's handlers have (kv-options.ts). */
export const makeKvEntriesRoute = (db: Db["db"], options: KvOptions) => orApp((request) => answer(db, options, request))

const answer = (db: Db["db"], options: KvOptions, request: TableRequest): string | undefined => {
  if (!isBodilessGet(request)) return undefined
  const route = ROUTE.exec(request.url)
  if (route === null) return undefined
  const [, accountId, namespaceId, query] = route as unknown as [string, string, string, string | undefined]
  const q = new URLSearchParams(query ?? "")
  const limit = Number(q.get("limit") ?? "1000")
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return undefined
  const cursor = q.get("cursor") ?? ""
  const after = cursor !== "" ? Pages.decodeCursor(cursor) : undefined
  if (cursor !== "" && after === undefined) return undefined
  const principal = authenticate(request.headers, request.url, db)
  if (Either.isLeft(principal)) return undefined
  const accountIds = principal.right.accountIds
  if (!accountIds.includes(accountId)) return undefined
  const ns = Engine.findNamespace(db, namespaceId, options.implicitNamespaces ? accountIds : [accountId])
  if (ns === undefined) return undefined
  const prefix = q.get("prefix") ?? undefined
  const page = Pages.listEntries(db, ns.seq, { prefix, limit, after }, nowSeconds())
  const entries = page.entries.map((e) => entryOf(e, e.value))
  // JSON Lines: the page's cursor and count, then each entry as the export writes it, so that the
  // export copies the lines (kv-lifecycle-service.ts `localPage`) instead of decoding and encoding
  // every entry again.
  return `${JSON.stringify({ cursor: page.cursor, count: entries.length })}\n${entriesText(entries)}`
}
