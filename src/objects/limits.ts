// The platform's storage limits (spec area F, "Limits") and the exceptions that name them.
// The local simulator enforces none of these (peers.md 5.1); we do, so code that would fail in
// production fails here first, with the limit and the actual size in the message.
import { deserialize } from "node:v8"
import { fastSerialize } from "./v8-fast.js"

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

export const keyBytes = (key: string): number => Buffer.byteLength(key, "utf8")

export const checkKey = (key: unknown, method: string): string => {
  if (typeof key !== "string") throw new TypeError(`${method}(): a key must be a string, got ${typeof key}`)
  // A UTF-16 unit is at most 3 UTF-8 bytes: short keys need no byte count.
  if (key.length * 3 > MAX_KEY_BYTES) {
    const n = keyBytes(key)
    if (n > MAX_KEY_BYTES) throw new StorageLimitError(`${method}(): key size in UTF-8 bytes (limit ${MAX_KEY_BYTES})`, MAX_KEY_BYTES, n)
  }
  return key
}

export const checkCount = (n: number, method: string, what: string): void => {
  if (n > MAX_KEYS) throw new StorageLimitError(`${method}(): number of ${what} per call (limit ${MAX_KEYS})`, MAX_KEYS, n)
}

export const encodeValue = (value: unknown, method: string, key: string): Buffer => {
  if (value === undefined) throw new TypeError(`${method}() called with undefined value (key "${short(key)}").`)
  let buf: Buffer
  try {
    buf = fastSerialize(value)
  } catch (e) {
    const err = new Error(`${method}(): the value of key "${short(key)}" cannot be stored: ${(e as Error).message}`)
    err.name = "DataCloneError"
    throw err
  }
  if (buf.length > MAX_VALUE_BYTES) {
    throw new StorageLimitError(
      `${method}(): serialized value of key "${short(key)}" in bytes (limit ${MAX_VALUE_BYTES} = 128 KiB)`,
      MAX_VALUE_BYTES,
      buf.length
    )
  }
  return buf
}

export const decodeValue = (buf: Uint8Array): unknown => deserialize(buf)

const short = (key: string): string => (key.length > 40 ? `${key.slice(0, 37)}...` : key)
