/** HCL syntax errors through the language server and `edgectl check`: on the line and character where the mistake is. */
import * as fs from "node:fs"
import * as path from "node:path"
import { TextDocument } from "vscode-languageserver-textdocument"
import { describe, expect, it } from "vitest"
import { edgectl, tempDir } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"

const pos = (text: string, offset: number) => TextDocument.create("x", "x", 0, text).positionAt(offset)
const tail = '\nresource "cloudflare_record" "www" {\n  zone_id = var.zone_id\n  name    = "www"\n}\n'

const cases: Array<[string, string, string, string]> = [
  [
    "a value missing after =",
    `resource "cloudflare_waf_rule" "r" {\n  rule_id = \n  mode    = "block"\n}\n${tail}`,
    "rule_id = ",
    "expected a value after rule_id ="
  ],
  [
    "an unclosed string",
    `resource "cloudflare_waf_rule" "r" {\n  rule_id = "100015\n  mode    = "block"\n}\n${tail}`,
    '"100015',
    "this string is not closed on its line"
  ],
  [
    "an unclosed block",
    `resource "cloudflare_waf_package" "owasp" {\n  zone_id = var.zone_id\n\nvariable "zone_id" {\n  type = string\n}\n${tail}`,
    "{\n  zone_id",
    "this { is never closed"
  ],
  [
    "a bracket closed by a brace",
    `locals {\n  ids = ["a", "b"\n}\n${tail}`,
    "}\n",
    "expected ] to close the [ on line 2, got }"
  ]
]

describe("HCL syntax errors", () => {
  it("are reported where they are, not at the end of the file", async () => {
    const c = await startLsp()
    try {
      for (const [what, text, needle, message] of cases) {
        const d = await c.open(`file:///p/${what.replace(/ /g, "-")}.tf`, text, "terraform")
        const syntax = d.diagnostics.filter((x) => x.code === "hcl-syntax")
        expect(syntax.length, what).toBeGreaterThanOrEqual(1)
        const offset = needle === "rule_id = " ? text.indexOf(needle) + "rule_id ".length : text.indexOf(needle)
        expect(syntax[0]!.range.start, what).toEqual(pos(text, offset))
        expect(syntax[0]!.message, what).toContain(message)
      }
    } finally {
      await c.close()
    }
  })

  it("are printed by `edgectl check` with their line and column", () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, "main.tf"), cases[1]![1])
    const r = edgectl(["check", "main.tf"], { cwd: dir })
    expect(r.status).toBe(1)
    expect(r.stdout).toContain(
      "error[hcl-syntax]: invalid HCL: this string is not closed on its line\n --> main.tf:2:13"
    )
  })
})
