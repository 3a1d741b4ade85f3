/**
 * `edgectl waf …` as a child process on the embedded platform: status, check, config, preview,
 * migrate (dry run, confirmation, the state table's rows incl. the dashboard's Deploy), overrides,
 * replay and export; --json parsed and asserted; errors are one line with the code and a hint.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectlAsync, json, root, tempDir } from "../helpers/cli.js"

const state = tempDir("edgectl-waf-cli-")
const waf = (args: ReadonlyArray<string>, input?: string) =>
  edgectlAsync(["waf", ...args, "--persist-to", state], input === undefined ? {} : { input })
const sample = path.join(root, "fixtures/waf/traffic-sample.jsonl")

describe("edgectl waf", () => {
  it("status and check", async () => {
    const s = json<any>(await waf(["status", "--zone", "acme.com", "--json"]))
    expect(s).toMatchObject({
      zone: { name: "acme.com", plan: "enterprise" },
      migration_state: "start",
      old_waf_status: "enabled",
      new_waf_status: "disabled"
    })
    expect(json<any>(await waf(["check", "--zone", "acme.com", "--json"]))).toEqual({
      compatible: true,
      migration_state: "start"
    })
    const p1 = json<any>(await waf(["check", "--zone", "acme.com", "--phase-one", "--json"]))
    expect(p1.compatible).toBe(false)
    const human = await waf(["check", "--zone", "acme.net"])
    expect(human.stdout).toMatch(/acme.net is not compatible with the migration/)
    expect(human.stdout).toMatch(/URI-based WAF override/)
  })

  it("preview shows each setting, its equivalent and the sensitivity mapping; what is not migrated and why", async () => {
    const h = await waf(["preview", "--zone", "globex.com"])
    expect(h.status).toBe(0)
    expect(h.stdout).toMatch(/OWASP sensitivity\s+Low\s+Low -> PL1, threshold 40 \(Medium\)/)
    expect(h.stdout).toMatch(/OWASP action\s+Challenge\s+challenge/)
    expect(h.stdout).toMatch(/page rule \*globex.com\/admin\/\*\s+Disable Security\s+skip rule/)
    expect(h.stdout).toMatch(/OWASP group OWASP Bad Robots off\s+OWASP group overrides are not migrated/)
    const j = json<any>(await waf(["preview", "--zone", "acme-shop.com", "--json"]))
    expect(j.rows).toContainEqual(
      expect.objectContaining({ setting: "OWASP sensitivity", next: "Medium -> PL1, threshold 25 (High)" })
    )
    expect(j.rows).toContainEqual(
      expect.objectContaining({ setting: "OWASP action", previous: "Simulate", next: "log" })
    )
    expect((await waf(["preview", "--zone", "initech.net"])).stdout).toMatch(/Default -> PL2, threshold 40 \(Medium\)/)
  })

  it("a dry run prints the exact request and the end state, and changes nothing; the real run sends the same request", async () => {
    const dry = json<any>(await waf(["migrate", "--zone", "initech.com", "--dry-run", "--json"]))
    expect(dry).toMatchObject({
      dry_run: true,
      from: "start",
      to: "finished",
      request: { method: "PUT", query: { waf_migration: "pending", phase_two: "1" } }
    })
    expect(dry.request.path).toMatch(/\/rulesets\/phases\/http_request_firewall_managed\/entrypoint$/)
    expect(dry.request.body.rules.every((r: any) => r.id === "" && r.version === "" && r.ref === "")).toBe(true)
    expect(json<any>(await waf(["status", "--zone", "initech.com", "--json"])).migration_state).toBe("start")
    const human = await waf(["migrate", "--zone", "initech.com", "--dry-run"])
    expect(human.stdout).toMatch(/^Dry run: nothing was changed/)
    expect(human.stdout).toMatch(
      /PUT \/zones\/\w+\/rulesets\/phases\/http_request_firewall_managed\/entrypoint\?waf_migration=pending&phase_two=1/
    )
    expect(human.stdout).toMatch(/would go from start to finished/)
    const real = json<any>(await waf(["migrate", "--zone", "initech.com", "--yes", "--json"]))
    expect(real.request).toEqual(dry.request)
    expect(real).toMatchObject({ dry_run: false, from: "start", to: "finished" })
    expect(real.ruleset.rules.map((r: any) => r.expression)).toEqual(
      dry.request.body.rules.map((r: any) => r.expression)
    )
  })

  it("the real run asks for confirmation (irreversible); off a terminal it refuses without --yes", async () => {
    const r = await waf(["migrate", "--zone", "initech-tps.com", "--mode", "pending"])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(
      /^error: waf migrate: not finishing the migration of initech-tps.com without a confirmation/
    )
    expect(r.stderr).toMatch(/hint: pass --yes to confirm \(irreversible\)/)
    expect(json<any>(await waf(["status", "--zone", "initech-tps.com", "--json"])).migration_state).toBe("start")
  })

  it("dashboard Deploy: business finishes; enterprise validates, then Turn off previous version finishes", async () => {
    expect(json<any>(await waf(["migrate", "--zone", "globex.org", "--yes", "--json"]))).toMatchObject({
      from: "start",
      to: "finished",
      request: { query: { waf_migration: "pending" } }
    })
    const v = json<any>(await waf(["migrate", "--zone", "acme-assets.net", "--json"]))
    expect(v).toMatchObject({ from: "start", to: "validation", request: { query: { waf_migration: "validation" } } })
    expect(v.request.body.rules.every((r: any) => !("id" in r) && !("version" in r) && !("ref" in r))).toBe(true)
    const f = json<any>(await waf(["migrate", "--zone", "acme-assets.net", "--yes", "--json"]))
    expect(f).toMatchObject({ from: "validation", to: "finished", request: { query: { waf_migration: "pending" } } })
  })

  it("errors: validation on business, finished zones, URI overrides; each one line with its code and a hint", async () => {
    const v = await waf(["migrate", "--zone", "globex.net", "--mode", "validation"])
    expect(v.status).toBe(1)
    expect(v.stderr).toMatch(/^error: waf migrate: validation mode .* enterprise zones only.* \[code 10302\]\nhint: /)
    const fin = await waf(["migrate", "--zone", "acme-labs.org", "--mode", "pending", "--yes"])
    expect(fin.stderr).toMatch(/finished and cannot be reversed.*\[code 10301\]/)
    const pk = await waf(["export", "--zone", "acme-labs.org"])
    expect(pk.status).toBe(1)
    expect(pk.stderr).toMatch(/\[code 10301\]/)
    const uri = await waf(["migrate", "--zone", "initech.org", "--yes"])
    expect(uri.stderr).toMatch(
      /URI-based WAF override.*\[code 10305\]\nhint: list them with `edgectl waf overrides list --zone initech.org --persist-to \S+`/
    )
    const many = await waf(["migrate", "--zone", "acme.org", "--yes"])
    expect(many.stderr).toMatch(
      /^error: waf migrate: the number of firewall rules to migrate \(205\) exceeds 200: contact support to migrate this zone \[code 10303\]\nhint: /
    )
    const long = await waf(["migrate", "--zone", "acme-cdn.net", "--dry-run"])
    expect(long.status).toBe(1)
    expect(long.stderr).toMatch(/longer than 4 KB \(4096 bytes\): contact support to migrate this zone \[code 10304\]/)
    expect((await waf(["preview", "--zone", "acme.org"])).stdout).toMatch(
      /The migration cannot go on:\n  - the number of firewall rules to migrate \(205\) exceeds 200/
    )
    expect((await waf(["status"])).status).toBe(2)
    expect((await waf(["status", "--zone", "nope.example"])).status).toBe(1)
  })

  it("overrides list and delete (refuses off a terminal without --yes), then the zone migrates", async () => {
    const list = json<Array<any>>(await waf(["overrides", "list", "--zone", "initech.org", "--json"]))
    expect(list.length).toBe(1)
    expect((await waf(["overrides", "delete", "--zone", "initech.org", "--all"])).stderr).toMatch(/pass --yes/)
    expect((await waf(["overrides", "delete", "--zone", "initech.org"])).status).toBe(2)
    expect(json<any>(await waf(["overrides", "delete", "--zone", "initech.org", "--all", "--yes", "--json"]))).toEqual({
      deleted: [list[0].id]
    })
    expect(json<any>(await waf(["check", "--zone", "initech.org", "--json"]))).toEqual({
      compatible: true,
      migration_state: "start"
    })
  })

  it("replay reports the disagreements with the rules responsible", async () => {
    const r = json<any>(await waf(["replay", "--zone", "acme.com", "--traffic", sample, "--json"]))
    expect(r.requests).toBe(32)
    expect(r.problems).toEqual([])
    expect(r.agreed + r.counts["new-only"] + r.counts["previous-only"] + r.counts["different-action"]).toBe(32)
    const spring = r.disagreements.find((d: any) => d.id === "spring4shell")
    expect(spring).toMatchObject({
      kind: "new-only",
      previous: { action: "pass" },
      next: { action: "block", rules: [{ description: "Spring - Code Injection - CVE:CVE-2022-22965" }] }
    })
    const legacy = r.disagreements.find((d: any) => d.id === "legacy-api")
    expect(legacy).toBeUndefined()
    const h = await waf(["replay", "--zone", "acme.com", "--traffic", sample])
    expect(h.stdout.split("\n")[0]).toBe(`Replay of ${sample}: the previous WAF against the new configuration`)
    expect(h.stdout.split("\n")[1]).toMatch(/^32 request\(s\): \d+ agree, \d+ disagree/)
    expect(h.stdout).toMatch(/spring4shell: POST acme.com|spring4shell: POST globex.com/)
    const deployed = await waf(["replay", "--zone", "globex.com", "--traffic", sample, "--against", "deployed"])
    expect(deployed.status).toBe(1)
    expect(deployed.stderr).toMatch(/could not find entrypoint ruleset/)
  })

  it("replay names the file, counts its bad lines with the first reasons, and fails on a file of no request", async () => {
    const dir = tempDir()
    const text = fs.readFileSync(sample, "utf8")
    const n = text.split("\n").length
    const bad = path.join(dir, "some-bad.jsonl")
    fs.writeFileSync(bad, `${text}{nope\n[1]\n"x"\n{\n`)
    const r = await waf(["replay", "--zone", "acme.com", "--traffic", bad])
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^Replay of ${bad}: .*\n32 request\\(s\\): `))
    expect(r.stderr.split("\n")).toEqual([
      "warning: 4 lines not read",
      expect.stringMatching(new RegExp(`^warning: line ${n}: not JSON: `)),
      `warning: line ${n + 1}: expected a JSON object (a request, or {id, request})`,
      `warning: line ${n + 2}: expected a JSON object (a request, or {id, request})`,
      ""
    ])
    expect(json<any>(await waf(["replay", "--zone", "acme.com", "--traffic", bad, "--json"])).file).toBe(bad)
    const empty = path.join(dir, "empty.jsonl")
    fs.writeFileSync(empty, "")
    const allBad = path.join(dir, "all-bad.jsonl")
    fs.writeFileSync(allBad, "# only bad lines\n{nope\n")
    for (const [f, why] of [
      [empty, "0 lines"],
      [allBad, "2 lines, 1 not read: line 2: not JSON: "]
    ] as const) {
      const e = await waf(["replay", "--zone", "acme.com", "--traffic", f])
      expect([e.status, e.stdout]).toEqual([1, ""])
      expect(e.stderr.startsWith(`error: --traffic: ${f}: no request to replay (${why}`)).toBe(true)
      expect(e.stderr.trim().split("\n")).toHaveLength(1)
    }
  })

  it("export writes the previous WAF document", async () => {
    const out = path.join(tempDir(), "acme.json")
    const r = await waf(["export", "--zone", "acme.com", "--output", out])
    expect(r.stdout).toMatch(/^Wrote the previous WAF of acme.com to /)
    const doc = JSON.parse(fs.readFileSync(out, "utf8"))
    expect(doc).toMatchObject({
      format: "edgectl.waf-export/v1",
      zone: { name: "acme.com", plan: "enterprise" },
      migration_state: "start",
      waf: "on"
    })
    expect(doc.packages.length).toBe(2)
    expect(doc.rules.find((x: any) => x.id === "100043A").mode).toBe("disable")
    expect(doc.page_rules[0].actions).toEqual([{ id: "waf", value: "off" }])
    expect(doc.firewall_rules).toEqual([
      expect.objectContaining({
        action: "bypass",
        products: ["waf"],
        expression: 'http.request.uri.path matches "^/upload$"',
        paused: false
      })
    ])
  })

  it("--traffic and --config name the option when the file is missing or is a directory (a failure the user can fix, exit 1, as for every input file)", async () => {
    const dir = tempDir()
    const missing = path.join(dir, "nope.jsonl")
    for (const [args, line] of [
      [["replay", "--zone", "acme.com", "--traffic", missing], `error: --traffic: ${missing}: no such file`],
      [["replay", "--zone", "acme.com", "--traffic", dir], `error: --traffic: ${dir} is a directory, not a file`],
      [["migrate", "--zone", "acme.com", "--dry-run", "--config", missing], `error: --config: ${missing}: no such file`]
    ] as const) {
      const r = await waf(args)
      expect(r.status).toBe(1)
      expect(r.stdout).toBe("")
      expect(r.stderr.trim()).toBe(line)
    }
  })

  it("bypass firewall rules read through the firewall API: the replay agrees where both versions skip", async () => {
    const r = json<any>(await waf(["replay", "--zone", "globex.com", "--traffic", sample, "--json"]))
    expect(r.disagreements.find((d: any) => d.id === "webhook")).toBeUndefined()
    const doc = json<any>(await waf(["export", "--zone", "globex.com"]))
    expect(doc.firewall_rules.map((f: any) => f.description)).toEqual(["payment webhooks skip the WAF"])
  })
})
