/**
 * A KV value read (`GET .../storage/kv/namespaces/{id}/values/{key}`, what `kv key get` asks)
 * answered without the HttpApi app, as route-table.ts answers the hottest JSON reads: in local
 * mode a cold `kv key get` then never builds the KV part of the API (its routes, handlers and
 * schemas), which was a tenth of the command's instructions.
 *
 * Same rule as the table: it answers only a value that is there, for a request it understands
 * exactly (GET, no body, the account, namespace and key spelled plainly, no query), with the
 * handler's own functions (credentials: auth.ts; the key: src/kv/validate.ts; the namespace and
 * entry: the store, with the same KV options); anything else, every error included, is the app's
 * (test/server/route-table.test.ts compares both). Only the in-process transport asks it.
 */
import * as Either from "effect/Either"
import { BasePath } from "../api/contract-core.js"
import { checkKey, nowSeconds } from "../kv/validate.js"
import type { Db } from "../store/db.js"
import * as Engine from "../store/kv-repo.js"
import { authenticate } from "./auth.js"
import type { KvOptions } from "./kv-options.js"
import { isBodilessGet, orApp, type TableRequest } from "./route-table.js"

/** The value's bytes and its expiration header, as the `getValue` handler answers them. */
export interface KvValueAnswer {
  readonly value: Uint8Array
  readonly headers: Readonly<Record<string, string>>
}

// Nothing the router would decode or normalize: plain ids, and a key not starting with a dot
// (no `.` or `..` segment).
const ROUTE = new RegExp(
  `^${BasePath}/accounts/([A-Za-z0-9_-]{1,64})/storage/kv/namespaces/([A-Za-z0-9_-]{1,255})/values/([A-Za-z0-9_-][A-Za-z0-9_.-]{0,511})$`
)

/** The route over the store `db` and the KV behaviour the app's handlers have (kv-options.ts). */
export const makeKvValueRoute = (db: Db["db"], options: KvOptions) => orApp((request) => answer(db, options, request))

const answer = (db: Db["db"], options: KvOptions, request: TableRequest): KvValueAnswer | undefined => {
  if (!isBodilessGet(request)) return undefined
  const route = ROUTE.exec(request.url)
  if (route === null) return undefined
  const [, accountId, namespaceId, key] = route as unknown as [string, string, string, string]
  if (checkKey(key) !== undefined) return undefined
  const principal = authenticate(request.headers, request.url, db)
  if (Either.isLeft(principal)) return undefined
  const accountIds = principal.right.accountIds
  if (!accountIds.includes(accountId)) return undefined
  const ns = Engine.findNamespace(db, namespaceId, options.implicitNamespaces ? accountIds : [accountId])
  if (ns === undefined) return undefined
  const entry = Engine.getEntry(db, ns.seq, key, nowSeconds())
  if (entry === undefined) return undefined
  return { value: entry.value, headers: entry.expiration !== null ? { expiration: String(entry.expiration) } : {} }
}
