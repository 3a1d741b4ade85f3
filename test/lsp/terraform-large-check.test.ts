/**
 * A Terraform file of 500 `cloudflare_filter` + `cloudflare_firewall_rule` (with expressions that do
 * not check, and a filter two rules share), in JSON and in HCL, checked once per document: each
 * resource gets the same diagnostics and fixes as in a small file holding only it (and a valid
 * rule beside it), through `edgectl check`, and the editor's rewrite carries the same custom rule
 * for it. The mapping is handed the document's checker, so that each expression is parsed once.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Rule } from "../../src/domain/firewall.js"
import { migrateFirewallRules } from "../../src/firewall/custom-rules.js"
import { check, type CheckOptions } from "../../src/rules/index.js"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"

const N = 500
/** Filters whose expression does not check (an unknown field, with a suggestion): their rules stay. */
const BAD = new Set([7, 250, 499])
const ACTIONS = ["block", "allow", "bypass", "challenge", "log", "js_challenge", "managed_challenge"]
const expressionOf = (i: number) =>
  BAD.has(i) ? `http.request.uri.pth eq "/p${i}"` : `http.request.uri.path eq "/p${i}" and ip.src ne 192.0.2.${i % 250}`
const filterOf = (i: number) => ({ zone_id: "${var.zone_id}", expression: expressionOf(i) })
const ruleOf = (i: number, filter = i) => {
  const action = ACTIONS[i % ACTIONS.length]!
  return {
    zone_id: "${var.zone_id}",
    filter_id: `\${cloudflare_filter.f${filter}.id}`,
    action,
    ...(action === "bypass" ? { products: ["waf"] } : {}),
    priority: i % 17
  }
}

/** The filters and rules of `indices` (rule `shared` names filter 1, as rule 1 does). */
const resources = (indices: ReadonlyArray<number>) => {
  const filters: Record<string, unknown> = {}
  const rules: Record<string, unknown> = {}
  for (const i of indices) {
    filters[`f${i}`] = filterOf(i)
    rules[`r${i}`] = ruleOf(i)
  }
  if (indices.includes(1)) rules.shared = { ...ruleOf(4, 1), description: "shares f1" }
  return { filters, rules }
}
const PIN = { terraform: { required_providers: { cloudflare: { version: "~> 4.52" } } } }

const tfJson = (indices: ReadonlyArray<number>) => {
  const { filters, rules } = resources(indices)
  return `${JSON.stringify({ ...PIN, resource: { cloudflare_filter: filters, cloudflare_firewall_rule: rules } }, null, 2)}\n`
}
const hclValue = (v: unknown): string =>
  typeof v === "string"
    ? (/^\$\{(.*)\}$/.exec(v)?.[1] ?? JSON.stringify(v))
    : Array.isArray(v)
      ? `[${v.map(hclValue).join(", ")}]`
      : String(v)
const block = (type: string, name: string, body: unknown) =>
  `resource "${type}" "${name}" {\n${Object.entries(body as object)
    .map(([k, v]) => `  ${k} = ${hclValue(v)}\n`)
    .join("")}}\n`
const tf = (indices: ReadonlyArray<number>) => {
  const { filters, rules } = resources(indices)
  return [
    'terraform {\n  required_providers {\n    cloudflare = {\n      version = "~> 4.52"\n    }\n  }\n}\n',
    ...Object.entries(filters).map(([n, b]) => block("cloudflare_filter", n, b)),
    ...Object.entries(rules).map(([n, b]) => block("cloudflare_firewall_rule", n, b))
  ].join("\n")
}

interface Diag {
  severity: string
  code: string
  message: string
  hint?: string
  range: { start: { offset: number }; end: { offset: number } }
  fixes: Array<string>
}

const checkJson = async (dir: string, name: string, text: string) => {
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  const r = await edgectlAsync(["check", "--format", "json", file])
  const out = JSON.parse(r.stdout) as { errors: number; warnings: number; files: Array<{ diagnostics: Array<Diag> }> }
  // Errors (the bad expressions) exit 1, warnings alone 0.
  expect(r.status).toBe(out.errors > 0 ? 1 : 0)
  return { text, ...out, diagnostics: out.files[0]!.diagnostics }
}

/** A diagnostic as its resource sees it: what it says and the text it covers, wherever the resource is. */
const seen = (text: string, d: Diag) => ({
  severity: d.severity,
  code: d.code,
  message: d.message,
  hint: d.hint,
  fixes: d.fixes,
  covers: text.slice(d.range.start.offset, d.range.end.offset)
})
/** The diagnostics on resource `name`: its warning names it; its expression's, for a filter, sit in that string. */
const about = (r: Awaited<ReturnType<typeof checkJson>>, name: string, expression: string) => {
  // Written the same in JSON and in HCL: quoted, `"` escaped.
  const written = JSON.stringify(expression)
  const at = r.text.indexOf(written)
  return r.diagnostics
    .filter(
      (d) =>
        d.message.includes(`"${name}"`) ||
        d.message.includes(`.${name}:`) ||
        (name.startsWith("f") && d.range.start.offset >= at && d.range.end.offset <= at + written.length)
    )
    .map((d) => seen(r.text, d))
}

const SAMPLE = [0, 1, 3, 7, 250, 333, 499]
const ALL = Array.from({ length: N }, (_, i) => i)

describe.each([
  ["firewall.tf.json", tfJson],
  ["firewall.tf", tf]
])("edgectl check on %s of 500 filters and rules", (name, write) => {
  it("gives each resource the diagnostics and fixes a small file gives it; one error per bad expression", async () => {
    const dir = tempDir("edgectl-tf-large-")
    const large = await checkJson(dir, name, write(ALL))
    expect(large.warnings).toBe(2 * N + 1)
    expect(large.errors).toBe(BAD.size)
    const errors = large.diagnostics.filter((d) => d.severity === "error")
    expect(errors.map((d) => large.text.slice(d.range.start.offset, d.range.end.offset))).toEqual(
      [...BAD].map(() => "http.request.uri.pth")
    )
    for (const d of errors) expect(d.fixes).toEqual(["Change to `http.request.uri.path`"])
    // The unmapped rules are named where the rewrite leaves them; the others carry the one fix.
    for (const i of SAMPLE) {
      const small = await checkJson(tempDir("edgectl-tf-small-"), name, write(i === 0 ? [0] : [0, i]))
      for (const resource of [`f${i}`, `r${i}`, ...(i === 1 ? ["shared"] : [])]) {
        const mine = about(large, resource, expressionOf(i))
        expect(mine.map((d) => d.code)).toEqual([
          "firewall-api-unsupported",
          ...(BAD.has(i) && resource.startsWith("f") ? ["unknown-field"] : [])
        ])
        expect(mine, `${name}: ${resource}`).toEqual(about(small, resource, expressionOf(i)))
      }
    }
  })
})

interface Action {
  title: string
  edit?: { changes: Record<string, Array<Parameters<typeof TextDocument.applyEdits>[1][number]>> }
}

describe("the editor's rewrite of the 500-rule .tf.json", () => {
  let client: Awaited<ReturnType<typeof startLsp>>
  beforeAll(async () => {
    client = await startLsp({ debounceMs: 0 })
  })
  afterAll(async () => {
    await client.close()
  })

  /** The ruleset the document's action adds, and its `"//"` lines. */
  const ruleset = async (indices: ReadonlyArray<number>) => {
    const text = tfJson(indices)
    const uri = pathToFileURL(path.join(tempDir("edgectl-tf-lsp-"), "firewall.tf.json")).href
    const d = await client.open(uri, text, "json")
    const warnings = d.diagnostics.filter((x) => x.code === "firewall-api-unsupported")
    const actions = (await client.connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri },
      range: warnings[0]!.range,
      context: { diagnostics: [warnings[0]] }
    })) as Array<Action>
    const add = actions.filter((a) => a.title.startsWith("Add the equivalent cloudflare_ruleset"))
    expect(add).toHaveLength(1)
    const out = TextDocument.applyEdits(TextDocument.create(uri, "json", 0, text), add[0]!.edit!.changes[uri]!)
    const body = (JSON.parse(out) as any).resource.cloudflare_ruleset.custom_rules as {
      "//": Array<string>
      rules: Array<{ ref: string }>
    }
    return { comments: body["//"], rules: new Map(body.rules.map((r) => [r.ref, r])) }
  }

  it("carries each sampled rule as a small file's rewrite does, and names the rules it leaves", async () => {
    const large = await ruleset(ALL)
    expect(large.rules.size).toBe(N + 1 - BAD.size)
    for (const i of SAMPLE) {
      const small = await ruleset(i === 0 ? [0] : [0, i])
      expect(large.rules.get(`r${i}`), `r${i}`).toEqual(small.rules.get(`r${i}`))
      const notes = (c: ReadonlyArray<string>) => c.filter((l) => l.includes(`cloudflare_firewall_rule.r${i}:`))
      expect(notes(large.comments)).toEqual(notes(small.comments))
      if (BAD.has(i)) expect(notes(large.comments).join("\n")).toMatch(/not migrated .*does not check/)
    }
  })
})

describe("the mapping, handed the document's checker", () => {
  it("checks each distinct expression through it, once", () => {
    const rules: Array<Rule> = [0, 1, 2, 3].map((i) => ({
      id: `r${i}`,
      paused: false,
      action: "block",
      priority: i,
      // Rules 2 and 3 share rule 0's and 1's expressions.
      filter: { id: `f${i}`, paused: false, expression: expressionOf(i % 2) }
    }))
    const asked: Array<string> = []
    const counting = (text: string, options: CheckOptions) => {
      asked.push(text)
      return check(text, options)
    }
    const given = migrateFirewallRules(rules, { check: counting })
    expect(asked).toEqual([expressionOf(0), expressionOf(1)])
    expect(given).toEqual(migrateFirewallRules(rules))
  })
})
