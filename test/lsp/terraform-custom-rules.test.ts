/**
 * The `cloudflare_ruleset` of phase `http_request_firewall_custom` written for provider 3.35, 4.x
 * and 5.x from custom rules (what the firewall rewrite will offer): byte for byte the files in
 * fixtures/terraform/custom-rules/ (each left unchanged by `terraform fmt -check` of Terraform
 * 1.11.4), accepted by that version's vendored schema, and checked clean by the language server.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { customRulesetHcl, type CustomRule } from "../../src/lsp/terraform/custom-rules-hcl.js"
import { isFmtCanonical } from "../../src/lsp/terraform/fmt.js"
import { root } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"
import { providerSchema, schemaProblems } from "../helpers/terraform-schema.js"

const dir = path.join(root, "fixtures", "terraform", "custom-rules")
const rules = JSON.parse(fs.readFileSync(path.join(dir, "rules.json"), "utf8")) as ReadonlyArray<CustomRule>
const VERSIONS = [
  [3, "3.35", "~> 3.35"],
  [4, "4.x", ">= 4.2.0, < 5.0.0"],
  [5, "5.x", "~> 5"]
] as const

const write = (major: 3 | 4 | 5, rs: ReadonlyArray<CustomRule> = rules) => {
  const out = customRulesetHcl({ resource: "custom", zone: "var.zone_id", name: "default", rules: rs }, major)
  if (!("text" in out)) throw new Error(out.problems.join("; "))
  return out.text
}

let client: Awaited<ReturnType<typeof startLsp>>
beforeAll(async () => {
  client = await startLsp({ debounceMs: 0 })
})
afterAll(async () => {
  await client.close()
})

describe("the custom-rules ruleset per provider version", () => {
  for (const [major, file, pin] of VERSIONS)
    it(`provider ${file}: the fixture byte for byte, fmt canonical, accepted by the ${file} schema, clean in the editor`, async () => {
      const text = write(major)
      expect(text).toBe(fs.readFileSync(path.join(dir, `ruleset-${file}.tf`), "utf8"))
      expect(isFmtCanonical(text)).toBe(true)
      expect(await schemaProblems(text, providerSchema(`provider-${file}.json`))).toEqual([])
      const pinned = `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "${pin}"\n    }\n  }\n}\n\n`
      const d = await client.open(`file:///work/project/custom-${file}.tf`, pinned + text, "terraform")
      expect(d.diagnostics).toEqual([])
    })

  it("each version's shape: 3.35 without ref and with logging status; 4.x a ref on every rule; 5.x attributes", () => {
    const [v3, v4, v5] = VERSIONS.map(([m]) => write(m))
    expect(v3).not.toContain("ref ")
    expect(v3).toContain('logging {\n      status = "disabled"\n    }')
    expect(v4.match(/^ {4}ref +=/gm)).toHaveLength(4)
    // A rule without a ref gets its position's, so its id survives updates (provider 4.48+).
    expect(v4).toContain('ref        = "rule_3"')
    expect(v4).toContain("logging {\n      enabled = false\n    }")
    expect(v5).toContain("  rules = [\n    {\n")
    expect(v5).toContain("      logging = { enabled = false }\n")
    expect(v5).toContain("      action_parameters = {\n        response = {\n")
    // An empty description is not written; the other fields are, in the API's order.
    for (const t of [v3, v4, v5]) expect(t).not.toContain('description = ""')
  })

  it("a version's text is refused by the other versions' schemas (the check can tell them apart)", async () => {
    expect(await schemaProblems(write(5), providerSchema("provider-4.x.json"))).toContain(
      "cloudflare_ruleset.custom.rules: is a block here, not an attribute"
    )
    expect(await schemaProblems(write(4), providerSchema("provider-3.35.json"))).toContain(
      "cloudflare_ruleset.custom.rules.ref: computed only, cannot be set"
    )
  })

  it("writes ${ and %{ in strings escaped, so Terraform does not read them as templates", () => {
    const t = write(4)
    expect(t).toContain('http.host ne \\"$${x}.example\\""')
    expect(t).toContain('"<h1>no %%{if}</h1>"')
  })

  it("no rules: no rules blocks (3.35, 4.x), rules = [] (5.x)", () => {
    expect(write(4, [])).toBe(
      'resource "cloudflare_ruleset" "custom" {\n  zone_id = var.zone_id\n  name    = "default"\n  kind    = "zone"\n  phase   = "http_request_firewall_custom"\n}\n'
    )
    expect(write(5, [])).toContain('  phase   = "http_request_firewall_custom"\n\n  rules = []\n}\n')
  })

  it("refuses what the provider would refuse, naming the field, what it allows and the value", () => {
    const bad: ReadonlyArray<CustomRule> = [
      { action: "block", expression: "ssl", action_parameters: { products: ["waf"] } },
      { action: "skip", expression: "x".repeat(4097), action_parameters: { response: { status_code: 403 } } },
      { action: "log", expression: "ssl", logging: { enabled: true } }
    ]
    for (const major of [3, 4, 5] as const)
      expect(customRulesetHcl({ resource: "custom", zone: "var.zone_id", name: "default", rules: bad }, major)).toEqual(
        {
          problems: [
            'rules[0].action_parameters.products is only valid with action "skip", got action "block"',
            "rules[1].expression is 4097 characters long: the limit is 4096",
            'rules[1].action_parameters.response is only valid with action "block", got action "skip"',
            'rules[2].logging is only valid with action "skip", got action "log"'
          ]
        }
      )
  })
})
