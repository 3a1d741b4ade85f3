/**
 * The unsupported Firewall Rules and Filters APIs (since 2025-06-15), as an editor and CI see them:
 * one warning on a JSON document of those APIs (request bodies and API answers), one on each
 * `cloudflare_filter` / `cloudflare_firewall_rule` resource naming the provider version the file or
 * its module pins, and the same through `edgectl check` in text, JSON and SARIF.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectl, tempDir } from "../helpers/cli.js"
import { startLsp, type PublishedDiagnostics } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
type Diagnostic = PublishedDiagnostics["diagnostics"][number]
let client: Client
let n = 0

const CODE = "firewall-api-unsupported"
const at = (text: string, d: Diagnostic) => {
  const doc = TextDocument.create("x", "x", 0, text)
  return text.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end))
}
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split("\n").length - 1
const unsupported = (d: PublishedDiagnostics) => d.diagnostics.filter((x) => x.code === CODE)
const openJson = (text: string) => client.open(`file:///work/project/fw${n++}.json`, text, "json")
const openTf = (text: string, uri = `file:///work/project/fw${n++}.tf`) => client.open(uri, text, "terraform")

const pinned = (version: string | undefined) =>
  version === undefined
    ? ""
    : [
        "terraform {",
        "  required_providers {",
        "    cloudflare = {",
        '      source  = "cloudflare/cloudflare"',
        `      version = "${version}"`,
        "    }",
        "  }",
        "}",
        "",
        ""
      ].join("\n")

const RESOURCES = [
  'resource "cloudflare_filter" "admin" {',
  "  zone_id    = var.zone_id",
  '  expression = "http.request.uri.path contains \\"/admin\\""',
  "}",
  "",
  'resource "cloudflare_firewall_rule" "admin" {',
  "  zone_id   = var.zone_id",
  "  filter_id = cloudflare_filter.admin.id",
  '  action    = "block"',
  "}",
  "",
  'resource "cloudflare_ruleset" "custom" {',
  "  zone_id = var.zone_id",
  '  name    = "custom"',
  '  kind    = "zone"',
  '  phase   = "http_request_firewall_custom"',
  "}",
  ""
].join("\n")

beforeAll(async () => {
  client = await startLsp({ debounceMs: 0 })
})
afterAll(async () => {
  await client.close()
})

describe("JSON documents of the Firewall Rules and Filters APIs", () => {
  it("a create body of firewall rules: one warning, on the first rule's filter key, next to the other checks", async () => {
    const text = [
      "[",
      '  {"filter": {"expression": "ip.src eq 192.0.2.1"}, "action": "block"},',
      '  {"filter": {"expression": "http.hots eq \\"a\\""}, "action": "allow"}',
      "]",
      ""
    ].join("\n")
    const d = await openJson(text)
    expect(d.diagnostics.map((x) => x.code)).toEqual([CODE, "unknown-field"])
    const [w] = unsupported(d)
    expect(w!.severity).toBe(2)
    expect(at(text, w!)).toBe('"filter"')
    expect(w!.range.start).toEqual({ line: 1, character: 3 })
    expect(w!.message).toBe(
      "a Firewall Rules API document: the Firewall Rules and Filters APIs are unsupported since 2025-06-15 (the platform moved firewall rules to WAF custom rules)\n" +
        "hint: write them as WAF custom rules: the zone's ruleset in phase http_request_firewall_custom (PUT /zones/{zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint)"
    )
  })

  it("one rule, a rule referring to its filter by id, an API answer of rules and of filters: each warned once", async () => {
    const docs: ReadonlyArray<readonly [string, string, string]> = [
      ['{"id": "r1", "filter": {"id": "f1"}, "action": "challenge", "paused": false}\n', "Firewall Rules", '"filter"'],
      [
        '{"success": true, "errors": [], "messages": [], "result": [{"id": "r1", "action": "block", "priority": null, "paused": false, "filter": {"id": "f1", "expression": "ssl", "paused": false}}]}\n',
        "Firewall Rules",
        '"filter"'
      ],
      [
        '{"success": true, "errors": [], "result": [{"id": "f1", "expression": "ssl", "paused": false}, {"id": "f2", "expression": "not ssl"}]}\n',
        "Filters",
        '"expression"'
      ],
      ['[{"expression": "ssl", "description": "tls only"}]\n', "Filters", '"expression"']
    ]
    for (const [text, api, key] of docs) {
      const d = await openJson(text)
      const w = unsupported(d)
      expect(w, text).toHaveLength(1)
      expect(w[0]!.message, text).toMatch(new RegExp(`^a ${api} API document: `))
      expect(at(text, w[0]!), text).toBe(key)
    }
  })

  it("leaves custom rules (a ruleset, its rules) and other JSON without the warning", async () => {
    const ruleset =
      '{"name": "default", "kind": "zone", "phase": "http_request_firewall_custom", "rules": [{"action": "skip", "expression": "ssl", "action_parameters": {"ruleset": "current"}}]}\n'
    expect((await openJson(ruleset)).diagnostics).toEqual([])
    expect((await openJson('[{"action": "block", "expression": "ssl"}]\n')).diagnostics).toEqual([])
    expect((await openJson('{"name": "x", "expression": "a > b"}\n')).diagnostics).toEqual([])
  })
})

describe("Terraform: cloudflare_filter and cloudflare_firewall_rule, with the provider the file pins", () => {
  const cases: ReadonlyArray<readonly [string | undefined, string, string]> = [
    ["~> 2.0", 'provider 2.x, as pinned ("~> 2.0"), still has', "zone/<zone_id>/<ruleset_id>"],
    ["~> 3.35", 'provider 3.x, as pinned ("~> 3.35"), still has', "zone/<zone_id>/<ruleset_id>"],
    ["~> 4.0", 'provider 4.x, as pinned ("~> 4.0"), still has', "zone/<zone_id>/<ruleset_id>"],
    [">= 4.2.0, < 5.0.0", 'provider 4.x, as pinned (">= 4.2.0, < 5.0.0"), still has', "zone/<zone_id>/<ruleset_id>"],
    ["~> 5", 'provider 5.x, as pinned ("~> 5"), still ships', "zones/<zone_id>/<ruleset_id>"],
    [undefined, "no provider version is pinned: the latest, 5.x, still ships", "zones/<zone_id>/<ruleset_id>"]
  ]
  for (const [version, says, importId] of cases)
    it(`pin ${version === undefined ? "none" : `"${version}"`}: a warning on each resource's type label, the version's wording and import id`, async () => {
      const text = pinned(version) + RESOURCES
      const d = await openTf(text)
      const w = unsupported(d)
      expect(w.map((x) => at(text, x))).toEqual(['"cloudflare_filter"', '"cloudflare_firewall_rule"'])
      expect(w.map((x) => x.range.start.line)).toEqual([
        lineOf(text, 'resource "cloudflare_filter"'),
        lineOf(text, 'resource "cloudflare_firewall_rule"')
      ])
      expect(w.every((x) => x.severity === 2)).toBe(true)
      const [filter, rule] = w.map((x) => x.message)
      expect(filter).toContain(
        'cloudflare_filter "admin" uses the Filters API, unsupported since 2025-06-15 (the platform moved firewall rules to WAF custom rules); '
      )
      expect(rule).toContain(
        'cloudflare_firewall_rule "admin" uses the Firewall Rules API, unsupported since 2025-06-15'
      )
      expect(filter).toContain(`${says} cloudflare_filter`)
      expect(rule).toContain(`${says} cloudflare_firewall_rule`)
      expect(rule).toContain(
        `hint: replace the zone's cloudflare_filter and cloudflare_firewall_rule resources with one cloudflare_ruleset (kind "zone", phase "http_request_firewall_custom"), import it as ${importId}, and terraform state rm the old ones before deleting their HCL`
      )
      if (importId.startsWith("zones/"))
        expect(rule).toContain("deprecated and reshaped (action and filter are objects)")
      else expect(rule).not.toContain("deprecated")
    })

  it("the pin in another file of the module (versions.tf) is named with its file", async () => {
    const dir = tempDir("edgectl-fw-")
    fs.writeFileSync(path.join(dir, "versions.tf"), pinned("~> 4.52"))
    const file = path.join(dir, "firewall.tf")
    fs.writeFileSync(file, RESOURCES)
    const d = await openTf(RESOURCES, pathToFileURL(file).href)
    const w = unsupported(d)
    expect(w).toHaveLength(2)
    expect(w[1]!.message).toContain(
      'provider 4.x, as pinned ("~> 4.52" in versions.tf), still has cloudflare_firewall_rule'
    )
  })

  it("Terraform JSON (*.tf.json): each resource name under the type warned, with the file's own pin", async () => {
    const doc = {
      terraform: { required_providers: { cloudflare: { source: "cloudflare/cloudflare", version: "~> 5" } } },
      resource: {
        cloudflare_filter: {
          a: { zone_id: "${var.zone_id}", expression: "ssl" },
          b: { zone_id: "z", expression: "not ssl" }
        },
        cloudflare_firewall_rule: {
          a: { zone_id: "${var.zone_id}", filter_id: "${cloudflare_filter.a.id}", action: "block" }
        }
      }
    }
    const text = `${JSON.stringify(doc, null, 2)}\n`
    const d = await client.open(`file:///work/project/fw${n++}.tf.json`, text, "json")
    const w = unsupported(d)
    expect(w.map((x) => at(text, x))).toEqual([
      '"cloudflare_filter"',
      '"cloudflare_filter"',
      '"cloudflare_firewall_rule"'
    ])
    expect(w.map((x) => x.message.split(" uses ")[0])).toEqual([
      'cloudflare_filter "a"',
      'cloudflare_filter "b"',
      'cloudflare_firewall_rule "a"'
    ])
    expect(w[2]!.message).toContain('provider 5.x, as pinned ("~> 5"), still ships cloudflare_firewall_rule')
  })
})

describe("edgectl check reports it in text, JSON and SARIF", () => {
  const dir = tempDir("edgectl-fw-check-")
  const tf = pinned("~> 4.0") + RESOURCES
  const rules = '[\n  {"filter": {"expression": "ip.src eq 192.0.2.1"}, "action": "block"}\n]\n'
  fs.writeFileSync(path.join(dir, "main.tf"), tf)
  fs.writeFileSync(path.join(dir, "rules.json"), rules)
  const filterLine = lineOf(tf, 'resource "cloudflare_filter"') + 1

  it("text: a warning with file:line:col and a caret under the type label; warnings alone exit 0", () => {
    const r = edgectl(["check", "main.tf", "rules.json"], { cwd: dir })
    expect(r.status).toBe(0)
    expect(r.stdout).toContain(
      'warning[firewall-api-unsupported]: cloudflare_filter "admin" uses the Filters API, unsupported since 2025-06-15'
    )
    expect(r.stdout).toContain(`--> main.tf:${filterLine}:10\n`)
    expect(r.stdout).toContain(`${filterLine} | resource "cloudflare_filter" "admin" {\n`)
    expect(r.stdout).toMatch(/\| {10}\^{19}\n/)
    expect(r.stdout).toContain("warning[firewall-api-unsupported]: a Firewall Rules API document: ")
    expect(r.stdout).toContain("--> rules.json:2:4\n")
    expect(r.stderr).toBe("2 files checked, 0 errors, 3 warnings\n")
  })

  it("JSON: the code, severity and range of each", () => {
    const r = edgectl(["check", "--format", "json", "main.tf", "rules.json"], { cwd: dir })
    expect(r.status).toBe(0)
    const doc = JSON.parse(r.stdout) as {
      warnings: number
      files: Array<{ kind: string; diagnostics: Array<{ severity: string; code: string; range: any; hint: string }> }>
    }
    expect(doc.warnings).toBe(3)
    expect(doc.files.map((f) => f.kind)).toEqual(["terraform", "rules-json"])
    const [filter, rule] = doc.files[0]!.diagnostics
    expect(filter).toMatchObject({
      severity: "warning",
      code: CODE,
      range: { start: { line: filterLine, column: 10 }, end: { line: filterLine, column: 29 } }
    })
    expect(rule!.hint).toContain("import it as zone/<zone_id>/<ruleset_id>")
    expect(doc.files[1]!.diagnostics).toMatchObject([
      { severity: "warning", code: CODE, range: { start: { line: 2, column: 4 }, end: { line: 2, column: 12 } } }
    ])
  })

  it("SARIF: a rule of its own, firewall-api-unsupported, at level warning, with its help", () => {
    const r = edgectl(["check", "--format", "sarif", "main.tf", "rules.json"], { cwd: dir })
    expect(r.status).toBe(0)
    const run = JSON.parse(r.stdout).runs[0]
    const ids = run.tool.driver.rules.map((x: { id: string }) => x.id)
    expect(ids).toEqual([CODE])
    expect(run.tool.driver.rules[0].help.text).toContain("Firewall filters and rules")
    const results = run.results as Array<any>
    expect(results).toHaveLength(3)
    for (const x of results) expect(x).toMatchObject({ ruleId: CODE, ruleIndex: 0, level: "warning" })
    expect(results.map((x) => x.locations[0].physicalLocation.artifactLocation.uri)).toEqual([
      "main.tf",
      "main.tf",
      "rules.json"
    ])
    expect(results[0].locations[0].physicalLocation.region).toMatchObject({
      startLine: filterLine,
      startColumn: 10,
      endColumn: 29
    })
    expect(results[2].message.text).toContain("(hint: write them as WAF custom rules")
  })
})
