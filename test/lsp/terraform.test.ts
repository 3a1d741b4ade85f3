/**
 * Terraform in the language server, as an editor drives it (full text with its final newline):
 * the previous-WAF rewrite in the syntax of the pinned provider (checked against the vendored
 * provider schemas of 3.35, 4.x and 5.x and against `terraform fmt`'s layout rules), one ruleset
 * per zone or per for_each, and the rules expressions inside Terraform and Terraform JSON.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isFmtCanonical } from "../../src/lsp/terraform/fmt.js"
import { edgectl, root } from "../helpers/cli.js"
import { startLsp, type PublishedDiagnostics } from "../helpers/lsp-client.js"
import { providerSchema, schemaProblems } from "../helpers/terraform-schema.js"

let client: Awaited<ReturnType<typeof startLsp>>
const fx = (name: string) => path.join(root, "fixtures", "terraform", name)
const fixture = (name: string) => fs.readFileSync(fx(name), "utf8")
type Edit = {
  range: { start: { line: number; character: number }; end: { line: number; character: number } }
  newText: string
}
interface Action {
  title: string
  edit?: { changes?: Record<string, Array<Edit>> }
}
const apply = (text: string, edits: ReadonlyArray<Edit>) =>
  TextDocument.applyEdits(TextDocument.create("x", "x", 0, text), [...edits])
const at = (text: string, d: PublishedDiagnostics["diagnostics"][number]) => {
  const doc = TextDocument.create("x", "x", 0, text)
  return text.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end))
}
const rewriteAt = async (uri: string, d: PublishedDiagnostics["diagnostics"][number]) =>
  (
    (await client.connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d] }
    })) as Array<Action>
  ).filter((a) => a.title.startsWith("Add the equivalent cloudflare_ruleset"))
let version = 1
const change = async (uri: string, text: string) => {
  const next = client.diagnostics(uri)
  await client.connection.sendNotification("textDocument/didChange", {
    textDocument: { uri, version: ++version },
    contentChanges: [{ text }]
  })
  return next
}
/** Opens a fixture, applies the rewrite offered on its first previous-WAF warning, and returns the new text. */
const rewritten = async (name: string) => {
  const text = fixture(name)
  const uri = `file:///w/${name}`
  const d = await client.open(uri, text, "terraform")
  const first = d.diagnostics.find((x) => x.code === "terraform-previous-waf")!
  const [fix] = await rewriteAt(uri, first)
  expect(fix).toBeDefined()
  return { uri, text, out: apply(text, fix!.edit!.changes![uri]!), title: fix!.title }
}
/** The file once the steps are done: the previous-WAF resources deleted. */
const withoutPreviousWaf = (text: string) =>
  text.replace(/resource "cloudflare_waf_\w+" "\w+" \{\n(?:.*\n)*?\}\n\n?/g, "")
const rulesetOf = (text: string, name = "managed_waf") => {
  const start = text.indexOf(`resource "cloudflare_ruleset" "${name}" {`)
  expect(start).toBeGreaterThanOrEqual(0)
  return text.slice(start, text.indexOf("\n}\n", start) + 3)
}

beforeAll(async () => {
  client = await startLsp({ debounceMs: 0 })
})
afterAll(async () => {
  await client.close()
})

describe("the previous-WAF rewrite follows the pinned provider", () => {
  it('pin "~> 3.0": 3.35 block syntax with status, the pin moved to "~> 3.35", import with zone/…, fmt canonical, accepted by the 3.35 schema', async () => {
    const { uri, out, title } = await rewritten("waf-pin-3.tf")
    expect(title).toContain("provider 3.35")
    expect(out).toContain('version = "~> 3.35"')
    const rs = rulesetOf(out)
    expect(rs).toMatch(/\n  rules \{\n    action     = "execute"/)
    expect(rs).toContain('status   = "disabled"')
    expect(rs).not.toMatch(/\brules\s+= \[|\bref\b|enabled = false/)
    expect(out).toContain("terraform import cloudflare_ruleset.managed_waf zone/<zone_id>/<ruleset_id>")
    // The documented order on 3.x: import, then state rm, then delete the HCL.
    expect(out.indexOf("terraform import")).toBeLessThan(out.indexOf("terraform state rm cloudflare_waf_package.owasp"))
    expect(isFmtCanonical(out)).toBe(true)
    expect(await schemaProblems(out, providerSchema("provider-3.35.json"))).toEqual([])
    // Re-checked: the previous-WAF warnings remain, no second rewrite is offered, and a note says why.
    const after = await change(uri, out)
    expect(after.diagnostics.map((x) => x.code)).toEqual([
      "terraform-previous-waf",
      "terraform-rewrite-existing-ruleset",
      "terraform-previous-waf"
    ])
    expect(await rewriteAt(uri, after.diagnostics[0]!)).toEqual([])
  })

  it('pin "~> 4.0": says the waf resources do not exist in 4.x, blocks with enabled and ref, the ordered steps through 3.35; accepted by the 4.x schema once the steps are done', async () => {
    const { out, title } = await rewritten("waf-pin-4.tf")
    expect(title).toContain("provider 4.x")
    expect(out).toContain(
      '# cloudflare_waf_* exist only up to provider 3.35; the pin "~> 4.0" selects 4.x, where they do not exist.'
    )
    const steps = [
      'with the provider at 3.35 (version = "~> 3.35")',
      "terraform state rm cloudflare_waf_package.owasp",
      "2. delete the previous-WAF resources",
      'set version = ">= 4.2.0, < 5.0.0"',
      "terraform init -upgrade",
      "terraform import cloudflare_ruleset.managed_waf zone/<zone_id>/<ruleset_id>"
    ]
    const positions = steps.map((s) => out.indexOf(s))
    expect(positions.every((p) => p > 0)).toBe(true)
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
    const rs = rulesetOf(out)
    expect(rs).toMatch(/  rules \{\n    ref        = "cf_managed"/)
    expect(rs).toContain("enabled  = false")
    expect(rs).not.toContain("status")
    expect(isFmtCanonical(out)).toBe(true)
    expect(await schemaProblems(withoutPreviousWaf(out), providerSchema("provider-4.x.json"))).toEqual([])
    expect(await schemaProblems(out, providerSchema("provider-3.35.json"))).toContain(
      "cloudflare_ruleset.managed_waf.rules.ref: computed only, cannot be set"
    )
  })

  it('pin "~> 5": attribute syntax, import with zones/…, fmt canonical, accepted by the 5.x schema once the steps are done (and refused by 4.x)', async () => {
    const { out } = await rewritten("waf-pin-5.tf")
    const rs = rulesetOf(out)
    expect(rs).toContain('  rules = [\n    {\n      ref        = "cf_managed"')
    expect(rs).toContain('{ category = "paranoia-level-3", enabled = false },')
    expect(rs).toContain("      action_parameters = {\n")
    expect(out).toContain("terraform import cloudflare_ruleset.managed_waf zones/<zone_id>/<ruleset_id>")
    expect(out).not.toContain(" zone/<zone_id>")
    expect(isFmtCanonical(out)).toBe(true)
    expect(await schemaProblems(withoutPreviousWaf(out), providerSchema("provider-5.x.json"))).toEqual([])
    expect(await schemaProblems(withoutPreviousWaf(out), providerSchema("provider-4.x.json"))).toContain(
      "cloudflare_ruleset.managed_waf.rules: is a block here, not an attribute"
    )
  })

  it("the pin in another file of the module (versions.tf): read from there, named in the steps", async () => {
    const uri = pathToFileURL(fx("module/waf.tf")).toString()
    const text = fixture("module/waf.tf")
    const d = await client.open(uri, text, "terraform")
    const [fix] = await rewriteAt(uri, d.diagnostics[0]!)
    expect(fix!.title).toContain("provider 4.x")
    const out = apply(text, fix!.edit!.changes![uri]!)
    expect(out).toContain('the pin "~> 4.0" (versions.tf) selects 4.x, where they do not exist.')
    expect(out).toContain('set version = ">= 4.2.0, < 5.0.0" in required_providers')
    expect(await schemaProblems(withoutPreviousWaf(out), providerSchema("provider-4.x.json"))).toEqual([])
  })

  it("no pin in the file: written for 3.35, where the waf resources still work, and the pin to add is named", async () => {
    const { out } = await rewritten("../lsp/waf.tf")
    expect(out).toContain(
      '# Written for provider 3.35 (no cloudflare version in required_providers here; pin version = "~> 3.35").'
    )
    expect(isFmtCanonical(out)).toBe(true)
    expect(await schemaProblems(out, providerSchema("provider-3.35.json"))).toEqual([])
  })
})

describe("one ruleset per zone", () => {
  it("two zone_ids: two rulesets, each with its own zone's settings, never merged", async () => {
    const name = "two-zones.tf"
    const uri = `file:///w/${name}`
    const d = await client.open(uri, fixture(name), "terraform")
    const warnings = d.diagnostics.filter((x) => x.code === "terraform-previous-waf")
    expect(warnings).toHaveLength(3)
    const [shopFix] = await rewriteAt(uri, warnings[0]!)
    expect(shopFix!.title).toContain('for zone_id = "023e105f4ecef8ad9ca31a8372d0c353"')
    const once = apply(fixture(name), shopFix!.edit!.changes![uri]!)
    const d2 = await change(uri, once)
    const blogWarning = d2.diagnostics.filter((x) => x.code === "terraform-previous-waf")[2]!
    expect(at(once, blogWarning)).toBe('"cloudflare_waf_group"')
    // The shop's warning no longer offers a rewrite (its ruleset exists); the blog's still does.
    expect(
      await rewriteAt(
        uri,
        d2.diagnostics.find((x) => x.code === "terraform-previous-waf")!
      )
    ).toEqual([])
    const [blogFix] = await rewriteAt(uri, blogWarning)
    const out = apply(once, blogFix!.edit!.changes![uri]!)
    const shop = rulesetOf(out, "managed_waf_023e105f")
    const blog = rulesetOf(out, "managed_waf_9a780606")
    expect(shop).toContain('zone_id = "023e105f4ecef8ad9ca31a8372d0c353"')
    expect(blog).toContain('zone_id = "9a7806061c88ada191ed06f989cc3dac"')
    // Shop: Low + block -> PL1 (levels 2-4 off), block. Blog: OWASP off, WordPress group off.
    expect(shop).toContain('category = "paranoia-level-2"')
    expect(shop).toMatch(/action\s+= "block"\n\s+score_threshold = 40/)
    expect(blog).not.toContain("4814384a9e5d4991b9815dcfc25d2f1f")
    expect(blog).toMatch(/id\s+= "3a2dfa83cdb61eeae6524178ed3f691c"\n\s+status = "disabled"/)
    expect(shop).not.toContain("3a2dfa83cdb61eeae6524178ed3f691c")
    expect(out).toContain(
      "terraform import cloudflare_ruleset.managed_waf_9a780606 zone/9a7806061c88ada191ed06f989cc3dac/<ruleset_id>"
    )
    expect(isFmtCanonical(out)).toBe(true)
    expect(await schemaProblems(out, providerSchema("provider-3.35.json"))).toEqual([])
  })

  it("for_each: the ruleset keeps the for_each (and the provider alias), so each.key stays inside a resource that has it", async () => {
    const { out } = await rewritten("for-each.tf")
    const rs = rulesetOf(out)
    expect(rs).toMatch(
      /^resource "cloudflare_ruleset" "managed_waf" \{\n  for_each = var\.zones\n  provider = cloudflare\.acme\n\n  zone_id = each\.key\n/
    )
    expect(out).toContain(
      "terraform import 'cloudflare_ruleset.managed_waf[\"<key>\"]' zones/<zone_id of each key>/<ruleset_id>"
    )
    // No resource in the result uses each.* without a for_each.
    for (const block of out.split(/\n(?=resource )/)) if (block.includes("each.")) expect(block).toContain("for_each")
    expect(isFmtCanonical(out)).toBe(true)
    expect(await schemaProblems(withoutPreviousWaf(out), providerSchema("provider-5.x.json"))).toEqual([])
  })

  it("when it cannot tell the zone or a value: a diagnostic at the place, and no rewrite", async () => {
    const text = fixture("unclear.tf")
    const uri = "file:///w/unclear.tf"
    const d = await client.open(uri, text, "terraform")
    const unclear = d.diagnostics.filter((x) => x.code === "terraform-rewrite-unclear")
    expect(unclear.map((x) => at(text, x))).toEqual(["sensitivity = each.value.sensitivity", "zone_id    = each.key"])
    expect(unclear[0]!.message).toContain(
      "cloudflare_waf_package.owasp: sensitivity = each.value.sensitivity is not a literal"
    )
    expect(unclear[1]!.message).toContain(
      "cloudflare_waf_group.wordpress: zone_id = each.key uses each.* but the resource has no for_each"
    )
    for (const w of d.diagnostics.filter((x) => x.code === "terraform-previous-waf"))
      expect(await rewriteAt(uri, w)).toEqual([])
  })
})

describe("rules expressions inside Terraform", () => {
  it("checks cloudflare_filter and cloudflare_ruleset expressions (blocks, heredoc, v5 objects) at the characters, through escapes, in their ruleset's phase; skips interpolated ones", async () => {
    const text = fixture("expressions.tf")
    const uri = "file:///w/expressions.tf"
    const opened = await client.open(uri, text, "terraform")
    // The filter is also a resource of the unsupported Filters API (./firewall-unsupported.test.ts).
    expect(opened.diagnostics.filter((x) => x.code === "firewall-api-unsupported").map((x) => at(text, x))).toEqual([
      '"cloudflare_filter"'
    ])
    const d = { diagnostics: opened.diagnostics.filter((x) => x.code !== "firewall-api-unsupported") }
    expect(d.diagnostics.map((x) => [x.code, at(text, x)])).toEqual([
      ["unknown-field", "http.hots"],
      ["unknown-field", "ip.scr"],
      ["unknown-field", "http.hots"],
      // A response field in a request phase; the same field in the http_response_headers_transform ruleset is fine.
      ["field-not-available", "http.response.code"]
    ])
    const [filter, heredoc, v5] = d.diagnostics
    expect(filter!.range.start.line).toBe(3)
    expect(heredoc!.range.start).toEqual({ line: 16, character: 12 })
    expect(v5!.range.start.line).toBe(32)
    // The quick fix edits the HCL string in place.
    const actions = (await client.connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri },
      range: filter!.range,
      context: { diagnostics: [filter] }
    })) as Array<Action>
    const fixed = apply(text, actions.find((a) => a.title === "Change to `http.host`")!.edit!.changes![uri]!)
    expect(fixed).toContain('\\\\bot\\") and http.host eq')
    // Hover inside the HCL string knows the field.
    const hover = (await client.connection.sendRequest("textDocument/hover", {
      textDocument: { uri },
      position: { line: 3, character: text.split("\n")[3]!.indexOf("http.user_agent") + 3 }
    })) as { contents: { value: string } }
    expect(hover.contents.value).toContain("`http.user_agent`")
  })

  it("*.tf.json is Terraform JSON: its ruleset and filter expressions are checked, its previous-WAF resources found", async () => {
    const text = fixture("expressions.tf.json")
    const uri = "file:///w/expressions.tf.json"
    const d = await client.open(uri, text, "json")
    expect(d.diagnostics.filter((x) => x.severity === 1).map((x) => [x.code, at(text, x)])).toContainEqual([
      "unknown-field",
      "http.hots"
    ])
    expect(d.diagnostics.map((x) => at(text, x))).toContain("andd")
    expect(d.diagnostics.find((x) => x.code === "terraform-previous-waf")).toBeDefined()
    // The zone_id templates are Terraform's, not rules expressions.
    expect(d.diagnostics.some((x) => at(text, x).includes("var.zone_id"))).toBe(false)
  })
})

describe("edgectl check on Terraform", () => {
  it("reports the expressions of .tf and .tf.json files at their line and column, exit 1", () => {
    const r = edgectl(["check", fx("expressions.tf"), fx("expressions.tf.json")], { cwd: root })
    expect(r.status).toBe(1)
    expect(r.stdout).toContain(`--> ${fx("expressions.tf")}:4:`)
    expect(r.stdout).toContain(`--> ${fx("expressions.tf")}:17:13`)
    expect(r.stdout).toContain(`--> ${fx("expressions.tf.json")}:6:`)
    expect(r.stdout).toContain("warning[terraform-previous-waf]")
    const doc = JSON.parse(edgectl(["check", "--format", "json", fx("expressions.tf.json")], { cwd: root }).stdout) as {
      files: Array<{ kind: string }>
    }
    expect(doc.files.map((f) => f.kind)).toEqual(["terraform"])
  })

  it("reports where the rewrite cannot tell, as warnings at the attribute (exit 0)", () => {
    const r = edgectl(["check", fx("unclear.tf")], { cwd: root })
    expect(r.status).toBe(0)
    expect(r.stdout).toContain(
      `warning[terraform-rewrite-unclear]: cloudflare_waf_package.owasp: sensitivity = each.value.sensitivity is not a literal`
    )
    expect(r.stdout).toContain(`--> ${fx("unclear.tf")}:10:3`)
    expect(r.stdout).toContain(`--> ${fx("unclear.tf")}:14:3`)
  })
})
