/**
 * What the functions do at evaluation. Values are in the evaluator's representation (binary
 * strings, numbers, IpAddress, arrays, Maps); `undefined` is a missing value, and most functions
 * return missing when an argument is missing.
 */
import { asciiLower, asciiUpper, decodeBase64, encodeBase64, fromText, toTextStrict } from "./bytes.js"
import { networkOf, type IpAddress } from "./ip.js"
import { hmacSha256 } from "./sha256.js"

export type Builtin = (args: ReadonlyArray<unknown>) => unknown

const str = (v: unknown): v is string => typeof v === "string"

export const BUILTINS: Readonly<Record<string, Builtin>> = {
  lower: ([s]) => (str(s) ? asciiLower(s) : undefined),
  upper: ([s]) => (str(s) ? asciiUpper(s) : undefined),
  len: ([v]) => (str(v) || Array.isArray(v) ? v.length : undefined),
  starts_with: ([s, p]) => (str(s) && str(p) ? s.startsWith(p) : undefined),
  ends_with: ([s, p]) => (str(s) && str(p) ? s.endsWith(p) : undefined),
  decode_base64: ([s]) => (str(s) ? decodeBase64(s) : undefined),
  join: ([items, sep]) => (Array.isArray(items) && str(sep) ? items.join(sep) : undefined),
  remove_bytes: ([s, bytes]) => {
    if (!str(s) || !str(bytes)) return undefined
    const drop = new Set(bytes)
    let out = ""
    for (const c of s) if (!drop.has(c)) out += c
    return out
  },
  substring: ([s, start, end]) => {
    if (!str(s) || typeof start !== "number" || (end !== undefined && typeof end !== "number")) return undefined
    const n = s.length
    const at = (i: number) => (i < 0 ? Math.max(0, n + i) : Math.min(i, n))
    return s.slice(at(start), end === undefined ? n : at(end))
  },
  url_decode: ([s, options]) => {
    if (!str(s)) return undefined
    const opts = str(options) ? options : ""
    const unicode = opts.includes("u")
    if (!opts.includes("r")) return urlDecode(s, unicode)
    let cur = s
    for (let i = 0; i < 32; i++) {
      const next = urlDecode(cur, unicode)
      if (next === cur) break
      cur = next
    }
    return cur
  },
  lookup_json_string: ([doc, ...keys]) => {
    const v = lookupJson(doc, keys)
    return typeof v === "string" ? v : undefined
  },
  lookup_json_integer: ([doc, ...keys]) => {
    const v = lookupJson(doc, keys)
    return v instanceof JsonNumber && /^-?(0|[1-9][0-9]*)$/.test(v.raw) && Number.isSafeInteger(Number(v.raw))
      ? Number(v.raw)
      : undefined
  },
  cidr: ([ip, v4, v6]) =>
    isIp(ip) && typeof v4 === "number" && typeof v6 === "number" ? networkOf(ip, ip.v === 4 ? v4 : v6) : undefined,
  cidr6: ([ip, v6]) => (isIp(ip) && typeof v6 === "number" ? (ip.v === 4 ? ip : networkOf(ip, v6)) : undefined),
  is_timed_hmac_valid_v0: ([key, mm, ttl, now, sepLen, flags]) =>
    str(key) && str(mm) && typeof ttl === "number" && typeof now === "number"
      ? timedHmacValid(key, mm, ttl, now, typeof sepLen === "number" ? sepLen : 0, flags === "s")
      : undefined
}

const isIp = (v: unknown): v is IpAddress => typeof v === "object" && v !== null && "v" in v && "n" in v

const HEX = /^[0-9a-fA-F]{2}$/
const HEX4 = /^[0-9a-fA-F]{4}$/

/** `+` and `%XX` to bytes; with `unicode`, `%uXXXX` to the UTF-8 bytes of the code unit (pairs combined). */
const urlDecode = (s: string, unicode: boolean): string => {
  if (s.indexOf("%") < 0 && s.indexOf("+") < 0) return s
  let out = ""
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!
    if (c === "+") out += " "
    else if (c === "%" && HEX.test(s.slice(i + 1, i + 3))) {
      out += String.fromCharCode(parseInt(s.slice(i + 1, i + 3), 16))
      i += 2
    } else if (c === "%" && unicode && (s[i + 1] === "u" || s[i + 1] === "U") && HEX4.test(s.slice(i + 2, i + 6))) {
      let cp = parseInt(s.slice(i + 2, i + 6), 16)
      i += 5
      if (
        cp >= 0xd800 &&
        cp < 0xdc00 &&
        s[i + 1] === "%" &&
        /[uU]/.test(s[i + 2] ?? "") &&
        HEX4.test(s.slice(i + 3, i + 7))
      ) {
        const lo = parseInt(s.slice(i + 3, i + 7), 16)
        if (lo >= 0xdc00 && lo < 0xe000) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00)
          i += 6
        }
      }
      out += fromText(String.fromCodePoint(cp >= 0xd800 && cp < 0xe000 ? 0xfffd : cp))
    } else out += c
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// JSON lookups: a small parser that keeps each number's text, so that `42.0` is not an integer.

class JsonNumber {
  constructor(readonly raw: string) {}
}

type Json = string | JsonNumber | boolean | null | ReadonlyArray<Json> | ReadonlyMap<string, Json>

const lookupJson = (doc: unknown, keys: ReadonlyArray<unknown>): Json | undefined => {
  if (!str(doc)) return undefined
  const text = toTextStrict(doc)
  if (text === undefined) return undefined
  let v: Json | undefined
  try {
    const p = new JsonParser(text)
    v = p.value()
    p.end()
  } catch {
    return undefined
  }
  for (const k of keys) {
    if (typeof k === "number") v = Array.isArray(v) ? (v as ReadonlyArray<Json>)[k] : undefined
    else if (str(k)) v = v instanceof Map ? v.get(toTextStrict(k) ?? k) : undefined
    else return undefined
    if (v === undefined) return undefined
  }
  return typeof v === "string" ? fromText(v) : v
}

class JsonParser {
  private i = 0
  constructor(private readonly s: string) {}
  private ws() {
    while (/[ \t\n\r]/.test(this.s[this.i] ?? "")) this.i++
  }
  end() {
    this.ws()
    if (this.i !== this.s.length) throw new Error("trailing data")
  }
  value(): Json {
    this.ws()
    const c = this.s[this.i]
    if (c === "{") {
      this.i++
      const out = new Map<string, Json>()
      this.ws()
      if (this.s[this.i] === "}") {
        this.i++
        return out
      }
      for (;;) {
        this.ws()
        const k = this.string()
        this.ws()
        if (this.s[this.i++] !== ":") throw new Error(":")
        out.set(k, this.value())
        this.ws()
        const n = this.s[this.i++]
        if (n === "}") return out
        if (n !== ",") throw new Error(",")
      }
    }
    if (c === "[") {
      this.i++
      const out: Array<Json> = []
      this.ws()
      if (this.s[this.i] === "]") {
        this.i++
        return out
      }
      for (;;) {
        out.push(this.value())
        this.ws()
        const n = this.s[this.i++]
        if (n === "]") return out
        if (n !== ",") throw new Error(",")
      }
    }
    if (c === '"') return this.string()
    for (const [word, v] of [
      ["true", true],
      ["false", false],
      ["null", null]
    ] as const) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length
        return v
      }
    }
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.s.slice(this.i, this.i + 400))
    if (!m || m[0] === "" || m[0] === "-") throw new Error("value")
    this.i += m[0].length
    return new JsonNumber(m[0])
  }
  private string(): string {
    if (this.s[this.i] !== '"') throw new Error("string")
    const start = this.i
    this.i++
    for (;;) {
      const c = this.s[this.i++]
      if (c === undefined) throw new Error("unterminated")
      if (c === "\\") this.i++
      else if (c === '"') break
    }
    return JSON.parse(this.s.slice(start, this.i)) as string
  }
}

// ---------------------------------------------------------------------------------------------
// HMAC tokens: MessageMAC = message, separator (separator_length bytes), 10-digit timestamp, "-",
// Base64 MAC of HMAC-SHA256(key, message + timestamp): URL-encoded standard Base64, or with
// flags "s" URL-safe Base64 without padding.

const TOKEN = /^([\s\S]+)([0-9]{10})-([\s\S]{43,})$/

const timedHmacValid = (
  key: string,
  mm: string,
  ttl: number,
  now: number,
  sepLen: number,
  urlSafe: boolean
): boolean => {
  const m = TOKEN.exec(mm)
  if (!m) return false
  const head = m[1]!
  if (head.length <= sepLen) return false
  const message = head.slice(0, head.length - sepLen)
  const ts = Number(m[2])
  const mac = encodeBase64(hmacSha256(key, message + m[2]))
  const given = urlSafe ? m[3]! : safeDecodeURIComponent(m[3]!)
  const expected = urlSafe ? mac.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") : mac
  if (given !== expected) return false
  return now >= ts && now - ts <= ttl
}

const safeDecodeURIComponent = (s: string): string => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}
