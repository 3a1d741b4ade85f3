/**
 * The key-value store's limits, named once: the engine, the server, the CLI and the editor checks
 * all read them from here, so a limit cannot differ between a preview and the real write.
 */

/** A key is 1..512 bytes of UTF-8. */
export const KeyMaxBytes = 512
/** A value is at most 25 MiB (the platform's and miniflare's 26,214,400 bytes). */
export const ValueMaxBytes = 25 * 1024 * 1024
/** Metadata, serialized as JSON, is at most 1,024 bytes. */
export const MetadataMaxBytes = 1024
/** `expiration_ttl` is at least 60 seconds; `expiration` at least 60 seconds in the future. */
export const MinTtlSeconds = 60
/** The last second a date can show (9999-12-31T23:59:59Z): an expiration beyond it is a typo. */
export const MaxExpiration = 253_402_300_799
/** One bulk write or delete request: at most 10,000 entries and 100 MB of body. */
export const BulkMaxEntries = 10_000
export const BulkMaxBytes = 100 * 1024 * 1024
/** One bulk get: at most 100 keys. */
export const BulkGetMaxKeys = 100
/** Key listing page size: 10..1000, default 1000. */
export const ListMinLimit = 10
export const ListMaxLimit = 1000
/** Namespace listing page size: up to 1000 (wrangler asks for 1000; the OpenAPI says 100). */
export const NamespacesMaxPerPage = 1000
/** A namespace title. */
export const TitleMaxLength = 512

/** `26214401 bytes` → `25.0 MiB` style, for messages about sizes. */
export const humanBytes = (n: number): string => {
  if (n < 1024) return `${n} bytes`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`
  return `${(n / 1024 / 1024).toFixed(1)} MiB`
}
