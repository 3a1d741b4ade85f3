/**
 * Completion as an editor asks for it: the whole file with its final newline, the cursor with
 * text after it (a space, a closing parenthesis, the rest of the line), after incremental changes.
 */
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startLsp } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
let n = 0

const pos = (text: string, offset: number) => TextDocument.create("x", "x", 0, text).positionAt(offset)

/** Opens `text` (its `|` is the cursor, removed) as a new document and asks for completion there. */
const completeAt = async (marked: string, ext = "rules", languageId = "plaintext") => {
  const at = marked.indexOf("|")
  const text = marked.slice(0, at) + marked.slice(at + 1)
  const uri = `file:///work/project/c${n++}.${ext}`
  await client.open(uri, text, languageId)
  const r = (await client.connection.sendRequest("textDocument/completion", {
    textDocument: { uri },
    position: pos(text, at)
  })) as {
    items: Array<{
      label: string
      kind: number
      textEdit: { range: { start: unknown; end: unknown }; newText: string }
    }>
  } | null
  return { labels: (r?.items ?? []).map((i) => i.label), items: r?.items ?? [], text, uri }
}

const LOGICAL = ["and", "or", "xor"]

beforeAll(async () => {
  client = await startLsp()
})
afterAll(async () => {
  await client.close()
})

describe("completion with text after the cursor", () => {
  it("is triggered where a condition or an operator starts: after a space, `(`, `.`, `$` and a quote", () => {
    expect(client.capabilities.completionProvider).toEqual({
      triggerCharacters: expect.arrayContaining([" ", "(", ".", "$", '"'])
    })
  })

  it("offers fields, functions and `not` in an empty file, after `(`, and at the start of a line that goes on", async () => {
    for (const marked of ["|\n", "(|)\n", "(|\n", "|ip.src eq 1.2.3.4\n", 'lower(|) eq "a"\n']) {
      const { labels } = await completeAt(marked)
      expect(labels, marked).toContain("http.host")
      expect(labels, marked).toContain(marked.startsWith("lower") ? "lower" : "not")
      expect(labels, marked).not.toContain("and")
    }
  })

  it("offers a field's operators only after a non-Boolean field, and the logical operators after a Boolean one", async () => {
    const str = await completeAt("http.host |\n")
    expect(str.labels).toEqual(expect.arrayContaining(["eq", "contains", "matches", "in"]))
    for (const l of LOGICAL) expect(str.labels).not.toContain(l)
    const ip = await completeAt("ip.src | eq 1.2.3.4\n")
    expect(ip.labels).toEqual(["eq", "ne", "in"])
    const bool = await completeAt("ssl |\n")
    expect(bool.labels).toEqual(LOGICAL)
    const after = await completeAt('http.host eq "a" |\n')
    expect(after.labels).toEqual(LOGICAL)
  })

  it("offers fields, functions and `not` (never and/or/xor) after `and `, `or `, `not ` and `&& `, whatever follows", async () => {
    for (const marked of [
      'http.host eq "a" and |\n',
      'http.host eq "a" or |)\n',
      "not |\n",
      'http.host eq "a" && |ssl\n',
      'http.host eq "a" and |ip.src eq 1.2.3.4\n'
    ]) {
      const { labels } = await completeAt(marked)
      expect(labels, marked).toEqual(expect.arrayContaining(["http.host", "ip.src", "lower", "not"]))
      for (const l of LOGICAL) expect(labels, marked).not.toContain(l)
    }
  })

  it("replaces the word under the cursor, filtered by the part before it", async () => {
    const { items, text } = await completeAt('http.req|uest.uri eq "/"\n')
    expect(items.map((i) => i.label).every((l) => l.startsWith("http.req"))).toBe(true)
    expect(items[0]!.textEdit.range).toEqual({ start: pos(text, 0), end: pos(text, "http.request.uri".length) })
  })

  it("completes inside a JSON expression string anywhere, not only at its end", async () => {
    const body = '[\n  {"id": "r1", "action": "block", "filter": {"expression": "ip.src | eq 1.2.3.4"}}\n]\n'
    const { labels } = await completeAt(body, "json", "json")
    expect(labels).toEqual(["eq", "ne", "in"])
    const mid = await completeAt('{"expression": "http.host eq \\"a\\" and |ssl"}\n', "json", "json")
    expect(mid.labels).toEqual(expect.arrayContaining(["http.host", "not"]))
    expect(mid.labels).not.toContain("and")
  })

  it("completes after incremental changes as the user types", async () => {
    const uri = "file:///work/project/typing.rules"
    let text = "\n"
    await client.open(uri, text)
    let version = 1
    const type = async (s: string) => {
      const at = text.length - 1
      await client.connection.sendNotification("textDocument/didChange", {
        textDocument: { uri, version: ++version },
        contentChanges: [{ range: { start: pos(text, at), end: pos(text, at) }, text: s }]
      })
      text = text.slice(0, at) + s + text.slice(at)
      const r = (await client.connection.sendRequest("textDocument/completion", {
        textDocument: { uri },
        position: pos(text, text.length - 1)
      })) as { items: Array<{ label: string }> }
      return r.items.map((i) => i.label)
    }
    expect(await type("ip.src ")).toEqual(["eq", "ne", "in"])
    expect(await type("in {192.0.2.0/24} ")).toEqual(LOGICAL)
    expect(await type("and ")).toContain("http.host")
    expect(await type("(")).toContain("not")
  })
})
