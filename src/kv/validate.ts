/**
 * Validation of key-value writes, pure, in two modules: this one checks each field, `entry-checks.ts`
 * a whole write. The engine, the server, the CLI (before it sends anything) and the editor checks
 * all call these, and nothing else checks a write, so they cannot disagree.
 *
 * A problem is structured (`{index, key, field, limit, actual, message}`): the CLI prints it as a
 * line, the server puts it in the error envelope, and the editor checks attach it to the entry and
 * field it concerns. `message` speaks about the field alone; `describeProblem` adds the entry.
 *
 * The checks of a whole write (a bulk entry, a key item, a single put) combine these in
 * `entry-checks.ts`. A check that only finds fault returns the issue or `undefined`; one that also
 * gives a value (the metadata's JSON, the expiration, the bytes) returns an `Either`, the project's
 * one result type (docs/architecture.md, "Results").
 */
import * as Either from "effect/Either"
import { jsonDepthOver, JsonMaxDepth } from "../domain/json-depth.js"
import { KeyMaxBytes, MaxExpiration, MetadataMaxBytes, MinTtlSeconds, ValueMaxBytes } from "../domain/kv-limits.js"

export type Field = "key" | "value" | "metadata" | "expiration" | "expiration_ttl" | "base64" | "entry"

/** One thing wrong with one field; `limit` is the bound and `actual` what was given (a size or a value). */
export interface FieldIssue {
  readonly field: Field
  readonly limit: number | string | undefined
  readonly actual: number | string | undefined
  readonly message: string
}

/** A field issue located in a write: `index` in a bulk body or file (undefined for a single put). */
export interface Problem extends FieldIssue {
  readonly index: number | undefined
  readonly key: string | undefined
}

export const issue = (
  field: Field,
  message: string,
  limit?: number | string,
  actual?: number | string
): FieldIssue => ({
  field,
  limit,
  actual,
  message
})

export const locate = (i: FieldIssue, index: number | undefined, key: string | undefined): Problem => ({
  ...i,
  index,
  key
})

/** A key as messages show it: quoted, cut after 40 characters. */
export const showKey = (key: string): string => JSON.stringify(key.length > 40 ? `${key.slice(0, 39)}…` : key)

/** `entry 3 (key "a"): expiration_ttl is 30 seconds, the minimum is 60`. */
export const describeProblem = (p: Problem): string => {
  const where =
    p.index !== undefined ? `entry ${p.index}${p.key !== undefined ? ` (key ${showKey(p.key)})` : ""}: ` : ""
  return `${where}${p.message}`
}

export const utf8 = (s: string) => Buffer.byteLength(s, "utf8")

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`

/** Control characters, lone surrogates, separators and whitespace: what a key may not hold. */
const Unprintable = /[\p{Cc}\p{Cs}\p{Z}\s]/u

// ---------------------------------------------------------------------------------------------
// Fields

/** A key: 1..512 bytes of UTF-8, printable, no whitespace, not `.` or `..`. */
export const checkKey = (key: string): FieldIssue | undefined => {
  if (key.length === 0) return issue("key", `key is empty; a key is 1 to ${KeyMaxBytes} bytes`, 1, 0)
  const bytes = utf8(key)
  if (bytes > KeyMaxBytes)
    return issue("key", `key is ${bytes} bytes, the limit is ${KeyMaxBytes} bytes`, KeyMaxBytes, bytes)
  if (key === "." || key === "..") {
    return issue(
      "key",
      `key ${JSON.stringify(key)} is not allowed: "." and ".." name path segments in URLs`,
      'not "." or ".."',
      key
    )
  }
  const bad = Unprintable.exec(key)
  if (bad !== null) {
    const c = bad[0]
    const what = /[\uD800-\uDFFF]/.test(c)
      ? "an unpaired surrogate (not valid UTF-8)"
      : /\s|\p{Z}/u.test(c)
        ? "whitespace"
        : "a control character"
    return issue(
      "key",
      `key has ${what} (${codePoint(c)}) at character ${bad.index + 1}; keys are printable characters without whitespace`,
      "printable, no whitespace",
      codePoint(c)
    )
  }
  return undefined
}

export const checkValueSize = (bytes: number): FieldIssue | undefined =>
  bytes > ValueMaxBytes
    ? issue("value", `value is ${bytes} bytes, the limit is ${ValueMaxBytes} bytes (25 MiB)`, ValueMaxBytes, bytes)
    : undefined

export const typeName = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`

/** Metadata: a JSON object whose serialization is at most 1,024 bytes, as JSON text; `null`/`undefined`: none (null). */
export const checkMetadata = (m: unknown): Either.Either<string | null, FieldIssue> => {
  if (m === undefined || m === null) return Either.right(null)
  if (typeof m !== "object" || Array.isArray(m)) {
    return Either.left(
      issue("metadata", `metadata must be a JSON object, got ${typeName(m)}`, "a JSON object", typeName(m))
    )
  }
  const json = JSON.stringify(m)
  const bytes = utf8(json)
  if (bytes > MetadataMaxBytes) {
    return Either.left(
      issue(
        "metadata",
        `metadata is ${bytes} bytes as JSON, the limit is ${MetadataMaxBytes} bytes`,
        MetadataMaxBytes,
        bytes
      )
    )
  }
  return Either.right(json)
}

/** Metadata given as JSON text (a multipart field, `--metadata`): its JSON text, or null for none. */
export const parseMetadataText = (text: string): Either.Either<string | null, FieldIssue> => {
  if (jsonDepthOver(text, JsonMaxDepth)) {
    return Either.left(
      issue(
        "metadata",
        `metadata is nested more than ${JsonMaxDepth} levels deep, the limit is ${JsonMaxDepth}`,
        JsonMaxDepth,
        "deeper"
      )
    )
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    const shown = text.length > 60 ? `${text.slice(0, 59)}…` : text
    return Either.left(
      issue("metadata", `metadata is not valid JSON (${(e as Error).message}): ${shown}`, "a JSON object", shown)
    )
  }
  if (parsed === null)
    return Either.left(issue("metadata", "metadata must be a JSON object, got null", "a JSON object", "null"))
  return checkMetadata(parsed)
}

export const isInteger = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v)

/** `expiration`: whole seconds since the UNIX epoch, at least 60 s after `now`. */
const checkExpiration = (v: unknown, now: number): FieldIssue | undefined => {
  if (typeof v === "number" && Number.isInteger(v) && v > Number.MAX_SAFE_INTEGER) {
    return issue(
      "expiration",
      `expiration ${BigInt(v).toString()} is after the year 9999 (the limit is ${MaxExpiration})`,
      MaxExpiration,
      v
    )
  }
  if (!isInteger(v)) {
    return issue(
      "expiration",
      `expiration must be a whole number of seconds since the UNIX epoch, got ${JSON.stringify(v)}`,
      "an integer",
      String(v)
    )
  }
  const min = now + MinTtlSeconds
  if (v < min) {
    return issue(
      "expiration",
      `expiration ${v} is ${v <= now ? `${now - v} seconds in the past` : `only ${v - now} seconds ahead`}; it must be at least ${MinTtlSeconds} seconds in the future (>= ${min})`,
      min,
      v
    )
  }
  if (v > MaxExpiration)
    return issue(
      "expiration",
      `expiration ${v} is after the year 9999 (the limit is ${MaxExpiration})`,
      MaxExpiration,
      v
    )
  return undefined
}

/** `expiration_ttl`: whole seconds, at least 60. */
const checkTtl = (v: unknown, now: number): FieldIssue | undefined => {
  // A whole number too large for exact arithmetic is still a whole number: it is over the limit.
  const huge = typeof v === "number" && Number.isInteger(v) && !Number.isSafeInteger(v)
  if (!isInteger(v) && !huge)
    return issue(
      "expiration_ttl",
      `expiration_ttl must be a whole number of seconds, got ${JSON.stringify(v)}`,
      "an integer",
      String(v)
    )
  const n = v as number
  const shown = huge ? BigInt(n).toString() : String(n)
  if (n < MinTtlSeconds)
    return issue(
      "expiration_ttl",
      `expiration_ttl is ${shown} seconds, the minimum is ${MinTtlSeconds}`,
      MinTtlSeconds,
      n
    )
  if (now + n > MaxExpiration) {
    return issue(
      "expiration_ttl",
      `expiration_ttl ${shown} ends after the year 9999: the maximum is ${MaxExpiration - now} seconds from now`,
      MaxExpiration - now,
      n
    )
  }
  return undefined
}

/** A number given as text (a query parameter, a CLI option); `undefined` when absent. */
export const parseSeconds = (
  field: "expiration" | "expiration_ttl",
  text: string | undefined
): Either.Either<number | undefined, FieldIssue> => {
  if (text === undefined || text === "") return Either.right(undefined)
  if (!/^-?\d+$/.test(text.trim())) {
    return Either.left(
      issue(field, `${field} must be a whole number of seconds, got ${JSON.stringify(text)}`, "an integer", text)
    )
  }
  return Either.right(Number(text.trim()))
}

/**
 * The absolute expiration (UNIX seconds) of a write, or null; `expiration_ttl` takes precedence
 * over `expiration`, as on the platform.
 */
export const resolveExpiration = (
  expiration: unknown,
  ttl: unknown,
  now: number
): Either.Either<number | null, FieldIssue> => {
  if (ttl !== undefined && ttl !== null) {
    const bad = checkTtl(ttl, now)
    return bad !== undefined ? Either.left(bad) : Either.right(now + (ttl as number))
  }
  if (expiration !== undefined && expiration !== null) {
    const bad = checkExpiration(expiration, now)
    return bad !== undefined ? Either.left(bad) : Either.right(expiration as number)
  }
  return Either.right(null)
}

const Base64 = /^[A-Za-z0-9+/\-_]*={0,2}$/

const withoutLineBreaks = (s: string) => (s.includes("\n") || s.includes("\r") ? s.replace(/\r?\n|\r/g, "") : s)

/** Why base64 text is not valid (standard or URL-safe alphabet, padding optional, line breaks ignored). */
export const base64Issue = (s: string): FieldIssue | undefined => {
  const text = withoutLineBreaks(s)
  const body = text.replace(/=+$/, "")
  const bad = /[^A-Za-z0-9+/\-_]/.exec(body)
  if (
    Base64.test(text) &&
    bad === null &&
    body.length % 4 !== 1 &&
    (text.length === body.length || text.length % 4 === 0)
  )
    return undefined
  const where =
    bad !== null
      ? `: ${JSON.stringify(bad[0])} at character ${bad.index + 1}`
      : ` (${body.length} characters cannot be base64)`
  return issue(
    "base64",
    `value is not valid base64${where}; it was marked "base64": true`,
    "valid base64",
    bad !== null ? bad[0] : body.length
  )
}

/** Strict base64 decoding: the bytes, or why the text is not base64. */
export const decodeBase64 = (s: string): Either.Either<Uint8Array, FieldIssue> => {
  const bad = base64Issue(s)
  return bad !== undefined
    ? Either.left(bad)
    : Either.right(Buffer.from(withoutLineBreaks(s).replace(/=+$/, ""), "base64"))
}

/** The decoded size of valid base64 text, without decoding it. */
export const base64Bytes = (s: string) => {
  const body = withoutLineBreaks(s).replace(/=+$/, "")
  return Math.floor((body.length * 3) / 4)
}

/** Now, in UNIX seconds. */
export const nowSeconds = () => Math.floor(Date.now() / 1000)
