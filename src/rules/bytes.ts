/**
 * Byte strings. The language compares bytes (a String field is its UTF-8 bytes), so values are
 * held as "binary strings": one char per byte, char codes 0..255. For ASCII text, by far the
 * common case in HTTP, the binary string is the text itself and converting costs one scan.
 */
const NON_ASCII = /[^\x00-\x7f]/

const encoder = new TextEncoder()
const fatal = new TextDecoder("utf-8", { fatal: true })
const lossy = new TextDecoder("utf-8")

/** A JavaScript string as the binary string of its UTF-8 bytes. */
export const fromText = (s: string): string => (NON_ASCII.test(s) ? fromBytes(encoder.encode(s)) : s)

export const fromBytes = (bytes: Uint8Array): string => {
  let out = ""
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192))
  return out
}

const toBytes = (b: string): Uint8Array => {
  const out = new Uint8Array(b.length)
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i)
  return out
}

/** The text a binary string encodes (invalid UTF-8 becomes U+FFFD). */
export const toText = (b: string): string => (NON_ASCII.test(b) ? lossy.decode(toBytes(b)) : b)

/** The text, or undefined when the bytes are not valid UTF-8. */
export const toTextStrict = (b: string): string | undefined => {
  if (!NON_ASCII.test(b)) return b
  try {
    return fatal.decode(toBytes(b))
  } catch {
    return undefined
  }
}

/** For people: the text when it is valid UTF-8 with no control characters, else with `\xHH` escapes. */
export const display = (b: string): string => {
  const text = toTextStrict(b)
  if (text !== undefined && !/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)) return text
  let out = ""
  for (let i = 0; i < b.length; i++) {
    const c = b.charCodeAt(i)
    out += c >= 0x20 && c < 0x7f ? b[i] : `\\x${c.toString(16).padStart(2, "0")}`
  }
  return out
}

const UPPER = /[A-Z]/
const LOWER = /[a-z]/

/** Lowercases ASCII letters only; every other byte is left alone (the `lower()` function). */
export const asciiLower = (b: string): string => {
  if (!UPPER.test(b)) return b
  if (!NON_ASCII.test(b)) return b.toLowerCase()
  return b.replace(/[A-Z]+/g, (m) => m.toLowerCase())
}

export const asciiUpper = (b: string): string => {
  if (!LOWER.test(b)) return b
  if (!NON_ASCII.test(b)) return b.toUpperCase()
  return b.replace(/[a-z]+/g, (m) => m.toUpperCase())
}

const B64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Standard or URL-safe Base64, padding optional; undefined when it is not Base64. */
export const decodeBase64 = (b: string): string | undefined => {
  const s = b.replace(/-/g, "+").replace(/_/g, "/")
  if (!B64.test(s) || s.replace(/=+$/, "").length % 4 === 1) return undefined
  try {
    return atob(s.replace(/=+$/, "") + "===".slice(0, (4 - (s.replace(/=+$/, "").length % 4)) % 4))
  } catch {
    return undefined
  }
}

export const encodeBase64 = (b: string): string => btoa(b)
