// A faster writer of V8's structured-clone wire format (version 15) for the common values:
// primitives, and plain objects and dense arrays of them. node:v8's serialize() costs ~10 us per
// call (a serializer object per value); this costs well under one. Anything else (Dates, Maps,
// typed arrays, cycles, class instances, deep nesting) goes to node:v8, and the output is always
// read back with node:v8's deserialize(), so the two writers must agree, which the tests check.
import { serialize } from "node:v8"

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
