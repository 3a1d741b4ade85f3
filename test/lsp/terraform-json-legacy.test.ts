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
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseHcl } from "../../src/lsp/hcl.js"
import { resourceBlocks } from "../../src/lsp/terraform.js"
import { dataOf } from "../../src/lsp/terraform-legacy-read.js"
import { root } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"

const NOW = "2026-11-24T12:00:00Z"
const dir = path.join(root, "fixtures", "terraform", "legacy")
const fixture = (name: string) => fs.readFileSync(path.join(dir, name), "utf8")

const VERSIONS = [
  ["3.35", "zone/<zone_id>/<ruleset_id>"],
  ["4.x", "zone/<zone_id>/<ruleset_id>"],
  ["5.x", "zones/<zone_id>/<ruleset_id>"]
] as const
const LEGACY = ["DEP-RLOLD", "DEP-ZL", "DEP-UA"]

type Client = Awaited<ReturnType<typeof startLsp>>
type Obj = Record<string, any>
let client: Client
let previous: string | undefined
let n = 0

interface Edit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } }
  newText: string
}
interface Diagnostic {
  code: string
  message: string
  severity: number
  range: Edit["range"]
}
interface Action {
  title: string
  isPreferred?: boolean
  edit?: { changes: Record<string, Array<Edit>> }
}

const apply = (text: string, edits: Array<Edit>) =>
  TextDocument.applyEdits(TextDocument.create("x", "json", 0, text), edits)

const open = async (text: string) => {
  const uri = `file:///work/project/legacy-${n++}.tf.json`
  const d = await client.open(uri, text, "json")
  return { uri, diagnostics: d.diagnostics as Array<Diagnostic> }
}

const actionsOn = async (uri: string, diagnostics: Array<Diagnostic>) =>
  (await client.connection.sendRequest("textDocument/codeAction", {
    textDocument: { uri },
    range: diagnostics[0]!.range,
    context: { diagnostics }
  })) as Array<Action>

/** The code actions with an edit on the diagnostics of `code`. */
const fixesOf = async (doc: { uri: string; diagnostics: Array<Diagnostic> }, code: string) =>
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

beforeAll(async () => {
  previous = process.env.EDGECTL_PLATFORM_NOW
  process.env.EDGECTL_PLATFORM_NOW = NOW
  client = await startLsp({ debounceMs: 0 })
})
afterAll(async () => {
  await client.close()
  if (previous === undefined) delete process.env.EDGECTL_PLATFORM_NOW
  else process.env.EDGECTL_PLATFORM_NOW = previous
})

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
