/**
 * Units: a bulk request body read as it arrives (src/kv/bulk-body.ts) and the staging of its checked
 * entries until the transaction (src/kv/staging.ts), in memory and spilled to a temporary file.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { BulkBodyReader, type BulkBodyFailure } from "../../src/kv/bulk-body.js"
import { JsonArrayError, JsonArrayScanner } from "../../src/kv/json-array.js"
import { StagedEntries, StagedKeys } from "../../src/kv/staging.js"
import type { WriteEntry } from "../../src/kv/entry-checks.js"

/** Reads `text` in pieces of `chunk` bytes: the items handed over and the failure, if any. */
const read = (text: string | Buffer, maxItems = 10, chunk = 7) => {
  const items: Array<[unknown, number]> = []
  const reader = new BulkBodyReader(maxItems, (item, i) => items.push([item, i]))
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text
  for (let at = 0; at < bytes.length; at += chunk) reader.push(bytes.subarray(at, at + chunk))
  return { items, failure: reader.end(), count: reader.count }
}

const scanFailure = (text: string, chunk = Infinity) => {
  const scanner = new JsonArrayScanner(() => {})
  const bytes = Buffer.from(text, "utf8")
  const size = Number.isFinite(chunk) ? chunk : Math.max(bytes.length, 1)
  try {
    for (let at = 0; at < bytes.length; at += size) scanner.push(bytes.subarray(at, at + size))
    scanner.end()
  } catch (e) {
    if (e instanceof JsonArrayError) return e
    throw e
  }
  throw new Error(`no error for ${text}`)
}

describe("what the array reader says about an input that is not an array", () => {
  it("tells a word that is not JSON from a JSON value, whatever the chunks", () => {
    for (const chunk of [1, 2, 3, Infinity]) {
      expect(scanFailure("notjson\n", chunk)).toMatchObject({
        message: 'not JSON: "notjson" is not a JSON value; expected a JSON array',
        offset: 0
      })
      expect(scanFailure("  null", chunk)).toMatchObject({ message: "expected a JSON array, got null", offset: 2 })
      expect(scanFailure("true", chunk).message).toBe("expected a JSON array, got a boolean")
      expect(scanFailure("-1.5e3 ", chunk).message).toBe("expected a JSON array, got a number")
      expect(scanFailure("nul", chunk).message).toBe('not JSON: "nul" is not a JSON value; expected a JSON array')
      expect(scanFailure("<html>", chunk).message).toBe('not JSON: "<html>" is not a JSON value; expected a JSON array')
    }
    expect(scanFailure("]").message).toBe('not JSON: "]" is not a JSON value; expected a JSON array')
    expect(scanFailure("x".repeat(200)).message).toBe(
      `not JSON: "${"x".repeat(29)}…" is not a JSON value; expected a JSON array`
    )
    expect(scanFailure("nullx").message).toBe('not JSON: "nullx" is not a JSON value; expected a JSON array')
  })

  it("names the input as asked, and refuses a byte order mark when asked", () => {
    const scanner = new JsonArrayScanner(() => {}, { what: "the request body", byteOrderMark: false })
    expect(() => scanner.end()).toThrow(
      expect.objectContaining({ message: "the request body is empty; expected a JSON array" })
    )
    expect(read("\ufeff[1]").failure).toMatchObject({ _tag: "NotJson", offset: 0 })
  })

  it("measures each element's nesting on its way, brackets inside strings aside", () => {
    const depths: Array<number> = []
    const scanner = new JsonArrayScanner((_t, _i, _o, depth) => depths.push(depth))
    for (const piece of ['["[[[", {"a":[1', ',{"b":"]]"}]}, 3, [[]], {}]']) scanner.push(Buffer.from(piece))
    scanner.end()
    expect(depths).toEqual([0, 3, 0, 2, 1])
  })

  it("hands over an element that spans thousands of chunks whole", () => {
    const value = "é".repeat(300_000)
    const text = JSON.stringify([{ key: "big", value }, "x"])
    const { items } = read(text, 10, 1000)
    expect(items).toEqual([
      [{ key: "big", value }, 0],
      ["x", 1]
    ])
  })
})

describe("a bulk body read as it arrives", () => {
  it("hands over each item in order and counts them", () => {
    const r = read('[{"key":"a","value":"1"}, "b", [1, {"c": null}]]')
    expect(r.failure).toBeUndefined()
    expect(r.items).toEqual([
      [{ key: "a", value: "1" }, 0],
      ["b", 1],
      [[1, { c: null }], 2]
    ])
  })

  it("says what is wrong with the body as a whole", () => {
    const failure = (text: string, max = 10): BulkBodyFailure | undefined => read(text, max).failure
    expect(failure('{"key":"a"}')).toEqual({ _tag: "NotArray", got: "an object" })
    expect(failure("null")).toEqual({ _tag: "NotArray", got: "null" })
    expect(failure("notjson")).toMatchObject({ _tag: "NotJson", reason: expect.stringContaining('"notjson"') })
    expect(failure('[{"key":"a",}]')).toEqual({
      _tag: "NotJson",
      reason: "expected a property name in double quotes",
      offset: 12
    })
    expect(failure("[1,2")).toEqual({
      _tag: "NotJson",
      reason: "the request body ends before the array's closing ]",
      offset: 4
    })
    expect(failure("")).toMatchObject({ _tag: "NotJson", reason: "the request body is empty; expected a JSON array" })
    expect(failure("[1,2,3]", 2)).toEqual({ _tag: "TooMany", count: 3 })
    // The body's array is the first level: an item may nest 99 more.
    expect(failure(`[${"[".repeat(99)}${"]".repeat(99)}]`)).toBeUndefined()
    expect(failure(`[${"[".repeat(100)}${"]".repeat(100)}]`)).toEqual({ _tag: "TooDeep" })
  })

  it("keeps the precedence of a whole-body parse: a syntax error after too many items is the answer", () => {
    expect(read("[1,2,3,}", 2).failure).toMatchObject({ _tag: "NotJson" })
    const r = read('[1, 2, {"a":}, 4]')
    expect(r.failure).toMatchObject({ _tag: "NotJson" })
    // Nothing is handed over after the failure.
    expect(r.items.map(([, i]) => i)).toEqual([0, 1])
  })

  it("hands over only the first maxItems items, counting the rest", () => {
    const r = read("[1,2,3,4,5]", 3)
    expect(r.items.map(([x]) => x)).toEqual([1, 2, 3])
    expect(r.count).toBe(5)
  })
})

describe("staged entries and keys", () => {
  const entries = (n: number, valueBytes: number): Array<WriteEntry> =>
    Array.from({ length: n }, (_, i) => ({
      key: `k${i}-ü`,
      value: Buffer.alloc(valueBytes + (i % 3), 97 + (i % 26)),
      metadata: i % 2 === 0 ? null : JSON.stringify({ i }),
      expiration: i % 4 === 0 ? null : 1_900_000_000 + i
    }))

  const plain = (e: WriteEntry) => ({ ...e, value: Buffer.from(e.value).toString("hex") })

  it("reads back what was added, in order, in memory and spilled to a temporary file", () => {
    for (const [memory, n, size] of [
      [16 << 20, 50, 10],
      [4096, 200, 3000],
      [1 << 20, 4, 3 << 20],
      [1024, 3, 0]
    ] as const) {
      const staged = new StagedEntries(memory)
      const added = entries(n, size)
      for (const e of added) staged.add(e)
      expect(staged.count).toBe(n)
      expect([...staged.entries()].map(plain)).toEqual(added.map(plain))
      // Read twice (a retried transaction reads them again).
      expect([...staged.entries()].length).toBe(n)
      staged.release()
    }
  })

  it("deletes its temporary file when released", () => {
    // A temp directory of its own (os.tmpdir() follows TMPDIR): nothing else writes there.
    const saved = process.env.TMPDIR
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-staging-test-"))
    process.env.TMPDIR = tmp
    try {
      const staged = new StagedKeys(64)
      for (let i = 0; i < 200_000; i++) staged.add(`key-${i}`)
      expect(fs.readdirSync(tmp)).toHaveLength(1)
      expect([...staged.keys()]).toEqual(Array.from({ length: 200_000 }, (_, i) => `key-${i}`))
      staged.release()
      expect(fs.readdirSync(tmp)).toEqual([])
    } finally {
      process.env.TMPDIR = saved
      fs.rmSync(tmp, { recursive: true, force: true })
    }
  })
})
