// A faster writer and reader of V8's structured-clone wire format (version 15) for the common
// values: primitives, and plain objects and dense arrays of them. node:v8's serialize() and
// deserialize() cost ~1-10 us per call (a serializer object per value); these cost well under
// one. Anything else (Dates, Maps, typed arrays, cycles, class instances, deep nesting, other
// format versions) goes to node:v8, so the fast paths must agree with it, which the tests check.
import { deserialize, serialize } from "node:v8"

const MAX_DEPTH = 16
const TOO_HARD = Symbol("too hard")

class Writer {
  buf: Buffer = Buffer.allocUnsafe(256)
  at = 0

  room(n: number): void {
    if (this.at + n <= this.buf.length) return
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n))
    this.buf.copy(next, 0, 0, this.at)
    this.buf = next
  }
  byte(b: number): void {
    this.room(1)
    this.buf[this.at++] = b
  }
  varint(n: number): void {
    this.room(5)
    while (n >= 0x80) {
      this.buf[this.at++] = (n & 0x7f) | 0x80
      n >>>= 7
    }
    this.buf[this.at++] = n
  }
  string(s: string): void {
    let oneByte = true
    for (let i = 0; i < s.length; i++) {
      if (s.charCodeAt(i) > 0xff) {
        oneByte = false
        break
      }
    }
    if (oneByte) {
      this.byte(0x22)
      this.varint(s.length)
      this.room(s.length)
      this.at += this.buf.write(s, this.at, "latin1")
      return
    }
    const bytes = s.length * 2
    // V8 aligns two-byte string data on an even offset.
    if ((this.at + 1 + varintSize(bytes)) & 1) this.byte(0x00)
    this.byte(0x63)
    this.varint(bytes)
    this.room(bytes)
    this.at += this.buf.write(s, this.at, "utf16le")
  }
  value(v: unknown, depth: number): void {
    switch (typeof v) {
      case "string":
        return this.string(v)
      case "number":
        if (Number.isInteger(v) && v >= -1073741824 && v <= 1073741823 && !Object.is(v, -0)) {
          this.byte(0x49)
          return this.varint(((v << 1) ^ (v >> 31)) >>> 0)
        }
        this.byte(0x4e)
        this.room(8)
        this.buf.writeDoubleLE(v, this.at)
        this.at += 8
        return
      case "boolean":
        return this.byte(v ? 0x54 : 0x46)
      case "undefined":
        return this.byte(0x5f)
      case "object": {
        if (v === null) return this.byte(0x30)
        if (depth >= MAX_DEPTH) throw TOO_HARD
        if (Array.isArray(v)) {
          if (Object.getPrototypeOf(v) !== Array.prototype) throw TOO_HARD
          const n = v.length
          if (Object.keys(v).length !== n) throw TOO_HARD
          this.byte(0x41)
          this.varint(n)
          for (let i = 0; i < n; i++) this.value(v[i], depth + 1)
          this.byte(0x24)
          this.varint(0)
          return this.varint(n)
        }
        if (Object.getPrototypeOf(v) !== Object.prototype) throw TOO_HARD
        const keys = Object.keys(v)
        this.byte(0x6f)
        for (const k of keys) {
          this.string(k)
          this.value((v as Record<string, unknown>)[k], depth + 1)
        }
        this.byte(0x7b)
        return this.varint(keys.length)
      }
      default:
        throw TOO_HARD
    }
  }
}

const varintSize = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5)

const writer = new Writer()

export const fastSerialize = (v: unknown): Buffer => {
  writer.at = 0
  writer.byte(0xff)
  writer.byte(0x0f)
  try {
    writer.value(v, 0)
  } catch (e) {
    if (e !== TOO_HARD) throw e
    return serialize(v)
  }
  return Buffer.from(writer.buf.subarray(0, writer.at))
}

// Reads what node:v8 (or the writer above) wrote, for the forms the writer produces; anything
// else is TOO_HARD and goes to node:v8's deserialize().
class Reader {
  buf: Buffer = Buffer.alloc(0)
  at = 0

  varint(): number {
    let n = 0
    let scale = 1
    for (;;) {
      const b = this.buf[this.at++]
      if (b === undefined || scale > 2 ** 28) throw TOO_HARD
      n += (b & 0x7f) * scale
      if (b < 0x80) return n
      scale *= 128
    }
  }
  tag(): number {
    let t = this.buf[this.at++]
    // V8 pads before two-byte strings so that their data is aligned.
    while (t === 0x00) t = this.buf[this.at++]
    if (t === undefined) throw TOO_HARD
    return t
  }
  bytes(n: number): number {
    const start = this.at
    if (start + n > this.buf.length) throw TOO_HARD
    this.at = start + n
    return start
  }
  value(depth: number): unknown {
    switch (this.tag()) {
      case 0x22: {
        const n = this.varint()
        const start = this.bytes(n)
        return this.buf.toString("latin1", start, start + n)
      }
      case 0x63: {
        const n = this.varint()
        if ((n & 1) !== 0) throw TOO_HARD
        const start = this.bytes(n)
        return this.buf.toString("utf16le", start, start + n)
      }
      case 0x49: {
        const z = this.varint()
        if (z > 0xffffffff) throw TOO_HARD
        return (z >>> 1) ^ -(z & 1)
      }
      case 0x4e:
        return this.buf.readDoubleLE(this.bytes(8))
      case 0x54:
        return true
      case 0x46:
        return false
      case 0x5f:
        return undefined
      case 0x30:
        return null
      case 0x6f: {
        if (depth >= MAX_DEPTH) throw TOO_HARD
        const o: Record<string, unknown> = {}
        let count = 0
        for (;;) {
          if (this.buf[this.at] === 0x7b) {
            this.at++
            if (this.varint() !== count) throw TOO_HARD
            return o
          }
          const k = this.value(depth + 1)
          if ((typeof k !== "string" && typeof k !== "number") || k === "__proto__") throw TOO_HARD
          o[k] = this.value(depth + 1)
          count++
        }
      }
      case 0x41: {
        if (depth >= MAX_DEPTH) throw TOO_HARD
        const n = this.varint()
        if (n > this.buf.length) throw TOO_HARD
        const a = new Array<unknown>(n)
        for (let i = 0; i < n; i++) {
          // A hole ("-") in a dense array: leave it to node:v8.
          if (this.buf[this.at] === 0x2d) throw TOO_HARD
          a[i] = this.value(depth + 1)
        }
        if (this.tag() !== 0x24 || this.varint() !== 0 || this.varint() !== n) throw TOO_HARD
        return a
      }
      default:
        throw TOO_HARD
    }
  }
}

const reader = new Reader()

export const fastDeserialize = (buf: Buffer): unknown => {
  if (buf[0] !== 0xff || buf[1] !== 0x0f) return deserialize(buf)
  reader.buf = buf
  reader.at = 2
  try {
    const v = reader.value(0)
    if (reader.at === buf.length) return v
  } catch (e) {
    if (e !== TOO_HARD) throw e
  } finally {
    reader.buf = EMPTY
  }
  return deserialize(buf)
}

const EMPTY = Buffer.alloc(0)
