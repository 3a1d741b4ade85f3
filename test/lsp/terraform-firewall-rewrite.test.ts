/**
 * The rewrite of `cloudflare_filter` + `cloudflare_firewall_rule` to one `cloudflare_ruleset` per
 * zone (phase `http_request_firewall_custom`), as an editor gets it over stdio, for provider 3.35,
 * 4.x and 5.x: the action on the warnings, the rewritten file fmt-canonical with the version's
 * import and state steps as comments, its ruleset accepted by that version's schema and checked
 * clean; a filter it cannot resolve reported, and no ruleset for that rule's zone (it would delete the rule).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isFmtCanonical } from "../../src/lsp/terraform/fmt.js"
import { edgectl, tempDir } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"
import { providerSchema, RulesetVersions as VERSIONS, schemaProblems } from "../helpers/terraform-schema.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
let n = 0

interface Edit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } }
  newText: string
}
interface Action {
  title: string
  isPreferred?: boolean
  diagnostics?: Array<{ code: string }>
  edit?: { changes: Record<string, Array<Edit>> }
}

const apply = (text: string, edits: Array<Edit>) =>
  TextDocument.applyEdits(TextDocument.create("x", "terraform", 0, text), edits)

const pinned = (version: string) =>
  `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "${version}"\n    }\n  }\n}\n\n`

const RESOURCES = [
  'resource "cloudflare_filter" "office" {',
  "  zone_id     = var.zone_id",
  '  expression  = "ip.src in {192.0.2.0/24}"',
  '  description = "office"',
  "}",
  "",
  'resource "cloudflare_firewall_rule" "office" {',
  "  zone_id   = var.zone_id",
  "  filter_id = cloudflare_filter.office.id",
  '  action    = "bypass"',
  '  products  = ["waf", "uaBlock"]',
  "  priority  = 1",
  "}",
  "",
  'resource "cloudflare_filter" "admin" {',
  "  zone_id    = var.zone_id",
  '  expression = "http.request.uri.path contains \\"/admin\\""',
  "}",
  "",
  'resource "cloudflare_firewall_rule" "admin" {',
  "  zone_id     = var.zone_id",
  "  filter_id   = cloudflare_filter.admin.id",
  '  action      = "block"',
  '  description = "no admin"',
  "  paused      = true",
  "  priority    = 2",
  "}",
  ""
].join("\n")

const rewrite = async (text: string) => {
  const uri = `file:///work/project/firewall-${n++}.tf`
  const d = await client.open(uri, text, "terraform")
  const warnings = d.diagnostics.filter((x) => x.code === "firewall-api-unsupported")
  const actions = (await client.connection.sendRequest("textDocument/codeAction", {
    textDocument: { uri },
    range: { start: warnings[0]!.range.start, end: warnings.at(-1)!.range.end },
    context: { diagnostics: warnings }
  })) as Array<Action>
  return { uri, d, actions: actions.filter((a) => a.title.startsWith("Add the equivalent cloudflare_ruleset")) }
}

beforeAll(async () => {
  client = await startLsp({ debounceMs: 0 })
})
afterAll(async () => {
  await client.close()
})

describe("Terraform: cloudflare_filter + cloudflare_firewall_rule rewritten to the zone's custom rules ruleset", () => {
  for (const [pin, name, schema, importId] of VERSIONS)
    it(`provider ${name}: one action on every warning, the ruleset after the old resources with the steps, fmt canonical, valid for ${name}`, async () => {
      const text = pinned(pin) + RESOURCES
      const { uri, actions } = await rewrite(text)
      expect(actions).toHaveLength(1)
      const a = actions[0]!
      expect(a.title).toBe(
        `Add the equivalent cloudflare_ruleset (http_request_firewall_custom, provider ${name}) with the migration steps`
      )
      expect(a.isPreferred).toBe(true)
      const out = apply(text, a.edit!.changes[uri]!)
      expect(out.startsWith(text.replace(/\n$/, ""))).toBe(true)
      expect(out.endsWith("}\n")).toBe(true)
      expect(isFmtCanonical(out)).toBe(true)
      expect(out).toContain(`#   1. terraform import cloudflare_ruleset.custom_rules ${importId}\n`)
      expect(out).toContain(
        "#      terraform state rm cloudflare_firewall_rule.office\n" +
          "#      terraform state rm cloudflare_firewall_rule.admin\n" +
          "#      terraform state rm cloudflare_filter.office\n" +
          "#      terraform state rm cloudflare_filter.admin\n"
      )
      expect(out).toContain("# changed: cloudflare_firewall_rule.admin: a firewall block answered with error 1020")
      const ruleset = out.slice(out.indexOf('resource "cloudflare_ruleset"'))
      expect(await schemaProblems(ruleset, providerSchema(schema))).toEqual([])
      // The firewall order: office (priority 1) first; paused admin disabled.
      expect(ruleset.indexOf('"ip.src in {192.0.2.0/24}"')).toBeLessThan(ruleset.indexOf("/admin"))
      expect(ruleset).toMatch(/enabled +(=|:) false/)
      if (name === "3.35") expect(ruleset).not.toMatch(/\bref +=/)
      else expect(ruleset).toMatch(/ref += "office"/)
      if (name === "5.x") expect(ruleset).toContain("  rules = [\n")
      else expect(ruleset).toContain("  rules {\n")
      // The rewritten file checks without errors, the old resources still warned until deleted.
      const after = await client.open(`file:///work/project/rewritten-${n++}.tf`, out, "terraform")
      expect(after.diagnostics.filter((x) => x.severity === 1)).toEqual([])
    })

  it("the exact 4.x text of the added ruleset", async () => {
    const text = pinned(">= 4.2.0, < 5.0.0") + RESOURCES
    const { uri, actions } = await rewrite(text)
    const out = apply(text, actions[0]!.edit!.changes[uri]!)
    expect(out.slice(out.indexOf('resource "cloudflare_ruleset"'))).toBe(
      [
        'resource "cloudflare_ruleset" "custom_rules" {',
        "  zone_id = var.zone_id",
        '  name    = "default"',
        '  kind    = "zone"',
        '  phase   = "http_request_firewall_custom"',
        "",
        "  rules {",
        '    ref         = "office"',
        '    action      = "skip"',
        '    expression  = "ip.src in {192.0.2.0/24}"',
        '    description = "office"',
        "    enabled     = true",
        "    action_parameters {",
        '      products = ["waf", "uaBlock"]',
        "    }",
        "    logging {",
        "      enabled = true",
        "    }",
        "  }",
        "  rules {",
        '    ref         = "admin"',
        '    action      = "block"',
        '    expression  = "http.request.uri.path contains \\"/admin\\""',
        '    description = "no admin"',
        "    enabled     = false",
        "  }",
        "}",
        ""
      ].join("\n")
    )
  })

  it("one ruleset per zone; a rule whose filter is not in the file withholds its zone's ruleset, which would delete it", async () => {
    const text =
      pinned("~> 5") +
      RESOURCES +
      [
        "",
        'resource "cloudflare_filter" "other" {',
        '  zone_id    = "0123456789abcdef0123456789abcdef"',
        '  expression = "ssl"',
        "}",
        "",
        'resource "cloudflare_firewall_rule" "other" {',
        '  zone_id   = "0123456789abcdef0123456789abcdef"',
        "  filter_id = cloudflare_filter.other.id",
        '  action    = "challenge"',
        "}",
        "",
        'resource "cloudflare_firewall_rule" "lost" {',
        "  zone_id   = var.zone_id",
        '  filter_id = "372e67954025e0ba6aaa6d586b9e0b59"',
        '  action    = "block"',
        "}",
        ""
      ].join("\n")
    const { uri, d, actions } = await rewrite(text)
    const unclear = d.diagnostics.filter((x) => x.code === "terraform-rewrite-unclear")
    expect(unclear.map((x) => x.message.split("\n")[0])).toEqual([
      'cloudflare_firewall_rule.lost: filter_id = "372e67954025e0ba6aaa6d586b9e0b59" is not a cloudflare_filter of this file: the rewrite cannot read its expression; no cloudflare_ruleset is written for zone_id = var.zone_id: it is the zone\'s whole entry point, and applying it without this rule would delete it'
    ])
    expect(unclear[0]!.message).toContain(
      "hint: move its cloudflare_filter into this file (or write its expression there), or rewrite the zone's rules by hand"
    )
    // Only the other zone's ruleset is offered, on that zone's resources alone.
    expect(actions.map((a) => a.title)).toEqual([
      'Add the equivalent cloudflare_ruleset for zone_id = "0123456789abcdef0123456789abcdef" (http_request_firewall_custom, provider 5.x) with the migration steps'
    ])
    const officeWarning = d.diagnostics.find((x) => x.code === "firewall-api-unsupported")!
    const onOffice = (await client.connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri },
      range: officeWarning.range,
      context: { diagnostics: [officeWarning] }
    })) as Array<Action>
    expect(onOffice.filter((a) => a.title.startsWith("Add the equivalent"))).toEqual([])
    const second = apply(text, actions[0]!.edit!.changes[uri]!)
    expect(second).toContain(
      "#   1. terraform import cloudflare_ruleset.custom_rules_01234567 zones/0123456789abcdef0123456789abcdef/<ruleset_id>\n"
    )
    expect(second).toContain("#   5. terraform plan shows no changes.\n")
    expect(second).not.toContain("state rm cloudflare_firewall_rule.lost")
    expect(isFmtCanonical(second)).toBe(true)
  })

  it("no rewrite where the file already manages the zone's custom phase (a second entry point is refused)", async () => {
    const text =
      pinned("~> 4.52") +
      RESOURCES +
      '\nresource "cloudflare_ruleset" "custom" {\n  zone_id = var.zone_id\n  name    = "custom"\n  kind    = "zone"\n  phase   = "http_request_firewall_custom"\n}\n'
    expect((await rewrite(text)).actions).toEqual([])
  })

  it("no pin (5.x), the 5.x shape of the old resources, a provider alias kept; a filter another rule still uses stays in the state", async () => {
    const text = [
      'resource "cloudflare_filter" "a" {',
      "  zone_id    = var.zone_id",
      '  expression = "ssl"',
      "}",
      "",
      'resource "cloudflare_firewall_rule" "a" {',
      "  provider = cloudflare.alt",
      "  zone_id  = var.zone_id",
      "  filter   = { id = cloudflare_filter.a.id }",
      '  action   = { mode = "allow" }',
      "}",
      "",
      'resource "cloudflare_firewall_rule" "b" {',
      "  provider  = cloudflare.alt",
      "  zone_id   = var.zone_id",
      "  filter_id = cloudflare_filter.a.id",
      '  action    = "bypass"',
      "}",
      ""
    ].join("\n")
    const { uri, actions } = await rewrite(text)
    expect(actions.map((a) => a.title)).toEqual([
      "Add the equivalent cloudflare_ruleset (http_request_firewall_custom, provider 5.x) with the migration steps"
    ])
    const out = apply(text, actions[0]!.edit!.changes[uri]!)
    expect(isFmtCanonical(out)).toBe(true)
    expect(out).toContain(
      "# Written for provider 5.x (no cloudflare version is pinned: terraform init takes the latest, 5.x).\n"
    )
    expect(out).toContain("#      terraform state rm cloudflare_firewall_rule.a\n#   4.")
    expect(out).toContain(
      "# not migrated (the resource stays): cloudflare_firewall_rule.b: bypass skips no product (products is empty)"
    )
    expect(out).toContain(
      'resource "cloudflare_ruleset" "custom_rules" {\n  provider = cloudflare.alt\n\n  zone_id = var.zone_id\n'
    )
    expect(out).toContain('      action_parameters = {\n        ruleset = "current"\n      }\n')
    const ruleset = out.slice(out.indexOf('resource "cloudflare_ruleset"'))
    expect(await schemaProblems(ruleset, providerSchema("provider-5.x.json"))).toEqual([])
  })

  it("no rewrite for a zone none of whose rules can become custom rules", async () => {
    const text =
      pinned("~> 4.52") +
      'resource "cloudflare_filter" "a" {\n  zone_id    = var.zone_id\n  expression = "ssl"\n}\n\nresource "cloudflare_firewall_rule" "a" {\n  zone_id   = var.zone_id\n  filter_id = cloudflare_filter.a.id\n  action    = "deny"\n}\n'
    expect((await rewrite(text)).actions).toEqual([])
  })
})

describe("edgectl check: the fix named in the JSON output, given whole in SARIF", () => {
  const dir = tempDir("edgectl-fw-rewrite-")
  fs.writeFileSync(path.join(dir, "main.tf"), pinned("~> 4.52") + RESOURCES)
  fs.writeFileSync(
    path.join(dir, "rules.json"),
    '[\n  {"filter": {"expression": "ip.src eq 192.0.2.1"}, "action": "block"}\n]\n'
  )

  it("JSON: each warning lists its fix's title", () => {
    const r = edgectl(["check", "--format", "json", "main.tf", "rules.json"], { cwd: dir })
    expect(r.status).toBe(0)
    const doc = JSON.parse(r.stdout) as { files: Array<{ diagnostics: Array<{ code: string; fixes: Array<string> }> }> }
    expect(doc.files[0]!.diagnostics.map((d) => [d.code, d.fixes])).toEqual(
      Array(4).fill([
        "firewall-api-unsupported",
        ["Add the equivalent cloudflare_ruleset (http_request_firewall_custom, provider 4.x) with the migration steps"]
      ])
    )
    expect(doc.files[1]!.diagnostics[0]!.fixes).toEqual([
      "Write the equivalent WAF custom rules (rules.custom-rules.json, the body of PUT …/rulesets/phases/http_request_firewall_custom/entrypoint): 1 custom rule, 1 behaving differently"
    ])
  })

  it("SARIF: a result carries its code action's edits as a fix (§3.55), equal to the editor's", async () => {
    const r = edgectl(["check", "--format", "sarif", "main.tf", "rules.json"], { cwd: dir })
    expect(r.status).toBe(0)
    const results = JSON.parse(r.stdout).runs[0].results as Array<any>
    expect(results).toHaveLength(5)
    // The shape the SARIF 2.1.0 schema asks of a fix: a description, at least one artifact change,
    // each with a location and at least one replacement with a deleted region.
    // The zone's ruleset fixes its four resources: written once, on the first; the others point there.
    expect(results.map((x) => x.fixes?.length ?? 0)).toEqual([1, 0, 0, 0, 1])
    for (const x of results.slice(1, 4))
      expect(x.relatedLocations.at(-1)).toMatchObject({
        message: { text: expect.stringContaining("offered once, on the firewall-api-unsupported finding here") },
        physicalLocation: { region: results[0].locations[0].physicalLocation.region }
      })
    for (const x of results.filter((y) => y.fixes !== undefined)) {
      const [fix] = x.fixes
      expect(typeof fix.description.text).toBe("string")
      expect(fix.artifactChanges.length).toBeGreaterThan(0)
      for (const c of fix.artifactChanges) {
        expect(typeof c.artifactLocation.uri).toBe("string")
        expect(c.replacements.length).toBeGreaterThan(0)
        for (const rep of c.replacements) {
          expect(rep.deletedRegion.startLine).toBeGreaterThanOrEqual(1)
          expect(rep.deletedRegion.charLength).toBeGreaterThanOrEqual(0)
          expect(typeof rep.insertedContent.text).toBe("string")
        }
      }
    }
    // The Terraform file: the replacements applied give what the editor's code action gives.
    const tf = fs.readFileSync(path.join(dir, "main.tf"), "utf8")
    const [change] = results[0].fixes[0].artifactChanges
    expect(change.artifactLocation).toEqual({ uri: "main.tf", uriBaseId: "%SRCROOT%" })
    let viaSarif = tf
    for (const rep of [...change.replacements].sort((a, b) => b.deletedRegion.charOffset - a.deletedRegion.charOffset))
      viaSarif =
        viaSarif.slice(0, rep.deletedRegion.charOffset) +
        rep.insertedContent.text +
        viaSarif.slice(rep.deletedRegion.charOffset + rep.deletedRegion.charLength)
    const { uri, actions } = await rewrite(tf)
    expect(viaSarif).toBe(apply(tf, actions[0]!.edit!.changes[uri]!))
    expect(viaSarif).toContain('resource "cloudflare_ruleset"')
    expect(results[0].fixes[0].description.text).toBe(actions[0]!.title)
    // The firewall rules JSON: the equivalent custom rules written beside it.
    const json = results[4].fixes[0]
    expect(json.description.text).toMatch(/^Write the equivalent WAF custom rules \(rules\.custom-rules\.json/)
    expect(json.artifactChanges).toHaveLength(1)
    expect(json.artifactChanges[0].artifactLocation).toEqual({ uri: "rules.custom-rules.json", uriBaseId: "%SRCROOT%" })
    const [insert] = json.artifactChanges[0].replacements
    expect(insert.deletedRegion).toMatchObject({ startLine: 1, startColumn: 1, charOffset: 0, charLength: 0 })
    expect(JSON.parse(insert.insertedContent.text).rules).toMatchObject([
      { action: "block", expression: "ip.src eq 192.0.2.1", enabled: true }
    ])
  })

  it("text: the same findings", () => {
    const text = edgectl(["check", "main.tf", "rules.json"], { cwd: dir })
    expect(text.stderr).toBe("2 files checked, 0 errors, 5 warnings\n")
  })
})
