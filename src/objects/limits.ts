// The platform's storage limits (spec area F, "Limits") and the exceptions that name them.
// The local simulator enforces none of these (peers.md 5.1); we do, so code that would fail in
// production fails here first, with the limit and the actual size in the message.
import { fastDeserialize, fastSerialize } from "./v8-fast.js"

export const MAX_KEYS = 128
export const MAX_KEY_BYTES = 2048
export const MAX_VALUE_BYTES = 131_072
export const PITR_WINDOW_MS = 30 * 24 * 60 * 60 * 1000

export class StorageLimitError extends RangeError {
  readonly limit: number
  readonly actual: number
  constructor(what: string, limit: number, actual: number) {
    super(`${what}: ${actual} exceeds the limit of ${limit}`)
    this.name = "StorageLimitError"
    this.limit = limit
    this.actual = actual
  }
}

const keyBytes = (key: string): number => Buffer.byteLength(key, "utf8")

export const checkKey = (key: unknown, method: string): string => {
  if (typeof key !== "string") throw new TypeError(`${method}(): a key must be a string, got ${typeof key}`)
  // A UTF-16 unit is at most 3 UTF-8 bytes: short keys need no byte count.
  if (key.length * 3 > MAX_KEY_BYTES) {
    const n = keyBytes(key)
    if (n > MAX_KEY_BYTES)
      throw new StorageLimitError(`${method}(): key size in UTF-8 bytes (limit ${MAX_KEY_BYTES})`, MAX_KEY_BYTES, n)
  }
  return key
}

export const checkCount = (n: number, method: string, what: string): void => {
  if (n > MAX_KEYS)
    throw new StorageLimitError(`${method}(): number of ${what} per call (limit ${MAX_KEYS})`, MAX_KEYS, n)
}

// A value as stored in `_cf_KV`: a well-formed string as SQLite TEXT, read back as it is with no
// decoding (most values are strings, and reading a BLOB costs a Buffer per row); anything else,
// and a string with lone surrogates (which UTF-8 cannot hold), as V8's serialization in a BLOB.
export type Stored = string | Buffer

const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed()

// V8's serialized size of a string, as the writer in v8-fast.ts lays it out (the limit counts it).
const varintSize = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5)
const stringSize = (s: string): number => {
  if (!/[^\u0000-\u00ff]/.test(s)) return 3 + varintSize(s.length) + s.length
  const bytes = s.length * 2
  const v = varintSize(bytes)
  return 3 + ((3 + v) & 1) + v + bytes
}
// Below this length even a two-byte string is under the limit, so no size is computed.
const SURELY_SMALL = (MAX_VALUE_BYTES - 8) >> 1

export const encodeValue = (value: unknown, method: string, key: string): Stored => {
  if (typeof value === "string" && isWellFormed(value)) {
    if (value.length > SURELY_SMALL) tooBig(stringSize(value), method, key)
    return value
  }
  if (value === undefined) throw new TypeError(`${method}() called with undefined value (key "${short(key)}").`)
  let buf: Buffer
  try {
    buf = fastSerialize(value)
  } catch (e) {
    const err = new Error(`${method}(): the value of key "${short(key)}" cannot be stored: ${(e as Error).message}`)
    err.name = "DataCloneError"
    throw err
  }
  tooBig(buf.length, method, key)
  return buf
}

const tooBig = (size: number, method: string, key: string): void => {
  if (size > MAX_VALUE_BYTES) {
    throw new StorageLimitError(
      `${method}(): serialized value of key "${short(key)}" in bytes (limit ${MAX_VALUE_BYTES} = 128 KiB)`,
      MAX_VALUE_BYTES,
      size
    )
  }
}

export const decodeValue = (v: Stored): unknown => (typeof v === "string" ? v : fastDeserialize(v))

const short = (key: string): string => (key.length > 40 ? `${key.slice(0, 37)}...` : key)
