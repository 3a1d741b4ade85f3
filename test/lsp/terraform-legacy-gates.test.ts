/**
 * The Terraform legacy rewrite (HCL and `*.tf.json`, provider 4.x and 5.x) on a file whose zone
 * already has a custom rules ruleset with a rule that skips the rest of the phase (`skip`,
 * `ruleset = "current"`, what a firewall `allow` becomes): that skip never exempted a request from
 * Zone Lockdown or UA Blocking, so the rewrite places the lockdown and UA rules before it too,
 * limited to what it matches (refs ending `@<its ref>`), as `firewall lockdowns migrate` does, and
 * once more after it. As an editor gets it over stdio: the fix inserts them before that rule in
 * the file, the HCL `terraform fmt`-clean (the real Terraform 1.11), the JSON valid and the rest of
 * it unchanged, and asked again the rewrite writes nothing twice.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { isFmtCanonical } from "../../src/lsp/terraform/fmt.js"
import { root } from "../helpers/cli.js"
import { applyEdits, codeActions, type LspDiagnostic, lspOnClock } from "../helpers/lsp-client.js"
import { jsonRulesetProblems } from "../helpers/terraform-json-schema.js"
import { providerSchema, schemaProblems } from "../helpers/terraform-schema.js"

const NOW = "2026-11-24T12:00:00Z"
const dir = path.join(root, "fixtures", "terraform", "legacy")
const fixture = (name: string) => fs.readFileSync(path.join(dir, name), "utf8")
const OFFICE = "ip.src in {10.0.0.0/8}"
/** The fixtures' lockdowns (wiki has priority 1) and UA rules, in the order the rewrite writes them. */
const MIGRATED = [
  "lockdown:wiki:allow",
  "lockdown:wiki:block",
  "lockdown:admin:allow",
  "lockdown:admin:block",
  "ua:bad",
  "ua:scraper"
]
const EXPECTED_REFS = [...MIGRATED.map((r) => `${r}@office`), "office", ...MIGRATED]

type Obj = Record<string, any>
let n = 0

const lsp = lspOnClock(NOW, { debounceMs: 0 })

/** The fix of the Zone Lockdown finding (the custom rules' fix), applied as an editor applies it; undefined when none is offered. */
const fixed = async (text: string, language: "terraform" | "json") => {
  const uri = `file:///work/project/gates-${n++}.${language === "json" ? "tf.json" : "tf"}`
  const d = (await lsp().open(uri, text, language)).diagnostics as ReadonlyArray<LspDiagnostic>
  const zl = d.filter((x) => x.code === "DEP-ZL")
  expect(zl.length).toBeGreaterThan(0)
  const actions = await codeActions(lsp(), uri, zl)
  const fix = actions.filter((a) => a.edit !== undefined)
  if (fix.length === 0) return undefined
  expect(fix.map((a) => a.title)).toEqual([
    expect.stringMatching(/^Append the equivalent rules to cloudflare_ruleset\.custom /)
  ])
  return applyEdits(text, fix[0]!.edit!.changes[uri]!, language)
}

/** What `terraform fmt` (the real one) makes of the text. */
const terraformFmt = (text: string) => {
  const r = spawnSync("terraform", ["fmt", "-"], { input: text, encoding: "utf8" })
  expect(r.status).toBe(0)
  return r.stdout
}

/** The HCL ruleset `custom` holding the office's skip of the rest, in the provider's syntax. */
const hclRuleset = (major: 4 | 5) =>
  [
    'resource "cloudflare_ruleset" "custom" {',
    "  zone_id = var.zone_id",
    '  name    = "default"',
    '  kind    = "zone"',
    '  phase   = "http_request_firewall_custom"',
    "",
    ...(major === 4
      ? [
          "  rules {",
          '    ref        = "office"',
          '    action     = "skip"',
          `    expression = "${OFFICE}"`,
          "    action_parameters {",
          '      ruleset = "current"',
          "    }",
          "  }"
        ]
      : [
          "  rules = [",
          "    {",
          '      ref               = "office"',
          '      action            = "skip"',
          `      expression        = "${OFFICE}"`,
          '      action_parameters = { ruleset = "current" }',
          "    }",
          "  ]"
        ]),
    "}",
    ""
  ].join("\n")

/** The rules of an HCL resource, by ref and expression, in order. */
const hclRules = (text: string) => {
  const start = text.indexOf('resource "cloudflare_ruleset" "custom"')
  const body = text.slice(start, text.indexOf("\n}\n", start))
  const refs = [...body.matchAll(/^\s+ref\s+=\s+"(.*)"$/gm)].map((m) => m[1]!)
  const expressions = [...body.matchAll(/^\s+expression\s+=\s+"(.*)"$/gm)].map((m) => m[1]!)
  return refs.map((ref, i) => ({ ref, expression: expressions[i]! }))
}

/** Every rule placed before the office's skip is limited to what the skip matches. */
const expectGates = (rules: ReadonlyArray<{ ref: string; expression: string }>) => {
  expect(rules.map((r) => r.ref)).toEqual(EXPECTED_REFS)
  for (const r of rules.slice(0, MIGRATED.length)) expect(r.expression.endsWith(` and (${OFFICE})`)).toBe(true)
  for (const r of rules.slice(MIGRATED.length + 1)) expect(r.expression).not.toContain(OFFICE)
}

describe("Terraform legacy rewrite before a rule that skips the rest (HCL)", () => {
  for (const major of [4, 5] as const)
    it(`provider ${major}.x: the lockdown and UA rules go before the skip too, fmt-clean, valid, written once`, async () => {
      const version = `${major}.x`
      const text = `${fixture(`legacy-${version}.tf`)}\n${hclRuleset(major)}`
      expect(terraformFmt(text)).toBe(text)
      const out = (await fixed(text, "terraform"))!
      expectGates(hclRules(out))
      expect(terraformFmt(out)).toBe(out)
      expect(isFmtCanonical(out)).toBe(true)
      expect(await schemaProblems(out, providerSchema(`provider-${version}.json`))).toEqual([])
      // The notes say where they go and why.
      expect(out).toContain("# info: custom rule office skips the rest of the custom phase")
      // The rest of the file is as it was: the edit only adds.
      expect(out.replace(/\n# [^\n]*/g, "").length).toBeGreaterThan(text.length)
      expect(await fixed(out, "terraform")).toBeUndefined()
    })
})

describe("Terraform legacy rewrite before a rule that skips the rest (*.tf.json)", () => {
  for (const major of [4, 5] as const)
    it(`provider ${major}.x: the lockdown and UA rules go before the skip too, valid JSON, the rest unchanged, written once`, async () => {
      const version = `${major}.x`
      const doc = JSON.parse(fixture(`legacy-${version}.tf.json`)) as Obj
      const office = {
        ref: "office",
        action: "skip",
        expression: OFFICE,
        // 4.x writes a block as a list of bodies, 5.x an attribute as an object.
        action_parameters: major === 4 ? [{ ruleset: "current" }] : { ruleset: "current" }
      }
      doc.resource.cloudflare_ruleset = {
        custom: {
          zone_id: "${var.zone_id}",
          name: "default",
          kind: "zone",
          phase: "http_request_firewall_custom",
          rules: [office]
        }
      }
      const text = `${JSON.stringify(doc, null, 2)}\n`
      const out = (await fixed(text, "json"))!
      const parsed = JSON.parse(out) as Obj
      const { "//": notes, rules, ...custom } = parsed.resource.cloudflare_ruleset.custom
      const { rules: _, ...was } = doc.resource.cloudflare_ruleset.custom
      expect(custom).toEqual(was)
      expectGates(rules)
      expect(rules[MIGRATED.length]).toEqual(office)
      expect((notes as Array<string>).join("\n")).toContain("custom rule office skips the rest of the custom phase")
      const { cloudflare_ruleset: _r, ...rest } = parsed.resource
      const { cloudflare_ruleset: _d, ...restBefore } = doc.resource
      expect(rest).toEqual(restBefore)
      expect(
        jsonRulesetProblems(parsed.resource.cloudflare_ruleset, providerSchema(`provider-${version}.json`))
      ).toEqual([])
      expect(await fixed(out, "json")).toBeUndefined()
    })
})
