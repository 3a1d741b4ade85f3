/** Units: the streaming JSON array reader of bulk files (src/kv/json-array.ts, src/kv/bulk-file.ts). */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Either from "effect/Either"
import { describe, expect, it } from "vitest"
import { batches, BulkFileError, checkFile } from "../../src/kv/bulk-file.js"
import { JsonArrayError, JsonArrayScanner, lineColumn, parseElement, scanBytes } from "../../src/kv/json-array.js"

const elements = (text: string, chunk = Infinity) => {
  const out: Array<[string, number, number]> = []
  const scanner = new JsonArrayScanner((t, i, offset) => out.push([t, i, offset]))
  const bytes = Buffer.from(text, "utf8")
  const size = Number.isFinite(chunk) ? chunk : bytes.length
  for (let at = 0; at < bytes.length; at += size) scanner.push(bytes.subarray(at, at + size))
  scanner.end()
  return out
}

const failure = (text: string) => {
  try {
    elements(text)
  } catch (e) {
    if (e instanceof JsonArrayError) return e
    throw e
  }
  throw new Error(`no error for ${text}`)
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-kvfile-"))

describe("scanner", () => {
  const doc = ' \n[ {"key":"a]","value":"{[\\"}"}, "s,t", [1,[2]], {"k":{"n":[]}} , 3 ]\n'

  it("hands over each top-level element's text, index and offset", () => {
    const out = elements(doc)
    expect(out.map(([t]) => JSON.parse(t))).toEqual([
      { key: "a]", value: '{["}' },
      "s,t",
      [1, [2]],
      { k: { n: [] } },
      3
    ])
    expect(out.map(([, i]) => i)).toEqual([0, 1, 2, 3, 4])
    expect(doc.slice(out[1]![2]).startsWith('"s,t"')).toBe(true)
  })

  it("gives the same elements whatever the chunk size, one byte at a time included", () => {
    const whole = elements(doc).map(([t]) => t.trim())
    for (const chunk of [1, 2, 3, 7, 16]) expect(elements(doc, chunk).map(([t]) => t.trim())).toEqual(whole)
    const unicode = '["é😀", {"k":"ü"}]'
    expect(elements(unicode, 1).map(([t]) => JSON.parse(t))).toEqual(["é😀", { k: "ü" }])
    const escapes = JSON.stringify(["x\\", 'y\\"z', '\\\\"', { k: ']\\"},[' }, '""'])
    for (const chunk of [1, 2, 3, 5, 7, 64])
      expect(elements(escapes, chunk).map(([t]) => JSON.parse(t))).toEqual(JSON.parse(escapes))
  })

  it("reads an empty array, a byte order mark and surrounding whitespace", () => {
    expect(elements("[]")).toEqual([])
    expect(elements(" [ \n ] \n")).toEqual([])
    expect(elements("\ufeff[1]").map(([t]) => t)).toEqual(["1"])
  })

  it("says what is wrong, and where", () => {
    expect(failure('{"a":1}').message).toBe("expected a JSON array, got an object")
    expect(failure('"x"').message).toBe("expected a JSON array, got a string")
    expect(failure("")).toMatchObject({ message: "the file is empty; expected a JSON array", offset: 0 })
    expect(failure("[1,2")).toMatchObject({ message: "the file ends before the array's closing ]", offset: 4 })
    expect(failure("[1,]")).toMatchObject({
      message: "expected a value after ',' (a trailing comma is not JSON)",
      offset: 3
    })
    expect(failure("[,1]")).toMatchObject({ message: "expected a value, got ','", offset: 1 })
    expect(failure("[1] x").message).toBe("unexpected content after the array's closing ]")
  })

  it("places a syntax error inside an element at its line and column", () => {
    const text = '[\n  {"key": "a", "value": "b"},\n  {"key": "c",}\n]'
    const [, second] = elements(text)
    let error: JsonArrayError | undefined
    try {
      parseElement(second![0], second![2])
    } catch (e) {
      error = e as JsonArrayError
    }
    expect(error?.message).toBe("invalid JSON: expected a property name in double quotes")
    expect(lineColumn(Buffer.from(text), error!.offset)).toEqual({ line: 3, column: 15 })
  })

  it("scanBytes counts the elements", () => {
    expect(scanBytes(Buffer.from("[1,2,3]"), () => {})).toBe(3)
  })
})

describe("bulk files", () => {
  const now = Math.floor(Date.now() / 1000)

  it("checks every entry of a file and reports problems, unknown properties and counts", () => {
    const dir = tmp()
    const file = path.join(dir, "bulk.json")
    fs.writeFileSync(
      file,
      JSON.stringify([
        { key: "a", value: "1", extra: 1 },
        { key: "b", value: "2", expiration_ttl: 5 },
        { key: "", value: "3" }
      ])
    )
    const r = Either.getOrThrow(checkFile(file, "entries", now))
    expect(r.count).toBe(3)
    expect(r.problemCount).toBe(2)
    expect(r.problems.map((p) => [p.index, p.field])).toEqual([
      [1, "expiration_ttl"],
      [2, "key"]
    ])
    expect(r.unknown).toEqual([{ property: "extra", indexes: [0], count: 1 }])
  })

  it("reports a file that is not there, and a syntax error as file:line:column", () => {
    const dir = tmp()
    expect(checkFile(path.join(dir, "nope.json"), "entries", now)).toEqual(
      Either.left(new BulkFileError(`cannot read ${path.join(dir, "nope.json")}: no such file`))
    )
    const file = path.join(dir, "bad.json")
    fs.writeFileSync(file, '[{"key":"a",\n "value": }]')
    expect(Either.getOrThrow(Either.flip(checkFile(file, "entries", now))).message).toBe(
      `${file}:2:11: invalid JSON: expected a value`
    )
  })

  it("cuts a file into request bodies by entries and bytes, entries sent as written", () => {
    const dir = tmp()
    const file = path.join(dir, "many.json")
    const items = Array.from({ length: 2500 }, (_, i) => ({ key: `k${i}`, value: "v", unknown_field: i }))
    fs.writeFileSync(file, JSON.stringify(items, null, 1))
    const checked = Either.getOrThrow(checkFile(file, "entries", now))
    const bodies = [...batches(checked, "entries", { maxEntries: 1000, maxBytes: 100 << 20 })]
    expect(bodies.map((b) => b.count)).toEqual([1000, 1000, 500])
    expect(bodies.flatMap((b) => JSON.parse(Buffer.from(b.body).toString()))).toEqual(items)
    const small = [...batches(checked, "entries", { maxEntries: Infinity, maxBytes: 20_000 })]
    expect(small.length).toBeGreaterThan(3)
    expect(small.every((b) => b.body.length <= 20_000)).toBe(true)
    // One body when it fits: the file's own bytes.
    const one = [...batches(checked, "entries", { maxEntries: Infinity, maxBytes: 100 << 20 })]
    expect(one).toHaveLength(1)
    expect(Buffer.from(one[0]!.body).equals(fs.readFileSync(file))).toBe(true)
  })

  it("sends the keys of a keys file as strings, {name} objects included", () => {
    const dir = tmp()
    const file = path.join(dir, "keys.json")
    fs.writeFileSync(file, JSON.stringify(["a", { name: "b" }, "c"]))
    const checked = Either.getOrThrow(checkFile(file, "keys", now))
    expect(checked.plainKeys).toBe(false)
    const bodies = [...batches(checked, "keys", { maxEntries: 2, maxBytes: 1 << 20 })]
    expect(bodies.map((b) => JSON.parse(Buffer.from(b.body).toString()))).toEqual([["a", "b"], ["c"]])
  })
})
