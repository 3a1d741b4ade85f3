/**
 * A KV value read (`GET .../storage/kv/namespaces/{id}/values/{key}`, what `kv key get` asks)
 * answered without the HttpApi app, as route-table.ts answers the hottest JSON reads: in local
 * mode a cold `kv key get` then never builds the KV part of the API (its routes, handlers and
 * schemas), which was a tenth of the command's instructions.
 *
 * Same rule as the table: it answers only a value that is there, for a request it understands
 * exactly (GET, no body, the account and namespace spelled plainly, the key in one segment, no
 * query), with the handler's own functions (credentials: auth.ts; the key: src/kv/validate.ts; the
 * namespace and entry: the store, with the same KV options); anything else, every error included,
 * is the app's (test/server/route-table.test.ts compares both). Only the in-process transport asks it.
 *
 * The key is read as the app's router reads it (see `keyOf`), percent-encoding included: real keys
 * are namespaced with colons (`flag:beta-search`), which the client sends as `%3A`, and a route
 * that took plain keys only left those to the app: a cold `kv key get flag:beta-search` went from
 * ~960 M instructions (1.92x `node -e 0`) to ~871 M (1.73x), as a plain key's (callgrind, median of 3).
 */
import * as Either from "effect/Either"
import { BasePath } from "../../api/contract-core.js"
import { checkKey, nowSeconds } from "../../kv/validate.js"
import type { Db } from "../../store/db.js"
import * as Engine from "../../store/kv-repo.js"
import { authenticate } from "../auth.js"
import type { KvOptions } from "../kv-options.js"
import { isBodilessGet, orApp, type TableRequest } from "./route-table.js"

/** The value's bytes and its expiration header, as the `getValue` handler answers them. */
export interface KvValueAnswer {
  readonly value: Uint8Array
  readonly headers: Readonly<Record<string, string>>
}

// Plain ids (nothing the router would decode, fold or trim), and a key segment of printable ASCII
// without what ends a segment for the router (`/`, and `?`, `;`, `#`, which start its query): up to
// 512 bytes, each spelled `%XX` at most.
const ROUTE = new RegExp(
  `^${BasePath}/accounts/([A-Za-z0-9_-]{1,64})/storage/kv/namespaces/([A-Za-z0-9_-]{1,255})/values/([!-~]{1,1536})$`
)
const SEGMENT_END = /[/?;#]/

/**
 * The key as the `getValue` handler gets it (`path.key_name`), or `undefined` when the router would
 * not decode it (`%zz`, `%E0%80`, a lone `%`: it finds no route, the app answers). The router
 * (find-my-way-ts in @effect/platform, `find`) decodes the path with `decodeURI`, keeping the
 * escapes of `#$&+,/:;=?@` (and `%25`, which it doubles), then those in each parameter; with the
 * account and namespace plain and the key in one segment, that is `decodeURIComponent` of the
 * segment, escape by escape and in either case of hex (both throw on the same malformed UTF-8).
 * Its package is not a dependency of ours, so the route-table test checks this against the app.
 */
const keyOf = (segment: string): string | undefined => {
  if (SEGMENT_END.test(segment)) return undefined
  if (!segment.includes("%")) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** The route over the store `db` and the KV behaviour the app's handlers have (kv-options.ts). */
export const makeKvValueRoute = (db: Db["db"], options: KvOptions) => orApp((request) => answer(db, options, request))

const answer = (db: Db["db"], options: KvOptions, request: TableRequest): KvValueAnswer | undefined => {
  if (!isBodilessGet(request)) return undefined
  const route = ROUTE.exec(request.url)
  if (route === null) return undefined
  const [, accountId, namespaceId, segment] = route as unknown as [string, string, string, string]
  const key = keyOf(segment)
  if (key === undefined || checkKey(key) !== undefined) return undefined
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
