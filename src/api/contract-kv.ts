/**
 * The key-value store's v4 endpoints (api-reference section 10), described once: the embedded
 * platform serves them (src/server/kv-handlers.ts; a value read in-process also by
 * kv-value-route.ts, with the same checks) and the KV services call them (src/services/kv-*.ts).
 *
 * Four endpoints read their body themselves (the server handles them raw): a value is stored as
 * the bytes sent (any content type) or taken from a multipart form, and bulk bodies are parsed and
 * checked by src/kv/validate.ts so that each problem names its entry.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { answers, Authentication, groupOf, onObject, platformApi, Wire } from "./contract-core.js"
import * as Schema from "effect/Schema"
import { Envelope, CursorPaged, Paged } from "../domain/envelope.js"
import { KvBulkGetRequest, KvBulkGetResult, KvBulkResult, KvKey, KvNamespace, KvNamespaceTitle } from "../domain/kv.js"
import { Direction, IntParam, OneOf } from "../domain/params.js"
import { ListMaxLimit, ListMinLimit, NamespacesMaxPerPage } from "../domain/kv-limits.js"
import { lazily, lazyRecord } from "./contract-lazy.js"

const base = "/accounts/:account_id/storage/kv/namespaces"

const AccountPath = Schema.Struct({ account_id: Schema.String })
const NamespacePath = Schema.Struct({ account_id: Schema.String, namespace_id: Schema.String })
const KeyPath = Schema.Struct({ account_id: Schema.String, namespace_id: Schema.String, key_name: Schema.String })

export const KvNamespacesParams = lazily(() =>
  Schema.Struct({
    page: Schema.optional(IntParam("page", 1, 1_000_000)),
    per_page: Schema.optional(IntParam("per_page", 1, NamespacesMaxPerPage)),
    order: Schema.optional(OneOf("order", ["id", "title"])),
    direction: Schema.optional(Direction)
  })
)

export const KvKeysParams = lazily(() =>
  Schema.Struct({
    prefix: Schema.optional(Schema.String),
    limit: Schema.optional(IntParam("limit", ListMinLimit, ListMaxLimit)),
    cursor: Schema.optional(Schema.String)
  })
)

/** Checked by the handler with the KV rules (src/kv/validate.ts), so the messages name the limit. */
export const KvWriteParams = lazily(() =>
  Schema.Struct({
    expiration: Schema.optional(Schema.String),
    expiration_ttl: Schema.optional(Schema.String)
  })
)

/** Bulk writes answer a count (newer platform) or null (older); accept `{}` too. */
export const KvBulkAnswer = Schema.Union(KvBulkResult, Schema.Null, Schema.Struct({}))
export type KvBulkAnswer = typeof KvBulkAnswer.Type

/** Results the platform documents as `null` or `{}`. */
const Nothing = Envelope(Schema.Unknown)

/** A namespace's title is unique in its account. */
const titled = answers(Wire.Conflict)

export const KvEndpoints = lazyRecord({
  listNamespaces: () =>
    HttpApiEndpoint.get("listNamespaces", base)
      .setPath(AccountPath)
      .setUrlParams(KvNamespacesParams())
      .addSuccess(Paged(KvNamespace))
      .pipe(onObject),
  createNamespace: () =>
    HttpApiEndpoint.post("createNamespace", base)
      .setPath(AccountPath)
      .setPayload(KvNamespaceTitle)
      .addSuccess(Envelope(KvNamespace))
      .pipe(onObject, titled),
  getNamespace: () =>
    HttpApiEndpoint.get("getNamespace", `${base}/:namespace_id`)
      .setPath(NamespacePath)
      .addSuccess(Envelope(KvNamespace))
      .pipe(onObject),
  renameNamespace: () =>
    HttpApiEndpoint.put("renameNamespace", `${base}/:namespace_id`)
      .setPath(NamespacePath)
      .setPayload(KvNamespaceTitle)
      .addSuccess(Envelope(KvNamespace))
      .pipe(onObject, titled),
  deleteNamespace: () =>
    HttpApiEndpoint.del("deleteNamespace", `${base}/:namespace_id`)
      .setPath(NamespacePath)
      .addSuccess(Nothing)
      .pipe(onObject),
  listKeys: () =>
    HttpApiEndpoint.get("listKeys", `${base}/:namespace_id/keys`)
      .setPath(NamespacePath)
      .setUrlParams(KvKeysParams())
      .addSuccess(CursorPaged(KvKey))
      .pipe(onObject),
  /** Raw bytes on success (no envelope), with an `expiration` header when the key expires. */
  getValue: () =>
    HttpApiEndpoint.get("getValue", `${base}/:namespace_id/values/:key_name`)
      .setPath(KeyPath)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" }))
      .pipe(onObject),
  /** Body: the value's bytes, or multipart `value` + `metadata` (raw handler). */
  putValue: () =>
    HttpApiEndpoint.put("putValue", `${base}/:namespace_id/values/:key_name`)
      .setPath(KeyPath)
      .setUrlParams(KvWriteParams())
      .addSuccess(Nothing)
      .pipe(onObject),
  deleteValue: () =>
    HttpApiEndpoint.del("deleteValue", `${base}/:namespace_id/values/:key_name`)
      .setPath(KeyPath)
      .addSuccess(Nothing)
      .pipe(onObject),
  getMetadata: () =>
    HttpApiEndpoint.get("getMetadata", `${base}/:namespace_id/metadata/:key_name`)
      .setPath(KeyPath)
      .addSuccess(Nothing)
      .pipe(onObject),
  /** Body: a JSON array of `{key, value, expiration?, expiration_ttl?, metadata?, base64?}` (raw handler). */
  bulkPut: () =>
    HttpApiEndpoint.put("bulkPut", `${base}/:namespace_id/bulk`)
      .setPath(NamespacePath)
      .addSuccess(Envelope(KvBulkAnswer))
      .pipe(onObject),
  /** Body: a JSON array of keys; deprecated by the platform, still what wrangler sends (raw handler). */
  bulkDelete: () =>
    HttpApiEndpoint.del("bulkDelete", `${base}/:namespace_id/bulk`)
      .setPath(NamespacePath)
      .addSuccess(Envelope(KvBulkAnswer))
      .pipe(onObject),
  /** Body: a JSON array of keys; what the SDK sends (raw handler). */
  bulkDeletePost: () =>
    HttpApiEndpoint.post("bulkDeletePost", `${base}/:namespace_id/bulk/delete`)
      .setPath(NamespacePath)
      .addSuccess(Envelope(KvBulkAnswer))
      .pipe(onObject),
  bulkGet: () =>
    HttpApiEndpoint.post("bulkGet", `${base}/:namespace_id/bulk/get`)
      .setPath(NamespacePath)
      .setPayload(KvBulkGetRequest)
      .addSuccess(Envelope(KvBulkGetResult))
      .pipe(onObject)
})

export const KvGroup = lazily(() => class KvGroup extends groupOf("kv", KvEndpoints) {})

/** The KV part of the API on its own (local mode builds only the parts a command calls). */
export const KvApi = lazily(
  () => class KvApi extends platformApi(HttpApi.make("v4").add(KvGroup().middleware(Authentication))) {}
)
