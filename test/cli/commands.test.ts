/** The CLI as a child process: --json parsed and asserted, tables, errors and exit codes. */
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { edgectl, json, packageVersion, tempDir } from "../helpers/cli.js"

interface Zone {
  id: string
  name: string
  status: string
  account: { id: string; name: string }
}

describe("edgectl CLI on the embedded platform", () => {
  let cwd: string
  beforeAll(() => {
    cwd = tempDir()
  })

  it("creates and seeds its state under .edgectl/state on first use and lists every zone once", () => {
    const zones = json<Array<Zone>>(edgectl(["zones", "list", "--json"], { cwd }))
    expect(fs.existsSync(path.join(cwd, ".edgectl", "state", "platform.sqlite"))).toBe(true)
    expect(zones).toHaveLength(46)
    expect(new Set(zones.map((z) => z.id)).size).toBe(46)
    expect(zones[0]!.name).toBe("acme-api.com")
    expect(zones.map((z) => z.name)).toEqual([...zones.map((z) => z.name)].sort())
  })

  it("prints an aligned table by default", () => {
    const r = edgectl(["zones", "list", "--name", "contains:initech"], { cwd })
    expect(r.status).toBe(0)
    const lines = r.stdout.trimEnd().split("\n")
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS\s+PLAN\s+ACCOUNT$/)
    expect(lines).toHaveLength(13)
    expect(lines.slice(1).every((l) => l.includes("initech"))).toBe(true)
    expect(lines[1]!.indexOf("initech")).toBe(lines[2]!.indexOf("initech"))
  })

  it("filters zones by account id and status", () => {
    const all = json<Array<Zone>>(edgectl(["zones", "list", "--json"], { cwd }))
    const globex = all.find((z) => z.account.name === "Globex")!.account.id
    const zones = json<Array<Zone>>(edgectl(["zones", "list", "--account-id", globex, "--json"], { cwd }))
    expect(zones).toHaveLength(14)
    const pending = json<Array<Zone>>(edgectl(["zones", "list", "--status", "pending", "--json"], { cwd }))
    expect(pending.map((z) => z.name).sort()).toEqual(["acme.jp", "globex-blog.net", "initech-archive.org"])
    const viaEnv = json<Array<Zone>>(
      edgectl(["zones", "list", "--json"], { cwd, env: { CLOUDFLARE_ACCOUNT_ID: globex } })
    )
    expect(viaEnv).toHaveLength(14)
  })

  it("gets a zone by name and by id", () => {
    const byName = json<Zone>(edgectl(["zones", "get", "acme.com", "--json"], { cwd }))
    expect(byName.name).toBe("acme.com")
    const byId = json<Zone>(edgectl(["zones", "get", byName.id, "--json"], { cwd }))
    expect(byId).toEqual(byName)
  })

  it("lists all 1,250 DNS records of acme.com across pages, and filters them", () => {
    const records = json<Array<{ id: string; type: string }>>(edgectl(["dns", "list", "acme.com", "--json"], { cwd }))
    expect(records).toHaveLength(1250)
    expect(new Set(records.map((r) => r.id)).size).toBe(1250)
    const mx = json<Array<{ type: string }>>(edgectl(["dns", "list", "acme.com", "--type", "mx", "--json"], { cwd }))
    expect(mx.length).toBeGreaterThan(2)
    expect(mx.every((r) => r.type === "MX")).toBe(true)
  })

  it("lists certificate packs of every status", () => {
    const packs = json<Array<{ type: string; status: string; certificates: Array<unknown> }>>(
      edgectl(["certs", "list", "acme.net", "--json"], { cwd })
    )
    expect(packs.length).toBeGreaterThanOrEqual(1)
    expect(packs[0]!.type).toBe("universal")
  })

  it("lists, accepts and rejects invites; an accepted invite adds the account", () => {
    const dir = tempDir()
    const invites = json<Array<{ id: string; organization_name: string; status: string }>>(
      edgectl(["invites", "list", "--json"], { cwd: dir })
    )
    expect(invites.map((i) => i.status)).toEqual(["pending", "pending"])
    const umbrella = invites.find((i) => i.organization_name === "Umbrella Partners")!
    const accepted = edgectl(["invites", "accept", umbrella.id], { cwd: dir })
    expect(accepted.status).toBe(0)
    expect(accepted.stdout).toContain("Accepted the invite to Umbrella Partners.")
    const accounts = json<Array<{ name: string }>>(edgectl(["accounts", "list", "--json"], { cwd: dir }))
    expect(accounts.map((a) => a.name)).toContain("Umbrella Partners")
    const again = edgectl(["invites", "accept", umbrella.id], { cwd: dir })
    expect(again.status).toBe(1)
    expect(again.stderr).toMatch(/^error: invites accept: .*already accepted.*\[code 1004\]/)
  })

  it("keeps state in --persist-to", () => {
    const dir = tempDir()
    const store = path.join(dir, "elsewhere")
    json(edgectl(["zones", "list", "--json", "--persist-to", store], { cwd: dir }))
    expect(fs.existsSync(path.join(store, "platform.sqlite"))).toBe(true)
    expect(fs.existsSync(path.join(dir, ".edgectl"))).toBe(false)
  })

  it("--persist-to must be a directory or a path where one can be made: a usage error names the path otherwise", () => {
    const dir = tempDir()
    const file = path.join(dir, "a-file")
    fs.writeFileSync(file, "")
    for (const [arg, why] of [
      [file, `${file} is a file, not a directory`],
      [path.join(file, "sub"), `${path.join(file, "sub")}: a part of the path is a file, not a directory`],
      ["", "expected a directory, got an empty path"]
    ] as const) {
      const r = edgectl(["zones", "list", "--persist-to", arg], { cwd: dir })
      expect(r.status).toBe(2)
      expect(r.stdout).toBe("")
      expect(r.stderr.trim()).toBe(`error: --persist-to: ${why}`)
    }
    expect(fs.readdirSync(dir)).toEqual(["a-file"])
  })
})

describe("edgectl CLI errors", () => {
  it("an unknown zone: one line on stderr with the code, a hint, exit 1, nothing on stdout", () => {
    const r = edgectl(["zones", "get", "nope.example"])
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    const lines = r.stderr.trimEnd().split("\n")
    expect(lines[0]).toBe("error: zones get: no zone named nope.example is visible to these credentials")
    expect(lines[1]).toMatch(/^hint: /)
    expect(lines).toHaveLength(2)
  })

  it("usage errors exit 2: unknown subcommand, unknown flag, missing argument, bad value", () => {
    const typo = edgectl(["zones", "lst"])
    expect(typo.status).toBe(2)
    expect(typo.stderr.trim()).toBe('error: unknown command "zones lst" (edgectl zones has: list, get)')
    const deep = edgectl(["kv", "namespace", "lst"])
    expect([deep.status, deep.stderr.trim()]).toEqual([
      2,
      'error: unknown command "kv namespace lst" (edgectl kv namespace has: create, list, rename, delete)'
    ])
    const unknown = edgectl(["nope"])
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toBe(
      'error: unknown command "nope" (edgectl has: zones, dns, certs, accounts, invites, rules, kv, esc, firewall, custom-rules, waf, objects, check, scan, migrate, lsp, serve, tui)\n'
    )
    expect(edgectl(["zones", "list", "--bogus"]).status).toBe(2)
    // A missing argument names itself, what the command takes and the help that says more.
    expect(edgectl(["zones", "get"])).toMatchObject({
      status: 2,
      stderr:
        "error: missing argument <zone>: edgectl zones get takes <zone>\nhint: run `edgectl zones get --help` for what it takes\n"
    })
    expect(edgectl(["objects", "sql", "Counter", "a"]).stderr.split("\n")[0]).toBe(
      "error: missing argument <SQL>: edgectl objects sql takes <Class> <name> <SQL>"
    )
    const bad = edgectl(["zones", "list", "--status", "sleeping"])
    expect(bad.status).toBe(2)
    expect(bad.stderr.trim()).toBe(
      'error: --status: expected one of initializing, pending, active, moved, got "sleeping"'
    )
    const flagAsArg = edgectl(["zones", "get", "--jsn"])
    expect(flagAsArg.status).toBe(2)
  })

  it("--help lists every command; a command's --help shows only its own", () => {
    const all = edgectl(["--help"])
    expect(all.status).toBe(0)
    for (const name of [
      "zones",
      "dns",
      "certs",
      "accounts",
      "invites",
      "rules",
      "kv",
      "esc",
      "firewall",
      "custom-rules",
      "waf",
      "objects",
      "check",
      "lsp",
      "serve",
      "tui"
    ]) {
      expect(all.stdout, name).toMatch(new RegExp(`^  - ${name}\\b`, "m"))
    }
    const zones = edgectl(["zones", "--help"])
    expect(zones.status).toBe(0)
    expect(zones.stdout).toContain("list the zones the credentials can see")
    expect(zones.stdout).not.toContain("key-value store")
    expect(edgectl(["--version"]).stdout).toContain(packageVersion)
  })

  it("--remote without credentials refuses and names the variables; credentials never appear in output", () => {
    const r = edgectl(["zones", "list", "--remote"], {
      env: { CLOUDFLARE_API_TOKEN: undefined, CLOUDFLARE_API_KEY: undefined, CLOUDFLARE_EMAIL: undefined }
    })
    expect(r.status).toBe(1)
    expect(r.stderr).toContain("CLOUDFLARE_API_TOKEN")
    const secret = "s3cr3t-token-that-must-not-leak-000000000"
    const bad = edgectl(["zones", "list", "--remote"], {
      env: { CLOUDFLARE_API_TOKEN: secret, CLOUDFLARE_API_BASE_URL: "http://127.0.0.1:9/client/v4" }
    })
    expect(bad.status).toBe(1)
    expect(bad.stderr + bad.stdout).not.toContain(secret)
    expect(bad.stderr).toMatch(/^error: zones list: cannot reach http:\/\/127\.0\.0\.1:9\/client\/v4/)
  })

  it("credentials in the environment do not switch the target", () => {
    const zones = json<Array<Zone>>(
      edgectl(["zones", "list", "--json"], {
        env: { CLOUDFLARE_API_TOKEN: "some-real-token-000000000000000000000000" }
      })
    )
    expect(zones).toHaveLength(46)
  })
})
