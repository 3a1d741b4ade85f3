/**
 * The code actions that write a file beside the document never overwrite one: a name taken on
 * disk (a hand-edited `*.custom-rules.json`) or by an open document gets the next free name, the
 * create says `overwrite: false`, and replacing the file is a second action whose title says so.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { root, tempDir } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client

interface Action {
  title: string
  kind: string
  diagnostics?: Array<{ code: string }>
  edit?: {
    documentChanges: [
      { kind: string; uri: string; options: unknown },
      { textDocument: { uri: string }; edits: Array<{ newText: string }> }
    ]
  }
}

const firewallAnswer = `${JSON.stringify(
  {
    success: true,
    errors: [],
    messages: [],
    result: [
      {
        id: "r-block",
        action: "block",
        priority: 1,
        paused: false,
        description: "admin",
        filter: { id: "f1", expression: 'http.request.uri.path contains "/admin"', paused: false }
      }
    ]
  },
  null,
  2
)}\n`

const actionsOf = async (uri: string, text: string, title: string) => {
  await client.open(uri, text, "json")
  const all = (await client.connection.sendRequest("textDocument/codeAction", {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 999, character: 0 } },
    context: { diagnostics: [] }
  })) as Array<Action>
  return all.filter((a) => a.title.includes(title))
}

beforeAll(async () => {
  client = await startLsp({ debounceMs: 0 })
})
afterAll(async () => {
  await client.close()
})

describe("file-writing code actions never overwrite a file", () => {
  it("a free name is written as it is, refusing to overwrite should the file appear meanwhile", async () => {
    const dir = tempDir("edgectl-lsp-files-")
    const uri = pathToFileURL(path.join(dir, "fresh.json")).href
    const actions = await actionsOf(uri, firewallAnswer, "WAF custom rules")
    expect(actions).toHaveLength(1)
    expect(actions[0]!.edit!.documentChanges[0]).toEqual({
      kind: "create",
      uri: pathToFileURL(path.join(dir, "fresh.custom-rules.json")).href,
      options: { overwrite: false, ignoreIfExists: false }
    })
  })

  it("a hand-edited custom rules file on disk is kept: the next free name, and replacing it is its own action", async () => {
    const dir = tempDir("edgectl-lsp-files-")
    fs.writeFileSync(path.join(dir, "zone.custom-rules.json"), '{"rules": [{"expression": "hand edited"}]}\n')
    fs.writeFileSync(path.join(dir, "zone.custom-rules.2.json"), "{}\n")
    const uri = pathToFileURL(path.join(dir, "zone.json")).href
    const actions = await actionsOf(uri, firewallAnswer, "WAF custom rules")
    expect(actions.map((a) => a.title.replace(/ \(.*$/s, ""))).toEqual([
      "Write the equivalent WAF custom rules",
      "Replace zone.custom-rules.json"
    ])
    const [write, replace] = actions as [Action, Action]
    expect(write.title).toContain("zone.custom-rules.3.json")
    expect(write.title).not.toContain("zone.custom-rules.json")
    expect(write.edit!.documentChanges[0]).toEqual({
      kind: "create",
      uri: pathToFileURL(path.join(dir, "zone.custom-rules.3.json")).href,
      options: { overwrite: false, ignoreIfExists: false }
    })
    expect(write.edit!.documentChanges[1].textDocument.uri).toBe(write.edit!.documentChanges[0].uri)
    expect(replace.title).toContain("overwrites the file that is there")
    expect(replace.edit!.documentChanges[0]).toEqual({
      kind: "create",
      uri: pathToFileURL(path.join(dir, "zone.custom-rules.json")).href,
      options: { overwrite: true }
    })
    expect(write.edit!.documentChanges[1].edits[0]!.newText).toBe(replace.edit!.documentChanges[1].edits[0]!.newText)
    // Asking changed nothing on disk.
    expect(fs.readFileSync(path.join(dir, "zone.custom-rules.json"), "utf8")).toContain("hand edited")
  })

  it("the generated WAF configuration takes a free name when one is open in the editor", async () => {
    const dir = tempDir("edgectl-lsp-files-")
    const text = fs.readFileSync(path.join(root, "fixtures", "lsp", "acme.net.waf-export.json"), "utf8")
    const open = await actionsOf(pathToFileURL(path.join(dir, "acme.net.waf-export.json")).href, text, "Generate")
    expect(open).toHaveLength(1)
    const name = /\(([^,)]+\.json)/.exec(open[0]!.title)![1]!
    // The editor holds an unsaved document by the configuration's name: it is not overwritten either.
    const taken = pathToFileURL(path.join(dir, name)).href
    await client.open(taken, "{}\n", "json")
    const again = await actionsOf(pathToFileURL(path.join(dir, "acme.net.waf-export.json")).href, text, "Generate")
    expect(again).toHaveLength(2)
    expect(again[0]!.edit!.documentChanges[0].uri).toBe(taken.replace(/\.json$/, ".2.json"))
    expect(again[1]!.edit!.documentChanges[0]).toMatchObject({ uri: taken, options: { overwrite: true } })
  })
})
