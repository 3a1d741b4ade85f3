/**
 * The Terraform rewrites write a zone's whole entry point, so they carry every rule over or say
 * why not, as an editor gets them over stdio and `edgectl check` prints them: a computed
 * description is carried as written; a rule the firewall rewrite cannot read (`for_each`/`count`
 * on the rule or its filter, a filter that is not in the file) withholds its zone's ruleset, with
 * a finding naming the rule and why; the previous-WAF rewrite writes the skip rule `waf config`
 * makes of a firewall rule that bypasses the WAF; and the steps promise "terraform plan shows no
 * changes" only where following them changes nothing, else they say what differs.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isFmtCanonical } from "../../src/lsp/terraform/fmt.js"
import { edgectl, tempDir } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"
import { providerSchema, schemaProblems } from "../helpers/terraform-schema.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
let n = 0

interface Edit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } }
  newText: string
}
interface Action {
  title: string
  edit?: { changes: Record<string, Array<Edit>> }
}

const apply = (text: string, edits: Array<Edit>) =>
  TextDocument.applyEdits(TextDocument.create("x", "terraform", 0, text), edits)

const pinned = (version: string) =>
  `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "${version}"\n    }\n  }\n}\n\n`

const hcl = (...lines: Array<string>) => `${lines.join("\n")}\n`

/** A resource block's attributes (`key = value`), aligned as `terraform fmt` aligns them. */
const body = (attributes: ReadonlyArray<string>) => {
  const pairs = attributes.map((a) => a.split(/ += /) as [string, string])
  const width = Math.max(...pairs.map(([k]) => k.length))
  return pairs.map(([k, v]) => `  ${k.padEnd(width)} = ${v}`)
}
const filter = (name: string, expression: string, zone = "var.zone_id", extra: Array<string> = []) => [
  `resource "cloudflare_filter" "${name}" {`,
  ...body([`zone_id = ${zone}`, `expression = ${JSON.stringify(expression)}`, ...extra]),
  "}",
  ""
]
const rule = (name: string, attributes: Array<string>) => [
  `resource "cloudflare_firewall_rule" "${name}" {`,
  ...body(attributes),
  "}",
  ""
]

/** The file opened as a .tf document: its diagnostics and the rewrites offered on them. */
const open = async (text: string, prefix = "Add the equivalent cloudflare_ruleset") => {
  const uri = `file:///work/project/whole-${n++}.tf`
  const d = await client.open(uri, text, "terraform")
  const actions: Array<Action> = []
  for (const x of d.diagnostics) {
    const found = (await client.connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri },
      range: x.range,
      context: { diagnostics: [x] }
    })) as Array<Action>
    for (const a of found) if (a.title.startsWith(prefix) && !actions.some((b) => b.title === a.title)) actions.push(a)
  }
  const unclear = d.diagnostics.filter((x) => x.code === "terraform-rewrite-unclear").map((x) => x.message)
  return { uri, d, actions, unclear, out: (a: Action) => apply(text, a.edit!.changes[uri]!) }
}

const rulesetOf = (text: string, name: string) => {
  const start = text.indexOf(`resource "cloudflare_ruleset" "${name}" {`)
  expect(start).toBeGreaterThanOrEqual(0)
  return text.slice(start, text.indexOf("\n}\n", start) + 3)
}

const OFFICE = [
  ...filter("office", "ip.src in {192.0.2.0/24}"),
  ...rule("office", [
    "zone_id   = var.zone_id",
    "filter_id = cloudflare_filter.office.id",
    'action    = "bypass"',
    'products  = ["waf"]',
    "priority  = 1"
  ])
]

const WHOLE = "it is the zone's whole entry point, and applying it without this rule would delete it"

beforeAll(async () => {
  client = await startLsp({ debounceMs: 0 })
})
afterAll(async () => {
  await client.close()
})

describe("the firewall rewrite carries every rule of a zone or writes no ruleset for it", () => {
  it("a description Terraform computes (a reference, an interpolation, the filter's) is carried as written", async () => {
    const text =
      pinned(">= 4.2.0, < 5.0.0") +
      hcl(
        ...filter("admin", 'http.request.uri.path contains "/admin"'),
        ...rule("admin", [
          "zone_id     = var.zone_id",
          "filter_id   = cloudflare_filter.admin.id",
          'action      = "block"',
          "description = var.admin_description"
        ]),
        ...filter("api", 'http.host eq "api.example.com"', "var.zone_id", ['description = "${var.env} api"']),
        ...rule("api", ["zone_id   = var.zone_id", "filter_id = cloudflare_filter.api.id", 'action    = "challenge"'])
      )
    for (const [pin, schema] of [
      [">= 4.2.0, < 5.0.0", "provider-4.x.json"],
      ["~> 5", "provider-5.x.json"]
    ] as const) {
      const file = text.replace(">= 4.2.0, < 5.0.0", pin)
      const { actions, unclear, out } = await open(file)
      expect(unclear).toEqual([])
      expect(actions).toHaveLength(1)
      const written = out(actions[0]!)
      const ruleset = rulesetOf(written, "custom_rules")
      expect(ruleset).toMatch(/\n +description += var\.admin_description\n/)
      expect(ruleset).toMatch(/\n +description += "\$\{var\.env\} api"\n/)
      expect(ruleset).not.toContain("\\u0001")
      expect(written).toContain("#      terraform state rm cloudflare_firewall_rule.admin\n")
      expect(written).toContain("#      terraform state rm cloudflare_firewall_rule.api\n")
      expect(written).toContain("#   5. terraform plan shows no changes.\n")
      expect(isFmtCanonical(written)).toBe(true)
      expect(await schemaProblems(ruleset, providerSchema(schema))).toEqual([])
    }
  })

  it("Terraform JSON: a computed description is carried as written, its template unescaped", async () => {
    const doc = {
      terraform: { required_providers: { cloudflare: { source: "cloudflare/cloudflare", version: "~> 5" } } },
      resource: {
        cloudflare_filter: { admin: { zone_id: "${var.zone_id}", expression: "ssl" } },
        cloudflare_firewall_rule: {
          admin: {
            zone_id: "${var.zone_id}",
            filter_id: "${cloudflare_filter.admin.id}",
            action: "block",
            description: "${var.env} admin"
          }
        }
      }
    }
    const text = `${JSON.stringify(doc, null, 2)}\n`
    const uri = `file:///work/project/whole-${n++}.tf.json`
    const d = await client.open(uri, text, "json")
    expect(d.diagnostics.filter((x) => x.code === "terraform-rewrite-unclear")).toEqual([])
    const warning = d.diagnostics.find((x) => x.code === "firewall-api-unsupported")!
    const [action] = (
      (await client.connection.sendRequest("textDocument/codeAction", {
        textDocument: { uri },
        range: warning.range,
        context: { diagnostics: [warning] }
      })) as Array<Action>
    ).filter((a) => a.title.startsWith("Add the equivalent cloudflare_ruleset"))
    const ruleset = JSON.parse(apply(text, action!.edit!.changes[uri]!)).resource.cloudflare_ruleset.custom_rules
    expect(ruleset.rules).toEqual([
      { ref: "admin", action: "block", expression: "ssl", description: "${var.env} admin", enabled: true }
    ])
    expect(ruleset["//"]).toContain("  5. terraform plan shows no changes.")
  })

  it("for_each on a rule, count on a filter: no ruleset for their zone, each named with why; other zones rewritten", async () => {
    const text =
      pinned("~> 5") +
      hcl(
        ...OFFICE,
        ...rule("per_path", [
          "for_each  = var.paths",
          "zone_id   = var.zone_id",
          "filter_id = cloudflare_filter.office.id",
          'action    = "block"'
        ]),
        ...filter("shop", "ssl", '"0123456789abcdef0123456789abcdef"'),
        ...rule("shop", [
          'zone_id   = "0123456789abcdef0123456789abcdef"',
          "filter_id = cloudflare_filter.shop.id",
          'action    = "challenge"'
        ]),
        ...filter("blog", "ssl", '"fedcba9876543210fedcba9876543210"', ["count = 2"]),
        ...rule("blog", [
          'zone_id   = "fedcba9876543210fedcba9876543210"',
          "filter_id = cloudflare_filter.blog.id",
          'action    = "block"'
        ])
      )
    const { actions, unclear } = await open(text)
    expect(unclear).toEqual([
      `cloudflare_firewall_rule.per_path: it has for_each: the rewrite cannot tell the rules it stands for; no cloudflare_ruleset is written for zone_id = var.zone_id: ${WHOLE}\nhint: rewrite the zone's rules by hand`,
      `cloudflare_firewall_rule.blog: its filter cloudflare_filter.blog has for_each or count: the rewrite cannot tell its expression; no cloudflare_ruleset is written for zone_id = "fedcba9876543210fedcba9876543210": ${WHOLE}\nhint: rewrite the zone's rules by hand`
    ])
    expect(actions.map((a) => a.title)).toEqual([
      'Add the equivalent cloudflare_ruleset for zone_id = "0123456789abcdef0123456789abcdef" (http_request_firewall_custom, provider 5.x) with the migration steps'
    ])
  })

  it("a rule whose zone differs per instance (zone_id = each.value): no ruleset for any zone of the file", async () => {
    const text =
      pinned("~> 5") +
      hcl(
        ...OFFICE,
        ...rule("everywhere", [
          "for_each  = var.zones",
          "zone_id   = each.value",
          "filter_id = cloudflare_filter.office.id",
          'action    = "block"'
        ])
      )
    const { actions, unclear } = await open(text)
    expect(actions).toEqual([])
    expect(unclear).toEqual([
      "cloudflare_firewall_rule.everywhere: it has for_each: the rewrite cannot tell the rules it stands for; no cloudflare_ruleset is written for this file's zones: the rewrite cannot tell which zone the rule belongs to, and a zone's ruleset is its whole entry point (applying one without the rule would delete it)\nhint: rewrite the zone's rules by hand"
    ])
  })

  it("a filter from a data source or a module: no ruleset for the zone; edgectl check says so and offers no fix", () => {
    const dir = tempDir("edgectl-whole-")
    const text =
      pinned("~> 4.52") +
      hcl(
        ...OFFICE,
        ...rule("shared", ["zone_id   = var.zone_id", "filter_id = module.filters.admin_id", 'action    = "block"'])
      )
    fs.writeFileSync(path.join(dir, "main.tf"), text)
    const r = edgectl(["check", "--format", "json", "main.tf"], { cwd: dir })
    expect(r.status).toBe(0)
    const doc = JSON.parse(r.stdout) as {
      files: Array<{ diagnostics: Array<{ code: string; message: string; hint?: string; fixes: Array<string> }> }>
    }
    const d = doc.files[0]!.diagnostics
    expect(d.filter((x) => x.code === "firewall-api-unsupported").map((x) => x.fixes)).toEqual([[], [], []])
    const unclear = d.filter((x) => x.code === "terraform-rewrite-unclear")
    expect(unclear.map((x) => x.message)).toEqual([
      `cloudflare_firewall_rule.shared: filter_id = module.filters.admin_id is not a cloudflare_filter of this file: the rewrite cannot read its expression; no cloudflare_ruleset is written for zone_id = var.zone_id: ${WHOLE}`
    ])
    const textOut = edgectl(["check", "main.tf"], { cwd: dir })
    expect(textOut.stdout).toContain(
      "hint: move its cloudflare_filter into this file (or write its expression there), or rewrite the zone's rules by hand"
    )
  })

  it("the steps say what differs from the converted rules instead of promising no changes", async () => {
    const text =
      pinned("~> 4.52") +
      hcl(
        ...filter("quiet", "ssl", "var.zone_id", ["paused = true"]),
        ...rule("quiet", ["zone_id   = var.zone_id", "filter_id = cloudflare_filter.quiet.id", 'action    = "block"']),
        ...OFFICE,
        ...rule("nothing", [
          "zone_id   = var.zone_id",
          "filter_id = cloudflare_filter.office.id",
          'action    = "bypass"'
        ])
      )
    const { actions, out } = await open(text)
    expect(actions).toHaveLength(1)
    const written = out(actions[0]!)
    expect(written).not.toContain("terraform plan shows no changes")
    expect(written).toContain(
      [
        "#   4. delete those cloudflare_firewall_rule and cloudflare_filter resources.",
        "#   5. terraform plan still shows the differences below; applying them changes what the zone does:",
        '#      - cloudflare_firewall_rule.nothing is not in this ruleset (see "not migrated" below): if the platform converted it, applying deletes that rule',
        "#      - cloudflare_firewall_rule.quiet is written disabled (its filter is paused): applying turns off the converted rule, which the conversion enabled",
        ""
      ].join("\n")
    )
    expect(isFmtCanonical(written)).toBe(true)
  })
})

describe("the previous-WAF rewrite writes the skip rules waf config makes of firewall rules that bypass the WAF", () => {
  const WAF = [
    'resource "cloudflare_waf_package" "owasp" {',
    "  zone_id     = var.zone_id",
    '  package_id  = "c504870194831cd12c3fc0284f294abb"',
    '  sensitivity = "high"',
    '  action_mode = "simulate"',
    "}",
    ""
  ]
  const managed = "Add the equivalent cloudflare_ruleset (http_request_firewall_managed"

  it("a bypass of the WAF becomes the first rule, a skip naming the rule's id; the steps say to keep that id", async () => {
    const text =
      pinned("~> 4.0") +
      hcl(
        ...WAF,
        ...filter("office", "ip.src in {192.0.2.0/24}"),
        ...rule("office", [
          "zone_id     = var.zone_id",
          "filter_id   = cloudflare_filter.office.id",
          'action      = "bypass"',
          'products    = ["waf", "uaBlock"]',
          'description = "${var.env} office"'
        ]),
        // Not the WAF: no skip rule in the managed phase.
        ...filter("bots", 'http.user_agent contains "bot"'),
        ...rule("bots", [
          "zone_id   = var.zone_id",
          "filter_id = cloudflare_filter.bots.id",
          'action    = "bypass"',
          'products  = ["uaBlock"]'
        ])
      )
    const { actions, unclear, out } = await open(text, managed)
    expect(unclear).toEqual([])
    expect(actions).toHaveLength(1)
    const written = out(actions[0]!)
    const ruleset = rulesetOf(written, "managed_waf")
    expect(ruleset).toContain(
      [
        "  rules {",
        '    ref         = "rule_1"',
        '    action      = "skip"',
        '    expression  = "ip.src in {192.0.2.0/24}"',
        '    description = "Migrated from firewall rule ${cloudflare_firewall_rule.office.id} (bypass WAF): ${var.env} office"',
        "    enabled     = true",
        "    action_parameters {",
        '      ruleset = "current"',
        "    }",
        "  }",
        "  rules {",
        '    ref        = "cf_managed"'
      ].join("\n")
    )
    expect(ruleset).not.toContain("bot")
    expect(written).toContain("#   5. terraform plan shows no changes.\n")
    expect(written).toContain(
      "# info: the skip rule of cloudflare_firewall_rule.office names its id, as waf config writes it: write the id there (terraform state show cloudflare_firewall_rule.office) before that resource leaves the state.\n"
    )
    expect(isFmtCanonical(written)).toBe(true)
    expect(await schemaProblems(ruleset, providerSchema("provider-4.x.json"))).toEqual([])
  })

  it("edgectl check: the SARIF fix of a previous-WAF warning carries the same skip rule", () => {
    const dir = tempDir("edgectl-whole-waf-")
    const text =
      pinned("~> 3.35") +
      hcl(...WAF, ...OFFICE.map((l) => l.replace('products  = ["waf"]', 'products  = ["waf", "uaBlock"]')))
    fs.writeFileSync(path.join(dir, "waf.tf"), text)
    const r = edgectl(["check", "--format", "sarif", "waf.tf"], { cwd: dir })
    expect(r.status).toBe(0)
    const results = JSON.parse(r.stdout).runs[0].results as Array<{
      ruleId: string
      fixes?: Array<{ artifactChanges: Array<{ replacements: Array<{ insertedContent: { text: string } }> }> }>
    }>
    const waf = results.find((x) => x.ruleId === "terraform-previous-waf")!
    const inserted = waf.fixes![0]!.artifactChanges[0]!.replacements.map((x) => x.insertedContent.text).join("")
    expect(inserted).toContain(
      '    description = "Migrated from firewall rule ${cloudflare_firewall_rule.office.id} (bypass WAF)"\n'
    )
    expect(inserted).toContain("#   3. delete the previous-WAF resources above; terraform plan shows no changes.\n")
  })

  it("a paused bypass is noted as waf config notes it; a rule of another zone is not taken", async () => {
    const text =
      pinned("~> 3.35") +
      hcl(
        ...WAF,
        ...OFFICE.map((l) => l.replace("priority  = 1", "paused    = true")),
        ...filter("other", "ssl", '"0123456789abcdef0123456789abcdef"'),
        ...rule("other", [
          'zone_id   = "0123456789abcdef0123456789abcdef"',
          "filter_id = cloudflare_filter.other.id",
          'action    = "bypass"',
          'products  = ["waf"]'
        ])
      )
    const { actions, out } = await open(text, managed)
    const written = out(actions[0]!)
    expect(written).toContain(
      "# not migrated: firewall rule cloudflare_firewall_rule.office: paused: it bypasses nothing today, so no skip rule is generated\n"
    )
    expect(rulesetOf(written, "managed_waf")).not.toContain('action = "skip"')
    expect(rulesetOf(written, "managed_waf")).not.toContain("ssl")
  })

  it("a rule that may bypass the WAF but cannot be read: no ruleset for its zone, and why", async () => {
    const text =
      pinned("~> 4.0") +
      hcl(
        ...WAF,
        ...rule("office", [
          "zone_id   = var.zone_id",
          "filter_id = data.cloudflare_filter.office.id",
          'action    = "bypass"',
          'products  = ["waf"]'
        ])
      )
    const { actions, unclear } = await open(text, managed)
    expect(actions).toEqual([])
    expect(unclear).toContain(
      "cloudflare_firewall_rule.office: filter_id = data.cloudflare_filter.office.id is not a cloudflare_filter of this file: the rewrite cannot read its expression; no cloudflare_ruleset (http_request_firewall_managed) is written for zone_id = var.zone_id: a firewall rule that bypasses the WAF becomes a skip rule of that ruleset (waf config), which the rewrite cannot write\nhint: move its cloudflare_filter into this file (or write its expression there), or rewrite the zone's rules by hand"
    )
  })

  it("5.x: the zone's waf setting off (cloudflare_zone_setting): step 5 says the ruleset differs", async () => {
    const text =
      pinned("~> 5") +
      hcl(
        ...WAF,
        'resource "cloudflare_zone_setting" "waf" {',
        "  zone_id    = var.zone_id",
        '  setting_id = "waf"',
        '  value      = "off"',
        "}"
      )
    const { actions, out } = await open(text, managed)
    const written = out(actions[0]!)
    expect(written).toContain(
      [
        "#   5. terraform plan still shows changes: this ruleset differs from the one waf config makes, and applying it",
        "#      changes what the zone does:",
        "#      - cloudflare_zone_setting.waf sets waf: waf config deploys the managed rulesets disabled while it is off, this ruleset enabled",
        ""
      ].join("\n")
    )
  })

  it("a page rule that disables security: the steps say the ruleset lacks its skip rule instead of promising no changes", async () => {
    const text =
      pinned("~> 3.35") +
      hcl(
        ...WAF,
        'resource "cloudflare_page_rule" "admin" {',
        "  zone_id  = var.zone_id",
        '  target   = "example.com/admin/*"',
        "  priority = 1",
        "  actions {",
        "    disable_security = true",
        "  }",
        "}"
      )
    const { actions, out } = await open(text, managed)
    const written = out(actions[0]!)
    expect(written).not.toContain("terraform plan shows no changes")
    expect(written).toContain(
      [
        "#   3. delete the previous-WAF resources above.",
        "#   4. terraform plan still shows changes: this ruleset differs from the one waf config makes, and applying it",
        "#      changes what the zone does:",
        "#      - cloudflare_page_rule.admin turns the WAF off or disables security: waf config makes it a skip rule, which this ruleset lacks (applying it deletes that skip rule; add it by hand)",
        ""
      ].join("\n")
    )
    expect(isFmtCanonical(written)).toBe(true)
  })
})
