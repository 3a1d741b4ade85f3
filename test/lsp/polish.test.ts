/** The polish list of the migration assistant: each through the language server or `edgectl check`. */
import * as fs from "node:fs"
import * as path from "node:path"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectl, root, tempDir } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
const pos = (text: string, offset: number) => TextDocument.create("x", "x", 0, text).positionAt(offset)

beforeAll(async () => {
  client = await startLsp()
})
afterAll(async () => {
  await client.close()
})

describe("polish", () => {
  it("lists each fix once in a whole-document code action request, with every diagnostic it fixes", async () => {
    const text = fs.readFileSync(path.join(root, "fixtures", "lsp", "waf.tf"), "utf8")
    const u = "file:///p/polish-waf.tf"
    const d = await client.open(u, text, "terraform")
    expect(d.diagnostics.length).toBeGreaterThanOrEqual(2)
    const lines = text.split("\n")
    const actions = (await client.connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri: u },
      range: { start: { line: 0, character: 0 }, end: { line: lines.length - 1, character: 0 } },
      context: { diagnostics: d.diagnostics }
    })) as Array<{ title: string; edit?: unknown; diagnostics?: Array<unknown> }>
    expect(actions.length).toBeGreaterThan(0)
    const keys = actions.map((a) => JSON.stringify([a.title, a.edit]))
    expect(new Set(keys).size).toBe(keys.length)
  })

  it("names an unclosed parenthesis's place by line and column, not by a 0-based offset", async () => {
    const text = 'http.host eq "a" and\n  (ip.src eq 192.0.2.1 or ssl\n'
    const d = await client.open("file:///p/paren.rules", text)
    const unclosed = d.diagnostics.find((x) => x.code === "unclosed-parenthesis")!
    expect(unclosed.message).toContain("expected ) to close the ( at line 2, column 3")
    expect(unclosed.message).not.toContain("offset")
  })

  it("highlights the bad base64 character (through escapes and line breaks), not the whole value", async () => {
    const text = '[{"key": "b", "value": "QUJD\\nRE@F", "base64": true}]\n'
    const d = await client.open("file:///p/b64.json", text, "json")
    const bad = d.diagnostics.find((x) => x.code === "kv-base64")!
    expect(bad.range).toEqual({ start: pos(text, text.indexOf("@")), end: pos(text, text.indexOf("@") + 1) })
  })

  it("reports one JSON syntax error once", async () => {
    const text =
      '[\n  {"filter": {"expression": "ssl}, "action": "block"},\n  {"filter": {"expression": "ssl"}, "action": "log"}\n]\n'
    const d = await client.open("file:///p/syntax.json", text, "json")
    expect(d.diagnostics.filter((x) => x.code === "json-syntax")).toHaveLength(1)
  })

  it("writes SARIF paths against %SRCROOT% (originalUriBaseIds) and a help text for each rule", () => {
    const dir = tempDir()
    fs.mkdirSync(path.join(dir, "rules"))
    fs.writeFileSync(path.join(dir, "rules", "bad one.rules"), "http.hots eq 1\n")
    const r = edgectl(["check", "--format", "sarif", "rules/bad one.rules", path.join(dir, "rules", "bad one.rules")], {
      cwd: dir
    })
    const run = JSON.parse(r.stdout).runs[0]
    expect(run.originalUriBaseIds["%SRCROOT%"].uri).toBe(`file://${fs.realpathSync(dir)}/`)
    expect(run.results[0].locations[0].physicalLocation.artifactLocation).toEqual({
      uri: "rules/bad%20one.rules",
      uriBaseId: "%SRCROOT%"
    })
    const absolute = run.results.at(-1).locations[0].physicalLocation.artifactLocation
    expect(absolute.uriBaseId).toBeUndefined()
    expect(absolute.uri).toMatch(/^file:\/\/\/.*bad%20one\.rules$/)
    for (const rule of run.tool.driver.rules) expect(rule.help.markdown).toMatch(/\]\(docs\/[a-z-]+\.md#[a-z-]+\)/)
  })
})
