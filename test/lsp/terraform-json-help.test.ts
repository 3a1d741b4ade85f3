/**
 * Terraform help in Terraform's JSON syntax (`*.tf.json`, issue 31 "What is missing"): hover and
 * completion of the attributes of the resources the assistant knows, per pinned provider version,
 * and go to definition from a reference, through the language server as an editor drives it.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { TextDocument } from "vscode-languageserver-textdocument"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tempDir } from "../helpers/cli.js"
import { startLsp } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
let n = 0
const pos = (text: string, offset: number) => TextDocument.create("x", "x", 0, text).positionAt(offset)
const pinned = (v: string, resource: string) =>
  `{\n  "terraform": {\n    "required_providers": {\n      "cloudflare": {\n        "source": "cloudflare/cloudflare",\n        "version": "${v}"\n      }\n    }\n  },\n  "resource": ${resource}\n}\n`

/** Opens `marked` (its `|` is the cursor) in `dir` and sends `method` there. */
const ask = async <A>(method: string, marked: string, dir = tempDir(), file = `h${n++}.tf.json`) => {
  const at = marked.indexOf("|")
  const text = marked.slice(0, at) + marked.slice(at + 1)
  fs.writeFileSync(path.join(dir, file), text)
  const uri = pathToFileURL(path.join(dir, file)).toString()
  await client.open(uri, text, "json")
  const r = (await client.connection.sendRequest(method, { textDocument: { uri }, position: pos(text, at) })) as A
  return { r, text, uri }
}
type Completion = { items: Array<{ label: string; detail: string; textEdit: { newText: string } }> } | null
type Hover = { contents: { value: string } } | null
type Location = { uri: string; range: { start: { line: number; character: number } } } | null
const labels = (c: Completion) => (c?.items ?? []).map((i) => i.label)

beforeAll(async () => {
  client = await startLsp()
})
afterAll(async () => {
  await client.close()
})

describe("Terraform JSON completion and hover per pinned provider version", () => {
  it("completes a firewall rule's missing attributes as JSON keys: filter_id up to 4.x, filter in 5.x", async () => {
    const body =
      '{\n    "cloudflare_firewall_rule": {\n      "r": {\n        "zone_id": "z",\n        |\n      }\n    }\n  }'
    const four = (await ask<Completion>("textDocument/completion", pinned("~> 4.52", body))).r
    expect(labels(four)).toEqual(expect.arrayContaining(["filter_id", "action", "priority", "products"]))
    expect(labels(four)).not.toContain("zone_id")
    expect(labels(four)).not.toContain("filter")
    expect(four!.items.find((i) => i.label === "action")!.textEdit.newText).toBe('"action": ')
    const five = (await ask<Completion>("textDocument/completion", pinned("~> 5", body))).r
    expect(labels(five)).toEqual(expect.arrayContaining(["filter", "action"]))
    expect(labels(five)).not.toContain("filter_id")
  })

  it("completes a half-typed key inside a nested object, keeping its colon, and in a body written as an array", async () => {
    const nested = (
      await ask<Completion>(
        "textDocument/completion",
        pinned(
          "~> 5",
          '{\n    "cloudflare_rate_limit": {\n      "r": {\n        "action": {\n          "mo|": "block"\n        }\n      }\n    }\n  }'
        )
      )
    ).r
    expect(labels(nested)).toEqual(["mode"])
    expect(nested!.items[0]!.textEdit.newText).toBe('"mode"')
    const listed = (
      await ask<Completion>(
        "textDocument/completion",
        pinned(
          "~> 4.0",
          '[\n    {\n      "cloudflare_zone_lockdown": {\n        "r": [\n          {\n            "con|"\n          }\n        ]\n      }\n    }\n  ]'
        )
      )
    ).r
    expect(labels(listed)).toEqual(["configurations"])
    expect(listed!.items[0]!.textEdit.newText).toBe('"configurations": {')
  })

  it("hovers an attribute key with its type and values, and a resource type key with its versions", async () => {
    const h = (
      await ask<Hover>(
        "textDocument/hover",
        pinned(
          "~> 4.0",
          '{\n    "cloudflare_user_agent_blocking_rule": {\n      "r": {\n        "zone_id": "z",\n        "m|ode": "block"\n      }\n    }\n  }'
        )
      )
    ).r
    expect(h!.contents.value).toContain("`mode`: **String** (required)")
    expect(h!.contents.value).toContain("`managed_challenge`")
    expect(h!.contents.value).toContain("provider 4.x")
    const waf = (
      await ask<Hover>(
        "textDocument/hover",
        pinned("~> 5", '{\n    "cloudflare_waf_|package": {\n      "p": {\n        "zone_id": "z"\n      }\n    }\n  }')
      )
    ).r
    expect(waf!.contents.value).toContain("provider 3.35 and earlier")
    expect(waf!.contents.value).toContain("**not in provider 5.x**")
  })

  it("reads the pin from another file of the module (versions.tf)", async () => {
    const dir = tempDir()
    fs.writeFileSync(
      path.join(dir, "versions.tf"),
      'terraform {\n  required_providers {\n    cloudflare = {\n      version = "~> 3.35"\n    }\n  }\n}\n'
    )
    const c = (
      await ask<Completion>(
        "textDocument/completion",
        '{\n  "resource": {\n    "cloudflare_ruleset": {\n      "r": {\n        "rules": {\n          "logging": {\n            |\n          }\n        }\n      }\n    }\n  }\n}\n',
        dir
      )
    ).r
    expect(labels(c)).toEqual(["enabled", "status"])
  })
})

describe("Terraform JSON go to definition", () => {
  it("goes from ${cloudflare_filter.x.id} to the filter, in the file and in another file of the module (.tf or .tf.json)", async () => {
    const dir = tempDir()
    fs.writeFileSync(
      path.join(dir, "filters.tf"),
      'resource "cloudflare_filter" "other" {\n  zone_id    = "z"\n  expression = "ssl"\n}\n'
    )
    fs.writeFileSync(
      path.join(dir, "more.tf.json"),
      '{\n  "resource": {\n    "cloudflare_filter": {\n      "third": {\n        "zone_id": "z",\n        "expression": "ssl"\n      }\n    }\n  }\n}\n'
    )
    const text =
      '{\n  "resource": {\n    "cloudflare_filter": {\n      "x": {\n        "zone_id": "z",\n        "expression": "ip.src eq 192.0.2.1"\n      }\n    },\n    "cloudflare_firewall_rule": {\n      "r": {\n        "zone_id": "z",\n        "filter_id": "${cloudflare_filter.|x.id}",\n        "action": "block"\n      },\n      "s": {\n        "zone_id": "z",\n        "filter_id": "${cloudflare_filter.other.id}",\n        "action": "block"\n      },\n      "t": {\n        "zone_id": "z",\n        "filter_id": "${cloudflare_filter.third.id}",\n        "description": "cloudflare_filter.x.id",\n        "action": "block"\n      }\n    }\n  }\n}\n'
    const { r, uri } = await ask<Location>("textDocument/definition", text, dir, "main.tf.json")
    expect(r).toEqual({ uri, range: { start: { line: 3, character: 6 }, end: { line: 6, character: 7 } } })
    const plain = text.replace("|", "")
    const at = async (needle: string) =>
      (await client.connection.sendRequest("textDocument/definition", {
        textDocument: { uri },
        position: pos(plain, plain.indexOf(needle) + 3)
      })) as Location
    expect(await at("cloudflare_filter.other")).toEqual({
      uri: pathToFileURL(path.join(dir, "filters.tf")).toString(),
      range: { start: { line: 0, character: 0 }, end: { line: 3, character: 1 } }
    })
    expect(await at("cloudflare_filter.third")).toEqual({
      uri: pathToFileURL(path.join(dir, "more.tf.json")).toString(),
      range: { start: { line: 3, character: 6 }, end: { line: 6, character: 7 } }
    })
    // A string that is no interpolation names nothing.
    expect(await at('cloudflare_filter.x.id"')).toBeNull()
  })
})
