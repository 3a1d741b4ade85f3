/**
 * The JSON Schemas shipped in `schemas/` (issue 31, "What is missing"): the files are what the
 * module builds (one source), a JSON Schema validator accepts the files edgectl accepts and refuses
 * the ones it refuses, and the language server's completion offers the schema's names.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import AjvModule from "ajv"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { JSON_SCHEMAS, schemaText } from "../../src/lsp/json-schemas.js"
import { root } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"

const Ajv = AjvModule as unknown as typeof AjvModule.default
const validator = (file: string) => {
  const schema = JSON.parse(fs.readFileSync(path.join(root, "schemas", file), "utf8")) as object
  return new Ajv({ strict: false, allErrors: true }).compile(schema)
}
const fixture = (...p: Array<string>) =>
  JSON.parse(fs.readFileSync(path.join(root, "fixtures", ...p), "utf8")) as unknown

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
let n = 0
const pos = (text: string, offset: number) => TextDocument.create("x", "x", 0, text).positionAt(offset)
const completeAt = async (marked: string, file: string) => {
  const at = marked.indexOf("|")
  const text = marked.slice(0, at) + marked.slice(at + 1)
  const uri = `file:///work/schemas/${n++}-${file}`
  await client.open(uri, text, "json")
  const r = (await client.connection.sendRequest("textDocument/completion", {
    textDocument: { uri },
    position: pos(text, at)
  })) as { items: Array<{ label: string; detail: string; textEdit: { newText: string } }> } | null
  return r?.items ?? []
}

beforeAll(async () => {
  client = await startLsp()
})
afterAll(async () => {
  await client.close()
})

describe("the JSON Schemas shipped in schemas/", () => {
  it("are the files the module builds, and the package ships them", () => {
    expect([...JSON_SCHEMAS.keys()].sort()).toEqual(fs.readdirSync(path.join(root, "schemas")).sort())
    for (const [file, schema] of JSON_SCHEMAS)
      expect(fs.readFileSync(path.join(root, "schemas", file), "utf8"), `${file}: run node build.mjs`).toBe(
        schemaText(schema)
      )
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { files: Array<string> }
    expect(pkg.files).toContain("schemas")
  })

  it("accept the files edgectl accepts and refuse what it refuses", () => {
    const put = validator("kv-bulk-put.schema.json")
    expect(put(fixture("kv", "kv-bulk-put.request.json")), JSON.stringify(put.errors)).toBe(true)
    expect(put([{ key: "a", value: "b", expiration_ttl: 30 }])).toBe(false)
    expect(put([{ key: "a" }])).toBe(false)
    const del = validator("kv-bulk-delete.schema.json")
    expect(del(["a", { name: "b" }])).toBe(true)
    expect(del(["a", 42])).toBe(false)
    const waf = validator("waf-config.schema.json")
    const config = { $schema: "https://edgectl.dev/schemas/waf-config.schema.json", name: "default", rules: [] }
    expect(waf(config), JSON.stringify(waf.errors)).toBe(true)
    expect(waf({ name: "default", rules: [{ action: "execute" }] })).toBe(false)
    const custom = validator("custom-rules.schema.json")
    expect(custom({ rules: [{ action: "block", expression: "ssl" }] })).toBe(true)
    expect(custom({ rules: [{ action: "allow", expression: "ssl" }] })).toBe(false)
    const traffic = validator("replay-traffic.schema.json")
    const lines = fs
      .readFileSync(path.join(root, "fixtures", "waf", "traffic-sample.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.startsWith("#"))
    expect(lines.length).toBeGreaterThan(3)
    for (const l of lines) expect(traffic(JSON.parse(l)), `${l}: ${JSON.stringify(traffic.errors)}`).toBe(true)
    expect(traffic({ "http.hots": "a" })).toBe(false)
    // A line's time, for the rate limit replay: ISO, ms since 1970 or "+ms", beside id or in the request.
    expect(traffic({ at: "2026-11-28T08:00:00Z", "ip.src": "192.0.2.1" })).toBe(true)
    expect(traffic({ id: "a", at: 1764316800000, request: { "ip.src": "192.0.2.1" } })).toBe(true)
    expect(traffic({ id: "b", at: "+250", request: {} })).toBe(true)
    expect(traffic({ at: "+later" })).toBe(false)
    expect(traffic({ at: -1 })).toBe(false)
    expect(traffic({ "ip.src.asnum": "x" })).toBe(false)
  })

  it("are what the language server completes: a WAF configuration's rule, a custom rules document's, a bulk entry's", async () => {
    const waf = await completeAt('{"name": "default", "rules": [{"action": "execute", "|"}]}\n', "zone.waf-config.json")
    expect(waf.map((i) => i.label)).toEqual(expect.arrayContaining(["expression", "enabled", "action_parameters"]))
    expect(waf.map((i) => i.label)).not.toContain("action")
    const custom = await completeAt('{"rules": [{"expression": "ssl", "|"}]}\n', "zone.custom-rules.json")
    expect(custom.find((i) => i.label === "action")?.textEdit.newText).toBe('"action": ')
    const action = await completeAt('{"rules": [{"expression": "ssl", "action": |}]}\n', "zone.custom-rules.json")
    expect(action.map((i) => i.label)).toEqual(
      ["block", "challenge", "js_challenge", "managed_challenge", "log", "skip"].map((a) => JSON.stringify(a))
    )
    const kv = await completeAt('[{"key": "a", "value": "b", "|"}]\n', "seed.json")
    const schema = JSON.parse(fs.readFileSync(path.join(root, "schemas", "kv-bulk-put.schema.json"), "utf8")) as {
      items: { properties: Record<string, { description: string }> }
    }
    expect(kv.map((i) => [i.label, i.detail])).toEqual(
      Object.entries(schema.items.properties)
        .filter(([k]) => k !== "key" && k !== "value")
        .map(([k, p]) => [k, p.description])
    )
  })
})
