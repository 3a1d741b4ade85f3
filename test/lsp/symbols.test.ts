/**
 * Document symbols (the editor's outline) and folding ranges over stdio, for the documents the
 * server knows: .rules files, firewall rules, filters and ruleset rules in JSON, the WAF
 * configuration, KV bulk files and Terraform (HCL and *.tf.json); other JSON gets none.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startLsp } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
let n = 0

interface Sym {
  name: string
  kind: number
  detail?: string
  range: { start: { line: number; character: number }; end: { line: number; character: number } }
  children?: Array<Sym>
}

const open = async (text: string, ext: string, languageId = "plaintext") => {
  const uri = `file:///work/project/s${n++}.${ext}`
  await client.open(uri, text, languageId)
  const symbols = (await client.connection.sendRequest("textDocument/documentSymbol", {
    textDocument: { uri }
  })) as Array<Sym> | null
  const folds = (await client.connection.sendRequest("textDocument/foldingRange", { textDocument: { uri } })) as Array<{
    startLine: number
    endLine: number
  }> | null
  return { uri, symbols: symbols ?? [], folds: folds ?? [] }
}

beforeAll(async () => {
  client = await startLsp()
})
afterAll(async () => {
  await client.close()
})

describe("document symbols and folding", () => {
  it("advertises both", () => {
    expect(client.capabilities.documentSymbolProvider).toBe(true)
    expect(client.capabilities.foldingRangeProvider).toBe(true)
  })

  it("lists firewall rules by description (else ref, else expression) with their action, and folds each", async () => {
    const text = [
      "[",
      "  {",
      '    "description": "block the admin area",',
      '    "action": "block",',
      '    "filter": {"expression": "http.request.uri.path contains \\"/admin\\""}',
      "  },",
      '  {"ref": "r2", "action": "allow", "filter": {"expression": "ip.src eq 1.2.3.4"}},',
      '  {"action": "log", "filter": {"expression": "ssl"}}',
      "]",
      ""
    ].join("\n")
    const { symbols, folds } = await open(text, "json", "json")
    expect(symbols.map((s) => [s.name, s.detail])).toEqual([
      ["block the admin area", "block"],
      ["r2", "allow"],
      ["ssl", "log"]
    ])
    expect(symbols[0]!.range).toEqual({ start: { line: 1, character: 2 }, end: { line: 5, character: 3 } })
    expect(folds).toEqual(
      expect.arrayContaining([
        { startLine: 0, endLine: 7, kind: "region" },
        { startLine: 1, endLine: 4, kind: "region" }
      ])
    )
  })

  it("lists filters and ruleset rules, and a WAF configuration's rules", async () => {
    const filters = await open(
      '[{"id": "f1", "expression": "ssl"}, {"description": "hosts", "expression": "http.host eq \\"a\\""}]\n',
      "json",
      "json"
    )
    expect(filters.symbols.map((s) => [s.name, s.detail])).toEqual([
      ["f1", "filter"],
      ["hosts", "filter"]
    ])
    const ruleset = await open(
      '{"rules": [{"expression": "ip.src eq 1.2.3.4", "action": "block", "description": "one"}]}\n',
      "json",
      "json"
    )
    expect(ruleset.symbols.map((s) => [s.name, s.detail])).toEqual([["one", "block"]])
    const waf = await open(
      JSON.stringify(
        {
          rules: [
            {
              action: "execute",
              expression: "true",
              description: "managed",
              action_parameters: { id: "efb7b8c949ac4650a09736fc376e9aee" }
            }
          ]
        },
        null,
        2
      ) + "\n",
      "json",
      "json"
    )
    expect(waf.symbols.map((s) => [s.name, s.detail])).toEqual([["managed", "execute"]])
    expect(waf.folds.length).toBeGreaterThan(1)
  })

  it("lists a KV bulk file's entries by key and leaves other JSON to the JSON server", async () => {
    const bulk = await open(
      '[\n  {"key": "a", "value": "1"},\n  {\n    "key": "b",\n    "value": "2",\n    "metadata": {\n      "x": 1\n    }\n  }\n]\n',
      "json",
      "json"
    )
    expect(bulk.symbols.map((s) => [s.name, s.detail])).toEqual([
      ["a", "entry 0"],
      ["b", "entry 1"]
    ])
    expect(bulk.symbols[1]!.range.start).toEqual({ line: 2, character: 2 })
    expect(bulk.folds).toEqual([
      { startLine: 0, endLine: 8, kind: "region" },
      { startLine: 2, endLine: 7, kind: "region" },
      { startLine: 5, endLine: 6, kind: "region" }
    ])
    const other = await open('{\n  "dashboard": {"expression": "whatever"},\n  "x": [1,\n 2]\n}\n', "json", "json")
    expect(other.symbols).toEqual([])
    expect(other.folds).toEqual([])
  })

  it("lists a .rules file's top-level conditions and folds its multi-line groups", async () => {
    const { symbols, folds } = await open(
      'http.host eq "a"\nand (\n  ip.src eq 1.2.3.4\n  or ssl\n)\nand not ssl\n',
      "rules"
    )
    expect(symbols.map((s) => [s.name, s.detail])).toEqual([
      ['http.host eq "a"', "and"],
      ["( ip.src eq 1.2.3.4 or ssl )", "and"],
      ["not ssl", "and"]
    ])
    expect(folds).toEqual([{ startLine: 1, endLine: 3, kind: "region" }])
  })

  it("lists Terraform resources with their blocks, a ruleset's rules by description (blocks and 5.x objects)", async () => {
    const tf = [
      'resource "cloudflare_ruleset" "waf" {',
      '  zone_id = "abc"',
      "  rules {",
      '    action      = "block"',
      '    expression  = "ip.src eq 1.2.3.4"',
      '    description = "block one"',
      "  }",
      "}",
      "",
      'resource "cloudflare_ruleset" "v5" {',
      "  rules = [",
      "    {",
      '      ref        = "r1"',
      '      expression = "ssl"',
      "    }",
      "  ]",
      "}",
      ""
    ].join("\n")
    const { symbols, folds } = await open(tf, "tf", "terraform")
    expect(symbols.map((s) => s.name)).toEqual(["resource cloudflare_ruleset.waf", "resource cloudflare_ruleset.v5"])
    expect(symbols[0]!.children!.map((c) => c.name)).toEqual(["zone_id", "rules: block one"])
    expect(symbols[1]!.children![0]!.children!.map((c) => c.name)).toEqual(["r1"])
    expect(folds).toEqual(
      expect.arrayContaining([
        { startLine: 0, endLine: 6, kind: "region" },
        { startLine: 2, endLine: 5, kind: "region" },
        { startLine: 10, endLine: 14, kind: "region" }
      ])
    )
    const json = await open(
      '{\n  "resource": {\n    "cloudflare_filter": {"f": {"expression": "ssl"}}\n  }\n}\n',
      "tf.json",
      "json"
    )
    expect(json.symbols.map((s) => [s.name, s.children?.map((c) => c.name)])).toEqual([
      ["resource", ["cloudflare_filter.f"]]
    ])
  })

  it("follows incremental changes", async () => {
    const uri = "file:///work/project/edit.json"
    const text = '[\n  {"key": "a", "value": "1"}\n]\n'
    await client.open(uri, text, "json")
    await client.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [
        { range: { start: { line: 1, character: 11 }, end: { line: 1, character: 12 } }, text: "renamed" }
      ]
    })
    const symbols = (await client.connection.sendRequest("textDocument/documentSymbol", {
      textDocument: { uri }
    })) as Array<Sym>
    expect(symbols.map((s) => s.name)).toEqual(["renamed"])
  })

  it("caps a huge bulk file's outline at 5,000 entries, and folds at the client's rangeLimit", async () => {
    const entries = Array.from({ length: 5010 }, (_, i) => `  {\n    "key": "k${i}",\n    "value": "v"\n  }`)
    const { symbols, folds } = await open(`[\n${entries.join(",\n")}\n]\n`, "json", "json")
    expect(symbols).toHaveLength(5000)
    expect(symbols[4999]!.name).toBe("k4999")
    expect(folds.length).toBeGreaterThanOrEqual(5000)
    const limited = await startLsp({}, { textDocument: { foldingRange: { rangeLimit: 2 } } })
    try {
      const uri = "file:///work/project/limited.json"
      await limited.open(uri, `[\n${entries.slice(0, 5).join(",\n")}\n]\n`, "json")
      const r = (await limited.connection.sendRequest("textDocument/foldingRange", {
        textDocument: { uri }
      })) as Array<unknown>
      expect(r).toHaveLength(2)
    } finally {
      await limited.close()
    }
  })
})
