/**
 * Handlers of the KV endpoints, over the store's KV storage (src/store/kv-repo.ts). Every write is validated first
 * (src/kv/validate.ts) and then stored in one transaction: a bulk request with one bad entry is
 * refused whole and writes nothing.
 * `KvOptions` (kv-options.ts) is how local mode differs from the wire. Each endpoint is a named
 * step: the namespaces in kv-namespace-handlers.ts, keys and values in kv-entry-handlers.ts, bulks
 * in kv-bulk-handlers.ts, over what they share (kv-scope.ts).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { KvApi } from "../api/contract-kv.js"
import { bulkDelete, bulkGet, bulkPut } from "./kv-bulk-handlers.js"
import { deleteValue, getMetadata, getValue, listKeys, putValue } from "./kv-entry-handlers.js"
import {
  createNamespace,
  deleteNamespace,
  getNamespace,
  listNamespaces,
  renameNamespace
} from "./kv-namespace-handlers.js"
import { kvScope } from "./kv-scope.js"

export const KvLive = HttpApiBuilder.group(KvApi(), "kv", (handlers) =>
  Effect.gen(function* () {
    const scope = yield* kvScope
    return handlers
      .handle("listNamespaces", ({ path, urlParams }) => listNamespaces(scope, path.account_id, urlParams))
      .handle("createNamespace", ({ path, payload }) => createNamespace(scope, path.account_id, payload))
      .handle("getNamespace", ({ path }) => getNamespace(scope, path))
      .handle("renameNamespace", ({ path, payload }) => renameNamespace(scope, path, payload))
      .handle("deleteNamespace", ({ path }) => deleteNamespace(scope, path))
      .handle("listKeys", ({ path, urlParams }) => listKeys(scope, path, urlParams))
      .handleRaw("getValue", ({ path }) => getValue(scope, path))
      .handleRaw("putValue", ({ path, urlParams, request }) => putValue(scope, path, urlParams, request))
      .handle("deleteValue", ({ path }) => deleteValue(scope, path))
      .handle("getMetadata", ({ path }) => getMetadata(scope, path))
      .handleRaw("bulkPut", ({ path, request }) => bulkPut(scope, path, request))
      .handleRaw("bulkDelete", ({ path, request }) => bulkDelete(scope, path, request))
      .handleRaw("bulkDeletePost", ({ path, request }) => bulkDelete(scope, path, request))
      .handle("bulkGet", ({ path, payload }) => bulkGet(scope, path, payload))
  })
)
