/**
 * Issue 31: settings through `workspace/configuration` (and pushed ones), and formatting where it
 * is advertised: JSON formatted, Terraform answered with no edits (not `null`), range formatting.
 */
import { TextDocument } from "vscode-languageserver-textdocument"
import { describe, expect, it } from "vitest"
import { startLsp } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
type Edit = {
  range: { start: { line: number; character: number }; end: { line: number; character: number } }
  newText: string
}
const LINE = 'http.host eq "a.example" and ip.src in {192.0.2.0/24} and not ssl\n'
const NARROW = 'http.host eq "a.example"\nand ip.src in {192.0.2.0/24}\nand not ssl\n'

const format = async (c: Client, uri: string, text: string, range?: Edit["range"]) => {
  await c.open(uri, text)
  const edits = (await c.connection.sendRequest(range ? "textDocument/rangeFormatting" : "textDocument/formatting", {
    textDocument: { uri },
    options: { tabSize: 2, insertSpaces: true },
    ...(range ? { range } : {})
  })) as Array<Edit> | null
  return { edits, out: edits && TextDocument.applyEdits(TextDocument.create(uri, "x", 0, text), edits) }
}

describe("settings", () => {
  it("pulls the edgectl section through workspace/configuration, again on didChangeConfiguration", async () => {
    const c = await startLsp({}, { workspace: { configuration: true } })
    try {
      let asked: unknown
      const answered = new Promise<void>((resolve) =>
        c.connection.onRequest("workspace/configuration", (p: unknown) => {
          asked = p
          resolve()
          return [{ printWidth: 40 }]
        })
      )
      await c.connection.sendNotification("workspace/didChangeConfiguration", { settings: null })
      await answered
      expect(asked).toEqual({ items: [{ section: "edgectl" }] })
      expect((await format(c, "file:///s/pull.rules", LINE)).out).toBe(NARROW)
    } finally {
      await c.close()
    }
  })

  it("takes the settings a client pushes when it cannot be asked", async () => {
    const c = await startLsp()
    try {
      expect((await format(c, "file:///s/before.rules", LINE)).out).toBe(LINE)
      await c.connection.sendNotification("workspace/didChangeConfiguration", {
        settings: { edgectl: { printWidth: 40 } }
      })
      expect((await format(c, "file:///s/push.rules", LINE)).out).toBe(NARROW)
    } finally {
      await c.close()
    }
  })
})

describe("formatting where it is advertised", () => {
  it("formats JSON, answers Terraform with no edits, and formats a range of a rules file", async () => {
    const c = await startLsp()
    try {
      expect(c.capabilities.documentRangeFormattingProvider).toBe(true)
      expect((await format(c, "file:///s/a.json", '[{"key":"a","value":"b"}]\n')).out).toBe(
        '[\n  {\n    "key": "a",\n    "value": "b"\n  }\n]\n'
      )
      expect((await format(c, "file:///s/a.tf", 'resource "x" "y" {\n a = 1\n}\n')).edits).toEqual([])
      await c.connection.sendNotification("workspace/didChangeConfiguration", {
        settings: { edgectl: { printWidth: 40 } }
      })
      const whole = { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }
      expect((await format(c, "file:///s/range.rules", LINE, whole)).out).toBe(NARROW)
      const already = { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }
      expect((await format(c, "file:///s/none.rules", NARROW, already)).edits).toEqual([])
    } finally {
      await c.close()
    }
  })
})
