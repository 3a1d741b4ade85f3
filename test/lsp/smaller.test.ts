/**
 * Issue 31's smaller items, each through the language server as an editor drives it (the whole
 * file with its final newline, the cursor with text after it) or through `edgectl check`.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { spawn } from "node:child_process"
import { TextDocument } from "vscode-languageserver-textdocument"
import {
  createMessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter
} from "vscode-jsonrpc/node.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, edgectl, tempDir } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
let n = 0
const pos = (text: string, offset: number) => TextDocument.create("x", "x", 0, text).positionAt(offset)

const completeAt = async (marked: string, ext: string, languageId = "plaintext") => {
  const at = marked.indexOf("|")
  const text = marked.slice(0, at) + marked.slice(at + 1)
  const uri = `file:///work/small/s${n++}.${ext}`
  await client.open(uri, text, languageId)
  const r = (await client.connection.sendRequest("textDocument/completion", {
    textDocument: { uri },
    position: pos(text, at)
  })) as { items: Array<{ label: string; textEdit: { newText: string } }> } | null
  return r?.items ?? []
}

beforeAll(async () => {
  client = await startLsp()
})
afterAll(async () => {
  await client.close()
})

describe("issue 31, smaller items", () => {
  it("takes a keys file with one item that is no string for a keys file, and reports that item", async () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, "keys.json"), '["a","bad key",42]\n')
    const c = edgectl(["check", "keys.json", "--format", "json"], { cwd: dir })
    expect(c.status, c.stdout + c.stderr).toBe(1)
    const d = await client.open("file:///work/small/keys.json", '["a","bad key",42]\n', "json")
    const keys = d.diagnostics.filter((x) => x.code === "kv-key").map((x) => x.message)
    expect(keys).toEqual([expect.stringContaining("entry 1: key has whitespace"), expect.stringContaining("entry 2:")])
    expect(keys[1]).toContain("got a number")
    // An array mostly of other things is some other document.
    const other = await client.open("file:///work/small/other.json", '["x", 1, 2]\n', "json")
    expect(other.diagnostics).toEqual([])
  })

  it("offers nothing inside a string literal (no and/or/xor), and still offers them after it", async () => {
    expect(await completeAt('http.host eq "exa|mple.com"\n', "rules")).toEqual([])
    expect(await completeAt('http.host eq "a |b"\n', "rules")).toEqual([])
    expect(await completeAt('http.host eq "ab|\n', "rules")).toEqual([])
    const after = (await completeAt('http.host eq "a" |\n', "rules")).map((i) => i.label)
    expect(after).toEqual(expect.arrayContaining(["and", "or", "xor"]))
  })

  it("offers a function's argument only the fields and calls of its parameter's type", async () => {
    const lower = (await completeAt("lower(|)\n", "rules")).map((i) => i.label)
    expect(lower).toContain("http.host")
    expect(lower).toContain("http.request.headers.names")
    expect(lower).not.toContain("ip.src")
    expect(lower).not.toContain("ssl")
    expect(lower).not.toContain("ip.src.asnum")
    const ip = (await completeAt("lower(ip|)\n", "rules")).map((i) => i.label)
    expect(ip).not.toContain("ip.src")
    expect(ip).toContain("ip.src.country")
  })

  it("completes a new bulk entry property with its `: `, and a renamed one without", async () => {
    const fresh = await completeAt('[{"key": "a", "value": "b", "exp|"}]\n', "json", "json")
    expect(fresh.find((i) => i.label === "expiration")?.textEdit.newText).toBe('"expiration": ')
    const renamed = await completeAt('[{"key": "a", "value": "b", "exp|": 1}]\n', "json", "json")
    expect(renamed.find((i) => i.label === "expiration")?.textEdit.newText).toBe('"expiration"')
  })

  it('says "an IP address"', async () => {
    const d = await client.open("file:///work/small/ip.rules", "ip.src\n")
    expect(d.diagnostics[0]?.message).toContain("`ip.src` is an IP address, not a condition")
  })

  it("answers a request before initialize and after shutdown with the protocol's errors", async () => {
    const child = spawn(process.execPath, [bin, "lsp", "--stdio"], { stdio: ["pipe", "pipe", "pipe"] })
    const c = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin))
    c.listen()
    const hover = { textDocument: { uri: "file:///work/small/a.rules" }, position: { line: 0, character: 0 } }
    const early = await c.sendRequest("textDocument/hover", hover).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(early).toBeInstanceOf(ResponseError)
    expect((early as ResponseError<unknown>).code).toBe(-32002)
    await c.sendRequest("initialize", { processId: null, rootUri: null, capabilities: {} })
    await c.sendNotification("initialized", {})
    expect(await c.sendRequest("textDocument/hover", hover)).toBeNull()
    await c.sendRequest("shutdown")
    const late = await c.sendRequest("textDocument/hover", hover).then(
      () => undefined,
      (e: unknown) => e
    )
    expect((late as ResponseError<unknown>).code).toBe(-32600)
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve))
    await c.sendNotification("exit")
    expect(await exited).toBe(0)
    c.dispose()
  })
})
