/**
 * The checks of a whole KV write: one entry of a bulk write, one item of a bulk delete or get, and a
 * single put, each combining the field checks of `validate.ts` into the problems of that write (and,
 * for a valid bulk entry, the `WriteEntry` the store takes). Apart from the field checks because
 * these are what the callers (server, CLI, editor, TUI) call, while the field rules read alone.
 */
import * as Either from "effect/Either"
import {
  base64Bytes,
  base64Issue,
  checkKey,
  checkMetadata,
  checkValueSize,
  decodeBase64,
  type FieldIssue,
  isInteger,
  issue,
  locate,
  type Problem,
  resolveExpiration,
  typeName,
  utf8
} from "./validate.js"

/** A validated write, ready for the store. */
export interface WriteEntry {
  readonly key: string
  readonly value: Uint8Array
  /** JSON text of the metadata object, or null. */
  readonly metadata: string | null
  /** UNIX seconds, or null. */
  readonly expiration: number | null
}

export const EntryFields = ["key", "value", "expiration", "expiration_ttl", "metadata", "base64"] as const

export interface EntryCheck {
  /** The entry when it has no problem and `materialize` was asked for. */
  readonly entry: WriteEntry | undefined
  readonly problems: ReadonlyArray<Problem>
  /** Properties that are not part of a bulk entry (ignored, as the platform does). */
  readonly unknown: ReadonlyArray<string>
  /** The size of the value as stored. */
  readonly valueBytes: number
}

/**
 * One entry of a bulk write (`{key, value, expiration?, expiration_ttl?, metadata?, base64?}`), at
 * `index`. With `materialize` false only the checks run (no value bytes are made): what the CLI
 * does over a whole file before it writes anything.
 */
export const checkEntry = (raw: unknown, index: number, now: number, materialize = true): EntryCheck => {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    const p = locate(
      issue("entry", `must be an object {"key", "value", ...}, got ${typeName(raw)}`, "an object", typeName(raw)),
      index,
      undefined
    )
    return { entry: undefined, problems: [p], unknown: [], valueBytes: 0 }
  }
  const o = raw as Record<string, unknown>
  const key = typeof o.key === "string" ? o.key : undefined
  const problems: Array<Problem> = []
  const add = (i: FieldIssue | undefined) => {
    if (i !== undefined) problems.push(locate(i, index, key))
  }
  if (key === undefined) {
    add(
      o.key === undefined
        ? issue("key", "key is missing", "a string", "missing")
        : issue("key", `key must be a string, got ${typeName(o.key)}`, "a string", typeName(o.key))
    )
  } else add(checkKey(key))

  let valueBytes = 0
  let value: Uint8Array | undefined
  const base64 = o.base64
  if (base64 !== undefined && typeof base64 !== "boolean")
    add(issue("base64", `base64 must be true or false, got ${typeName(base64)}`, "a boolean", typeName(base64)))
  if (typeof o.value !== "string") {
    add(
      o.value === undefined
        ? issue("value", "value is missing", "a string", "missing")
        : issue(
            "value",
            `value must be a string, got ${typeName(o.value)} (store JSON as text)`,
            "a string",
            typeName(o.value)
          )
    )
  } else if (base64 === true) {
    if (materialize) {
      const decoded = decodeBase64(o.value)
      if (Either.isLeft(decoded)) add(decoded.left)
      else {
        value = decoded.right
        valueBytes = decoded.right.length
      }
    } else {
      const bad = base64Issue(o.value)
      if (bad !== undefined) add(bad)
      valueBytes = base64Bytes(o.value)
    }
  } else {
    valueBytes = utf8(o.value)
  }
  add(checkValueSize(valueBytes))

  const meta = checkMetadata(o.metadata)
  if (Either.isLeft(meta)) add(meta.left)
  const exp = resolveExpiration(o.expiration, o.expiration_ttl, now)
  if (Either.isLeft(exp)) add(exp.left)
  // An expiration that loses to expiration_ttl must still be a number: a typo there is a mistake.
  else if (
    o.expiration_ttl !== undefined &&
    o.expiration_ttl !== null &&
    o.expiration !== undefined &&
    o.expiration !== null &&
    !isInteger(o.expiration)
  ) {
    add(
      issue(
        "expiration",
        `expiration must be a whole number of seconds since the UNIX epoch, got ${JSON.stringify(o.expiration)}`,
        "an integer",
        String(o.expiration)
      )
    )
  }

  const unknown = Object.keys(o).filter((k) => !(EntryFields as ReadonlyArray<string>).includes(k))
  if (problems.length > 0 || !materialize || Either.isLeft(meta) || Either.isLeft(exp))
    return { entry: undefined, problems, unknown, valueBytes }
  return {
    entry: {
      key: key!,
      value: value ?? Buffer.from(o.value as string, "utf8"),
      metadata: meta.right,
      expiration: exp.right
    },
    problems,
    unknown,
    valueBytes
  }
}

/** One item of a bulk delete or get: a key string or `{name}` (what wrangler accepts); the key, or its problem. */
export const checkKeyItem = (raw: unknown, index: number): Either.Either<string, Problem> => {
  const name =
    typeof raw === "string"
      ? raw
      : typeof raw === "object" &&
          raw !== null &&
          !Array.isArray(raw) &&
          typeof (raw as { name?: unknown }).name === "string"
        ? (raw as { name: string }).name
        : undefined
  if (name === undefined) {
    return Either.left(
      locate(
        issue(
          "key",
          `must be a key string or an object {"name": "<key>"}, got ${typeName(raw)}`,
          "a string",
          typeName(raw)
        ),
        index,
        undefined
      )
    )
  }
  const bad = checkKey(name)
  return bad === undefined ? Either.right(name) : Either.left(locate(bad, index, name))
}

/** What a single put stores beside the value: the metadata's JSON text and the expiration (UNIX seconds). */
export interface CheckedPut {
  readonly metadata: string | null
  readonly expiration: number | null
}

/** A single put (`kv key put`, PUT …/values/:key): what it stores, or every problem it has. */
export const checkPut = (
  input: {
    readonly key: string
    readonly valueBytes: number
    readonly metadata?: unknown
    readonly expiration?: unknown
    readonly expirationTtl?: unknown
  },
  now: number
): Either.Either<CheckedPut, ReadonlyArray<Problem>> => {
  const problems: Array<Problem> = []
  const add = (i: FieldIssue | undefined) => {
    if (i !== undefined) problems.push(locate(i, undefined, input.key))
  }
  add(checkKey(input.key))
  add(checkValueSize(input.valueBytes))
  const meta = checkMetadata(input.metadata)
  if (Either.isLeft(meta)) add(meta.left)
  const exp = resolveExpiration(input.expiration, input.expirationTtl, now)
  if (Either.isLeft(exp)) add(exp.left)
  if (problems.length > 0 || Either.isLeft(meta) || Either.isLeft(exp)) return Either.left(problems)
  return Either.right({ metadata: meta.right, expiration: exp.right })
}
