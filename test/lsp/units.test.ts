/** Units of the language server's checks: JSON string offsets, line positions, bulk re-checks. */
import { parseTree } from "jsonc-parser"
import { describe, expect, it } from "vitest"
import { checkKvBulk, recheck, bulkFindings } from "../../src/lsp/kv-bulk.js"
import { decodedOffsets, toDecoded, toDocument } from "../../src/lsp/json-string.js"
import { LineIndex } from "../../src/lsp/position.js"

describe("JSON string offsets", () => {
  it("maps each decoded unit to its place in the document through every kind of escape", () => {
    const doc = 'x: "a\\"b\\\\c\\u00e9d\\n"'
    const start = doc.indexOf('"')
    const offsets = decodedOffsets(doc, start, doc.length - start)
    const decoded = JSON.parse(doc.slice(start)) as string
    expect(offsets).toHaveLength(decoded.length + 1)
    expect(decoded).toBe('a"b\\cédn'.replace("dn", "d\n"))
    // a, \", b, \\, c, \u00e9, d, \n, closing quote
    expect(offsets.map((o) => doc.slice(o, o + 1))).toEqual(["a", "\\", "b", "\\", "c", "\\", "d", "\\", '"'])
    expect(toDocument(offsets, 5, 6)).toEqual({ start: doc.indexOf("\\u"), end: doc.indexOf("d\\n") })
    expect(toDecoded(offsets, doc.indexOf("\\u") + 3)).toBe(5)
  })
})

describe("LineIndex", () => {
  it("converts offsets and positions both ways, clamping past the end of a line", () => {
    const lines = new LineIndex("ab\r\ncd\n\nef")
    expect(lines.position(5)).toEqual({ line: 1, character: 1 })
    expect(lines.offset({ line: 3, character: 1 })).toBe(9)
    expect(lines.offset({ line: 1, character: 99 })).toBe(6)
    expect(lines.line(0)).toBe("ab")
  })
})

describe("bulk file re-checks", () => {
  it("gives the same findings as a full check after an edit inside one entry", () => {
    const before =
      '[\n {"key": "a", "value": "1"},\n {"key": "b", "value": "2", "expiration_ttl": 10},\n {"key": "a", "value": "3"}\n]'
    const after = before.replace('"key": "b"', '"key": "bb b"')
    const state = checkKvBulk(parseTree(before)!, 1_000, before)
    const from = before.indexOf('"key": "b"') + 8
    const quick = recheck(state, after, from, from + 1, 4, 1_000)!
    expect(bulkFindings(quick)).toEqual(bulkFindings(checkKvBulk(parseTree(after)!, 1_000, after)))
    expect(
      recheck(state, after.replace('},\n {"key": "a", "value": "3"}', "}"), from, before.length, 3, 1_000)
    ).toBeUndefined()
  })
})

describe("bulk file re-checks of the first entry", () => {
  it("re-checks it alone while the file stays the same kind, and asks for a full check when it changes kind", () => {
    const before = '[\n {"key": "a", "value": "1"},\n {"key": "b", "value": "2"}\n]'
    const state = checkKvBulk(parseTree(before)!, 1_000, before)
    const at = before.indexOf('"a"') + 1
    const renamed = before.replace('"a"', '"a a"')
    const quick = recheck(state, renamed, at, at + 1, 3, 1_000)!
    expect(bulkFindings(quick)).toEqual(bulkFindings(checkKvBulk(parseTree(renamed)!, 1_000, renamed)))
    const keyAt = before.indexOf('"key"')
    const asName = before.replace('{"key": "a", "value": "1"}', '{"name": "a"}')
    expect(
      recheck(state, asName, keyAt, keyAt + '"key": "a", "value": "1"'.length, '"name": "a"'.length, 1_000)
    ).toBeUndefined()
  })
})
