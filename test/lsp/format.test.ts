/** Formatting `*.rules` documents through the language server: wrapped at a width, offered only where it formats. */
import { TextDocument } from "vscode-languageserver-textdocument"
import { describe, expect, it } from "vitest"
import { check, sameTree } from "../../src/rules/index.js"
import { startLsp } from "../helpers/lsp-client.js"

const conditions = Array.from(
  { length: 28 },
  (_, i) => `(http.request.uri.path contains "/section-${i}/admin" and ip.src ne 192.0.2.${i})`
)
const long = `${conditions.join("\n  or ")}\n`

const formatted = async (
  c: Awaited<ReturnType<typeof startLsp>>,
  uri: string,
  text: string,
  options: Record<string, unknown> = {}
) => {
  await c.open(uri, text)
  const edits = (await c.connection.sendRequest("textDocument/formatting", {
    textDocument: { uri },
    options: { tabSize: 2, insertSpaces: true, ...options }
  })) as Array<never> | null
  return edits === null ? null : TextDocument.applyEdits(TextDocument.create(uri, "x", 0, text), edits)
}

describe("formatting a *.rules file", () => {
  it("wraps at 100 columns by default and at the client's printWidth, keeping the expression's meaning", async () => {
    const c = await startLsp()
    try {
      const out = (await formatted(c, "file:///p/long.rules", long))!
      const lines = out.trimEnd().split("\n")
      expect(lines.length).toBeGreaterThanOrEqual(28)
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(100)
      expect(out.endsWith(")\n")).toBe(true)
      expect(sameTree(check(out).checked!.expression, check(long).checked!.expression)).toBe(true)
      const narrow = (await formatted(
        c,
        "file:///p/narrow.rules",
        'http.host eq "a.example" and ip.src in {192.0.2.0/24} and not ssl\n',
        { printWidth: 40 }
      ))!
      expect(narrow).toBe('http.host eq "a.example"\nand ip.src in {192.0.2.0/24}\nand not ssl\n')
    } finally {
      await c.close()
    }
  })

  it("uses the width given at initialization, and leaves a file with errors as it is", async () => {
    const c = await startLsp({ printWidth: 60 })
    try {
      const out = (await formatted(c, "file:///p/init.rules", long))!
      expect(Math.max(...out.split("\n").map((l) => l.length))).toBeLessThanOrEqual(60)
      expect(await formatted(c, "file:///p/bad.rules", "http.hots eq 1 and\n")).toBeNull()
    } finally {
      await c.close()
    }
  })

  it("registers formatting for *.rules documents only when the client can be told, instead of for every document", async () => {
    const c = await startLsp({}, { textDocument: { formatting: { dynamicRegistration: true } } })
    try {
      expect(c.capabilities.documentFormattingProvider).toBeUndefined()
      const deadline = Date.now() + 5000
      while (!c.serverRequests.some((r) => r.method === "client/registerCapability") && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10))
      const reg = c.serverRequests.find((r) => r.method === "client/registerCapability")!.params as {
        registrations: Array<{ method: string; registerOptions: { documentSelector: Array<Record<string, string>> } }>
      }
      expect(reg.registrations).toEqual([
        {
          id: expect.any(String),
          method: "textDocument/formatting",
          registerOptions: { documentSelector: [{ pattern: "**/*.rules" }, { language: "edgectl-rules" }] }
        }
      ])
    } finally {
      await c.close()
    }
  })
})
