/**
 * Which JSON documents the assistant checks and how, through the language server over stdio and
 * `edgectl check`, against what the commands themselves accept (`kv bulk put|delete`).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectl, tempDir } from "./helpers-cli.js"
import { startLsp } from "./helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
let n = 0

const pos = (text: string, offset: number) => TextDocument.create("x", "x", 0, text).positionAt(offset)
const rangeOf = (text: string, needle: string, from = 0) => {
  const start = text.indexOf(needle, from)
  expect(start).toBeGreaterThanOrEqual(0)
  return { start: pos(text, start), end: pos(text, start + needle.length) }
}
const openJson = (text: string, name = `d${n++}.json`) => client.open(`file:///work/project/${name}`, text, "json")

beforeAll(async () => {
  client = await startLsp()
})
afterAll(async () => {
  await client.close()
})

describe("KV bulk files: the editor and `kv bulk` accept the same files", () => {
  it("refuses a trailing comma and a comment in a bulk file, with one diagnostic each, where they are", async () => {
    const comma = '[\n  {"key": "a", "value": "1"},\n  {"key": "b", "value": "2"},\n]\n'
    const d1 = await openJson(comma)
    expect(d1.diagnostics.map((d) => [d.code, d.message])).toEqual([["json-syntax", "invalid JSON: a trailing comma is not JSON\nhint: remove the comma"]])
    expect(d1.diagnostics[0]!.range).toEqual(rangeOf(comma, ",", comma.indexOf('"2"}')))
    const comment = '[\n  // the first key\n  {"key": "a", "value": "1"}\n]\n'
    const d2 = await openJson(comment)
    expect(d2.diagnostics.map((d) => [d.code, d.message])).toEqual([["json-syntax", "invalid JSON: comments are not JSON"]])
    expect(d2.diagnostics[0]!.range.start).toEqual(pos(comment, comment.indexOf("//")))
  })

  it("checks bulk-delete files in the {\"name\": …} form, each bad item on its place", async () => {
    const text = '[{"name": "a"}, {"name": ""}, "b", {"nam": "c"}, 5, {"name": "."}]\n'
    const d = await openJson(text)
    expect(d.diagnostics.map((x) => x.code)).toEqual(["kv-key", "kv-key", "kv-key", "kv-key"])
    expect(d.diagnostics[0]!.range).toEqual(rangeOf(text, '""'))
    expect(d.diagnostics[2]!.range).toEqual(rangeOf(text, "5"))
  })

  it("says in the metadata hover that metadata is an object", async () => {
    const text = '[{"key": "a", "value": "1", "metadata": {"x": 1}}]\n'
    const u = `file:///work/project/meta${n++}.json`
    await client.open(u, text, "json")
    const h = (await client.connection.sendRequest("textDocument/hover", { textDocument: { uri: u }, position: pos(text, text.indexOf('"metadata"') + 2) })) as { contents: { value: string } }
    expect(h.contents.value).toContain("a JSON object")
    expect(h.contents.value).not.toContain("any JSON value")
  })

  it("`edgectl check` fails exactly the files `kv bulk put` and `kv bulk delete` refuse", () => {
    const dir = tempDir()
    const cases: Array<[string, "put" | "delete", string]> = [
      ["ok-put.json", "put", '[{"key": "a", "value": "1"}, {"key": "b", "value": "2", "metadata": {"m": 1}}]\n'],
      ["comma-put.json", "put", '[{"key": "a", "value": "1"},]\n'],
      ["comma-inner.json", "put", '[{"key": "a", "value": "1",}]\n'],
      ["comment-put.json", "put", '[\n  /* first */ {"key": "a", "value": "1"}\n]\n'],
      ["meta-put.json", "put", '[{"key": "a", "value": "1", "metadata": [1, 2]}]\n'],
      ["ok-delete.json", "delete", '["a", {"name": "b"}]\n'],
      ["names-delete.json", "delete", '[{"name": "a"}, {"name": ""}, "b", {"nam": "c"}, 5, {"name": "."}]\n'],
      ["comment-delete.json", "delete", '["a" // x\n]\n']
    ]
    for (const [name, verb, content] of cases) {
      fs.writeFileSync(path.join(dir, name), content)
      const cmd = edgectl(["kv", "bulk", verb, name, "--namespace-id", "agree", ...(verb === "delete" ? ["--yes"] : [])], { cwd: dir })
      const check = edgectl(["check", name], { cwd: dir })
      expect([name, check.status], `${check.stdout}${check.stderr}`).toEqual([name, cmd.status])
      expect(cmd.status, `${name}: ${cmd.stderr}`).toBe(name.startsWith("ok-") ? 0 : 1)
    }
    // The same count of problems: the command's four invalid entries are check's four errors.
    const names = edgectl(["check", "names-delete.json", "--format", "json"], { cwd: dir })
    expect(JSON.parse(names.stdout).errors).toBe(4)
    expect(edgectl(["kv", "bulk", "delete", "names-delete.json", "--namespace-id", "agree", "--yes"], { cwd: dir }).stderr).toContain("4 invalid entries")
  })
})
