/**
 * Semantic tokens of the rules language over stdio: in .rules files, and inside JSON and Terraform
 * expression strings, where each token lands on the characters of the file (through escapes).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startLsp } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
let n = 0
let legend: { tokenTypes: Array<string>; tokenModifiers: Array<string> }

/** The document's tokens as [text in the file, type, modifiers], decoded from the relative encoding. */
const tokensOf = async (text: string, ext: string, languageId = "plaintext") => {
  const uri = `file:///work/project/t${n++}.${ext}`
  await client.open(uri, text, languageId)
  const r = (await client.connection.sendRequest("textDocument/semanticTokens/full", { textDocument: { uri } })) as {
    data: Array<number>
  }
  const lines = text.split("\n")
  const out: Array<[string, string, Array<string>]> = []
  let line = 0
  let char = 0
  for (let i = 0; i < r.data.length; i += 5) {
    const [dl, dc, len, type, mods] = r.data.slice(i, i + 5) as [number, number, number, number, number]
    char = dl === 0 ? char + dc : dc
    line += dl
    out.push([
      lines[line]!.slice(char, char + len),
      legend.tokenTypes[type]!,
      legend.tokenModifiers.filter((_, k) => mods & (1 << k))
    ])
  }
  return out
}
const pairs = (t: Array<[string, string, Array<string>]>) => t.map(([text, type]) => [text, type])

beforeAll(async () => {
  client = await startLsp()
  legend = (client.capabilities.semanticTokensProvider as { legend: typeof legend }).legend
})
afterAll(async () => {
  await client.close()
})

describe("semantic tokens", () => {
  it("has a legend of standard token types and serves full documents", () => {
    expect(legend.tokenTypes).toEqual(
      expect.arrayContaining(["property", "function", "keyword", "operator", "string", "regexp", "number"])
    )
    expect(client.capabilities.semanticTokensProvider).toMatchObject({ full: true })
  })

  it("colours fields, functions, operators, keywords, strings, numbers, IPs and CIDRs, regexes and lists in a .rules file", async () => {
    const text = [
      'lower(http.host) eq "example.com" and not ssl',
      "or ip.src in {10.0.0.0/8 192.0.2.1} xor tcp.dstport ge 1024",
      'and http.request.uri.path matches "^/admin" && ip.src in $blocked',
      ""
    ].join("\n")
    expect(pairs(await tokensOf(text, "rules"))).toEqual([
      ["lower", "function"],
      ["http.host", "property"],
      ["eq", "operator"],
      ['"example.com"', "string"],
      ["and", "keyword"],
      ["not", "keyword"],
      ["ssl", "property"],
      ["or", "keyword"],
      ["ip.src", "property"],
      ["in", "keyword"],
      ["10.0.0.0/8", "enumMember"],
      ["192.0.2.1", "enumMember"],
      ["xor", "keyword"],
      ["tcp.dstport", "property"],
      ["ge", "operator"],
      ["1024", "number"],
      ["and", "keyword"],
      ["http.request.uri.path", "property"],
      ["matches", "operator"],
      ['"^/admin"', "regexp"],
      ["&&", "operator"],
      ["ip.src", "property"],
      ["in", "keyword"],
      ["$blocked", "variable"]
    ])
  })

  it("marks a deprecated field", async () => {
    const t = await tokensOf('ip.geoip.country eq "FR"\n', "rules")
    expect(t[0]).toEqual(["ip.geoip.country", "property", ["deprecated"]])
  })

  it("maps tokens inside a JSON string through its escapes onto the file", async () => {
    const text =
      '[{"action": "block", "filter": {"expression": "http.host eq \\"caf\\u00e9\\" and ip.src eq 1.2.3.4"}}]\n'
    expect(pairs(await tokensOf(text, "json", "json"))).toEqual([
      ["http.host", "property"],
      ["eq", "operator"],
      ['\\"caf\\u00e9\\"', "string"],
      ["and", "keyword"],
      ["ip.src", "property"],
      ["eq", "operator"],
      ["1.2.3.4", "enumMember"]
    ])
    // Other JSON has no rules in it: no tokens.
    expect(
      await tokensOf('{"title": "alerts", "data": [{"refId": "A", "expression": "http.host eq 1"}]}\n', "json", "json")
    ).toEqual([])
  })

  it("colours expressions in Terraform strings and heredocs, one token per line", async () => {
    const tf = [
      'resource "cloudflare_ruleset" "r" {',
      "  rules {",
      '    expression = "http.host eq \\"a\\""',
      "  }",
      "  rules {",
      "    expression = <<-EOT",
      '      http.host in {"a"',
      '        "b"} or ssl',
      "    EOT",
      "  }",
      "}",
      ""
    ].join("\n")
    expect(pairs(await tokensOf(tf, "tf", "terraform"))).toEqual([
      ["http.host", "property"],
      ["eq", "operator"],
      ['\\"a\\"', "string"],
      ["http.host", "property"],
      ["in", "keyword"],
      ['"a"', "string"],
      ['"b"', "string"],
      ["or", "keyword"],
      ["ssl", "property"]
    ])
  })

  it("follows incremental changes", async () => {
    const uri = "file:///work/project/tok-edit.rules"
    await client.open(uri, "ssl\n")
    await client.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [
        { range: { start: { line: 0, character: 3 }, end: { line: 0, character: 3 } }, text: " and http.host" }
      ]
    })
    const r = (await client.connection.sendRequest("textDocument/semanticTokens/full", { textDocument: { uri } })) as {
      data: Array<number>
    }
    expect(r.data.length / 5).toBe(3)
  })
})
