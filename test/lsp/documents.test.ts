/**
 * Which JSON documents the assistant checks and how, through the language server over stdio and
 * `edgectl check`, against what the commands themselves accept (`kv bulk put|delete`).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectl, root, tempDir } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"

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
    expect(d1.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["json-syntax", "invalid JSON: a trailing comma is not JSON\nhint: remove the comma"]
    ])
    expect(d1.diagnostics[0]!.range).toEqual(rangeOf(comma, ",", comma.indexOf('"2"}')))
    const comment = '[\n  // the first key\n  {"key": "a", "value": "1"}\n]\n'
    const d2 = await openJson(comment)
    expect(d2.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["json-syntax", "invalid JSON: comments are not JSON"]
    ])
    expect(d2.diagnostics[0]!.range.start).toEqual(pos(comment, comment.indexOf("//")))
  })

  it('checks bulk-delete files in the {"name": …} form, each bad item on its place', async () => {
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
    const h = (await client.connection.sendRequest("textDocument/hover", {
      textDocument: { uri: u },
      position: pos(text, text.indexOf('"metadata"') + 2)
    })) as { contents: { value: string } }
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
      const cmd = edgectl(
        ["kv", "bulk", verb, name, "--namespace-id", "agree", ...(verb === "delete" ? ["--yes"] : [])],
        { cwd: dir }
      )
      const check = edgectl(["check", name], { cwd: dir })
      expect([name, check.status], `${check.stdout}${check.stderr}`).toEqual([name, cmd.status])
      expect(cmd.status, `${name}: ${cmd.stderr}`).toBe(name.startsWith("ok-") ? 0 : 1)
    }
    // The same count of problems: the command's four invalid entries are check's four errors.
    const names = edgectl(["check", "names-delete.json", "--format", "json"], { cwd: dir })
    expect(JSON.parse(names.stdout).errors).toBe(4)
    expect(
      edgectl(["kv", "bulk", "delete", "names-delete.json", "--namespace-id", "agree", "--yes"], { cwd: dir }).stderr
    ).toContain("4 invalid entries")
  })
})

describe("the platform's documents, by shape or $schema; other JSON left alone", () => {
  const grafana = fs.readFileSync(path.join(root, "fixtures", "lsp", "grafana-alert.json"), "utf8")

  it('leaves a Grafana alert file with "expression" keys alone, in the server and in `edgectl check`', async () => {
    const d = await openJson(grafana, "grafana-alert.json")
    expect(d.diagnostics).toEqual([])
    const c = edgectl(["check", path.join(root, "fixtures", "lsp", "grafana-alert.json"), "--format", "json"])
    expect(c.status).toBe(0)
    expect(JSON.parse(c.stdout)).toMatchObject({ errors: 0, warnings: 0, files: [{ kind: "json", diagnostics: [] }] })
  })

  it("checks filters, firewall rules, ruleset rules, API answers and documents with an edgectl $schema", async () => {
    const bad = 'http.hots eq \\"x\\"'
    const docs = [
      `[{"expression": "${bad}", "description": "a filter"}]`,
      `{"filter": {"expression": "${bad}"}, "action": "block"}`,
      `{"name": "custom", "kind": "zone", "phase": "http_request_firewall_custom", "rules": [{"action": "block", "expression": "${bad}"}]}`,
      `{"success": true, "errors": [], "result": [{"id": "f1", "expression": "${bad}", "paused": false}]}`,
      `{"$schema": "https://edgectl.dev/schemas/anything.json", "checks": {"expression": "${bad}"}}`
    ]
    // The filters, the firewall rule and the Filters API answer are also documents of the unsupported APIs.
    const unsupported = [true, true, false, true, false]
    for (const [i, text] of docs.entries()) {
      const d = await openJson(`${text}\n`)
      expect(
        d.diagnostics.map((x) => x.code),
        text
      ).toEqual([...(unsupported[i] ? ["firewall-api-unsupported"] : []), "unknown-field"])
    }
  })

  it("takes a key listing for a keys file, but not another array of named things", async () => {
    const listing = await openJson('[{"name": "a b", "expiration": 1893456000}, {"name": "c"}]\n')
    expect(listing.diagnostics.map((x) => x.code)).toEqual(["kv-key"])
    const packages = await openJson('[{"name": "left pad", "version": "1.3.0"}, {"name": "", "version": "2"}]\n')
    expect(packages.diagnostics).toEqual([])
  })
})

describe("firewall rules in JSON are checked as the platform checks a rule", () => {
  it("refuses an unknown action, bypass without products, and a negative priority, each on its field", async () => {
    const text = [
      "[",
      '  {"filter": {"expression": "ip.src eq 192.0.2.1"}, "action": "deny"},',
      '  {"filter": {"expression": "http.host eq \\"a.example\\""}, "action": "bypass"},',
      '  {"filter": {"expression": "ssl"}, "action": "block", "priority": -1},',
      '  {"filter": {"expression": "ssl"}, "action": "log", "products": ["waf"]}',
      "]",
      ""
    ].join("\n")
    const all = await openJson(text)
    expect(all.diagnostics.filter((x) => x.code === "firewall-api-unsupported")).toHaveLength(1)
    const d = { diagnostics: all.diagnostics.filter((x) => x.code !== "firewall-api-unsupported") }
    const shown = d.diagnostics.map((x) => [x.code, x.message])
    expect(shown).toEqual([
      [
        "firewall-rule",
        '[0].action must be one of block, challenge, js_challenge, managed_challenge, allow, log, bypass, got string "deny"'
      ],
      [
        "firewall-rule",
        "[1].products is required with action bypass: one or more of zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf"
      ],
      ["firewall-rule", "[2].priority must be an integer between 0 and 2147483647 or null, got number -1"],
      ["firewall-rule", "[3].products is only allowed with action bypass (the action is log)"]
    ])
    expect(d.diagnostics[0]!.range).toEqual(rangeOf(text, '"deny"'))
    expect(d.diagnostics[1]!.range.start).toEqual(pos(text, text.indexOf('{"filter": {"expression": "http.host')))
    expect(d.diagnostics[2]!.range).toEqual(rangeOf(text, "-1"))
    expect(d.diagnostics[3]!.range).toEqual(rangeOf(text, '["waf"]'))
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, "rules.json"), text)
    const c = edgectl(["check", "rules.json"], { cwd: dir })
    expect(c.status).toBe(1)
    expect(c.stderr).toContain("4 errors")
  })
})

describe("the command code action", () => {
  it("shows the command line in a notification, never a blocking window/showMessageRequest", async () => {
    const command = "edgectl waf overrides delete --zone acme.net 0123abcd"
    const shown = new Promise<void>((resolve) => {
      const poll = () => (client.messages.some((m) => m.message.includes(command)) ? resolve() : setTimeout(poll, 5))
      poll()
    })
    const result = await client.connection.sendRequest("workspace/executeCommand", {
      command: "edgectl.runCommand",
      arguments: [command]
    })
    await shown
    expect(result).toBeNull()
    expect(client.messages.find((m) => m.message.includes(command))).toEqual({ type: 3, message: `Run: ${command}` })
    expect(client.serverRequests.map((r) => r.method)).not.toContain("window/showMessageRequest")
  })
})
