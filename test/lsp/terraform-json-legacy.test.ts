/**
 * The legacy products' rewrite in Terraform JSON (`*.tf.json`): `cloudflare_rate_limit` -> the
 * zone's `http_ratelimit` ruleset, `cloudflare_zone_lockdown` + `cloudflare_user_agent_blocking_rule`
 * -> its custom rules, for provider 3.35, 4.x and 5.x (fixtures/terraform/legacy/*.tf.json), as an
 * editor gets it over stdio: the fix on the scanner's finding of each old resource type, the file
 * still valid JSON with the rest of it unchanged, byte for byte the golden, the steps in the
 * ruleset's `"//"`, and the rulesets the very data the HCL rewrite writes for the same resources
 * (one mapping: the HCL goldens of test/lsp/terraform-legacy-rewrite.test.ts); what it cannot
 * read is a finding and no edit.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { parseHcl } from "../../src/lsp/hcl.js"
import { resourceBlocks } from "../../src/lsp/terraform/analyze.js"
import { dataOf } from "../../src/lsp/terraform/legacy-read.js"
import { edgectl, root, tempDir } from "../helpers/cli.js"
import { applyEdits, codeActions, type LspDiagnostic, type LspEdit, lspOnClock } from "../helpers/lsp-client.js"
import { jsonRulesetProblems } from "../helpers/terraform-json-schema.js"
import { providerSchema } from "../helpers/terraform-schema.js"

const NOW = "2026-11-24T12:00:00Z"
const dir = path.join(root, "fixtures", "terraform", "legacy")
const fixture = (name: string) => fs.readFileSync(path.join(dir, name), "utf8")

const VERSIONS = [
  ["3.35", "zone/<zone_id>/<ruleset_id>"],
  ["4.x", "zone/<zone_id>/<ruleset_id>"],
  ["5.x", "zones/<zone_id>/<ruleset_id>"]
] as const
const LEGACY = ["DEP-RLOLD", "DEP-ZL", "DEP-UA"]

type Obj = Record<string, any>
let n = 0

const apply = (text: string, edits: ReadonlyArray<LspEdit>) => applyEdits(text, edits, "json")

const open = async (text: string) => {
  const uri = `file:///work/project/legacy-${n++}.tf.json`
  const d = await lsp().open(uri, text, "json")
  return { uri, diagnostics: d.diagnostics as Array<LspDiagnostic> }
}

const actionsOn = (uri: string, diagnostics: ReadonlyArray<LspDiagnostic>) => codeActions(lsp(), uri, diagnostics)

/** The code actions with an edit on the diagnostics of `code`. */
const fixesOf = async (doc: { uri: string; diagnostics: Array<LspDiagnostic> }, code: string) =>
  (
    await actionsOn(
      doc.uri,
      doc.diagnostics.filter((d) => d.code === code)
    )
  ).filter((a) => a.edit !== undefined)

/** A JSON value as Terraform reads it: `$${` and `%%{` are literal `${` and `%{`. */
const unescaped = (v: unknown): unknown =>
  typeof v === "string"
    ? v.replace(/([$%])\1\{/g, "$1{")
    : Array.isArray(v)
      ? v.map(unescaped)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unescaped(x)]))
        : v

/** The `cloudflare_ruleset` resources of an HCL file as data (blocks as lists of bodies, as the JSON syntax writes them). */
const hclRulesets = async (text: string) => {
  const tree = await parseHcl(text)
  try {
    return Object.fromEntries(
      resourceBlocks(tree.rootNode)
        .filter((b) => b.type === "cloudflare_ruleset")
        .map((b) => [b.name, dataOf(b)])
    )
  } finally {
    tree.delete()
  }
}

const lsp = lspOnClock(NOW, { debounceMs: 0 })

describe("Terraform JSON: the legacy security products rewritten to cloudflare_ruleset", () => {
  for (const [version, importId] of VERSIONS)
    it(`provider ${version}: a fix on each type's finding, valid JSON, the rest unchanged, the golden, the HCL rewrite's rulesets`, async () => {
      const text = fixture(`legacy-${version}.tf.json`)
      const doc = JSON.parse(text) as Obj
      const first = await open(text)
      const legacy = first.diagnostics.filter((d) => LEGACY.includes(d.code))
      // One diagnostic per type (the scanner's, with the fixes), on the type's key.
      expect(legacy.map((d) => [d.code, d.range.start.line])).toEqual([
        ["DEP-RLOLD", 15],
        ["DEP-ZL", text.slice(0, text.indexOf('"cloudflare_zone_lockdown"')).split("\n").length - 1],
        ["DEP-UA", text.slice(0, text.indexOf('"cloudflare_user_agent_blocking_rule"')).split("\n").length - 1]
      ])
      const rl = await actionsOn(first.uri, legacy.slice(0, 1))
      expect(rl.filter((a) => a.edit !== undefined).map((a) => [a.title, a.isPreferred])).toEqual([
        [`Add the equivalent cloudflare_ruleset (http_ratelimit, provider ${version}) with the migration steps`, true]
      ])
      expect(rl.map((a) => a.title)).toContain("Move it: edgectl firewall rate-limits migrate --zone ZONE")
      const custom = `Add the equivalent cloudflare_ruleset (http_request_firewall_custom, provider ${version}) with the migration steps`
      expect((await fixesOf(first, "DEP-ZL")).map((a) => a.title)).toEqual([custom])
      expect((await fixesOf(first, "DEP-UA")).map((a) => a.title)).toEqual([custom])

      // As an editor applies them: the rate limits' fix, then, on the file it wrote, the custom rules'.
      const fix = rl.find((a) => a.edit !== undefined)!
      const once = apply(text, fix.edit!.changes[first.uri]!)
      const second = await open(once)
      const customFix = await fixesOf(second, "DEP-ZL")
      expect(customFix.map((a) => a.title)).toEqual([custom])
      const out = apply(once, customFix[0]!.edit!.changes[second.uri]!)
      expect(out).toBe(fixture(`rewritten-${version}.tf.json`))

      // Valid JSON, the rest of the file as it was, the rulesets beside the rate limits.
      const parsed = JSON.parse(out) as Obj
      const { cloudflare_ruleset: added, ...rest } = parsed.resource
      expect({ ...parsed, resource: rest }).toEqual(doc)
      expect(Object.keys(parsed.resource)).toEqual([
        "cloudflare_rate_limit",
        "cloudflare_ruleset",
        "cloudflare_zone_lockdown",
        "cloudflare_user_agent_blocking_rule"
      ])
      expect(Object.keys(added)).toEqual(["rate_limiting", "custom_rules"])
      expect(jsonRulesetProblems(added, providerSchema(`provider-${version}.json`))).toEqual([])
      const rate = added.rate_limiting["//"] as Array<string>
      const list = added.custom_rules["//"] as Array<string>
      expect(rate).toContain(`     terraform import cloudflare_ruleset.rate_limiting ${importId}`)
      expect(list).toContain(`     terraform import cloudflare_ruleset.custom_rules ${importId}`)
      expect(rate).toContain("     terraform state rm cloudflare_rate_limit.api")
      expect(list).toContain("     terraform state rm cloudflare_user_agent_blocking_rule.scraper")
      expect(list.join("\n")).toContain("removed block for each")

      // The same rulesets as the HCL rewrite writes for the same resources: one mapping.
      const hcl = await hclRulesets(fixture(`rewritten-${version}.tf`))
      for (const name of ["rate_limiting", "custom_rules"]) {
        const { "//": _, ...body } = added[name] as Obj
        expect(unescaped({ ...body, zone_id: "var.zone_id" })).toEqual({ ...hcl[name], zone_id: "var.zone_id" })
      }
      expect(added.custom_rules.rules).toHaveLength(6)

      // Asked again, the rewrite writes nothing twice; the old resources are still found until deleted.
      const after = await open(out)
      expect(after.diagnostics.filter((d) => LEGACY.includes(d.code)).map((d) => d.code)).toEqual(LEGACY)
      for (const code of LEGACY) expect(await fixesOf(after, code)).toEqual([])
    })
})

describe("Terraform JSON: what the legacy rewrite cannot write is a finding, and no edit", () => {
  it("a rate limit whose threshold Terraform computes withholds the zone's rate limiting ruleset, naming the attribute; the lockdowns still move", async () => {
    const doc = JSON.parse(fixture("legacy-4.x.tf.json")) as Obj
    doc.resource.cloudflare_rate_limit.login.threshold = "${var.login_threshold}"
    const text = `${JSON.stringify(doc, null, 2)}\n`
    const d = await open(text)
    const unclear = d.diagnostics.filter((x) => x.code === "terraform-rewrite-unclear")
    expect(unclear.map((x) => x.message)).toEqual([
      "cloudflare_rate_limit.login: threshold = \"${var.login_threshold}\" is not a literal; no cloudflare_ruleset is written for zone_id = var.zone_id: it is the zone's whole entry point, and applying it without this rule would delete it\nhint: make the value a literal, or rewrite the zone's rules by hand"
    ])
    expect(unclear[0]!.range.start.line).toBe(text.slice(0, text.indexOf('"threshold"')).split("\n").length - 1)
    expect(await fixesOf(d, "DEP-RLOLD")).toEqual([])
    expect(await fixesOf(d, "DEP-ZL")).toHaveLength(1)
  })

  it("one block written as an object, as the JSON syntax allows, is read as one", async () => {
    const doc = JSON.parse(fixture("legacy-4.x.tf.json")) as Obj
    const wiki = doc.resource.cloudflare_zone_lockdown.wiki
    wiki.configurations = wiki.configurations[0]
    const text = `${JSON.stringify(doc, null, 2)}\n`
    const d = await open(text)
    expect(d.diagnostics.filter((x) => x.code === "terraform-rewrite-unclear")).toEqual([])
    const fix = await fixesOf(d, "DEP-ZL")
    const out = JSON.parse(apply(text, fix[0]!.edit!.changes[d.uri]!)) as Obj
    const rules = out.resource.cloudflare_ruleset.custom_rules.rules as Array<Obj>
    expect(rules[1]!.expression).toContain("not ip.src in {198.51.100.7}")
  })

  it("for_each, a zone_id missing, a file with a syntax error: findings, no edit", async () => {
    const doc = JSON.parse(fixture("legacy-5.x.tf.json")) as Obj
    doc.resource.cloudflare_zone_lockdown.wiki.for_each = "${var.wikis}"
    delete doc.resource.cloudflare_rate_limit.api.zone_id
    const d = await open(`${JSON.stringify(doc, null, 2)}\n`)
    expect(
      d.diagnostics.filter((x) => x.code === "terraform-rewrite-unclear").map((x) => x.message.split(";")[0])
    ).toEqual([
      "cloudflare_rate_limit.api: it has no zone_id",
      "cloudflare_zone_lockdown.wiki: it has for_each: the rewrite cannot tell the rules it stands for"
    ])
    for (const code of LEGACY) expect(await fixesOf(d, code)).toEqual([])

    const broken = await open(fixture("legacy-4.x.tf.json").replace('"period": 60,', '"period": 60,,'))
    expect(broken.diagnostics.map((x) => x.code)).toContain("json-syntax")
    expect(broken.diagnostics.filter((x) => LEGACY.includes(x.code)).map((x) => x.code)).toEqual(LEGACY)
    for (const code of LEGACY) expect(await fixesOf(broken, code)).toEqual([])
  })
})

describe("Terraform JSON: the zone's ruleset already in the file, several zones, a compact file", () => {
  const skip = (v5: boolean) => ({
    zone_id: "${var.zone_id}",
    name: "default",
    kind: "zone",
    phase: "http_request_firewall_custom",
    rules: [
      {
        ref: "office",
        action: "skip",
        expression: "ip.src in {10.0.0.0/8}",
        action_parameters: v5 ? { products: ["zoneLockdown"] } : [{ products: ["zoneLockdown"] }]
      }
    ]
  })

  for (const version of ["4.x", "5.x"] as const)
    it(`provider ${version}: the rules appended to the zone's custom rules ruleset, after its rules, its skip rule kept as their exemption`, async () => {
      const doc = JSON.parse(fixture(`legacy-${version}.tf.json`)) as Obj
      doc.resource.cloudflare_ruleset = { custom: skip(version === "5.x") }
      const text = `${JSON.stringify(doc, null, 2)}\n`
      const d = await open(text)
      const fixes = await fixesOf(d, "DEP-ZL")
      expect(fixes.map((a) => a.title)).toEqual([
        `Append the equivalent rules to cloudflare_ruleset.custom (http_request_firewall_custom, provider ${version}) with the migration steps`
      ])
      const out = JSON.parse(apply(text, fixes[0]!.edit!.changes[d.uri]!)) as Obj
      const { custom, ...others } = out.resource.cloudflare_ruleset
      expect(others).toEqual({})
      const { rules, "//": steps, ...rest } = custom as Obj
      expect({ ...rest, rules: rules.slice(0, 1) }).toEqual(skip(version === "5.x"))
      const e = (rules as Array<Obj>).map((r) => unescaped(r.expression) as string)
      expect(e).toHaveLength(7)
      for (const x of e.slice(1, 5)) expect(x).toMatch(/ and not \(ip\.src in \{10\.0\.0\.0\/8\}\)$/)
      expect(e[5]).toBe('http.user_agent eq "BadBot/1.0"')
      expect(steps).toContain(
        "  1. nothing to import: these rules are appended to cloudflare_ruleset.custom, the zone's http_request_firewall_custom entry point."
      )
      // The rest of the file as it was.
      expect({ ...out, resource: { ...out.resource, cloudflare_ruleset: doc.resource.cloudflare_ruleset } }).toEqual(
        doc
      )
    })

  it("an existing `//` is kept, the steps added after it; the rate limits appended to the zone's http_ratelimit ruleset", async () => {
    const doc = JSON.parse(fixture("legacy-4.x.tf.json")) as Obj
    doc.resource.cloudflare_ruleset = {
      rl: {
        "//": "hand-written",
        zone_id: "${var.zone_id}",
        name: "default",
        kind: "zone",
        phase: "http_ratelimit",
        rules: []
      }
    }
    const text = `${JSON.stringify(doc, null, 2)}\n`
    const d = await open(text)
    const fixes = await fixesOf(d, "DEP-RLOLD")
    expect(fixes.map((a) => a.title)).toEqual([
      "Append the equivalent rules to cloudflare_ruleset.rl (http_ratelimit, provider 4.x) with the migration steps"
    ])
    const written = apply(text, fixes[0]!.edit!.changes[d.uri]!)
    expect(written).toContain(
      '\n        "//": [\n          "hand-written",\n          "Migrated from cloudflare_rate_limit'
    )
    const out = JSON.parse(written) as Obj
    const rl = out.resource.cloudflare_ruleset.rl as Obj
    expect(rl["//"][0]).toBe("hand-written")
    expect(rl["//"]).toContain("     terraform state rm cloudflare_rate_limit.login")
    expect((rl.rules as Array<Obj>).map((r) => r.ref)).toEqual(["rate_limit:login", "rate_limit:api"])
  })

  it("two zones get a ruleset each; a compact file stays on one line and valid", async () => {
    const doc = JSON.parse(fixture("legacy-5.x.tf.json")) as Obj
    doc.resource.cloudflare_rate_limit.api.zone_id = "${var.other_zone}"
    const text = JSON.stringify(doc)
    const d = await open(text)
    const titles = (await fixesOf(d, "DEP-RLOLD")).map((a) => a.title)
    expect(titles).toEqual([
      "Add the equivalent cloudflare_ruleset for zone_id = var.zone_id (http_ratelimit, provider 5.x) with the migration steps",
      "Add the equivalent cloudflare_ruleset for zone_id = var.other_zone (http_ratelimit, provider 5.x) with the migration steps"
    ])
    const fix = (await fixesOf(d, "DEP-RLOLD"))[1]!
    const out = apply(text, fix.edit!.changes[d.uri]!)
    expect(out).not.toContain("\n")
    const rulesets = (JSON.parse(out) as Obj).resource.cloudflare_ruleset as Obj
    expect(Object.keys(rulesets)).toEqual(["rate_limiting_other_zone"])
    expect(rulesets.rate_limiting_other_zone.zone_id).toBe("${var.other_zone}")
  })

  it("with the zone's firewall rules in the file, waits for their ruleset: their rules come first in the one list", async () => {
    const doc = JSON.parse(fixture("legacy-4.x.tf.json")) as Obj
    doc.resource.cloudflare_firewall_rule = {
      office: { zone_id: "${var.zone_id}", filter_id: "${cloudflare_filter.office.id}", action: "allow" }
    }
    const d = await open(`${JSON.stringify(doc, null, 2)}\n`)
    const order = d.diagnostics.filter((x) => x.code === "terraform-rewrite-order")
    expect(order.map((x) => x.message.split(":")[0])).toEqual([
      "zone_id = var.zone_id also has cloudflare_firewall_rule resources"
    ])
    expect(await fixesOf(d, "DEP-ZL")).toEqual([])
    expect(await fixesOf(d, "DEP-RLOLD")).toHaveLength(1)

    // The firewall rules' rewrite first, then this one: one list, the firewall rules' rule first, its
    // bypass of Zone Lockdown kept as the lockdown rules' exemption.
    doc.resource.cloudflare_filter = { office: { zone_id: "${var.zone_id}", expression: "ip.src in {10.0.0.0/8}" } }
    Object.assign(doc.resource.cloudflare_firewall_rule.office, { action: "bypass", products: ["zoneLockdown"] })
    const text = `${JSON.stringify(doc, null, 2)}\n`
    const first = await open(text)
    const fw = first.diagnostics.filter((x) => x.code === "firewall-api-unsupported")
    const fwFix = (await actionsOn(first.uri, fw)).find((a) =>
      a.title.startsWith("Add the equivalent cloudflare_ruleset")
    )!
    const withRuleset = apply(text, fwFix.edit!.changes[first.uri]!)
    const second = await open(withRuleset)
    const fix = await fixesOf(second, "DEP-UA")
    expect(fix.map((a) => a.title)).toEqual([
      "Append the equivalent rules to cloudflare_ruleset.custom_rules (http_request_firewall_custom, provider 4.x) with the migration steps"
    ])
    const out = JSON.parse(apply(withRuleset, fix[0]!.edit!.changes[second.uri]!)) as Obj
    const list = out.resource.cloudflare_ruleset.custom_rules as Obj
    const e = (list.rules as Array<Obj>).map((r) => unescaped(r.expression) as string)
    expect(e).toHaveLength(7)
    expect(e[0]).toBe("ip.src in {10.0.0.0/8}")
    for (const x of e.slice(1, 5)) expect(x).toMatch(/ and not \(ip\.src in \{10\.0\.0\.0\/8\}\)$/)
    // The firewall rewrite's steps first, then these.
    expect((list["//"] as Array<string>)[0]).toContain("cloudflare_filter and cloudflare_firewall_rule")
    expect(list["//"]).toContain("     terraform state rm cloudflare_zone_lockdown.admin")
  })
})

describe("edgectl check on a *.tf.json with the legacy products", () => {
  it("the quota notes, then the scanner's finding per type, as for HCL; exit 1 on the ended rate limits", () => {
    const work = tempDir("edgectl-tfjson-legacy-")
    fs.copyFileSync(path.join(dir, "legacy-4.x.tf.json"), path.join(work, "main.tf.json"))
    const r = edgectl(["check", "--format", "json", "main.tf.json"], { cwd: work, env: { EDGECTL_PLATFORM_NOW: NOW } })
    expect(r.status).toBe(1)
    const d = (
      JSON.parse(r.stdout) as {
        files: Array<{ diagnostics: Array<{ code: string; severity: string; message: string; range: any }> }>
      }
    ).files[0]!.diagnostics
    expect(d.map((x) => `${x.range.start.line} ${x.severity} ${x.code}`)).toEqual([
      "17 information terraform-rewrite-quota",
      "100 information terraform-rewrite-quota",
      "16 error DEP-RLOLD",
      "99 information DEP-ZL",
      "134 information DEP-UA"
    ])
    expect(d[1]!.message).toBe(
      "zone_id = var.zone_id, custom rules: 6 rules, more than the free plan's 5: on such a plan the platform refuses the ruleset"
    )
  })
})
