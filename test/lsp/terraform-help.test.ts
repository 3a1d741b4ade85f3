/**
 * Terraform help where users type (issue 31, "What is missing"): hover and completion of the
 * attributes of the resources the assistant knows, as the pinned provider version has them, and go
 * to definition from a reference, through the language server as an editor drives it.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { attributesAt, terraformResource } from "../../src/lsp/terraform/schema.js"
import { tempDir } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"
import { providerSchema } from "../helpers/terraform-schema.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
let n = 0
const pos = (text: string, offset: number) => TextDocument.create("x", "x", 0, text).positionAt(offset)
const pin = (v: string) =>
  `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "${v}"\n    }\n  }\n}\n\n`

/** Opens `marked` (its `|` is the cursor) in `dir` and sends `method` there. */
const ask = async <A>(method: string, marked: string, dir = tempDir(), file = `h${n++}.tf`) => {
  const at = marked.indexOf("|")
  const text = marked.slice(0, at) + marked.slice(at + 1)
  fs.writeFileSync(path.join(dir, file), text)
  const uri = pathToFileURL(path.join(dir, file)).toString()
  await client.open(uri, text, "terraform")
  const r = (await client.connection.sendRequest(method, { textDocument: { uri }, position: pos(text, at) })) as A
  return { r, text, uri }
}
type Completion = { items: Array<{ label: string; detail: string; textEdit: { newText: string } }> } | null
type Hover = { contents: { value: string } } | null
const labels = (c: Completion) => (c?.items ?? []).map((i) => i.label)

beforeAll(async () => {
  client = await startLsp()
})
afterAll(async () => {
  await client.close()
})

describe("Terraform completion and hover per pinned provider version", () => {
  it("completes a firewall rule's missing attributes: filter_id and a string action up to 4.x, objects in 5.x", async () => {
    const body = 'resource "cloudflare_firewall_rule" "r" {\n  zone_id = "z"\n  |\n}\n'
    const four = (await ask<Completion>("textDocument/completion", pin("~> 4.52") + body)).r
    expect(labels(four)).toEqual(expect.arrayContaining(["filter_id", "action", "priority", "products"]))
    expect(labels(four)).not.toContain("zone_id")
    expect(labels(four)).not.toContain("filter")
    const five = (await ask<Completion>("textDocument/completion", pin("~> 5") + body)).r
    expect(labels(five)).toEqual(expect.arrayContaining(["filter", "action"]))
    expect(labels(five)).not.toContain("filter_id")
  })

  it("completes inside nested blocks (3.x/4.x) and objects (5.x) by what the version has", async () => {
    const three = (
      await ask<Completion>(
        "textDocument/completion",
        pin("~> 3.35") +
          'resource "cloudflare_ruleset" "r" {\n  rules {\n    action_parameters {\n      overrides {\n        rules {\n          id = "x"\n          st|\n        }\n      }\n    }\n  }\n}\n'
      )
    ).r
    expect(labels(three)).toEqual(["status"])
    const five = (
      await ask<Completion>(
        "textDocument/completion",
        pin("~> 5") + 'resource "cloudflare_rate_limit" "r" {\n  action = {\n    mo|\n  }\n}\n'
      )
    ).r
    expect(labels(five)).toEqual(["mode"])
    expect(five!.items[0]!.textEdit.newText).toBe("mode =")
    const lockdown = (
      await ask<Completion>(
        "textDocument/completion",
        pin("~> 4.0") + 'resource "cloudflare_zone_lockdown" "r" {\n  con|\n}\n'
      )
    ).r
    expect(lockdown!.items.map((i) => i.textEdit.newText)).toEqual(["configurations {"])
  })

  it("hovers an attribute with its type and values for the pinned version, and a resource type with its versions", async () => {
    const file = 'resource "cloudflare_user_agent_blocking_rule" "r" {\n  zone_id = "z"\n  m|ode = "block"\n}\n'
    const h = (await ask<Hover>("textDocument/hover", pin("~> 4.0") + file)).r
    expect(h!.contents.value).toContain("`mode`: **String** (required)")
    expect(h!.contents.value).toContain("`managed_challenge`")
    expect(h!.contents.value).toContain("provider 4.x")
    const waf = (
      await ask<Hover>(
        "textDocument/hover",
        pin("~> 5") + 'resource "cloudflare_waf_|package" "p" {\n  zone_id = "z"\n}\n'
      )
    ).r
    expect(waf!.contents.value).toContain("provider 3.35 and earlier")
    expect(waf!.contents.value).toContain("**not in provider 5.x**")
  })

  it("reads the pin from another file of the module (versions.tf)", async () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, "versions.tf"), pin("~> 3.35"))
    const c = (
      await ask<Completion>(
        "textDocument/completion",
        'resource "cloudflare_ruleset" "r" {\n  rules {\n    logging {\n      |\n    }\n  }\n}\n',
        dir
      )
    ).r
    expect(labels(c)).toEqual(["enabled", "status"])
  })
})

describe("Terraform go to definition", () => {
  it("goes from cloudflare_filter.x.id to the filter, in the file and in another file of the module", async () => {
    const dir = tempDir()
    const filters = 'resource "cloudflare_filter" "other" {\n  zone_id    = "z"\n  expression = "ssl"\n}\n'
    fs.writeFileSync(path.join(dir, "filters.tf"), filters)
    const text =
      'resource "cloudflare_filter" "x" {\n  zone_id    = "z"\n  expression = "ip.src eq 192.0.2.1"\n}\n\nresource "cloudflare_firewall_rule" "r" {\n  zone_id   = "z"\n  filter_id = cloudflare_filter.|x.id\n  action    = "block"\n}\n\nresource "cloudflare_firewall_rule" "s" {\n  zone_id   = "z"\n  filter_id = cloudflare_filter.other.id\n  action    = "block"\n}\n'
    type Location = { uri: string; range: { start: { line: number; character: number } } } | null
    const { r, uri } = await ask<Location>("textDocument/definition", text, dir, "main.tf")
    expect(r).toEqual({ uri, range: { start: { line: 0, character: 0 }, end: { line: 3, character: 1 } } })
    const plain = text.replace("|", "")
    const other = (await client.connection.sendRequest("textDocument/definition", {
      textDocument: { uri },
      position: pos(plain, plain.indexOf("cloudflare_filter.other") + 3)
    })) as Location
    expect(other).toEqual({
      uri: pathToFileURL(path.join(dir, "filters.tf")).toString(),
      range: { start: { line: 0, character: 0 }, end: { line: 3, character: 1 } }
    })
    expect(client.capabilities.definitionProvider).toBe(true)
  })
})

describe("the attribute catalog", () => {
  it("has every settable name of the vendored provider schemas, at its place, for that version", () => {
    type Spec = string | { list?: Spec; map?: Spec; object?: Record<string, Spec> }
    interface Block {
      attributes: Record<string, Spec>
      blocks?: Record<string, Block>
    }
    const missing: Array<string> = []
    for (const [file, major] of [
      ["provider-3.35.json", 3],
      ["provider-4.x.json", 4],
      ["provider-5.x.json", 5]
    ] as const) {
      const schema = providerSchema(file)
      for (const [type, block] of Object.entries(schema.resources as Record<string, Block>)) {
        const r = terraformResource(type)
        if (r === undefined) continue
        const visit = (path: ReadonlyArray<string>, attrs: Record<string, Spec>, blocks: Record<string, Block>) => {
          const known = (attributesAt(r, path, major) ?? []).map((a) => a.name)
          for (const [name, spec] of [...Object.entries(attrs), ...Object.entries(blocks)]) {
            if (spec === "computed") continue
            if (!known.includes(name)) missing.push(`${file} ${type} ${[...path, name].join(".")}`)
            if (typeof spec === "object" && "attributes" in spec)
              visit([...path, name], (spec as Block).attributes, (spec as Block).blocks ?? {})
            else if (typeof spec === "object") {
              const inner = (spec as { list?: Spec }).list ?? spec
              const object = typeof inner === "object" ? (inner as { object?: Record<string, Spec> }).object : undefined
              if (object !== undefined) visit([...path, name], object, {})
            }
          }
        }
        visit([], block.attributes, block.blocks ?? {})
      }
    }
    expect(missing).toEqual([])
  })
})
