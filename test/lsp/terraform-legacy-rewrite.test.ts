/**
 * The rewrite of `cloudflare_rate_limit` (-> a `cloudflare_ruleset` in phase `http_ratelimit`) and of
 * `cloudflare_zone_lockdown` + `cloudflare_user_agent_blocking_rule` (-> one ordered list in the
 * zone's `http_request_firewall_custom` ruleset), as an editor gets it over stdio and as `edgectl
 * check` prints it, for provider 3.35, 4.x and 5.x (fixtures/terraform/legacy/): the fix on the
 * scanner's own finding of each old resource, the file rewritten byte for byte as the golden,
 * `terraform fmt`-clean (the real Terraform 1.11 and the rewrite's own layout), accepted by that
 * version's schema, as many rules as old resources (two per lockdown), in their evaluation order;
 * a rule the rewrite cannot read withholds its zone's ruleset with a finding, never dropped silently.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { isFmtCanonical } from "../../src/lsp/terraform/fmt.js"
import { edgectl, root, tempDir } from "../helpers/cli.js"
import { applyEdits, codeActions, type LspDiagnostic, type LspEdit, lspOnClock } from "../helpers/lsp-client.js"
import { providerSchema, schemaProblems } from "../helpers/terraform-schema.js"

const NOW = "2026-11-24T12:00:00Z"
const dir = path.join(root, "fixtures", "terraform", "legacy")
const fixture = (name: string) => fs.readFileSync(path.join(dir, name), "utf8")

const VERSIONS = [
  ["3.35", "provider-3.35.json", "zone/<zone_id>/<ruleset_id>"],
  ["4.x", "provider-4.x.json", "zone/<zone_id>/<ruleset_id>"],
  ["5.x", "provider-5.x.json", "zones/<zone_id>/<ruleset_id>"]
] as const

let n = 0

const apply = (text: string, edits: ReadonlyArray<LspEdit>) => applyEdits(text, edits, "terraform")

/** What `terraform fmt` (the real one) makes of the text. */
const terraformFmt = (text: string) => {
  const r = spawnSync("terraform", ["fmt", "-"], { input: text, encoding: "utf8" })
  expect(r.status).toBe(0)
  return r.stdout
}

const actionsOn = (uri: string, diagnostics: ReadonlyArray<LspDiagnostic>) => codeActions(lsp(), uri, diagnostics)

const open = async (text: string) => {
  const uri = `file:///work/project/legacy-${n++}.tf`
  const d = await lsp().open(uri, text, "terraform")
  return { uri, diagnostics: d.diagnostics as Array<LspDiagnostic> }
}

/** The resource `name` of the text: from its header to the next top-level closing brace. */
const resource = (text: string, header: string) => {
  const start = text.indexOf(header)
  expect(start).toBeGreaterThanOrEqual(0)
  return text.slice(start, text.indexOf("\n}\n", start) + 3)
}
/** The 0-based line of `what` in `text`. */
const lineOf = (text: string, what: string) => text.slice(0, text.indexOf(what)).split("\n").length - 1
const expressions = (text: string) => [...text.matchAll(/^\s+expression\s+=\s+(".*")$/gm)].map((m) => m[1]!)

const lsp = lspOnClock(NOW, { debounceMs: 0 })

describe("Terraform: the legacy security products rewritten to cloudflare_ruleset", () => {
  for (const [version, schema, importId] of VERSIONS)
    it(`provider ${version}: one finding per old resource with its fix, the golden file, fmt-clean, valid for ${version}, every rule kept in order`, async () => {
      const text = fixture(`legacy-${version}.tf`)
      const { uri, diagnostics } = await open(text)
      const legacy = diagnostics.filter((d) => ["DEP-RLOLD", "DEP-ZL", "DEP-UA"].includes(d.code))
      // One diagnostic per resource (the scanner's, not a second one beside it), on its type label.
      expect(legacy.map((d) => [d.code, d.range.start.line])).toEqual([
        ["DEP-RLOLD", lineOf(text, 'resource "cloudflare_rate_limit" "login"')],
        ["DEP-RLOLD", lineOf(text, 'resource "cloudflare_rate_limit" "api"')],
        ["DEP-ZL", lineOf(text, 'resource "cloudflare_zone_lockdown" "admin"')],
        ["DEP-ZL", lineOf(text, 'resource "cloudflare_zone_lockdown" "wiki"')],
        ["DEP-UA", lineOf(text, 'resource "cloudflare_user_agent_blocking_rule" "bad"')],
        ["DEP-UA", lineOf(text, 'resource "cloudflare_user_agent_blocking_rule" "scraper"')]
      ])
      expect(legacy[0]!.severity).toBe(1) // ended 2025-06-15: an error, as `scan` says
      const rl = await actionsOn(uri, legacy.slice(0, 2))
      const custom = await actionsOn(uri, legacy.slice(2))
      const rlFix = rl.filter((a) => a.edit !== undefined)
      const customFix = custom.filter((a) => a.edit !== undefined)
      expect(rlFix.map((a) => [a.title, a.isPreferred])).toEqual([
        [`Add the equivalent cloudflare_ruleset (http_ratelimit, provider ${version}) with the migration steps`, true]
      ])
      expect(customFix.map((a) => a.title)).toEqual([
        `Add the equivalent cloudflare_ruleset (http_request_firewall_custom, provider ${version}) with the migration steps`
      ])
      // The CLI migration is offered beside it.
      expect(rl.map((a) => a.title)).toContain("Move it: edgectl firewall rate-limits migrate --zone ZONE")
      // Both fixes, as an editor applies them to the same version of the file.
      const out = apply(text, [...rlFix[0]!.edit!.changes[uri]!, ...customFix[0]!.edit!.changes[uri]!])
      expect(out).toBe(fixture(`rewritten-${version}.tf`))
      expect(out.endsWith("}\n")).toBe(true)
      expect(isFmtCanonical(out)).toBe(true)
      expect(terraformFmt(out)).toBe(out)
      expect(await schemaProblems(out, providerSchema(schema))).toEqual([])
      expect(out).toContain(`#      terraform import cloudflare_ruleset.rate_limiting ${importId}\n`)
      expect(out).toContain(`#      terraform import cloudflare_ruleset.custom_rules ${importId}\n`)
      expect(out).toContain("#      terraform state rm cloudflare_rate_limit.api\n")
      expect(out).toContain("#      terraform state rm cloudflare_user_agent_blocking_rule.scraper\n")
      expect(out).toContain("removed block for each")

      // Rules kept: one per rate limit, two per lockdown, one per UA rule; in evaluation order.
      const rate = resource(out, 'resource "cloudflare_ruleset" "rate_limiting"')
      expect(rate).toContain('phase   = "http_ratelimit"')
      expect(expressions(rate)).toHaveLength(2)
      expect(rate.match(/^\s+ratelimit\s+(=\s+)?\{$/gm)).toHaveLength(2)
      const list = resource(out, 'resource "cloudflare_ruleset" "custom_rules"')
      const e = expressions(list)
      expect(e).toHaveLength(6)
      // wiki (priority 1) before admin (priority 2), each allow before its block, then the UA rules.
      expect(e[0]).toContain("/wiki/*")
      expect(e[0]).not.toContain("not ip.src")
      expect(e[1]).toContain("not ip.src in {198.51.100.7}")
      expect(e[2]).toContain("ip.src in {192.0.2.0/24 203.0.113.9}")
      expect(e.slice(4)).toEqual([
        '"http.user_agent eq \\"BadBot/1.0\\""',
        '"http.user_agent eq \\"Scraper \\\\\\"x\\\\\\" $${v}\\""'
      ])
      if (version === "3.35") expect(out).not.toMatch(/^\s+ref\s+=/m)
      else expect(list).toMatch(/ref\s+= "lockdown:wiki:allow"/)

      // The rewritten file checks without errors but the old rate limits' (ended: still there until deleted).
      const after = await open(out)
      expect(after.diagnostics.filter((x) => x.severity === 1).map((x) => x.code)).toEqual(["DEP-RLOLD", "DEP-RLOLD"])
      // Asked again, the rewrite writes nothing twice: every rule is there (by ref; 3.35, without refs, by expression and action).
      const again = after.diagnostics.filter((x) => ["DEP-RLOLD", "DEP-ZL", "DEP-UA"].includes(x.code))
      expect(again).toHaveLength(6)
      expect((await actionsOn(after.uri, again)).filter((a) => a.edit !== undefined)).toEqual([])
    })

  it("says what changes: the 5.x pin admits 5.0-5.4, which refuse a period of 90 s; simulate became log", async () => {
    const out = fixture("rewritten-5.x.tf")
    expect(out).toContain(
      "# changed: cloudflare_rate_limit.api: period 100s rounded to 90s, the nearest any plan offers (derived)\n"
    )
    expect(out).toContain(
      '# warning: period 90 is refused by provider 5.0-5.4 (they take 10, 60, 600 or 3600): pin ">= 5.5.0" or later\n'
    )
    expect(out).toContain("# info: a simulate rate limit became action log, which only Enterprise zones offer\n")
    // Without a pin terraform init takes the latest 5.x, which takes any period: no warning.
    const unpinned = fixture("legacy-5.x.tf").replace(/^terraform \{[\s\S]*?\n\}\n/, "")
    const { uri, diagnostics } = await open(unpinned)
    const rl = diagnostics.filter((d) => d.code === "DEP-RLOLD")
    const fix = (await actionsOn(uri, rl)).find((a) => a.edit !== undefined)!
    const written = apply(unpinned, fix.edit!.changes[uri]!)
    expect(written).toContain("(no cloudflare version is pinned: terraform init takes the latest, 5.x)")
    expect(written).toContain("period 100s rounded to 90s")
    expect(written).not.toContain("# warning: period")
  })

  it("a rate limit it cannot read withholds the zone's rate limiting ruleset, with a finding naming the attribute; the lockdowns still move", async () => {
    const text = fixture("legacy-4.x.tf").replace("threshold   = 10", "threshold   = var.login_threshold")
    const { uri, diagnostics } = await open(text)
    const unclear = diagnostics.filter((d) => d.code === "terraform-rewrite-unclear")
    expect(unclear.map((d) => d.message)).toEqual([
      "cloudflare_rate_limit.login: threshold = var.login_threshold is not a literal; no cloudflare_ruleset is written for zone_id = var.zone_id: it is the zone's whole entry point, and applying it without this rule would delete it\nhint: make the value a literal, or rewrite the zone's rules by hand"
    ])
    expect(unclear[0]!.range.start.line).toBe(lineOf(text, "threshold   = var.login_threshold"))
    const rl = diagnostics.filter((d) => d.code === "DEP-RLOLD")
    expect((await actionsOn(uri, rl)).filter((a) => a.edit !== undefined)).toEqual([])
    const zl = diagnostics.filter((d) => d.code === "DEP-ZL")
    expect((await actionsOn(uri, zl)).filter((a) => a.edit !== undefined)).toHaveLength(1)
  })

  it("appends to the zone's custom rules ruleset already in the file, after its rules, keeping its skip rules as exemptions", async () => {
    for (const [pin, existing] of [
      [
        "~> 4.40",
        [
          'resource "cloudflare_ruleset" "custom" {',
          "  zone_id = var.zone_id",
          '  name    = "default"',
          '  kind    = "zone"',
          '  phase   = "http_request_firewall_custom"',
          "",
          "  rules {",
          '    ref        = "office"',
          '    action     = "skip"',
          '    expression = "ip.src in {10.0.0.0/8}"',
          "    action_parameters {",
          '      products = ["zoneLockdown"]',
          "    }",
          "  }",
          "}",
          ""
        ]
      ],
      [
        "~> 5",
        [
          'resource "cloudflare_ruleset" "custom" {',
          "  zone_id = var.zone_id",
          '  name    = "default"',
          '  kind    = "zone"',
          '  phase   = "http_request_firewall_custom"',
          "",
          "  rules = [",
          "    {",
          '      ref               = "office"',
          '      action            = "skip"',
          '      expression        = "ip.src in {10.0.0.0/8}"',
          '      action_parameters = { products = ["zoneLockdown"] }',
          "    }",
          "  ]",
          "}",
          ""
        ]
      ]
    ] as const) {
      const version = pin === "~> 5" ? "5.x" : "4.x"
      const legacy = fixture(`legacy-${version}.tf`)
      const text = `${legacy}\n${existing.join("\n")}`
      expect(terraformFmt(text)).toBe(text)
      const { uri, diagnostics } = await open(text)
      const zl = diagnostics.filter((d) => d.code === "DEP-ZL" || d.code === "DEP-UA")
      const fixes = (await actionsOn(uri, zl)).filter((a) => a.edit !== undefined)
      expect(fixes.map((a) => a.title)).toEqual([
        `Append the equivalent rules to cloudflare_ruleset.custom (http_request_firewall_custom, provider ${version}) with the migration steps`
      ])
      const out = apply(text, fixes[0]!.edit!.changes[uri]!)
      expect(terraformFmt(out)).toBe(out)
      expect(isFmtCanonical(out)).toBe(true)
      expect(await schemaProblems(out, providerSchema(`provider-${version}.json`))).toEqual([])
      expect(out).not.toContain('resource "cloudflare_ruleset" "custom_rules"')
      const e = expressions(resource(out, 'resource "cloudflare_ruleset" "custom"'))
      expect(e).toHaveLength(7)
      expect(e[0]).toBe('"ip.src in {10.0.0.0/8}"')
      // The lockdowns' rules keep the skip rule's exemption; the UA rules were not exempt.
      for (const x of e.slice(1, 5)) expect(x).toMatch(/ and not \(ip\.src in \{10\.0\.0\.0\/8\}\)"$/)
      expect(e[5]).toBe('"http.user_agent eq \\"BadBot/1.0\\""')
      expect(out).toContain("#   1. nothing to import: these rules are appended to cloudflare_ruleset.custom")
    }
  })

  it("appends to the zone's rate limiting ruleset already in the file; two zones get a ruleset each", async () => {
    const existing = [
      'resource "cloudflare_ruleset" "rl" {',
      "  zone_id = var.zone_id",
      '  name    = "default"',
      '  kind    = "zone"',
      '  phase   = "http_ratelimit"',
      "",
      "  rules {",
      '    ref        = "api_burst"',
      '    action     = "block"',
      '    expression = "http.request.uri.path wildcard \\"/api/*\\""',
      "    ratelimit {",
      '      characteristics     = ["cf.colo.id", "ip.src"]',
      "      period              = 10",
      "      requests_per_period = 50",
      "      mitigation_timeout  = 10",
      "      requests_to_origin  = false",
      "    }",
      "  }",
      "}",
      ""
    ].join("\n")
    const text = `${fixture("legacy-4.x.tf")}\n${existing}`
    expect(terraformFmt(text)).toBe(text)
    const { uri, diagnostics } = await open(text)
    const rl = diagnostics.filter((d) => d.code === "DEP-RLOLD")
    const fixes = (await actionsOn(uri, rl)).filter((a) => a.edit !== undefined)
    expect(fixes.map((a) => a.title)).toEqual([
      "Append the equivalent rules to cloudflare_ruleset.rl (http_ratelimit, provider 4.x) with the migration steps"
    ])
    const out = apply(text, fixes[0]!.edit!.changes[uri]!)
    expect(terraformFmt(out)).toBe(out)
    expect(await schemaProblems(out, providerSchema("provider-4.x.json"))).toEqual([])
    const e = expressions(resource(out, 'resource "cloudflare_ruleset" "rl"'))
    expect(e).toHaveLength(3)
    expect(e[0]).toBe('"http.request.uri.path wildcard \\"/api/*\\""')
    // Three rules now: more than Pro's 2.
    expect(diagnostics.find((d) => d.code === "terraform-rewrite-quota")!.message).toBe(
      "zone_id = var.zone_id, rate limiting rules: 3 rules, more than the free plan's 1, pro plan's 2: on such a plan the platform refuses the ruleset\nhint: delete some first, or plan with the zone's real plan: edgectl firewall rate-limits migrate --zone ZONE"
    )

    const two = fixture("legacy-5.x.tf").replace(
      /(resource "cloudflare_rate_limit" "api" \{\n  zone_id   = )var\.zone_id/,
      "$1var.other_zone"
    )
    const second = await open(two)
    const titles = new Set<string>()
    for (const d of second.diagnostics.filter((x) => x.code === "DEP-RLOLD"))
      for (const a of await actionsOn(second.uri, [d])) if (a.edit !== undefined) titles.add(a.title)
    expect([...titles]).toEqual([
      "Add the equivalent cloudflare_ruleset for zone_id = var.zone_id (http_ratelimit, provider 5.x) with the migration steps",
      "Add the equivalent cloudflare_ruleset for zone_id = var.other_zone (http_ratelimit, provider 5.x) with the migration steps"
    ])
  })

  it("with the zone's firewall rules in the file, waits for their ruleset: their rules come first in the one list", async () => {
    const text = `${fixture("legacy-4.x.tf")}
resource "cloudflare_filter" "office" {
  zone_id    = var.zone_id
  expression = "ip.src in {10.0.0.0/8}"
}

resource "cloudflare_firewall_rule" "office" {
  zone_id   = var.zone_id
  filter_id = cloudflare_filter.office.id
  action    = "allow"
}
`
    const { uri, diagnostics } = await open(text)
    const order = diagnostics.filter((d) => d.code === "terraform-rewrite-order")
    expect(order).toHaveLength(1)
    expect(order[0]!.message).toContain("also has cloudflare_firewall_rule resources")
    const zl = diagnostics.filter((d) => d.code === "DEP-ZL")
    expect((await actionsOn(uri, zl)).filter((a) => a.edit !== undefined)).toEqual([])

    // The firewall rules' rewrite first, then this one: one list, the firewall rules' rule first, its
    // bypass of Zone Lockdown kept as the lockdown rules' exemption.
    const bypass = text.replace('action    = "allow"', 'action    = "bypass"\n  products  = ["zoneLockdown"]')
    const first = await open(bypass)
    const fw = first.diagnostics.filter((d) => d.code === "firewall-api-unsupported")
    const fwFix = (await actionsOn(first.uri, fw)).find((a) =>
      a.title.startsWith("Add the equivalent cloudflare_ruleset")
    )!
    const withRuleset = apply(bypass, fwFix.edit!.changes[first.uri]!)
    const second = await open(withRuleset)
    const legacy = second.diagnostics.filter((d) => d.code === "DEP-ZL" || d.code === "DEP-UA")
    const fix = (await actionsOn(second.uri, legacy)).filter((a) => a.edit !== undefined)
    expect(fix.map((a) => a.title)).toEqual([
      "Append the equivalent rules to cloudflare_ruleset.custom_rules (http_request_firewall_custom, provider 4.x) with the migration steps"
    ])
    const out = apply(withRuleset, fix[0]!.edit!.changes[second.uri]!)
    expect(terraformFmt(out)).toBe(out)
    const list = resource(out, 'resource "cloudflare_ruleset" "custom_rules"')
    expect(await schemaProblems(list, providerSchema("provider-4.x.json"))).toEqual([])
    const e = expressions(list)
    expect(e).toHaveLength(7)
    expect(e[0]).toBe('"ip.src in {10.0.0.0/8}"')
    for (const x of e.slice(1, 5)) expect(x).toMatch(/ and not \(ip\.src in \{10\.0\.0\.0\/8\}\)"$/)
  })
})

describe("edgectl check on the legacy products", () => {
  const work = tempDir("edgectl-tf-legacy-")
  fs.copyFileSync(path.join(dir, "legacy-4.x.tf"), path.join(work, "main.tf"))
  const env = { EDGECTL_PLATFORM_NOW: NOW }

  it("JSON: the quota notes, then the scanner's finding per resource (in its order); exit 1 on the ended rate limits", () => {
    const r = edgectl(["check", "--format", "json", "main.tf"], { cwd: work, env })
    expect(r.status).toBe(1)
    const doc = JSON.parse(r.stdout) as {
      files: Array<{ diagnostics: Array<{ code: string; severity: string; message: string; range: any }> }>
    }
    const d = doc.files[0]!.diagnostics
    expect(d.map((x) => `${x.range.start.line} ${x.severity} ${x.code}`)).toEqual([
      "10 information terraform-rewrite-quota",
      "58 information terraform-rewrite-quota",
      "10 error DEP-RLOLD",
      "37 error DEP-RLOLD",
      "58 information DEP-ZL",
      "73 information DEP-ZL",
      "84 information DEP-UA",
      "95 information DEP-UA"
    ])
    expect(d[0]!.message).toBe(
      "zone_id = var.zone_id, rate limiting rules: 2 rules, more than the free plan's 1: on such a plan the platform refuses the ruleset"
    )
    expect(d[1]!.message).toBe(
      "zone_id = var.zone_id, custom rules: 6 rules, more than the free plan's 5: on such a plan the platform refuses the ruleset"
    )
  })

  it("text and SARIF say the same", () => {
    const text = edgectl(["check", "main.tf"], { cwd: work, env })
    expect(text.status).toBe(1)
    expect(text.stdout).toContain(
      "error[DEP-RLOLD]: resource cloudflare_rate_limit: Rate limiting, previous version (deprecated in the pinned provider 4.40.0, since 4.32.0), ended 2025-06-15 (527 days ago)\n  --> main.tf:10:11\n"
    )
    expect(text.stdout).toContain(
      "information[terraform-rewrite-quota]: zone_id = var.zone_id, rate limiting rules: 2 rules, more than the free plan's 1: on such a plan the platform refuses the ruleset\n"
    )
    const sarif = edgectl(["check", "--format", "sarif", "main.tf"], { cwd: work, env })
    expect(sarif.status).toBe(1)
    const run = JSON.parse(sarif.stdout).runs[0]
    expect(run.results.map((x: { ruleId: string }) => x.ruleId)).toEqual([
      "terraform-rewrite-quota",
      "terraform-rewrite-quota",
      "DEP-RLOLD",
      "DEP-RLOLD",
      "DEP-ZL",
      "DEP-ZL",
      "DEP-UA",
      "DEP-UA"
    ])
  })
})
