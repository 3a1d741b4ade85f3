/**
 * The legacy products' rewrite on a `*.tf.json` whose zone ruleset writes its one rule as an object
 * (`"rules": {…}`: Terraform's JSON syntax lets a single nested block be one object). Up to 4.x
 * that is the one-element list it stands for: the rewrite makes it an array, the rule already there
 * first and moved in with it, in the file's indentation (or on one line in a compact file), and
 * the result is valid JSON the pinned provider's schema takes; asked again, it writes nothing. In
 * 5.x `rules` is a list attribute and an object there is the wrong type: a finding names the field
 * and why, and no edit. Through the editor's protocol, as test/lsp/terraform-json-legacy.test.ts.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { root } from "../helpers/cli.js"
import { applyEdits, codeActions, type LspDiagnostic, lspOnClock } from "../helpers/lsp-client.js"
import { jsonRulesetProblems } from "../helpers/terraform-json-schema.js"
import { providerSchema } from "../helpers/terraform-schema.js"

const NOW = "2026-11-24T12:00:00Z"
const dir = path.join(root, "fixtures", "terraform", "legacy")
const LEGACY = ["DEP-RLOLD", "DEP-ZL", "DEP-UA"]

type Obj = Record<string, any>
let n = 0

const fixture = (version: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, `legacy-${version}.tf.json`), "utf8")) as Obj

const open = async (text: string) => {
  const uri = `file:///work/project/single-${n++}.tf.json`
  const d = await lsp().open(uri, text, "json")
  return { uri, text, diagnostics: d.diagnostics as Array<LspDiagnostic> }
}

/** The code actions with an edit on the diagnostics of `code`. */
const fixesOf = async (doc: Awaited<ReturnType<typeof open>>, code: string) =>
  (
    await codeActions(
      lsp(),
      doc.uri,
      doc.diagnostics.filter((d) => d.code === code)
    )
  ).filter((a) => a.edit !== undefined)

/** The file with the fix of `code`'s finding applied (there must be exactly one). */
const fixed = async (doc: Awaited<ReturnType<typeof open>>, code: string) => {
  const fixes = await fixesOf(doc, code)
  expect(fixes).toHaveLength(1)
  return applyEdits(doc.text, fixes[0]!.edit!.changes[doc.uri]!, "json")
}

/** Asked again on the rewritten file: the old resources still found, no fix on the findings of `codes`. */
const nothingTwice = async (text: string, codes: ReadonlyArray<string>) => {
  const again = await open(text)
  expect(again.diagnostics.filter((d) => LEGACY.includes(d.code)).map((d) => d.code)).toEqual(LEGACY)
  for (const code of codes) expect(await fixesOf(again, code)).toEqual([])
}

/** The zone's custom rules ruleset with one skip rule of Zone Lockdown, its blocks single objects. 3.35 computes refs. */
const skip = (version: string) => ({
  zone_id: "${var.zone_id}",
  name: "default",
  kind: "zone",
  phase: "http_request_firewall_custom",
  rules: {
    ...(version === "3.35" ? {} : { ref: "office" }),
    action: "skip",
    expression: "ip.src in {10.0.0.0/8}",
    action_parameters: { products: ["zoneLockdown"] }
  }
})

const lsp = lspOnClock(NOW, { debounceMs: 0 })

describe('Terraform JSON: a ruleset whose one rule is written as an object ("rules": {…})', () => {
  for (const version of ["3.35", "4.x"] as const)
    it(`provider ${version}: the custom rules go after it in an array, the rule first and moved in a level; valid for the schema; nothing twice`, async () => {
      const doc = fixture(version)
      doc.resource.cloudflare_ruleset = { custom: skip(version) }
      const text = `${JSON.stringify(doc, null, 2)}\n`
      const d = await open(text)
      expect(d.diagnostics.filter((x) => x.code === "terraform-rewrite-unclear")).toEqual([])
      expect((await fixesOf(d, "DEP-ZL")).map((a) => a.title)).toEqual([
        `Append the equivalent rules to cloudflare_ruleset.custom (http_request_firewall_custom, provider ${version}) with the migration steps`
      ])
      const written = await fixed(d, "DEP-ZL")
      // The rule as it was written, one level in, the first item of the array.
      const own = JSON.stringify(skip(version).rules, null, 2).replace(/\n/g, `\n${" ".repeat(10)}`)
      expect(written).toContain(`\n        "rules": [\n          ${own},\n          {\n            "`)

      const out = JSON.parse(written) as Obj
      const custom = out.resource.cloudflare_ruleset.custom as Obj
      const rules = custom.rules as Array<Obj>
      expect(rules[0]).toEqual(skip(version).rules)
      const e = rules.map((r) => r.expression as string)
      expect(e).toHaveLength(7)
      // The lockdowns' allow/block pairs (the skip rule their exemption), then the UA rules.
      for (const x of e.slice(1, 5)) expect(x).toMatch(/ and not \(ip\.src in \{10\.0\.0\.0\/8\}\)$/)
      expect(rules.slice(1, 5).map((r) => r.action)).toEqual(["skip", "block", "skip", "block"])
      expect(e[5]).toBe('http.user_agent eq "BadBot/1.0"')
      expect(jsonRulesetProblems(out.resource.cloudflare_ruleset, providerSchema(`provider-${version}.json`))).toEqual(
        []
      )
      // The rest of the file as it was.
      const { "//": _, ...rest } = custom
      expect({
        ...out,
        resource: { ...out.resource, cloudflare_ruleset: { custom: { ...rest, rules: rules[0] } } }
      }).toEqual(doc)
      await nothingTwice(written, ["DEP-ZL", "DEP-UA"])
    })

  it("provider 4.x: the rate limits after the zone's one rate limiting rule; a compact file stays on one line", async () => {
    const doc = fixture("4.x")
    const mine = {
      ref: "mine",
      action: "block",
      expression: 'http.request.uri.path eq "/signup"',
      ratelimit: {
        characteristics: ["ip.src", "cf.colo.id"],
        period: 60,
        requests_per_period: 5,
        mitigation_timeout: 600
      }
    }
    doc.resource.cloudflare_ruleset = {
      rl: { zone_id: "${var.zone_id}", name: "default", kind: "zone", phase: "http_ratelimit", rules: mine }
    }
    for (const text of [`${JSON.stringify(doc, null, 2)}\n`, JSON.stringify(doc)]) {
      const written = await fixed(await open(text), "DEP-RLOLD")
      if (!text.includes("\n")) expect(written).not.toContain("\n")
      const out = JSON.parse(written) as Obj
      const rules = out.resource.cloudflare_ruleset.rl.rules as Array<Obj>
      expect(rules.map((r) => r.ref)).toEqual(["mine", "rate_limit:login", "rate_limit:api"])
      expect(rules[0]).toEqual(mine)
      expect(jsonRulesetProblems(out.resource.cloudflare_ruleset, providerSchema("provider-4.x.json"))).toEqual([])
      await nothingTwice(written, ["DEP-RLOLD"])
    }
  })

  it("provider 4.x: a rule that skips the rest of the phase: the lockdown and UA rules before it (limited to it) and after it, as for an array", async () => {
    const doc = fixture("4.x")
    const office = {
      ref: "office",
      action: "skip",
      expression: "ip.src in {10.0.0.0/8}",
      action_parameters: { ruleset: "current" }
    }
    doc.resource.cloudflare_ruleset = { custom: { ...skip("4.x"), rules: office } }
    const written = await fixed(await open(`${JSON.stringify(doc, null, 2)}\n`), "DEP-ZL")
    const out = JSON.parse(written) as Obj
    const rules = out.resource.cloudflare_ruleset.custom.rules as Array<Obj>
    const migrated = [
      "lockdown:wiki:allow",
      "lockdown:wiki:block",
      "lockdown:admin:allow",
      "lockdown:admin:block",
      "ua:bad",
      "ua:scraper"
    ]
    expect(rules.map((r) => r.ref)).toEqual([...migrated.map((r) => `${r}@office`), "office", ...migrated])
    expect(rules[migrated.length]).toEqual(office)
    expect(jsonRulesetProblems(out.resource.cloudflare_ruleset, providerSchema("provider-4.x.json"))).toEqual([])
    await nothingTwice(written, ["DEP-ZL", "DEP-UA"])
  })

  it("provider 5.x: rules is a list attribute, an object there the wrong type: a finding naming the field and why, and no edit", async () => {
    const doc = fixture("5.x")
    doc.resource.cloudflare_ruleset = { custom: skip("5.x") }
    // What Terraform makes of it: the provider's schema wants a list.
    expect(jsonRulesetProblems(doc.resource.cloudflare_ruleset, providerSchema("provider-5.x.json"))).toEqual([
      "cloudflare_ruleset.custom.rules: expected a list, got object"
    ])
    const d = await open(`${JSON.stringify(doc, null, 2)}\n`)
    expect(await fixesOf(d, "DEP-ZL")).toEqual([])
    expect(await fixesOf(d, "DEP-UA")).toEqual([])
    const unclear = d.diagnostics.filter((x) => x.code === "terraform-rewrite-unclear")
    expect(unclear.map((x) => x.message)).toEqual([
      'cloudflare_zone_lockdown.admin: cloudflare_ruleset.custom: its "rules" is one object (a nested block in the 3.x/4.x JSON syntax), but in provider 5.x "rules" is a list attribute, which the JSON syntax writes as an array: Terraform refuses an object there; no rules are written for zone_id = var.zone_id\nhint: write "rules": [{…}] (the rule in an array, in 5.x\'s attribute syntax), or pin the provider version the file is written for'
    ])
    // The rate limits get a ruleset of their own phase: not concerned.
    expect(await fixesOf(d, "DEP-RLOLD")).toHaveLength(1)
  })
})
