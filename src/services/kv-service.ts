/**
 * The key-value store: the operations users run, as Effects over the v4 client. The CLI and the
 * TUI call these; in local mode the client runs the embedded platform in-process, with `--remote`
 * it is the real platform, and the requests are the ones wrangler makes (api-reference 10.2), so
 * either end answers the same calls.
 */
import type { PlannedRequest } from "../domain/request-text.js"
import * as Effect from "effect/Effect"
import { call, callRaw, ClientConfig } from "../api/client.js"
import { collectCursor, collectPages, findInPages } from "../api/pages.js"
import { Endpoints } from "../api/contract-core.js"
import { KvEndpoints } from "../api/contract-kv.js"
import type { Account } from "../domain/account.js"
import { InvalidInput, NotFound, type V4Error } from "../domain/errors.js"
import type { KvNamespace } from "../domain/kv.js"
import { multipartForm } from "../kv/multipart.js"
import { hexId } from "../domain/ids.js"

/** The demo world's first account (Acme Corp): where local KV commands work by default. */
export const LocalAccountId = hexId("account", "Acme Corp")

const nsPath = (accountId: string, namespaceId: string) => ({ account_id: accountId, namespace_id: namespaceId })
const keyPath = (accountId: string, namespaceId: string, key: string) => ({
  ...nsPath(accountId, namespaceId),
  key_name: key
})

// ---------------------------------------------------------------------------------------------
// Accounts

/**
 * The account KV commands work in: the one given (CLOUDFLARE_ACCOUNT_ID, `account_id` of the
 * project config), else the only account the credentials see. With several, local mode takes the
 * first (the demo world has three; scripts that only name a namespace id must just work) and
 * remote mode asks the user to choose, as wrangler does off a terminal.
 */
export const resolveAccount = (given: string | undefined) =>
  Effect.gen(function* () {
    const config = yield* ClientConfig
    const known = given !== undefined && given !== ""
    if (known && config.target === "remote") return given
    // The local platform's first account (the one `edgectl serve` advertises), without a request.
    if (!known && config.target === "local") return LocalAccountId
    const page = yield* call(Endpoints.listAccounts, { urlParams: { per_page: 50 } })
    const accounts: ReadonlyArray<Account> = page.items
    if (accounts.length === 0)
      return yield* Effect.fail(new NotFound({ message: "these credentials see no account", clientSide: true }))
    // Local mode: an id of a real account (CLOUDFLARE_ACCOUNT_ID exported for --remote) means nothing here.
    if (known && accounts.some((a) => a.id === given)) return given
    if (accounts.length === 1 || config.target === "local") return accounts[0]!.id
    const names = accounts
      .slice(0, 5)
      .map((a) => `${a.name} (${a.id})`)
      .join(", ")
    return yield* Effect.fail(
      new InvalidInput({
        message: `these credentials see ${page.info.total_count} accounts (${names}${accounts.length > 5 ? ", …" : ""}); set CLOUDFLARE_ACCOUNT_ID or account_id in the project config to choose one`,
        clientSide: true
      })
    )
  })

// ---------------------------------------------------------------------------------------------
// Namespaces

const listNamespacesPage = (accountId: string, page: number, perPage: number) =>
  call(KvEndpoints.listNamespaces, {
    path: { account_id: accountId },
    urlParams: { page, per_page: perPage, order: "title", direction: "asc" }
  })

/** Every namespace of the account, by title (wrangler asks 1,000 per page). */
export const allNamespaces = (accountId: string) => collectPages((page) => listNamespacesPage(accountId, page, 1000))

export interface AccountNamespace {
  readonly account: { readonly id: string; readonly name: string }
  readonly namespace: KvNamespace
}

/** The namespaces of one account, or of every account the credentials see (the TUI's list). */
export const namespacesOf = (account: { readonly id: string; readonly name: string } | undefined) =>
  Effect.gen(function* () {
    const accounts =
      account !== undefined
        ? [account]
        : yield* collectPages((page) => call(Endpoints.listAccounts, { urlParams: { page, per_page: 50 } }))
    const lists = yield* Effect.forEach(accounts, (a) =>
      Effect.map(allNamespaces(a.id), (namespaces) =>
        namespaces.map((namespace) => ({ account: { id: a.id, name: a.name }, namespace }))
      )
    )
    return lists.flat()
  })

const nsUrl = (accountId: string, namespaceId?: string) =>
  `/accounts/${encodeURIComponent(accountId)}/storage/kv/namespaces${namespaceId === undefined ? "" : `/${encodeURIComponent(namespaceId)}`}`

/** The requests of the namespace writes below, as `--dry-run` and the TUI's `v` show them. */
export const namespaceRequest = (
  accountId: string,
  w:
    | { readonly create: string }
    | { readonly id: string; readonly rename: string }
    | { readonly id: string; readonly delete: true }
): PlannedRequest =>
  "create" in w
    ? { method: "POST", path: nsUrl(accountId), body: { title: w.create } }
    : "rename" in w
      ? { method: "PUT", path: nsUrl(accountId, w.id), body: { title: w.rename } }
      : { method: "DELETE", path: nsUrl(accountId, w.id) }

export const createNamespace = (accountId: string, title: string) =>
  call(KvEndpoints.createNamespace, { path: { account_id: accountId }, payload: { title } })

export const getNamespace = (accountId: string, namespaceId: string) =>
  call(KvEndpoints.getNamespace, { path: nsPath(accountId, namespaceId) })

export const renameNamespace = (accountId: string, namespaceId: string, title: string) =>
  call(KvEndpoints.renameNamespace, { path: nsPath(accountId, namespaceId), payload: { title } })

export const deleteNamespace = (accountId: string, namespaceId: string) =>
  Effect.asVoid(call(KvEndpoints.deleteNamespace, { path: nsPath(accountId, namespaceId) }))

/** The namespace with exactly this title (wrangler 4's positional `namespace delete <NAME>`). */
export const findNamespaceByTitle = (accountId: string, title: string) =>
  findInPages(
    (page) => listNamespacesPage(accountId, page, 1000),
    (n) => n.title === title
  ).pipe(
    Effect.flatMap((found) =>
      found._tag === "Some"
        ? Effect.succeed(found.value)
        : Effect.fail(
            new NotFound({
              code: 10013,
              message: `no namespace titled ${JSON.stringify(title)} in account ${accountId}`
            })
          )
    )
  )

// ---------------------------------------------------------------------------------------------
// Keys and values

export interface KeyPageQuery {
  readonly prefix?: string | undefined
  readonly cursor?: string | undefined
  readonly limit?: number | undefined
}

export const listKeysPage = (accountId: string, namespaceId: string, q: KeyPageQuery = {}) =>
  call(KvEndpoints.listKeys, {
    path: nsPath(accountId, namespaceId),
    urlParams: { prefix: q.prefix, limit: q.limit, cursor: q.cursor === "" ? undefined : q.cursor }
  })

/** Every key (with the prefix), following the cursor; wrangler always sends `prefix`, never `limit`. */
export const allKeys = (accountId: string, namespaceId: string, prefix = "") =>
  collectCursor((cursor) =>
    call(KvEndpoints.listKeys, {
      path: nsPath(accountId, namespaceId),
      urlParams: { prefix, ...(cursor !== undefined ? { cursor } : {}) }
    })
  )

/** The value's bytes and expiration; NotFound (code 10009) when the key is absent. */
export const getValue = (accountId: string, namespaceId: string, key: string) =>
  Effect.map(callRaw(KvEndpoints.getValue, { path: keyPath(accountId, namespaceId, key) }), (r) => {
    const exp = r.headers["expiration"]
    return { bytes: r.bytes, expiration: exp !== undefined && /^\d+$/.test(exp) ? Number(exp) : undefined }
  })

export const getMetadata = (accountId: string, namespaceId: string, key: string) =>
  call(KvEndpoints.getMetadata, { path: keyPath(accountId, namespaceId, key) })

/** A missing key as `undefined` (wrangler prints "Value not found" and succeeds). */
export const isKeyNotFound = (e: V4Error) => e._tag === "NotFound" && e.code === 10009

export interface PutValue {
  readonly value: Uint8Array
  /** JSON text of a metadata object (checked by the caller). */
  readonly metadata?: string | undefined
  readonly expiration?: number | undefined
  readonly expirationTtl?: number | undefined
  /** The value came from a file: it is sent as a file part, as wrangler does. */
  readonly filename?: string | undefined
}

const text = (n: number | undefined) => (n === undefined ? undefined : String(n))

/** PUT …/values/:key: the raw value, or a multipart form when there is metadata (as wrangler sends it). */
export const putValue = (accountId: string, namespaceId: string, key: string, v: PutValue) => {
  const body =
    v.metadata !== undefined
      ? multipartForm([
          v.filename !== undefined
            ? { name: "value", value: v.value, filename: v.filename }
            : { name: "value", value: v.value },
          { name: "metadata", value: v.metadata }
        ])
      : { bytes: v.value, contentType: "application/octet-stream" }
  return Effect.asVoid(
    call(KvEndpoints.putValue, {
      path: keyPath(accountId, namespaceId, key),
      // Strings on the wire: the platform checks them (src/kv/validate.ts) so a refusal names the limit.
      urlParams: { expiration: text(v.expiration), expiration_ttl: text(v.expirationTtl) },
      body
    })
  )
}

/** The request `deleteValue` sends, as `--dry-run` and the TUI's `v` show it (the key encoded as the client does). */
export const deleteValueRequest = (accountId: string, namespaceId: string, key: string): PlannedRequest => ({
  method: "DELETE",
  path: `/accounts/${encodeURIComponent(accountId)}/storage/kv/namespaces/${encodeURIComponent(namespaceId)}/values/${encodeURIComponent(key)}`
})

export const deleteValue = (accountId: string, namespaceId: string, key: string) =>
  Effect.asVoid(call(KvEndpoints.deleteValue, { path: keyPath(accountId, namespaceId, key) }))

export const bulkGet = (accountId: string, namespaceId: string, keys: ReadonlyArray<string>, withMetadata = false) =>
  call(KvEndpoints.bulkGet, {
    path: nsPath(accountId, namespaceId),
    payload: { keys, type: "text", ...(withMetadata ? { withMetadata } : {}) }
  })
