/**
 * The deprecation scanner in the editor (`edgectl lsp` through the suite's LSP client) and in
 * `edgectl check`: the same findings `edgectl scan` prints, in scripts and programs as in
 * Terraform and rules documents, with the rename code action and the command that moves it.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { TextDocument } from "vscode-languageserver-textdocument"
import { describe, expect, it } from "vitest"
import { edgectl, root, tempDir } from "../helpers/cli.js"
import { lspOnClock } from "../helpers/lsp-client.js"

const repo = path.join(root, "test", "fixtures", "scan-repo")
const NOW = "2026-11-24T12:00:00Z"

const lsp = lspOnClock(NOW)

interface Edit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } }
  newText: string
}
interface Action {
  title: string
  edit?: { changes?: Record<string, Array<Edit>> }
  command?: { command: string; arguments: Array<string> }
}

const scanJson = (file: string) =>
  JSON.parse(edgectl(["scan", "--json", file], { cwd: repo, env: { EDGECTL_PLATFORM_NOW: NOW } }).stdout) as {
    findings: Array<{ id: string; line: number; column: number; message: string; severity: string }>
  }

const SEVERITY: Record<string, number> = { error: 1, warning: 2, information: 3 }

describe("deprecations in the editor", () => {
  for (const [file, languageId] of [
    ["scripts/deploy.sh", "shellscript"],
    ["ops/cleanup.py", "python"],
    ["cmd/legacy/main.go", "go"],
    ["src/client.ts", "typescript"]
  ] as const) {
    it(`shows in ${file} what \`edgectl scan\` finds, at the same places, with the same messages`, async () => {
      const uri = `file://${path.join(tempDir(), path.basename(file))}`
      const d = await lsp().open(uri, fs.readFileSync(path.join(repo, file), "utf8"), languageId)
      const scanned = scanJson(file).findings
      expect(scanned.length).toBeGreaterThan(15)
      expect(
        d.diagnostics.map((x) => [x.code, x.range.start.line + 1, x.range.start.character + 1, x.severity])
      ).toEqual(scanned.map((f) => [f.id, f.line, f.column, SEVERITY[f.severity]]))
      expect(d.diagnostics.map((x) => x.message.split("\nhint: ")[0])).toEqual(scanned.map((f) => f.message))
    })
  }

  it("offers the KV route's rename as a code action, and the command that moves firewall rules", async () => {
    const uri = `file://${path.join(tempDir(), "kv.sh")}`
    const text =
      'curl -X PUT "$API/accounts/$ACCOUNT/workers/namespaces/$NS/values/k" --data v\ncurl -X POST "$API/zones/$ZONE/firewall/rules" --data @r.json\n'
    const d = await lsp().open(uri, text, "shellscript")
    expect(d.diagnostics.map((x) => [x.code, x.severity])).toEqual([
      ["DEP-KVLEGACY", 1],
      ["DEP-FR", 1]
    ])
    const kv = (await lsp().connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri },
      range: d.diagnostics[0]!.range,
      context: { diagnostics: [d.diagnostics[0]] }
    })) as Array<Action>
    const rename = kv.find((a) => a.title === "Replace with /storage/kv/namespaces")!
    const edits = rename.edit!.changes![uri]!
    const doc = TextDocument.create(uri, "shellscript", 1, text)
    expect(TextDocument.applyEdits(doc, edits).split("\n")[0]).toBe(
      'curl -X PUT "$API/accounts/$ACCOUNT/storage/kv/namespaces/$NS/values/k" --data v'
    )
    const fr = (await lsp().connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri },
      range: d.diagnostics[1]!.range,
      context: { diagnostics: [d.diagnostics[1]] }
    })) as Array<Action>
    expect(fr.map((a) => a.title)).toContain("Move it: edgectl firewall migrate --zone ZONE")
  })

  it("flags Terraform by the module's pin, and leaves a file without deprecations clean", async () => {
    const dir = tempDir()
    fs.writeFileSync(
      path.join(dir, "versions.tf"),
      'terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "~> 5.1"\n    }\n  }\n}\n'
    )
    const text = 'resource "cloudflare_record" "www" {\n  zone_id = "z"\n  value   = "192.0.2.1"\n}\n'
    const d = await lsp().open(`file://${path.join(dir, "main.tf")}`, text, "terraform")
    expect(d.diagnostics.map((x) => [x.code, x.range.start.line, x.severity])).toEqual([
      ["DEP-TF5", 0, 3],
      ["DEP-TF5", 2, 3]
    ])
    expect(d.diagnostics[0]!.message).toContain("the pinned provider 5.1.0 no longer has it (removed in 5.0.0)")
    const clean = await lsp().open(
      `file://${path.join(dir, "ok.sh")}`,
      'curl "$API/zones/$Z/settings/ssl"\n',
      "shellscript"
    )
    expect(clean.diagnostics).toEqual([])
  })
})

describe("deprecations in edgectl check", () => {
  it("reports in *.rules, JSON and Terraform files what scan reports, and fails on one past its end of life", () => {
    const files = ["rules/block-countries.rules", "terraform/main.tf"]
    const r = edgectl(["check", "--json", ...files], { cwd: repo, env: { EDGECTL_PLATFORM_NOW: NOW } })
    expect(r.status).toBe(1)
    const out = JSON.parse(r.stdout) as {
      files: Array<{ path: string; diagnostics: Array<{ code: string; range: { start: { line: number } } }> }>
    }
    const dep = out.files.flatMap((f) =>
      f.diagnostics.filter((x) => x.code.startsWith("DEP-")).map((x) => `${f.path}:${x.range.start.line} ${x.code}`)
    )
    expect(dep).toEqual([
      "rules/block-countries.rules:1 DEP-THREAT",
      "terraform/main.tf:3 DEP-THREAT",
      "terraform/main.tf:12 DEP-RLOLD",
      "terraform/main.tf:18 DEP-ZL",
      "terraform/main.tf:23 DEP-UA",
      "terraform/main.tf:28 DEP-ZSBATCH",
      "terraform/main.tf:36 DEP-TF5",
      "terraform/main.tf:59 DEP-RLOLD"
    ])
    // What other checks already say is not said twice: the firewall resources and ip.geoip.* fields.
    const codes = out.files.flatMap((f) => f.diagnostics.map((x) => x.code))
    expect(codes).toContain("firewall-api-unsupported")
    expect(codes).toContain("deprecated-field")
    expect(codes).not.toContain("DEP-FR")
    expect(codes).not.toContain("DEP-GEOIP")
  })
})
