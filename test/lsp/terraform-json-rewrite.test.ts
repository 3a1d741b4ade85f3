/**
 * The rewrite of `cloudflare_filter` + `cloudflare_firewall_rule` in Terraform JSON (`*.tf.json`)
 * to one `cloudflare_ruleset` per zone, as an editor gets it over stdio, for provider 3.35, 4.x and
 * 5.x: the action on the warnings, the file still valid JSON with the rest of it unchanged, the
 * version's steps in the ruleset's `"//"`, its shape accepted by that version's schema read as the
 * JSON syntax reads it (blocks as arrays of bodies, attributes as objects), and its rules, read
 * back, exactly what the mapping (`migrateFirewallRules`) makes of the old ones; the pin read from
 * the file or a sibling `.tf` / `.tf.json`; and `edgectl check` on such a file in text, JSON and SARIF.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Rule } from "../../src/domain/firewall.js"
import { migrateFirewallRules } from "../../src/firewall/custom-rules.js"
import { edgectl, tempDir } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"
import { jsonRulesetProblems as schemaProblems } from "../helpers/terraform-json-schema.js"
import { providerSchema, RulesetVersions as VERSIONS } from "../helpers/terraform-schema.js"

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
  edit?: { changes: Record<string, Array<Edit>> }
}
type Obj = Record<string, any>

const apply = (text: string, edits: Array<Edit>) =>
  TextDocument.applyEdits(TextDocument.create("x", "json", 0, text), edits)

const pin = (version: string) => ({
  terraform: { required_providers: { cloudflare: { source: "cloudflare/cloudflare", version } } }
})

const RESOURCES = {
  cloudflare_filter: {
    office: { zone_id: "${var.zone_id}", expression: "ip.src in {192.0.2.0/24}", description: "office" },
    admin: { zone_id: "${var.zone_id}", expression: 'http.request.uri.path contains "/admin"' }
  },
  cloudflare_firewall_rule: {
    office: {
      zone_id: "${var.zone_id}",
      filter_id: "${cloudflare_filter.office.id}",
      action: "bypass",
      products: ["waf", "uaBlock"],
      priority: 1
    },
    admin: {
      zone_id: "${var.zone_id}",
      filter_id: "${cloudflare_filter.admin.id}",
      action: "block",
      description: "no admin",
      paused: true,
      priority: 2
    }
  }
}

/** The old rules as the platform held them: what the mapping is given. */
const OLD: Array<Rule> = [
  {
    id: "office",
    paused: false,
    action: "bypass",
    priority: 1,
    products: ["waf", "uaBlock"],
    filter: { id: "office", paused: false, expression: "ip.src in {192.0.2.0/24}", description: "office" }
  },
  {
    id: "admin",
    paused: true,
    action: "block",
    priority: 2,
    description: "no admin",
    filter: { id: "admin", paused: false, expression: 'http.request.uri.path contains "/admin"' }
  }
]

const file = (doc: unknown) => `${JSON.stringify(doc, null, 2)}\n`

const rewrite = async (text: string, uri = `file:///work/project/firewall-${n++}.tf.json`) => {
  const d = await client.open(uri, text, "json")
  const warnings = d.diagnostics.filter((x) => x.code === "firewall-api-unsupported")
  const actions = (await client.connection.sendRequest("textDocument/codeAction", {
    textDocument: { uri },
    range: { start: warnings[0]!.range.start, end: warnings.at(-1)!.range.end },
    context: { diagnostics: warnings }
  })) as Array<Action>
  return {
    uri,
    d,
    warnings,
    actions: actions.filter((a) => a.title.startsWith("Add the equivalent cloudflare_ruleset"))
  }
}

const unescape = (s: unknown) => (typeof s === "string" ? s.replace(/([$%])\1\{/g, "$1{") : s)
const one = (x: unknown): Obj | undefined => (Array.isArray(x) ? x[0] : x) as Obj | undefined

/** The ruleset's rules read back as the rulesets API's rules (blocks unwrapped, 3.35's `status` as `enabled`). */
const rulesOf = (body: Obj) =>
  (body.rules as Array<Obj>).map((r) => {
    const p = one(r.action_parameters)
    const logging = one(r.logging)
    return {
      action: r.action,
      expression: unescape(r.expression),
      ...(r.description !== undefined ? { description: unescape(r.description) } : {}),
      enabled: r.enabled,
      ...(r.ref !== undefined ? { ref: r.ref } : {}),
      ...(p !== undefined ? { action_parameters: p } : {}),
      ...(logging !== undefined
        ? { logging: { enabled: "status" in logging ? logging.status === "enabled" : logging.enabled } }
        : {})
    }
  })

beforeAll(async () => {
  client = await startLsp({ debounceMs: 0 })
})
afterAll(async () => {
  await client.close()
})

describe("Terraform JSON: cloudflare_filter + cloudflare_firewall_rule rewritten to the zone's custom rules ruleset", () => {
  for (const [constraint, name, schema, importId] of VERSIONS)
    it(`provider ${name}: one action, valid JSON, the steps in "//", the ${name} shape, the mapping's rules read back`, async () => {
      const doc = { ...pin(constraint), resource: RESOURCES }
      const text = file(doc)
      const { uri, warnings, actions } = await rewrite(text)
      expect(warnings).toHaveLength(4)
      expect(actions).toHaveLength(1)
      const a = actions[0]!
      expect(a.title).toBe(
        `Add the equivalent cloudflare_ruleset (http_request_firewall_custom, provider ${name}) with the migration steps`
      )
      expect(a.isPreferred).toBe(true)
      const out = apply(text, a.edit!.changes[uri]!)
      const parsed = JSON.parse(out) as Obj
      // The rest of the file as it was, the ruleset right after the old rules.
      const { cloudflare_ruleset: added, ...rest } = parsed.resource
      expect({ ...parsed, resource: rest }).toEqual(doc)
      expect(Object.keys(parsed.resource)).toEqual([
        "cloudflare_filter",
        "cloudflare_firewall_rule",
        "cloudflare_ruleset"
      ])
      expect(out).toMatch(/\n {4}"cloudflare_ruleset": \{\n {6}"custom_rules": \{\n {8}"\/\/": \[\n/)
      const body = added.custom_rules as Obj
      const steps = body["//"] as Array<string>
      expect(steps).toContain(`  1. terraform import cloudflare_ruleset.custom_rules ${importId}`)
      expect(steps).toEqual(
        expect.arrayContaining([
          "     terraform state rm cloudflare_firewall_rule.office",
          "     terraform state rm cloudflare_firewall_rule.admin",
          "     terraform state rm cloudflare_filter.office",
          "     terraform state rm cloudflare_filter.admin"
        ])
      )
      expect(
        steps.some((s) =>
          s.startsWith("changed: cloudflare_firewall_rule.admin: a firewall block answered with error 1020")
        )
      ).toBe(true)
      expect(body).toMatchObject({
        zone_id: "${var.zone_id}",
        name: "default",
        kind: "zone",
        phase: "http_request_firewall_custom"
      })
      expect(schemaProblems(added, providerSchema(schema))).toEqual([])
      const [office] = body.rules as Array<Obj>
      if (name === "5.x") {
        expect(office!.action_parameters).toEqual({ products: ["waf", "uaBlock"] })
        expect(office!.logging).toEqual({ enabled: true })
      } else {
        expect(office!.action_parameters).toEqual([{ products: ["waf", "uaBlock"] }])
        expect(office!.logging).toEqual([name === "3.35" ? { status: "enabled" } : { enabled: true }])
      }
      const expected = migrateFirewallRules(OLD).rules.map(({ ref, ...r }) => (name === "3.35" ? r : { ...r, ref }))
      expect(rulesOf(body)).toEqual(expected)
      // The rewritten file checks without errors; its old resources are still warned until deleted.
      const after = await client.open(`file:///work/project/rewritten-${n++}.tf.json`, out, "json")
      expect(after.diagnostics.filter((x) => x.severity === 1)).toEqual([])
      expect(after.diagnostics.filter((x) => x.code === "firewall-api-unsupported")).toHaveLength(4)
    })

  it("a 3.x pin that admits versions without `status` is narrowed to ~> 3.35 in the same fix", async () => {
    const text = file({ ...pin("~> 3.0"), resource: RESOURCES })
    const { uri, actions } = await rewrite(text)
    expect(actions[0]!.title).toContain("provider 3.35")
    const out = JSON.parse(apply(text, actions[0]!.edit!.changes[uri]!)) as Obj
    expect(out.terraform.required_providers.cloudflare.version).toBe("~> 3.35")
  })

  it("one ruleset per zone, tab-indented and array-form resources kept; unreadable rules withhold their own zone's ruleset", async () => {
    const doc = {
      ...pin("~> 4.52"),
      resource: [
        { ...RESOURCES },
        {
          cloudflare_filter: {
            other: { zone_id: "0123456789abcdef0123456789abcdef", expression: 'http.host eq "a$${x}"' },
            computed: { zone_id: "${var.third_zone}", expression: "${var.expression}" }
          },
          cloudflare_firewall_rule: {
            other: {
              zone_id: "0123456789abcdef0123456789abcdef",
              filter_id: "${cloudflare_filter.other.id}",
              action: "allow"
            },
            computed: {
              zone_id: "${var.third_zone}",
              filter_id: "${cloudflare_filter.computed.id}",
              action: "block"
            },
            lost: { zone_id: "${var.third_zone}", filter_id: "372e67954025e0ba6aaa6d586b9e0b59", action: "block" }
          }
        }
      ]
    }
    const text = `${JSON.stringify(doc, null, "\t")}\n`
    const { uri, d, actions } = await rewrite(text)
    expect(
      d.diagnostics.filter((x) => x.code === "terraform-rewrite-unclear").map((x) => x.message.split("\n")[0])
    ).toEqual([
      "cloudflare_firewall_rule.computed: the expression of its filter cloudflare_filter.computed is not a literal string; no cloudflare_ruleset is written for zone_id = var.third_zone: it is the zone's whole entry point, and applying it without this rule would delete it",
      'cloudflare_firewall_rule.lost: filter_id = "372e67954025e0ba6aaa6d586b9e0b59" is not a cloudflare_filter of this file: the rewrite cannot read its expression; no cloudflare_ruleset is written for zone_id = var.third_zone: it is the zone\'s whole entry point, and applying it without this rule would delete it'
    ])
    expect(actions.map((a) => a.title)).toEqual([
      "Add the equivalent cloudflare_ruleset for zone_id = var.zone_id (http_request_firewall_custom, provider 4.x) with the migration steps",
      'Add the equivalent cloudflare_ruleset for zone_id = "0123456789abcdef0123456789abcdef" (http_request_firewall_custom, provider 4.x) with the migration steps'
    ])
    const second = apply(text, actions[1]!.edit!.changes[uri]!)
    expect(second).toContain('\n\t\t\t"cloudflare_ruleset": {\n\t\t\t\t"custom_rules_01234567": {\n')
    const parsed = JSON.parse(second) as Obj
    const body = parsed.resource[1].cloudflare_ruleset.custom_rules_01234567 as Obj
    expect(body["//"]).toContain(
      "  1. terraform import cloudflare_ruleset.custom_rules_01234567 zone/0123456789abcdef0123456789abcdef/<ruleset_id>"
    )
    expect(body["//"]).not.toContain("     terraform state rm cloudflare_firewall_rule.computed")
    // A literal `${` stays escaped for Terraform's template and reads back as the filter's expression.
    expect(body.rules).toEqual([
      {
        ref: "other",
        action: "skip",
        expression: 'http.host eq "a$${x}"',
        enabled: true,
        action_parameters: [{ ruleset: "current" }],
        logging: [{ enabled: true }]
      }
    ])
    expect(parsed.resource[0].cloudflare_ruleset).toBeUndefined()
    const first = JSON.parse(apply(text, actions[0]!.edit!.changes[uri]!)) as Obj
    expect(Object.keys(first.resource[0].cloudflare_ruleset)).toEqual(["custom_rules_zone_id"])
  })

  it("no rewrite where the file already manages the zone's custom phase; a ruleset beside it keeps its place", async () => {
    const managed = {
      ...pin("~> 5"),
      resource: {
        ...RESOURCES,
        cloudflare_ruleset: {
          custom: { zone_id: "${var.zone_id}", name: "c", kind: "zone", phase: "http_request_firewall_custom" }
        }
      }
    }
    expect((await rewrite(file(managed))).actions).toEqual([])
    const other = {
      ...managed,
      resource: {
        ...RESOURCES,
        cloudflare_ruleset: {
          waf: { ...managed.resource.cloudflare_ruleset.custom, phase: "http_request_firewall_managed" }
        }
      }
    }
    const text = file(other)
    const { uri, actions } = await rewrite(text)
    const out = JSON.parse(apply(text, actions[0]!.edit!.changes[uri]!)) as Obj
    expect(Object.keys(out.resource.cloudflare_ruleset)).toEqual(["waf", "custom_rules"])
  })

  it("the 5.x shape of the old resources (filter and action objects) and a provider alias; a computed action withholds its zone's ruleset only", async () => {
    const doc = {
      resource: {
        cloudflare_filter: { a: { zone_id: "${var.zone_id}", expression: "ssl" } },
        cloudflare_firewall_rule: {
          a: {
            provider: "cloudflare.alt",
            zone_id: "${var.zone_id}",
            filter: { id: "${cloudflare_filter.a.id}" },
            action: { mode: "allow" }
          },
          b: {
            provider: "cloudflare.other",
            zone_id: "${var.zone_id}",
            filter: { id: "${cloudflare_filter.a.id}" },
            action: { mode: "${var.mode}" }
          }
        }
      }
    }
    const text = file(doc)
    const { uri, d, actions } = await rewrite(text)
    expect(
      d.diagnostics.filter((x) => x.code === "terraform-rewrite-unclear").map((x) => x.message.split("\n")[0])
    ).toEqual([
      "cloudflare_firewall_rule.b: its action is not a literal: the rewrite cannot tell it; no cloudflare_ruleset is written for zone_id = var.zone_id: it is the zone's whole entry point, and applying it without this rule would delete it"
    ])
    const body = (JSON.parse(apply(text, actions[0]!.edit!.changes[uri]!)) as Obj).resource.cloudflare_ruleset
      .custom_rules as Obj
    expect(body.provider).toBe("cloudflare.alt")
    expect(body.rules).toEqual([
      {
        ref: "a",
        action: "skip",
        expression: "ssl",
        enabled: true,
        action_parameters: { ruleset: "current" },
        logging: { enabled: true }
      }
    ])
    // b still names the filter: it stays in the state.
    expect(body["//"]).toContain("     terraform state rm cloudflare_firewall_rule.a")
    expect(body["//"]).not.toContain("     terraform state rm cloudflare_filter.a")
  })

  it("a file on one line gets the ruleset on that line; CRLF line ends and an empty cloudflare_ruleset object are kept", async () => {
    const compact = `${JSON.stringify({ ...pin("~> 5"), resource: RESOURCES })}\n`
    const c = await rewrite(compact)
    const one = apply(compact, c.actions[0]!.edit!.changes[c.uri]!)
    expect(one.split("\n")).toHaveLength(2)
    expect(Object.keys(JSON.parse(one).resource.cloudflare_ruleset)).toEqual(["custom_rules"])
    const crlf = file({ ...pin("~> 5"), resource: { ...RESOURCES, cloudflare_ruleset: {} } }).replace(/\n/g, "\r\n")
    const r = await rewrite(crlf)
    const out = apply(crlf, r.actions[0]!.edit!.changes[r.uri]!)
    expect(out.replace(/\r\n/g, "")).not.toContain("\n")
    expect(out).toContain('\r\n    "cloudflare_ruleset": {\r\n      "custom_rules": {\r\n        "//": [\r\n')
    expect(rulesOf(JSON.parse(out).resource.cloudflare_ruleset.custom_rules)).toEqual(migrateFirewallRules(OLD).rules)
  })

  it("the pin in a sibling versions.tf or versions.tf.json, named with its file; no pin is 5.x", async () => {
    for (const [sibling, text, major] of [
      [
        "versions.tf",
        'terraform {\n  required_providers {\n    cloudflare = {\n      version = "~> 4.52"\n    }\n  }\n}\n',
        "4.x"
      ],
      ["versions.tf.json", file(pin("~> 3.35")), "3.35"]
    ] as const) {
      const dir = tempDir("edgectl-tfjson-")
      fs.writeFileSync(path.join(dir, sibling), text)
      const target = path.join(dir, "firewall.tf.json")
      const own = file({ resource: RESOURCES })
      fs.writeFileSync(target, own)
      const { uri, warnings, actions } = await rewrite(own, pathToFileURL(target).href)
      expect(warnings[0]!.message).toContain(`as pinned ("${major === "4.x" ? "~> 4.52" : "~> 3.35"}" in ${sibling})`)
      expect(actions[0]!.title).toContain(`provider ${major}`)
      const body = (JSON.parse(apply(own, actions[0]!.edit!.changes[uri]!)) as Obj).resource.cloudflare_ruleset
        .custom_rules
      expect(body["//"][1]).toContain(`(${sibling})`)
    }
    const { uri, actions } = await rewrite(file({ resource: RESOURCES }))
    expect(actions[0]!.title).toContain("provider 5.x")
    expect(actions[0]!.edit!.changes[uri]).toBeDefined()
  })

  it("a .tf file reads the pin of a sibling .tf.json", async () => {
    const dir = tempDir("edgectl-tfjson-")
    fs.writeFileSync(path.join(dir, "versions.tf.json"), file(pin("~> 4.52")))
    const tf = 'resource "cloudflare_filter" "a" {\n  zone_id    = var.zone_id\n  expression = "ssl"\n}\n'
    const target = path.join(dir, "main.tf")
    fs.writeFileSync(target, tf)
    const d = await client.open(pathToFileURL(target).href, tf, "terraform")
    expect(d.diagnostics.find((x) => x.code === "firewall-api-unsupported")!.message).toContain(
      'provider 4.x, as pinned ("~> 4.52" in versions.tf.json)'
    )
  })
})

describe("edgectl check on a .tf.json file: text, JSON and SARIF", () => {
  const dir = tempDir("edgectl-tfjson-check-")
  const doc = {
    ...pin("~> 5"),
    resource: {
      ...RESOURCES,
      cloudflare_firewall_rule: {
        ...RESOURCES.cloudflare_firewall_rule,
        lost: { zone_id: "${var.zone_id}", filter_id: "${var.filter}", action: "block" }
      }
    }
  }
  fs.writeFileSync(path.join(dir, "firewall.tf.json"), file(doc))
  const lines = file(doc).split("\n")
  const ruleLine = lines.findIndex((l) => l.includes('"cloudflare_firewall_rule"')) + 1
  const lostLine = lines.findIndex((l) => l.includes('"filter_id": "${var.filter}"')) + 1

  it("text: the warnings at file:line:col, the unclear rule named; warnings alone exit 0", () => {
    const r = edgectl(["check", "firewall.tf.json"], { cwd: dir })
    expect(r.status).toBe(0)
    expect(r.stdout).toContain(
      'warning[firewall-api-unsupported]: cloudflare_firewall_rule "lost" uses the Firewall Rules API, unsupported since 2025-06-15'
    )
    expect(r.stdout).toContain(`--> firewall.tf.json:${ruleLine}:5\n`)
    expect(r.stdout).toContain(
      'warning[terraform-rewrite-unclear]: cloudflare_firewall_rule.lost: filter_id = "${var.filter}" is not a cloudflare_filter of this file'
    )
    expect(r.stdout).toContain(`--> firewall.tf.json:${lostLine}:9\n`)
    expect(r.stderr).toBe("1 file checked, 0 errors, 6 warnings\n")
  })

  it("JSON: each warning with its range, and no rewrite for the zone of the unclear rule", () => {
    const r = edgectl(["check", "--format", "json", "firewall.tf.json"], { cwd: dir })
    expect(r.status).toBe(0)
    const out = JSON.parse(r.stdout) as { warnings: number; files: Array<{ kind: string; diagnostics: Array<Obj> }> }
    expect(out.warnings).toBe(6)
    const d = out.files[0]!.diagnostics
    const unsupported = d.filter((x) => x.code === "firewall-api-unsupported")
    // The lost rule withholds its zone's ruleset: importing and applying one without it would delete it.
    expect(unsupported.map((x) => x.fixes)).toEqual([[], [], [], [], []])
    expect(unsupported[4]).toMatchObject({ range: { start: { line: ruleLine, column: 5 } } })
    expect(d.find((x) => x.code === "terraform-rewrite-unclear")).toMatchObject({
      severity: "warning",
      range: { start: { line: lostLine, column: 9 } }
    })
  })

  it("SARIF: both rules at level warning, located in the file", () => {
    const r = edgectl(["check", "--format", "sarif", "firewall.tf.json"], { cwd: dir })
    expect(r.status).toBe(0)
    const run = JSON.parse(r.stdout).runs[0]
    expect(run.tool.driver.rules.map((x: { id: string }) => x.id)).toEqual([
      "firewall-api-unsupported",
      "terraform-rewrite-unclear"
    ])
    const results = run.results as Array<Obj>
    expect(results).toHaveLength(6)
    for (const x of results) expect(x.level).toBe("warning")
    expect(new Set(results.map((x) => x.locations[0].physicalLocation.artifactLocation.uri))).toEqual(
      new Set(["firewall.tf.json"])
    )
    expect(
      results.find((x) => x.ruleId === "terraform-rewrite-unclear")!.locations[0].physicalLocation.region
    ).toMatchObject({
      startLine: lostLine,
      startColumn: 9
    })
  })
})
