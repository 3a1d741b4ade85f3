/** Key-value namespaces and keys as the v4 API shows them (api-reference section 10). */
import * as Schema from "effect/Schema"

export const KvNamespace = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  supports_url_encoding: Schema.optional(Schema.Boolean)
})
export type KvNamespace = typeof KvNamespace.Type

/** A key listing entry: `expiration` (UNIX seconds) and `metadata` only when set. */
export const KvKey = Schema.Struct({
  name: Schema.String,
  expiration: Schema.optional(Schema.Number),
  metadata: Schema.optional(Schema.Unknown)
})
export type KvKey = typeof KvKey.Type

export const KvNamespaceTitle = Schema.Struct({ title: Schema.String })

/** What a bulk write or delete answers (newer platform); older ones answer `null`. */
export const KvBulkResult = Schema.Struct({
  successful_key_count: Schema.Number,
  unsuccessful_keys: Schema.Array(Schema.String)
})
export type KvBulkResult = typeof KvBulkResult.Type

export const KvBulkGetRequest = Schema.Struct({
  keys: Schema.Array(Schema.String),
  type: Schema.optional(Schema.Literal("text", "json")),
  withMetadata: Schema.optional(Schema.Boolean)
})
export type KvBulkGetRequest = typeof KvBulkGetRequest.Type

/** `{values: {key: value | null}}`, or with metadata `{values: {key: {value, metadata, expiration?} | null}}`. */
export const KvBulkGetResult = Schema.Struct({ values: Schema.Record({ key: Schema.String, value: Schema.Unknown }) })
export type KvBulkGetResult = typeof KvBulkGetResult.Type
