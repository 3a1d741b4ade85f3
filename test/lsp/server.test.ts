/** The real language server (the built CLI's `edgectl lsp`) driven over stdio by a JSON-RPC client. */
import * as fs from "node:fs"
import * as path from "node:path"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { packageVersion, root } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client

const fixture = (name: string) => fs.readFileSync(path.join(root, "fixtures", "lsp", name), "utf8")
const uri = (name: string) => `file:///work/project/${name}`
const pos = (text: string, offset: number) => TextDocument.create("x", "x", 0, text).positionAt(offset)
const rangeOf = (text: string, needle: string, from = 0) => {
  const start = text.indexOf(needle, from)
  expect(start).toBeGreaterThanOrEqual(0)
  return { start: pos(text, start), end: pos(text, start + needle.length) }
}
const apply = (
  text: string,
  edits: ReadonlyArray<{
    range: { start: { line: number; character: number }; end: { line: number; character: number } }
    newText: string
  }>
) => TextDocument.applyEdits(TextDocument.create("x", "x", 0, text), [...edits])

beforeAll(async () => {
  client = await startLsp()
})
afterAll(async () => {
  if (client.child.exitCode === null) client.child.kill()
})

describe("edgectl lsp over stdio", () => {
  it("initializes with incremental sync, hover, completion, code actions and formatting", () => {
    expect(client.capabilities).toMatchObject({
      textDocumentSync: { openClose: true, change: 2 },
      hoverProvider: true,
      codeActionProvider: expect.anything(),
      documentFormattingProvider: true
    })
    expect(client.serverInfo).toEqual({ name: "edgectl", version: packageVersion })
  })

  it("checks a *.rules file, offers the did-you-mean fix, re-checks on an incremental change, and clears on close", async () => {
    const text = fixture("bad.rules")
    const u = uri("bad.rules")
    const d = await client.open(u, text)
    expect(d.diagnostics.map((x) => x.code)).toEqual(["unknown-field", "invalid-cidr"])
    expect(d.diagnostics[0]!.range).toEqual(rangeOf(text, "http.hots"))
    expect(d.diagnostics[1]!.range).toEqual(rangeOf(text, "10.0.0.1"))

    const actions = (await client.connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri: u },
      range: d.diagnostics[0]!.range,
      context: { diagnostics: [d.diagnostics[0]] }
    })) as Array<{ title: string; isPreferred?: boolean; edit: { changes: Record<string, Array<never>> } }>
    const fix = actions.find((a) => a.title === "Change to `http.host`")!
    expect(fix.isPreferred).toBe(true)
    expect(apply(text, fix.edit.changes[u]!)).toBe(text.replace("http.hots", "http.host"))

    // An incremental change: replace `hots` by `host`, then fix the CIDR.
    const next = client.diagnostics(u)
    await client.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri: u, version: 2 },
      contentChanges: [{ range: rangeOf(text, "hots"), text: "host" }]
    })
    const d2 = await next
    expect(d2.version).toBe(2)
    expect(d2.diagnostics.map((x) => x.code)).toEqual(["invalid-cidr"])
    const fixed = text.replace("hots", "host")
    const cleared = client.diagnostics(u)
    await client.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri: u, version: 3 },
      contentChanges: [{ range: rangeOf(fixed, "10.0.0.1"), text: "10.0.0.0" }]
    })
    expect((await cleared).diagnostics).toEqual([])

    const closed = client.diagnostics(u)
    await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri: u } })
    expect((await closed).diagnostics).toEqual([])
  })

  it("hovers a field and a function, and completes field names and operators", async () => {
    const text = 'http.host eq "a" and lower(http.request.uri.path) contains "/x"\n'
    const u = uri("hover.rules")
    await client.open(u, text)
    const h = (await client.connection.sendRequest("textDocument/hover", {
      textDocument: { uri: u },
      position: pos(text, 2)
    })) as {
      contents: { value: string }
      range: unknown
    }
    expect(h.contents.value).toContain("`http.host`: **String**")
    expect(h.range).toEqual(rangeOf(text, "http.host"))
    const f = (await client.connection.sendRequest("textDocument/hover", {
      textDocument: { uri: u },
      position: pos(text, text.indexOf("lower") + 1)
    })) as {
      contents: { value: string }
    }
    expect(f.contents.value).toContain("lower(")

    const partial = "http.request.uri.pa"
    const u2 = uri("complete.rules")
    await client.open(u2, partial)
    const c = (await client.connection.sendRequest("textDocument/completion", {
      textDocument: { uri: u2 },
      position: pos(partial, partial.length)
    })) as {
      items: Array<{ label: string; textEdit: { range: unknown } }>
    }
    const labels = c.items.map((i) => i.label)
    expect(labels).toContain("http.request.uri.path")
    expect(c.items[0]!.textEdit.range).toEqual(rangeOf(partial, partial))

    const afterField = "ip.src "
    const u3 = uri("ops.rules")
    await client.open(u3, afterField)
    const ops = (await client.connection.sendRequest("textDocument/completion", {
      textDocument: { uri: u3 },
      position: pos(afterField, afterField.length)
    })) as {
      items: Array<{ label: string }>
    }
    expect(ops.items.map((i) => i.label)).toEqual(expect.arrayContaining(["eq", "in"]))
    expect(ops.items.map((i) => i.label)).not.toContain("contains")
  })

  it("completes the fields of a KV bulk entry (those not there yet, with their limits) and hovers what they mean", async () => {
    const text =
      '[\n  {"key": "a", "value": "b", "expiration": 1893456000, "expiration_ttl": 90061, "ex"},\n  {""}\n]\n'
    const u = uri("kv-bulk.json")
    await client.open(u, text)
    type Items = { items: Array<{ label: string; detail: string; textEdit: { range: unknown; newText: string } }> }
    const inFirst = (await client.connection.sendRequest("textDocument/completion", {
      textDocument: { uri: u },
      position: pos(text, text.indexOf('"ex"}') + 3)
    })) as Items
    expect(inFirst.items.map((i) => i.label)).toEqual(["metadata", "base64"])
    expect(inFirst.items[0]!.textEdit).toEqual({ range: rangeOf(text, '"ex"'), newText: '"metadata": ' })
    expect(inFirst.items[0]!.detail).toContain("1,024 bytes")
    const inSecond = (await client.connection.sendRequest("textDocument/completion", {
      textDocument: { uri: u },
      position: pos(text, text.indexOf('{""}') + 2)
    })) as Items
    expect(inSecond.items.map((i) => i.label)).toEqual([
      "key",
      "value",
      "expiration",
      "expiration_ttl",
      "metadata",
      "base64"
    ])
    expect(inSecond.items.find((i) => i.label === "key")!.detail).toContain("512 bytes")
    type Hover = { contents: { value: string } } | null
    const date = (await client.connection.sendRequest("textDocument/hover", {
      textDocument: { uri: u },
      position: pos(text, text.indexOf("1893456000") + 2)
    })) as Hover
    expect(date?.contents.value).toBe("expires at **2030-01-01T00:00:00Z**")
    const ttl = (await client.connection.sendRequest("textDocument/hover", {
      textDocument: { uri: u },
      position: pos(text, text.indexOf("90061") + 1)
    })) as Hover
    expect(ttl?.contents.value).toBe("lives **1 d 1 h 1 min 1 s** after the write")
    const field = (await client.connection.sendRequest("textDocument/hover", {
      textDocument: { uri: u },
      position: pos(text, text.indexOf('"value"') + 2)
    })) as Hover
    expect(field?.contents.value).toContain("`value`: the value: UTF-8 text, or base64")
  })

  it("formats a *.rules file with the rules formatter", async () => {
    const text = 'http.host   eq "a"   &&   ip.src in {1.2.3.4}\n'
    const u = uri("fmt.rules")
    await client.open(u, text)
    const edits = (await client.connection.sendRequest("textDocument/formatting", {
      textDocument: { uri: u },
      options: { tabSize: 2, insertSpaces: true }
    })) as Array<never>
    expect(apply(text, edits)).toBe('http.host eq "a" and ip.src in {1.2.3.4}\n')
  })

  it("maps expression diagnostics inside JSON bodies through string escapes, with a fix written escaped", async () => {
    const text = fixture("firewall-rules.json")
    const u = uri("firewall-rules.json")
    const opened = await client.open(u, text)
    // The document is also one of the unsupported Firewall Rules API's (a warning of its own).
    expect(opened.diagnostics.map((x) => x.code)).toEqual(["firewall-api-unsupported", "unknown-field"])
    const d = { diagnostics: opened.diagnostics.filter((x) => x.code === "unknown-field") }
    // After `\"/admin\u00e9\"`: the escapes are 2 and 6 characters in the file, 1 in the expression.
    expect(d.diagnostics[0]!.range).toEqual(rangeOf(text, "http.hots"))
    const actions = (await client.connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri: u },
      range: d.diagnostics[0]!.range,
      context: { diagnostics: d.diagnostics }
    })) as Array<{ title: string; edit: { changes: Record<string, Array<never>> } }>
    expect(JSON.parse(apply(text, actions[0]!.edit.changes[u]!))[0].filter.expression).toContain("http.host eq")

    // A range inside an escape: the rules language has no \u escape, so `\\u` in JSON is an error there.
    const body = '[{"expression": "http.host eq \\"a\\\\u\\""}]'
    const u2 = uri("filters.json")
    const opened2 = await client.open(u2, body)
    expect(opened2.diagnostics.map((x) => x.code)).toEqual(["firewall-api-unsupported", "invalid-escape"])
    const d2 = { diagnostics: opened2.diagnostics.filter((x) => x.code === "invalid-escape") }
    expect(d2.diagnostics[0]!.range).toEqual(rangeOf(body, "\\\\u"))
  })

  it("checks a KV bulk file: each rule on its field, duplicates on the earlier entry with the later one related", async () => {
    const text = fixture("kv-bulk.json")
    const u = uri("kv-bulk.json")
    const d = await client.open(u, text)
    const byCode = (c: string) => d.diagnostics.filter((x) => x.code === c)
    // The character the key may not have: the space.
    expect(byCode("kv-key")[0]!.range).toEqual(rangeOf(text, " ", text.indexOf('"bad key"')))
    expect(byCode("kv-expiration_ttl")[0]!.range).toEqual(rangeOf(text, "30"))
    expect(byCode("kv-base64")[0]!.range).toEqual(rangeOf(text, "!", text.indexOf('"!!"')))
    const dup = byCode("kv-duplicate-key")
    expect(dup).toHaveLength(1)
    expect(dup[0]!.severity).toBe(2)
    expect(dup[0]!.range).toEqual(rangeOf(text, '"a"'))
    expect(dup[0]!.relatedInformation![0]!.location.range).toEqual(rangeOf(text, '"a"', text.indexOf('"three"') - 20))
    const unknown = byCode("kv-unknown-property")[0]!
    const actions = (await client.connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri: u },
      range: unknown.range,
      context: { diagnostics: [unknown] }
    })) as Array<{ title: string; edit: { changes: Record<string, Array<never>> } }>
    const rename = actions.find((a) => a.title === 'Rename to "expiration_ttl"')!
    expect(JSON.parse(apply(text, rename.edit.changes[u]!))[3]).toEqual({
      key: "a",
      value: "three",
      expiration_ttl: 600
    })
  })

  it("warns on previous-WAF resources in Terraform, parsed with the HCL grammar", async () => {
    const text = fixture("waf.tf")
    const u = uri("waf.tf")
    const d = await client.open(u, text, "terraform")
    expect(d.diagnostics.map((x) => [x.code, x.range])).toEqual([
      ["terraform-previous-waf", rangeOf(text, '"cloudflare_waf_package"')],
      ["terraform-previous-waf", rangeOf(text, '"cloudflare_waf_group"')]
    ])
    const broken = 'resource "cloudflare_waf_rule" "r" {\n  rule_id = \n}\n'
    const d2 = await client.open(uri("broken.tf"), broken, "terraform")
    expect(d2.diagnostics.map((x) => x.code)).toContain("hcl-syntax")
  })

  it("shuts down and exits with 0", async () => {
    expect(await client.close()).toBe(0)
  })
})

describe("edgectl lsp: incremental re-checks of a KV bulk file", () => {
  it("re-checks the edited entry and keeps the others' diagnostics where they moved", async () => {
    const c = await startLsp()
    try {
      const entries = Array.from({ length: 50 }, (_, i) => `  {"key": "k${i}", "value": "v${i}"}`)
      entries[10] = '  {"key": "k10", "value": "v10", "expiration_ttl": 5}'
      const text = `[\n${entries.join(",\n")}\n]\n`
      const u = "file:///work/project/inc.json"
      const d1 = await c.open(u, text, "json")
      expect(d1.diagnostics.map((x) => x.code)).toEqual(["kv-expiration_ttl"])
      // Entry 3: a longer key that duplicates entry 40's; everything after it moves right.
      const next = c.diagnostics(u)
      await c.connection.sendNotification("textDocument/didChange", {
        textDocument: { uri: u, version: 2 },
        contentChanges: [{ range: rangeOf(text, '"k3"'), text: '"k40"' }]
      })
      const d2 = await next
      const after = text.replace('"k3"', '"k40"')
      expect(d2.diagnostics.map((x) => [x.code, x.range])).toEqual([
        ["kv-duplicate-key", rangeOf(after, '"k40"')],
        ["kv-expiration_ttl", rangeOf(after, "5", after.indexOf('"expiration_ttl": 5'))]
      ])
      // An edit that breaks the entry's JSON falls back to a full check.
      const broken = c.diagnostics(u)
      await c.connection.sendNotification("textDocument/didChange", {
        textDocument: { uri: u, version: 3 },
        contentChanges: [{ range: rangeOf(after, '"v20"}'), text: '"v20"' }]
      })
      expect((await broken).diagnostics.map((x) => x.code)).toContain("json-syntax")
    } finally {
      await c.close()
    }
  })
})
