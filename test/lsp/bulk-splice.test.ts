/**
 * Structural edits of a KV bulk file (entries inserted, removed, replaced, pasted over several):
 * the server re-checks only what the edit touches, and its diagnostics must be exactly those of a
 * fresh check of the new text. Over stdio as an editor sends the edits, and on many random edits
 * against the analysis itself.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseTree } from "jsonc-parser"
import { analyzeJson } from "../../src/lsp/json-doc.js"
import { bulkFindings, checkKvBulk } from "../../src/lsp/kv-bulk.js"
import { checkKvBulkText } from "../../src/lsp/kv-bulk-stream.js"
import { startLsp } from "../helpers/lsp-client.js"

const entry = (i: number) =>
  i % 7 === 3
    ? `  {"key": "k${i % 50}", "value": 1}`
    : i % 11 === 5
      ? `  {"key": "k${i}", "valeu": "x"}`
      : `  {"key": "k${i % 50}", "value": "v${i}"}`
const file = (ids: ReadonlyArray<number>) => `[\n${ids.map(entry).join(",\n")}\n]\n`

describe("structural edits of a bulk file", () => {
  let client: Awaited<ReturnType<typeof startLsp>>
  beforeAll(async () => {
    client = await startLsp({ debounceMs: 0 })
  })
  afterAll(async () => {
    await client.close()
  })

  it("publishes after insertions and removals of entries exactly what a fresh open publishes", async () => {
    const uri = "file:///work/project/splice.json"
    let text = file(Array.from({ length: 120 }, (_, i) => i))
    await client.open(uri, text, "json")
    const lines = () => text.split("\n")
    const edits: Array<{ start: [number, number]; end: [number, number]; text: string }> = [
      { start: [1, 0], end: [1, 0], text: `${entry(3)},\n` }, // insert before the first entry
      { start: [10, 0], end: [12, 0], text: "" }, // remove two entries
      { start: [40, 0], end: [41, 0], text: `${entry(5)},\n${entry(6)},\n` }, // replace one by two
      { start: [lines().length - 4, 0], end: [lines().length - 2, 0], text: "" } // remove the last entry but one and its line
    ]
    let version = 1
    for (const e of edits) {
      const next = lines()
      const startOffset = next.slice(0, e.start[0]).join("\n").length + (e.start[0] > 0 ? 1 : 0) + e.start[1]
      const endOffset = next.slice(0, e.end[0]).join("\n").length + (e.end[0] > 0 ? 1 : 0) + e.end[1]
      text = text.slice(0, startOffset) + e.text + text.slice(endOffset)
      version++
      const published = client.diagnostics(uri, (d) => d.version === version)
      await client.connection.sendNotification("textDocument/didChange", {
        textDocument: { uri, version },
        contentChanges: [
          {
            range: { start: { line: e.start[0], character: e.start[1] }, end: { line: e.end[0], character: e.end[1] } },
            text: e.text
          }
        ]
      })
      const got = await published
      const fresh = await client.open(`file:///work/project/splice-fresh-${version}.json`, text, "json")
      expect(
        got.diagnostics.map((d) => [d.code, d.message, d.range]),
        `edit ${version - 1}`
      ).toEqual(fresh.diagnostics.map((d) => [d.code, d.message, d.range]))
      expect(got.diagnostics.length).toBeGreaterThan(5)
    }
  })

  it("equals a full check after many random structural edits", () => {
    let ids = Array.from({ length: 60 }, (_, i) => i)
    let text = file(ids)
    let analysis = analyzeJson(text, {}, "bulk.json")
    let seed = 7
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n)
    for (let step = 0; step < 150; step++) {
      const at = rand(ids.length + 1)
      const remove = Math.min(rand(3), ids.length - at)
      const add = Array.from({ length: rand(3) }, () => 100 + rand(200))
      const nextIds = [...ids.slice(0, at), ...add, ...ids.slice(at + remove)]
      if (nextIds.length === 0) continue
      ids = nextIds
      // Now and then a trailing comma or a missing one: the file is invalid until the next step.
      text =
        step % 10 === 9
          ? file(ids).replace(/\n\]\n$/, ",\n]\n")
          : step % 10 === 4
            ? file(ids).replace(/,\n/, "\n")
            : file(ids)
      analysis = analyzeJson(text, {}, "bulk.json", analysis.memo)
      const full = analyzeJson(text, {}, "bulk.json")
      expect(analysis.findings, `step ${step}`).toEqual(full.findings)
    }
  })

  it("checks a whole file entry by entry exactly as from one tree, and leaves what is not a strict bulk file to the full parse", () => {
    const keys = '[\n  "a",\n  {"name": "b"},\n  "",\n  {"name": "a", "x": 1}\n]\n'
    for (const text of [
      file(Array.from({ length: 80 }, (_, i) => i)),
      keys,
      '[{"key": "é\\u00e9", "value": "x", "base64": true}]'
    ]) {
      const tree = checkKvBulk(parseTree(text)!, 1_000, text)
      const streamed = checkKvBulkText(text, 1_000)!
      expect(bulkFindings(streamed)).toEqual(bulkFindings(tree))
      expect(streamed.entries.map((e) => [e.start, e.end, e.key])).toEqual(
        tree.entries.map((e) => [e.start, e.end, e.key])
      )
    }
    for (const other of [
      '[{"key": "a", "value": "1"},]',
      '[{"key": "a", "value": "1"} // c\n]',
      '[{"expression": "ssl", "action": "block"}]',
      '{"key": "a"}',
      '[["a"]]',
      '["a", 1]'
    ]) {
      expect(checkKvBulkText(other, 1_000), other).toBeUndefined()
    }
  })
})
