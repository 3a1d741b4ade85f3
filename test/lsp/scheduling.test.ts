/**
 * When the language server checks, as an editor drives it (whole-file sync, each version with its
 * final newline): a burst of changes to a document whose check takes longer than the debounce is
 * coalesced (the first change checked at once, the rest once, at the last version), and a request
 * the editor cancels is answered with the protocol's RequestCancelled error instead of a check.
 */
import { CancellationTokenSource } from "vscode-jsonrpc/node.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startLsp, type PublishedDiagnostics } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client

/** A module of `n` filter/rule pairs: its check (a parse and the ruleset's rewrite) takes a while. */
const firewallTf = (n: number, description = "rule") => {
  const out = ['terraform {\n  required_providers {\n    cloudflare = {\n      version = "~> 4.52"\n    }\n  }\n}\n']
  for (let i = 0; i < n; i++)
    out.push(
      `resource "cloudflare_filter" "f${i}" {\n  zone_id    = var.zone_id\n  expression = "(http.request.uri.path eq \\"/p${i}\\")"\n}\n`,
      `resource "cloudflare_firewall_rule" "r${i}" {\n  zone_id     = var.zone_id\n  description = "${description}"\n  filter_id   = cloudflare_filter.f${i}.id\n  action      = "block"\n}\n`
    )
  return out.join("\n")
}

const change = (uri: string, version: number, text: string) =>
  client.connection.sendNotification("textDocument/didChange", {
    textDocument: { uri, version },
    contentChanges: [{ text }]
  })

beforeAll(async () => {
  client = await startLsp({ debounceMs: 50 })
})
afterAll(async () => {
  await client.close()
})

describe("checks of a document under a burst of changes", () => {
  it("twenty changes sent at once to a file whose check outlasts the debounce: the last version checked, not each", async () => {
    const uri = "file:///work/project/burst.tf"
    await client.open(uri, firewallTf(400), "terraform")
    const versions: Array<number> = []
    const last = client.diagnostics(uri, (d) => {
      versions.push(d.version!)
      return d.version === 21
    })
    for (let v = 2; v <= 21; v++) void change(uri, v, firewallTf(400, `rule v${v}`))
    const published = await last
    // The first change of the burst is checked at once (the document was quiet), the rest together.
    expect(versions.length).toBeLessThanOrEqual(3)
    expect(versions.at(-1)).toBe(21)
    expect(published.diagnostics.length).toBe(800)
  })
})

describe("$/cancelRequest", () => {
  it("a hover cancelled while its document's new version waits for a check is answered RequestCancelled, unchecked", async () => {
    const uri = "file:///work/project/cancel.tf"
    const text = firewallTf(400)
    await client.open(uri, text, "terraform")
    // Quiet for longer than the debounce: the first change is checked at once, and the server is
    // busy with it while the rest of what the editor sends arrives.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const checked: Array<PublishedDiagnostics> = []
    const done = client.diagnostics(uri, (d) => {
      checked.push(d)
      return d.version === 3
    })
    void change(uri, 2, firewallTf(400, "two"))
    void change(uri, 3, `${text}\n# three\n`)
    const source = new CancellationTokenSource()
    const hover = client.connection.sendRequest(
      "textDocument/hover",
      { textDocument: { uri }, position: { line: 10, character: 20 } },
      source.token
    )
    source.cancel()
    await expect(hover).rejects.toMatchObject({ code: -32800 })
    await done
    // Not cancelled, the same request is answered at the version the editor has.
    const answered = (await client.connection.sendRequest("textDocument/hover", {
      textDocument: { uri },
      position: { line: 10, character: 20 }
    })) as { contents: { value: string } } | null
    expect(answered).not.toBeNull()
    expect(checked.at(-1)!.version).toBe(3)
  })
})

describe("hover and completion in a large KV bulk file", () => {
  it("answer from the entry under the cursor, at the document's offsets", async () => {
    const entries = Array.from(
      { length: 3000 },
      (_, i) => `  {"key": "user:${i}", "value": "value ${i}", "expiration_ttl": ${3600 + i}}`
    )
    const text = `[\n${entries.join(",\n")}\n]\n`
    const uri = "file:///work/project/bulk-3000.json"
    expect((await client.open(uri, text, "json")).diagnostics).toEqual([])
    const line = 2001 // entry 2000
    const hover = (await client.connection.sendRequest("textDocument/hover", {
      textDocument: { uri },
      position: { line, character: entries[2000]!.indexOf("5600") + 1 }
    })) as { contents: { value: string }; range: unknown }
    expect(hover.contents.value).toBe("lives **1 h 33 min 20 s** after the write")
    const at = entries[2000]!.indexOf("5600")
    expect(hover.range).toEqual({ start: { line, character: at }, end: { line, character: at + 4 } })
    const completion = (await client.connection.sendRequest("textDocument/completion", {
      textDocument: { uri },
      position: { line, character: 3 }
    })) as { items: Array<{ label: string; textEdit: { range: unknown; newText: string } }> }
    // On the key's name: the names it may become (the entry has value and expiration_ttl).
    expect(completion.items.map((i) => i.label)).toEqual(["key", "expiration", "metadata", "base64"])
    expect(completion.items[1]!.textEdit).toEqual({
      range: { start: { line, character: 3 }, end: { line, character: 8 } },
      newText: '"expiration"'
    })
  })
})

describe("completion triggered by a typed character", () => {
  it("waits for the check the debounce scheduled instead of checking the document between two keys", async () => {
    const uri = "file:///work/project/typing.tf"
    const text = firewallTf(400)
    await client.open(uri, text, "terraform")
    const events: Array<string> = []
    const published = client.diagnostics(uri, (d) => {
      events.push(`diagnostics ${d.version}`)
      return d.version === 3
    })
    void change(uri, 2, firewallTf(400, "a"))
    void change(uri, 3, firewallTf(400, 'a"'))
    const completion = client.connection
      .sendRequest("textDocument/completion", {
        textDocument: { uri },
        position: { line: 10, character: 20 },
        context: { triggerKind: 2, triggerCharacter: '"' }
      })
      .then((r) => {
        events.push("completion")
        return r
      })
    await Promise.all([published, completion])
    expect(events.slice(-2)).toEqual(["diagnostics 3", "completion"])
  })
})

describe("an edit of a large KV bulk file checked entry by entry", () => {
  it("still refuses nesting deeper than the limit that the edit writes", async () => {
    const entries = Array.from({ length: 2000 }, (_, i) => `  {"key": "k${i}", "value": "v${i}"}`)
    const text = `[\n${entries.join(",\n")}\n]\n`
    const uri = "file:///work/project/bulk-deep.json"
    expect((await client.open(uri, text, "json")).diagnostics).toEqual([])
    const deep = `${"[".repeat(150)}1${"]".repeat(150)}`
    const edited = text.replace('"value": "v1000"', `"value": "v1000", "metadata": {"x": ${deep}}`)
    const next = client.diagnostics(uri, (d) => d.version === 2)
    await change(uri, 2, edited)
    const d = await next
    expect(d.diagnostics.map((x) => [x.code, x.message.slice(0, 40)])).toEqual([
      ["json-syntax", "JSON nested more than 100 levels deep (a"]
    ])
  })
})

describe("duplicate keys in a large KV bulk file edited entry by entry", () => {
  it("a key edited into another's is a duplicate; a value edited keeps the duplicates there are", async () => {
    const entries = Array.from({ length: 2000 }, (_, i) => `  {"key": "k${i}", "value": "v${i}"}`)
    const text = `[\n${entries.join(",\n")}\n]\n`
    const uri = "file:///work/project/bulk-dup.json"
    expect((await client.open(uri, text, "json")).diagnostics).toEqual([])
    const duplicated = text.replace('"key": "k1500"', '"key": "k10"')
    let next = client.diagnostics(uri, (d) => d.version === 2)
    await change(uri, 2, duplicated)
    const codes = (d: PublishedDiagnostics) => d.diagnostics.map((x) => `${x.range.start.line}:${x.code}`)
    expect(codes(await next)).toEqual(["11:kv-duplicate-key"])
    next = client.diagnostics(uri, (d) => d.version === 3)
    await change(uri, 3, duplicated.replace('"value": "v700"', '"value": "v7000"'))
    expect(codes(await next)).toEqual(["11:kv-duplicate-key"])
    next = client.diagnostics(uri, (d) => d.version === 4)
    await change(uri, 4, duplicated.replace('"key": "k10"', '"key": "k1500"'))
    expect(codes(await next)).toEqual([])
  })
})
