/**
 * Issue 31 items 4 and 5: the provider pin as Terraform reads it — a 2.x pin is not moved to 3.x
 * by a rewrite without a word (its own remark and fix, the user chooses), the legacy
 * `provider "cloudflare" { version }` pin, conflicting pins in one module, and the module's pin
 * following versions.tf on disk and in unsaved editor buffers.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectl, tempDir } from "../helpers/cli.js"
import { startLsp, type PublishedDiagnostics } from "../helpers/lsp-client.js"

type Client = Awaited<ReturnType<typeof startLsp>>
let client: Client
const pin = (v: string) =>
  `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "${v}"\n    }\n  }\n}\n\n`
const WAF =
  'resource "cloudflare_waf_package" "owasp" {\n  zone_id     = "0123456789abcdef0123456789abcdef"\n  package_id  = "c504870194831cd12c3fc0284f294abb"\n  sensitivity = "high"\n  action_mode = "simulate"\n}\n'
const FIREWALL =
  'resource "cloudflare_filter" "f" {\n  zone_id    = "0123456789abcdef0123456789abcdef"\n  expression = "ip.src eq 192.0.2.1"\n}\n\nresource "cloudflare_firewall_rule" "r" {\n  zone_id   = "0123456789abcdef0123456789abcdef"\n  filter_id = cloudflare_filter.f.id\n  action    = "block"\n}\n'

type Action = { title: string; edit?: { changes?: Record<string, Array<{ range: unknown; newText: string }>> } }
const actions = async (uri: string, d: PublishedDiagnostics) =>
  (await client.connection.sendRequest("textDocument/codeAction", {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 999, character: 0 } },
    context: { diagnostics: d.diagnostics }
  })) as Array<Action>

const openIn = async (dir: string, file: string, text: string) => {
  fs.writeFileSync(path.join(dir, file), text)
  const uri = pathToFileURL(path.join(dir, file)).toString()
  return { uri, d: await client.open(uri, text, "terraform") }
}

beforeAll(async () => {
  client = await startLsp({ debounceMs: 0 })
})
afterAll(async () => {
  await client.close()
})

describe("a 2.x pin", () => {
  it("is a major upgrade the user chooses: a remark on the pin with its own fix; the rewrite leaves the pin", async () => {
    const { uri, d } = await openIn(
      tempDir(),
      "main.tf",
      pin("~> 2.0") +
        WAF +
        '\nresource "cloudflare_record" "www" {\n  zone_id = "z"\n  name    = "www"\n  type    = "A"\n  value   = "192.0.2.1"\n}\n'
    )
    const remark = d.diagnostics.find((x) => x.code === "terraform-provider-major-upgrade")
    expect(remark?.severity).toBe(3)
    expect(remark?.message).toContain('the pin "~> 2.0" admits only provider 2.x')
    expect(remark?.message).toContain("major upgrade (to 3.x) of every cloudflare resource of the module")
    expect(remark?.message).toContain("cloudflare_record: `data` becomes a block")
    expect(remark?.range.start.line).toBe(4)
    const all = await actions(uri, d)
    const bump = all.find((a) => a.title.startsWith("Move the provider pin"))
    expect(bump?.title).toBe(
      'Move the provider pin to "~> 3.35" (a major upgrade to 3.x for every cloudflare resource of the module)'
    )
    expect(bump?.edit?.changes?.[uri]).toEqual([expect.objectContaining({ newText: '"~> 3.35"' })])
    const rewrite = all.find((a) => a.title.startsWith("Add the equivalent cloudflare_ruleset"))!
    const edits = rewrite.edit!.changes![uri]!
    expect(edits.some((e) => e.newText === '"~> 3.35"')).toBe(false)
    expect(edits.map((e) => e.newText).join("")).toContain(
      'change it to "~> 3.35", a major provider upgrade for the whole module'
    )
  })

  it("within 3.x the pin still moves with the rewrite, with no remark", async () => {
    const { uri, d } = await openIn(tempDir(), "main.tf", pin("~> 3.0") + WAF)
    expect(d.diagnostics.map((x) => x.code)).not.toContain("terraform-provider-major-upgrade")
    const rewrite = (await actions(uri, d)).find((a) => a.title.startsWith("Add the equivalent cloudflare_ruleset"))!
    expect(rewrite.edit!.changes![uri]!.some((e) => e.newText === '"~> 3.35"')).toBe(true)
  })
})

describe("the legacy provider block's version", () => {
  it('is the pin: provider "cloudflare" { version = "~> 4.0" } in the file or in another file of the module', async () => {
    const dir = tempDir()
    const { d } = await openIn(dir, "main.tf", 'provider "cloudflare" {\n  version = "~> 4.0"\n}\n\n' + FIREWALL)
    const w = d.diagnostics.find((x) => x.code === "firewall-api-unsupported")
    expect(w?.message).toContain('provider 4.x, as pinned ("~> 4.0")')
    const other = tempDir()
    fs.writeFileSync(path.join(other, "provider.tf"), 'provider "cloudflare" {\n  version = "~> 3.0"\n}\n')
    const { d: d2 } = await openIn(other, "main.tf", FIREWALL)
    expect(d2.diagnostics.find((x) => x.code === "firewall-api-unsupported")?.message).toContain(
      'provider 3.x, as pinned ("~> 3.0" in provider.tf)'
    )
  })
})

describe("the module's pin follows versions.tf", () => {
  it("on disk (watched files) and in an unsaved buffer, re-checking the module's open files", async () => {
    const dir = tempDir()
    const versions = path.join(dir, "versions.tf")
    fs.writeFileSync(versions, pin("~> 4.0"))
    const { uri, d } = await openIn(dir, "main.tf", FIREWALL)
    const says = (x: PublishedDiagnostics) => x.diagnostics.find((y) => y.code === "firewall-api-unsupported")?.message
    expect(says(d)).toContain('provider 4.x, as pinned ("~> 4.0" in versions.tf)')
    // Changed on disk: the client reports it, the open main.tf is checked again.
    fs.writeFileSync(versions, pin("~> 5"))
    const later = new Date(Date.now() + 5000)
    fs.utimesSync(versions, later, later)
    const onDisk = client.diagnostics(uri, (x) => says(x)?.includes("~> 5") === true)
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
      changes: [{ uri: pathToFileURL(versions).toString(), type: 2 }]
    })
    expect(says(await onDisk)).toContain('provider 5.x, as pinned ("~> 5" in versions.tf)')
    // Edited in the editor, not saved: its buffer is the module's pin.
    const unsaved = client.diagnostics(uri, (x) => says(x)?.includes("~> 3.35") === true)
    await client.connection.sendNotification("textDocument/didOpen", {
      textDocument: {
        uri: pathToFileURL(versions).toString(),
        languageId: "terraform",
        version: 1,
        text: pin("~> 3.35")
      }
    })
    expect(says(await unsaved)).toContain('provider 3.x, as pinned ("~> 3.35" in versions.tf)')
    // Closed without saving: the file on disk again.
    const closed = client.diagnostics(uri, (x) => says(x)?.includes("~> 5") === true)
    await client.connection.sendNotification("textDocument/didClose", {
      textDocument: { uri: pathToFileURL(versions).toString() }
    })
    expect(says(await closed)).toContain('"~> 5" in versions.tf')
  })

  it("registers the watch for *.tf and *.tf.json when the client can", async () => {
    const c = await startLsp({}, { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } })
    await c.open("file:///work/w/a.rules", "ssl\n")
    const reg = c.serverRequests.find((r) => r.method === "client/registerCapability")?.params as {
      registrations: Array<{ method: string; registerOptions: { watchers: Array<{ globPattern: string }> } }>
    }
    const watch = reg.registrations.find((r) => r.method === "workspace/didChangeWatchedFiles")
    expect(watch?.registerOptions.watchers.map((w) => w.globPattern)).toEqual(["**/*.tf", "**/*.tf.json"])
    await c.close()
  })
})

describe("zones the rewrites write no ruleset for, with the reason", () => {
  const pkg = (name: string, zone: string) =>
    `resource "cloudflare_waf_package" "${name}" {\n  zone_id     = ${zone}\n  package_id  = "c504870194831cd12c3fc0284f294abb"\n  sensitivity = "high"\n  action_mode = "simulate"\n}\n\n`
  it("warns on the same zone under two spellings (.id / .zone_id) and writes no second ruleset", async () => {
    const { uri, d } = await openIn(
      tempDir(),
      "main.tf",
      pin("~> 4.52") + pkg("a", "data.cloudflare_zone.z.id") + pkg("b", "data.cloudflare_zone.z.zone_id")
    )
    const spelled = d.diagnostics.filter((x) => x.code === "terraform-rewrite-unclear")
    expect(spelled).toHaveLength(2)
    expect(spelled[0]!.message).toContain(
      "the file names this zone as data.cloudflare_zone.z.id and as data.cloudflare_zone.z.zone_id"
    )
    expect((await actions(uri, d)).filter((a) => a.title.startsWith("Add the equivalent"))).toEqual([])
  })

  it("says why a zone whose ruleset of the phase the file has gets no rewrite (previous WAF)", async () => {
    const managed =
      'resource "cloudflare_ruleset" "waf" {\n  zone_id = "0123456789abcdef0123456789abcdef"\n  name    = "managed"\n  kind    = "zone"\n  phase   = "http_request_firewall_managed"\n}\n\n'
    const { d } = await openIn(tempDir(), "main.tf", pin("~> 4.52") + managed + WAF)
    const why = d.diagnostics.find((x) => x.code === "terraform-rewrite-existing-ruleset")
    expect(why?.message).toBe(
      'zone_id = "0123456789abcdef0123456789abcdef" already has cloudflare_ruleset.waf in phase http_request_firewall_managed: no second ruleset is written (the platform refuses a second entry point of a phase)\nhint: add the mapped rules to cloudflare_ruleset.waf by hand'
    )
  })
})

describe("SARIF fixes of a CRLF file", () => {
  it("insert CRLF line ends, as the file has", () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, "main.tf"), (pin("~> 4.52") + FIREWALL).replace(/\n/g, "\r\n"))
    const r = edgectl(["check", "--format", "sarif", "main.tf"], { cwd: dir })
    const results = JSON.parse(r.stdout).runs[0].results as Array<{
      fixes?: Array<{ artifactChanges: Array<{ replacements: Array<{ insertedContent: { text: string } }> }> }>
    }>
    const inserted = results
      .flatMap((x) => x.fixes ?? [])
      .flatMap((f) => f.artifactChanges.flatMap((c) => c.replacements.map((p) => p.insertedContent.text)))
    expect(inserted.length).toBeGreaterThan(0)
    for (const t of inserted) {
      expect(t).toContain("\r\n")
      expect(t.replace(/\r\n/g, "")).not.toContain("\n")
    }
  })
})

describe("conflicting pins in one module", () => {
  it("get a remark: no version satisfies them together", async () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, "versions.tf"), pin("~> 5"))
    const { d } = await openIn(dir, "main.tf", pin("~> 4.52") + FIREWALL)
    const c = d.diagnostics.find((x) => x.code === "terraform-pin-conflict")
    expect(c?.message).toContain(
      'the module\'s cloudflare provider pins admit no version together: "~> 4.52" (this file) and "~> 5" (versions.tf)'
    )
    const agree = tempDir()
    fs.writeFileSync(path.join(agree, "versions.tf"), pin(">= 4.0"))
    const { d: ok } = await openIn(agree, "main.tf", pin("~> 4.52") + FIREWALL)
    expect(ok.diagnostics.map((x) => x.code)).not.toContain("terraform-pin-conflict")
  })
})

describe("one zone under two spellings in Terraform JSON", () => {
  it("warns and writes no ruleset for it", async () => {
    const rule = (name: string, zone: string) =>
      `"${name}": {"zone_id": "\${${zone}}", "filter_id": "\${cloudflare_filter.f.id}", "action": "block"}`
    const text = `{\n  "terraform": {"required_providers": {"cloudflare": {"version": "~> 4.52"}}},\n  "resource": {\n    "cloudflare_filter": {"f": {"zone_id": "\${data.cloudflare_zone.z.id}", "expression": "ssl"}},\n    "cloudflare_firewall_rule": {${rule("a", "data.cloudflare_zone.z.id")}, ${rule("b", "data.cloudflare_zone.z.zone_id")}}\n  }\n}\n`
    const { uri, d } = await openIn(tempDir(), "fw.tf.json", text)
    const spelled = d.diagnostics.filter((x) => x.code === "terraform-rewrite-unclear")
    expect(spelled.map((x) => x.message)).toEqual([
      expect.stringContaining("as data.cloudflare_zone.z.id and as data.cloudflare_zone.z.zone_id"),
      expect.stringContaining("as data.cloudflare_zone.z.id and as data.cloudflare_zone.z.zone_id")
    ])
    expect((await actions(uri, d)).filter((a) => a.title.startsWith("Add the equivalent"))).toEqual([])
  })
})
