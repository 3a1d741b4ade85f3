/**
 * What each field of a KV bulk entry is, with its limits (src/domain/kv-limits.ts, the numbers the
 * checks and the platform use): the JSON Schema's descriptions (./json-schemas.ts), and so what
 * hover and completion say.
 */
import { KeyMaxBytes, MaxExpiration, MetadataMaxBytes, ValueMaxBytes } from "../domain/kv-limits.js"
import type { EntryFields } from "../kv/entry-checks.js"

const mib = (n: number) => `${n / 1024 / 1024} MiB`

/** What each field of an entry is, as hover and completion say it. */
export const EntryFieldDocs: Readonly<Record<(typeof EntryFields)[number], string>> = {
  key: `the key: 1 to ${KeyMaxBytes} bytes of UTF-8, not \`.\` or \`..\` (required)`,
  value: `the value: UTF-8 text, or base64 with \`"base64": true\`; up to ${mib(ValueMaxBytes)} (required)`,
  expiration: `when the key expires, in seconds since the Unix epoch: at least 60 s from now, at most ${MaxExpiration}`,
  expiration_ttl: "how long the key lives, in seconds from the write: at least 60",
  metadata: `a JSON object (or null), up to ${MetadataMaxBytes.toLocaleString("en-US")} bytes once serialized`,
  base64: "`true` when `value` is base64 (binary values); the default is `false`"
}
