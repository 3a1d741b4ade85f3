/** The WAF documents and the Terraform rewrite, through the real server over stdio. */
import * as fs from "node:fs"
import * as path from "node:path"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectl, root, tempDir } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"

let client: Awaited<ReturnType<typeof startLsp>>
const fixture = (name: string) => fs.readFileSync(path.join(root, "fixtures", "lsp", name), "utf8")
const pos = (text: string, offset: number) => TextDocument.create("x", "x", 0, text).positionAt(offset)
const rangeOf = (text: string, needle: string, from = 0) => {
  const start = text.indexOf(needle, from)
  expect(start).toBeGreaterThanOrEqual(0)
  return { start: pos(text, start), end: pos(text, start + needle.length) }
}
type Edit = {
  range: { start: { line: number; character: number }; end: { line: number; character: number } }
  newText: string
}
const apply = (text: string, edits: ReadonlyArray<Edit>) =>
  TextDocument.applyEdits(TextDocument.create("x", "x", 0, text), [...edits])
interface Action {
  title: string
  kind: string
  edit?: { changes?: Record<string, Array<Edit>>; documentChanges?: Array<any> }
  command?: { command: string; arguments: Array<string> }
}
const actionsAt = async (uri: string, range: unknown, diagnostics: ReadonlyArray<unknown> = []) =>
  (await client.connection.sendRequest("textDocument/codeAction", {
    textDocument: { uri },
    range,
    context: { diagnostics }
  })) as Array<Action>

beforeAll(async () => {
  client = await startLsp()
})
afterAll(async () => {
  await client.close()
})

describe("WAF documents in the language server", () => {
  it("checks a WAF configuration: every problem of each rule, thresholds, skip order; simulate -> log and the move as fixes", async () => {
    const text = fixture("waf-config.json")
    const u = "file:///p/waf-config.json"
    const d = await client.open(u, text, "json")
    expect(d.diagnostics.map((x) => x.code)).toEqual([
      "waf-config",
      "waf-score-threshold",
      "waf-config",
      "waf-skip-order",
      "unknown-field",
      "waf-config"
    ])
    const simulate = d.diagnostics[2]!
    expect(simulate.range).toEqual(rangeOf(text, '"simulate"'))
    const fix = (await actionsAt(u, simulate.range, [simulate])).find((a) =>
      a.title.startsWith('Change "simulate" to "log"')
    )!
    expect(JSON.parse(apply(text, fix.edit!.changes![u]!)).rules[0].action_parameters.overrides.rules[0].action).toBe(
      "log"
    )
    expect(d.diagnostics[5]!.range).toEqual(rangeOf(text, '"00000000000000000000000000000000"'))

    const skip = d.diagnostics[3]!
    expect(skip.relatedInformation![0]!.message).toContain("rules[0] executes")
    const move = (await actionsAt(u, skip.range, [skip])).find((a) => a.title.startsWith("Move rules[1]"))!
    const moved = JSON.parse(apply(text, move.edit!.changes![u]!))
    expect(moved.rules.map((r: { action: string }) => r.action)).toEqual(["skip", "execute", "execute"])
    expect(moved.rules[0]).toEqual(JSON.parse(text).rules[1])
  })

  it("reports id/version/ref against the update a file is named for, and removes them for the validation update", async () => {
    const body = JSON.stringify(
      {
        name: "default",
        rules: [
          {
            id: "",
            version: "",
            ref: "",
            action: "execute",
            expression: "true",
            action_parameters: { id: "efb7b8c949ac4650a09736fc376e9aee" }
          }
        ]
      },
      null,
      2
    )
    const u = "file:///p/waf.validation.json"
    const d = await client.open(u, body, "json")
    expect(d.diagnostics.map((x) => x.code)).toEqual(["waf-config", "waf-config", "waf-config"])
    expect(d.diagnostics.map((x) => x.message.slice(0, x.message.indexOf(":")))).toEqual([
      "rules[0].id",
      "rules[0].version",
      "rules[0].ref"
    ])
    expect(d.diagnostics[0]!.message).toContain(
      "the validation update (waf_migration=validation) omits id, version and ref"
    )
    const remove = (await actionsAt(u, d.diagnostics[0]!.range, d.diagnostics)).find((a) =>
      a.title.startsWith("Remove id, version and ref")
    )!
    const fixed = JSON.parse(apply(body, remove.edit!.changes![u]!))
    expect(Object.keys(fixed.rules[0])).toEqual(["action", "expression", "action_parameters"])

    // Trailing properties: the edits take the comma before them.
    const trailing = JSON.stringify(
      {
        name: "default",
        rules: [
          {
            action: "execute",
            expression: "true",
            action_parameters: { id: "efb7b8c949ac4650a09736fc376e9aee" },
            id: "",
            version: "",
            ref: ""
          }
        ]
      },
      null,
      2
    )
    const u2 = "file:///p/trailing.validation.json"
    const d2 = await client.open(u2, trailing, "json")
    const remove2 = (await actionsAt(u2, d2.diagnostics[0]!.range, d2.diagnostics)).find((a) =>
      a.title.startsWith("Remove id, version and ref")
    )!
    expect(Object.keys(JSON.parse(apply(trailing, remove2.edit!.changes![u2]!)).rules[0])).toEqual([
      "action",
      "expression",
      "action_parameters"
    ])
  })

  it("completes managed ruleset ids and actions in a WAF configuration", async () => {
    const text = '{"name": "default", "rules": [{"action": "", "expression": "true", "action_parameters": {"id": ""}}]}'
    const u = "file:///p/complete-waf.json"
    await client.open(u, text, "json")
    const ids = (await client.connection.sendRequest("textDocument/completion", {
      textDocument: { uri: u },
      position: pos(text, text.indexOf('"id": ""') + 7)
    })) as {
      items: Array<{ label: string; detail: string }>
    }
    expect(ids.items.map((i) => i.label)).toEqual([
      "efb7b8c949ac4650a09736fc376e9aee",
      "4814384a9e5d4991b9815dcfc25d2f1f"
    ])
    const actions = (await client.connection.sendRequest("textDocument/completion", {
      textDocument: { uri: u },
      position: pos(text, text.indexOf('"action": ""') + 11)
    })) as {
      items: Array<{ label: string }>
    }
    expect(actions.items.map((i) => i.label)).toEqual(["execute", "skip"])
  })

  it("shows the migration in a previous-WAF export and generates the same configuration as `waf config`", async () => {
    const cwd = tempDir()
    expect(
      edgectl(["waf", "export", "--zone", "globex.com", "--output", "globex.waf-export.json"], { cwd }).status
    ).toBe(0)
    const config = edgectl(["waf", "config", "--zone", "globex.com", "--json"], { cwd })
    expect(config.status).toBe(0)
    const text = fs.readFileSync(path.join(cwd, "globex.waf-export.json"), "utf8")
    const u = `file://${cwd}/globex.waf-export.json`
    const d = await client.open(u, text, "json")
    const codes = d.diagnostics.map((x) => `${x.severity}:${x.code}`)
    expect(codes).toContain("2:waf-not-migrated")
    expect(codes).toContain("3:waf-mapping")
    const sensitivity = d.diagnostics.find((x) => x.message.startsWith("sensitivity Low"))!
    expect(sensitivity.message).toContain("PL1, threshold 40 (Medium)")
    expect(sensitivity.range).toEqual(rangeOf(text, '"low"', text.indexOf('"sensitivity"')))

    const hover = (await client.connection.sendRequest("textDocument/hover", {
      textDocument: { uri: u },
      position: pos(text, text.indexOf('"challenge"', text.indexOf('"action_mode"')) + 2)
    })) as {
      contents: { value: string }
    }
    expect(hover.contents.value).toContain("Challenge stays challenge")

    const generate = (await actionsAt(u, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } })).find(
      (a) => a.title.startsWith("Generate the new WAF configuration")
    )!
    expect(generate.kind).toBe("source")
    const [create, write] = generate.edit!.documentChanges!
    expect(create).toMatchObject({ kind: "create", uri: `file://${cwd}/globex.waf-config.json` })
    expect(apply("", write.edits)).toBe(config.stdout)
  })

  it("makes URI-based overrides blockers, with the delete command as the action", async () => {
    const text = fixture("acme.net.waf-export.json")
    const u = "file:///p/acme.net.waf-export.json"
    const d = await client.open(u, text, "json")
    const blocker = d.diagnostics.find((x) => x.code === "waf-uri-override")!
    expect(blocker.severity).toBe(1)
    const id = JSON.parse(text).overrides[0].id as string
    expect(blocker.range).toEqual(rangeOf(text, `"${id}"`))
    const del = (await actionsAt(u, blocker.range, [blocker])).find((a) => a.command !== undefined)!
    expect(del.command).toEqual({
      command: "edgectl.runCommand",
      title: del.title,
      arguments: [`edgectl waf overrides delete --zone acme.net ${id}`]
    })
  })

  it("rewrites previous-WAF Terraform resources to a cloudflare_ruleset with the state steps", async () => {
    const text = fixture("waf.tf")
    const u = "file:///p/waf.tf"
    const d = await client.open(u, text, "terraform")
    const rewrite = (await actionsAt(u, d.diagnostics[0]!.range, [d.diagnostics[0]])).find((a) =>
      a.title.startsWith("Add the equivalent cloudflare_ruleset")
    )!
    const out = apply(text, rewrite.edit!.changes![u]!)
    expect(out.startsWith(text.slice(0, text.indexOf('resource "cloudflare_record"')).trimEnd())).toBe(true)
    expect(out).toContain('resource "cloudflare_ruleset" "managed_waf" {\n  zone_id = var.zone_id\n')
    expect(out).toContain('phase   = "http_request_firewall_managed"')
    expect(out).toContain("#   1. terraform import cloudflare_ruleset.managed_waf zone/<zone_id>/<ruleset_id>")
    expect(out).toContain("#   2. terraform state rm cloudflare_waf_package.owasp")
    expect(out).toContain("#      terraform state rm cloudflare_waf_group.wordpress")
    // High + simulate: PL2, threshold 40, log; the WordPress group off: its rules disabled (no pin: provider 3.35's blocks).
    expect(out).toMatch(/action\s+= "log"\n\s+score_threshold = 40/)
    expect(out).toContain('category = "paranoia-level-3"')
    expect(out).toMatch(/id\s+= "[0-9a-f]{32}"\n\s+status = "disabled"/)
    // The result is valid HCL: re-checked, the previous-WAF warnings remain, no second rewrite is offered, and a note says why.
    const d2 = client.diagnostics(u)
    await client.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri: u, version: 2 },
      contentChanges: [{ text: out }]
    })
    const after = await d2
    expect(after.diagnostics.map((x) => x.code)).toEqual([
      "terraform-previous-waf",
      "terraform-rewrite-existing-ruleset",
      "terraform-previous-waf"
    ])
    expect(
      (await actionsAt(u, after.diagnostics[0]!.range, [after.diagnostics[0]])).filter((a) =>
        a.title.startsWith("Add the equivalent")
      )
    ).toEqual([])
  })
})
