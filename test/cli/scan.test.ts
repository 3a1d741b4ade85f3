/**
 * `edgectl scan` through the built CLI: a fixture repository (test/fixtures/scan-repo) that uses
 * every deprecation of the list in each language the scanner reads, its exact findings on the
 * project clock, the exit codes (1 past an end of life, 0 with warnings for upcoming ones), text,
 * JSON and SARIF, and a zone's live use of legacy products, local and --remote.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectl, edgectlAsync, root, tempDir } from "../helpers/cli.js"
import { startServe, type Served } from "../helpers/serve.js"

const repo = path.join(root, "test", "fixtures", "scan-repo")
const NOW = { EDGECTL_PLATFORM_NOW: "2026-11-24T12:00:00Z" }

interface JsonFinding {
  id: string
  severity: string
  path: string
  line: number
  column: number
  found: string
  state: string
  daysLeft?: number
  daysAgo?: number
  endOfLife: string | null
  replacement: string
  command?: string
  fix?: { replace: string }
}
interface JsonScan {
  now: string
  scanned: number
  past: number
  upcoming: number
  undated: number
  findings: Array<JsonFinding>
}

/** Every finding in the fixture repository, in file and text order: path:line:column, id, what was found. */
const EXPECTED = [
  ".github/workflows/deploy.yml:7:7 DEP-SVCKEY CLOUDFLARE_API_USER_SERVICE_KEY",
  ".github/workflows/deploy.yml:9:59 DEP-DNSANALYTICS GET /zones/{id}/dns_analytics/report",
  "cmd/legacy/main.go:15:29 DEP-ESC POST /zones/{id}/disable_esc",
  "cmd/legacy/main.go:16:29 DEP-FR POST /zones/{id}/firewall/rules",
  "cmd/legacy/main.go:17:28 DEP-FR GET /zones/{id}/filters",
  "cmd/legacy/main.go:18:53 DEP-WAFOLD PATCH /zones/{id}/firewall/waf/packages/{id}/rules/{id}",
  "cmd/legacy/main.go:19:29 DEP-WAFOLD POST /zones/{id}/firewall/waf/overrides",
  "cmd/legacy/main.go:20:28 DEP-RLOLD GET /zones/{id}/rate_limits",
  "cmd/legacy/main.go:22:8 DEP-RLOLD PUT /zones/{id}/rate_limits/{id}",
  "cmd/legacy/main.go:23:29 DEP-ZL POST /zones/{id}/firewall/lockdowns",
  "cmd/legacy/main.go:24:45 DEP-UA DELETE /zones/{id}/firewall/ua_rules/{id}",
  "cmd/legacy/main.go:25:42 DEP-KVLEGACY PUT /accounts/{id}/workers/namespaces/{id}/values/config",
  "cmd/legacy/main.go:26:44 DEP-DNSTYPE PATCH /zones/{id}/dns_records/{id}",
  "cmd/legacy/main.go:27:50 DEP-DNSFILTER name=contains:",
  "cmd/legacy/main.go:28:28 DEP-DNSANALYTICS GET /zones/{id}/dns_analytics/report",
  "cmd/legacy/main.go:29:44 DEP-ZSBATCH PATCH /zones/{id}/settings",
  "cmd/legacy/main.go:30:28 DEP-CNAMEFLAT GET /zones/{id}/settings/cname_flattening",
  "cmd/legacy/main.go:31:44 DEP-MIRAGE PATCH /zones/{id}/settings/mirage",
  "cmd/legacy/main.go:33:18 DEP-SVCKEY X-Auth-User-Service-Key",
  "cmd/legacy/main.go:34:3 DEP-RLOLD cloudflare-go rate limits (.CreateRateLimit)",
  "cmd/legacy/main.go:35:3 DEP-RLOLD cloudflare-go rate limits (.ListRateLimits)",
  "cmd/legacy/main.go:36:3 DEP-ZSBATCH cloudflare-go zone settings (.ZoneSettings)",
  "cmd/legacy/main.go:37:3 DEP-ZSBATCH cloudflare-go zone settings (.UpdateZoneSettings)",
  "ops/cleanup.py:10:26 DEP-ESC POST /zones/{id}/disable_esc",
  "ops/cleanup.py:11:26 DEP-FR POST /zones/{id}/firewall/rules",
  "ops/cleanup.py:12:25 DEP-FR GET /zones/{id}/filters",
  "ops/cleanup.py:13:27 DEP-WAFOLD PATCH /zones/{id}/firewall/waf/packages/{id}/rules/{id}",
  "ops/cleanup.py:14:26 DEP-WAFOLD POST /zones/{id}/firewall/waf/overrides",
  "ops/cleanup.py:15:25 DEP-RLOLD GET /zones/{id}/rate_limits",
  "ops/cleanup.py:16:25 DEP-RLOLD PUT /zones/{id}/rate_limits/{id}",
  "ops/cleanup.py:17:26 DEP-ZL POST /zones/{id}/firewall/lockdowns",
  "ops/cleanup.py:18:28 DEP-UA DELETE /zones/{id}/firewall/ua_rules/{id}",
  "ops/cleanup.py:19:25 DEP-KVLEGACY PUT /accounts/{id}/workers/namespaces/{id}/values/config",
  "ops/cleanup.py:20:27 DEP-DNSTYPE PATCH /zones/{id}/dns_records/{id}",
  "ops/cleanup.py:21:54 DEP-DNSFILTER name=contains:",
  "ops/cleanup.py:22:25 DEP-DNSANALYTICS GET /zones/{id}/dns_analytics/report",
  "ops/cleanup.py:23:27 DEP-ZSBATCH PATCH /zones/{id}/settings",
  "ops/cleanup.py:24:25 DEP-CNAMEFLAT GET /zones/{id}/settings/cname_flattening",
  "ops/cleanup.py:25:27 DEP-MIRAGE PATCH /zones/{id}/settings/mirage",
  "ops/cleanup.py:26:67 DEP-SVCKEY X-Auth-User-Service-Key",
  "ops/cleanup.py:27:11 DEP-RLOLD client.rate_limits (.rate_limits.list)",
  "ops/cleanup.py:28:11 DEP-FR client.firewall.rules (.firewall.rules.create)",
  "ops/cleanup.py:29:11 DEP-ZL client.firewall.lockdowns (.firewall.lockdowns.list)",
  "ops/cleanup.py:30:11 DEP-UA client.firewall.ua_rules (.firewall.ua_rules.create)",
  "rules/block-countries.rules:1:1 DEP-GEOIP ip.geoip.country",
  "rules/block-countries.rules:1:37 DEP-THREAT cf.threat_score",
  "rules/custom-rules.json:4:20 DEP-THREAT cf.threat_score",
  "rules/custom-rules.json:4:44 DEP-GEOIP ip.geoip.asnum",
  'rules/custom-rules.json:11:42 DEP-WAFOLD a skip of the legacy product "waf"',
  'rules/custom-rules.json:11:49 DEP-RLOLD a skip of the legacy product "rateLimit"',
  "scripts/deploy.sh:4:22 DEP-ESC POST /zones/{id}/disable_esc",
  "scripts/deploy.sh:5:53 DEP-ESC disable_esc=",
  "scripts/deploy.sh:6:22 DEP-FR POST /zones/{id}/firewall/rules",
  "scripts/deploy.sh:7:14 DEP-FR GET /zones/{id}/filters",
  "scripts/deploy.sh:8:23 DEP-WAFOLD PATCH /zones/{id}/firewall/waf/packages/{id}/rules/{id}",
  "scripts/deploy.sh:9:22 DEP-WAFOLD POST /zones/{id}/firewall/waf/overrides",
  "scripts/deploy.sh:10:14 DEP-RLOLD GET /zones/{id}/rate_limits",
  "scripts/deploy.sh:11:21 DEP-RLOLD PUT /zones/{id}/rate_limits/{id}",
  "scripts/deploy.sh:12:22 DEP-ZL POST /zones/{id}/firewall/lockdowns",
  "scripts/deploy.sh:13:24 DEP-UA DELETE /zones/{id}/firewall/ua_rules/{id}",
  "scripts/deploy.sh:14:21 DEP-KVLEGACY PUT /accounts/{id}/workers/namespaces/{id}/values/config",
  "scripts/deploy.sh:15:23 DEP-DNSTYPE PATCH /zones/{id}/dns_records/{id}",
  "scripts/deploy.sh:17:42 DEP-DNSFILTER name=contains:",
  "scripts/deploy.sh:18:14 DEP-DNSANALYTICS GET /zones/{id}/dns_analytics/report",
  "scripts/deploy.sh:19:23 DEP-ZSBATCH PATCH /zones/{id}/settings",
  "scripts/deploy.sh:20:14 DEP-CNAMEFLAT GET /zones/{id}/settings/cname_flattening",
  "scripts/deploy.sh:21:23 DEP-MIRAGE PATCH /zones/{id}/settings/mirage",
  "scripts/deploy.sh:22:48 DEP-SVCKEY X-Auth-User-Service-Key",
  "src/client.ts:8:22 DEP-ESC POST /zones/{id}/disable_esc",
  "src/client.ts:9:22 DEP-FR POST /zones/{id}/firewall/rules",
  "src/client.ts:13:22 DEP-FR GET /zones/{id}/filters",
  "src/client.ts:14:22 DEP-WAFOLD PATCH /zones/{id}/firewall/waf/packages/{id}/rules/{id}",
  "src/client.ts:15:22 DEP-WAFOLD POST /zones/{id}/firewall/waf/overrides",
  "src/client.ts:16:22 DEP-RLOLD GET /zones/{id}/rate_limits",
  "src/client.ts:17:22 DEP-RLOLD PUT /zones/{id}/rate_limits/{id}",
  "src/client.ts:18:22 DEP-ZL POST /zones/{id}/firewall/lockdowns",
  "src/client.ts:19:22 DEP-UA DELETE /zones/{id}/firewall/ua_rules/{id}",
  "src/client.ts:20:22 DEP-KVLEGACY PUT /accounts/{id}/workers/namespaces/{id}/values/config",
  "src/client.ts:21:22 DEP-DNSTYPE PATCH /zones/{id}/dns_records/{id}",
  "src/client.ts:25:51 DEP-DNSFILTER name=contains:",
  "src/client.ts:26:22 DEP-DNSANALYTICS GET /zones/{id}/dns_analytics/report",
  "src/client.ts:27:22 DEP-ZSBATCH PATCH /zones/{id}/settings",
  "src/client.ts:28:22 DEP-CNAMEFLAT GET /zones/{id}/settings/cname_flattening",
  "src/client.ts:29:22 DEP-MIRAGE PATCH /zones/{id}/settings/mirage",
  "src/client.ts:30:68 DEP-SVCKEY X-Auth-User-Service-Key",
  "src/client.ts:31:15 DEP-FR client.firewall.rules (.firewall.rules.create)",
  "src/client.ts:32:15 DEP-RLOLD client.rateLimits (.rateLimits.list)",
  "src/client.ts:33:15 DEP-ZL client.firewall.lockdowns (.firewall.lockdowns.list)",
  "src/client.ts:34:15 DEP-UA client.firewall.uaRules (.firewall.uaRules.create)",
  "src/legacy.js:6:28 DEP-ESC POST /zones/{id}/disable_esc",
  "src/legacy.js:7:28 DEP-FR POST /zones/{id}/firewall/rules",
  "src/legacy.js:8:27 DEP-FR GET /zones/{id}/filters",
  "src/legacy.js:9:29 DEP-WAFOLD PATCH /zones/{id}/firewall/waf/packages/{id}/rules/{id}",
  "src/legacy.js:10:28 DEP-WAFOLD POST /zones/{id}/firewall/waf/overrides",
  "src/legacy.js:11:27 DEP-RLOLD GET /zones/{id}/rate_limits",
  "src/legacy.js:12:27 DEP-RLOLD PUT /zones/{id}/rate_limits/{id}",
  "src/legacy.js:13:28 DEP-ZL POST /zones/{id}/firewall/lockdowns",
  "src/legacy.js:14:30 DEP-UA DELETE /zones/{id}/firewall/ua_rules/{id}",
  "src/legacy.js:15:27 DEP-KVLEGACY PUT /accounts/{id}/workers/namespaces/{id}/values/config",
  "src/legacy.js:16:29 DEP-DNSTYPE PATCH /zones/{id}/dns_records/{id}",
  "src/legacy.js:17:59 DEP-DNSFILTER name=contains:",
  "src/legacy.js:18:27 DEP-DNSANALYTICS GET /zones/{id}/dns_analytics/report",
  "src/legacy.js:19:29 DEP-ZSBATCH PATCH /zones/{id}/settings",
  "src/legacy.js:20:27 DEP-CNAMEFLAT GET /zones/{id}/settings/cname_flattening",
  "src/legacy.js:21:29 DEP-MIRAGE PATCH /zones/{id}/settings/mirage",
  "src/legacy.js:22:76 DEP-SVCKEY x-auth-user-service-key",
  "terraform/main.tf:1:11 DEP-FR resource cloudflare_filter",
  "terraform/main.tf:3:17 DEP-THREAT cf.threat_score",
  "terraform/main.tf:6:11 DEP-FR resource cloudflare_firewall_rule",
  "terraform/main.tf:12:11 DEP-RLOLD resource cloudflare_rate_limit",
  "terraform/main.tf:18:11 DEP-ZL resource cloudflare_zone_lockdown",
  "terraform/main.tf:23:11 DEP-UA resource cloudflare_user_agent_blocking_rule",
  "terraform/main.tf:28:11 DEP-ZSBATCH resource cloudflare_zone_settings_override",
  "terraform/main.tf:36:3 DEP-TF5 attribute value of cloudflare_record",
  "terraform/main.tf:52:20 DEP-GEOIP ip.geoip.country",
  'terraform/main.tf:54:20 DEP-WAFOLD a skip of the legacy product "waf"',
  'terraform/main.tf:54:27 DEP-RLOLD a skip of the legacy product "rateLimit"',
  'terraform/main.tf:54:40 DEP-ZL a skip of the legacy product "zoneLockdown"',
  'terraform/main.tf:54:56 DEP-UA a skip of the legacy product "uaBlock"',
  "terraform/main.tf:59:7 DEP-RLOLD data cloudflare_rate_limits",
  "terraform/old-waf/main.tf:10:11 DEP-WAFOLD resource cloudflare_waf_rule",
  "terraform/old-waf/main.tf:16:11 DEP-WAFOLD resource cloudflare_waf_override",
  "terraform/old-waf/main.tf:21:7 DEP-WAFOLD data cloudflare_waf_packages",
  "terraform/v5/main.tf.json:8:6 DEP-TF5 resource cloudflare_record",
  "terraform/v5/main.tf.json:9:73 DEP-TF5 attribute value of cloudflare_record",
  "terraform/v5/main.tf.json:11:6 DEP-RLOLD resource cloudflare_rate_limit",
  "terraform/v5/main.tf.json:15:60 DEP-TF5 attribute key of cloudflare_workers_kv",
  "terraform/versions.tf:11:3 DEP-SVCKEY provider argument api_user_service_key",
  "worker/wrangler.toml:6:54 DEP-KVLEGACY GET|POST|PUT|DELETE /accounts/0123456789abcdef0123456789abcdef/workers/namespaces/fedcba9876543210fedcba9876543210/values/config",
  "worker/wrangler.toml:7:16 DEP-SVCKEY X-Auth-User-Service-Key"
]

const scanJson = (args: ReadonlyArray<string>, env: Record<string, string> = NOW) => {
  const r = edgectl(["scan", "--json", ...args], { cwd: repo, env })
  return { r, out: JSON.parse(r.stdout) as JsonScan }
}

describe("edgectl scan on a code base", () => {
  it("finds every deprecation of the list in each language, exactly, and exits 1 (past end of life)", () => {
    const { r, out } = scanJson(["."])
    expect(r.status).toBe(1)
    expect(out.findings.map((f) => `${f.path}:${f.line}:${f.column} ${f.id} ${f.found}`)).toEqual(EXPECTED)
    expect({ scanned: out.scanned, past: out.past, upcoming: out.upcoming, undated: out.undated }).toEqual({
      scanned: 13,
      past: 94,
      upcoming: 6,
      undated: 30
    })
    expect(r.stderr).toBe(
      "error: scan: 13 files scanned: 94 past their end of life, 6 upcoming, 30 without an end date\n"
    )
  })

  it("covers every entry of the list, and every API entry in shell, TypeScript, JavaScript, Python and Go", () => {
    const { out } = scanJson(["."])
    const ids = (file: string) => [...new Set(out.findings.filter((f) => f.path === file).map((f) => f.id))].sort()
    const api = [
      "DEP-CNAMEFLAT",
      "DEP-DNSANALYTICS",
      "DEP-DNSFILTER",
      "DEP-DNSTYPE",
      "DEP-ESC",
      "DEP-FR",
      "DEP-KVLEGACY",
      "DEP-MIRAGE",
      "DEP-RLOLD",
      "DEP-SVCKEY",
      "DEP-UA",
      "DEP-WAFOLD",
      "DEP-ZL",
      "DEP-ZSBATCH"
    ]
    for (const file of ["scripts/deploy.sh", "src/client.ts", "src/legacy.js", "ops/cleanup.py", "cmd/legacy/main.go"])
      expect(ids(file)).toEqual(api)
    const list = JSON.parse(fs.readFileSync(path.join(root, "src", "deprecations", "deprecations.json"), "utf8")) as {
      deprecations: Array<{ id: string }>
    }
    expect([...new Set(out.findings.map((f) => f.id))].sort()).toEqual(list.deprecations.map((d) => d.id).sort())
  })

  it("gives each finding its dates and state on the platform clock, the replacement and the command that moves it", () => {
    const { out } = scanJson(["scripts/deploy.sh", ".github/workflows/deploy.yml"])
    const fr = out.findings.find((f) => f.id === "DEP-FR")!
    expect(fr).toMatchObject({
      severity: "error",
      state: "past",
      endOfLife: "2025-06-15",
      daysAgo: 527,
      command: "edgectl firewall migrate --zone ZONE"
    })
    expect(fr.replacement).toMatch(/WAF custom rules/)
    const analytics = out.findings.filter((f) => f.id === "DEP-DNSANALYTICS")
    expect(analytics.map((f) => [f.severity, f.state, f.daysLeft, f.endOfLife])).toEqual([
      ["warning", "upcoming", 7, "2026-12-01"],
      ["warning", "upcoming", 7, "2026-12-01"]
    ])
    const kv = out.findings.find((f) => f.id === "DEP-KVLEGACY")!
    expect(kv.fix).toEqual({ replace: "/storage/kv/namespaces" })
  })

  it("exits 0 with warnings when every deprecation found is still ahead of the clock", () => {
    const dir = tempDir()
    fs.writeFileSync(
      path.join(dir, "report.sh"),
      'curl -s "https://api.cloudflare.com/client/v4/zones/$ZONE/dns_analytics/report"\n'
    )
    const r = edgectl(["scan", "report.sh"], { cwd: dir, env: NOW })
    expect(r.status).toBe(0)
    expect(r.stdout).toContain(
      "warning[DEP-DNSANALYTICS]: GET /zones/{id}/dns_analytics/report: DNS and DNS Firewall analytics REST API, deprecated since 2025-12-09, ends 2026-12-01 (7 days left)"
    )
    expect(r.stdout).toContain(" --> report.sh:1:46")
    expect(r.stderr).toBe("1 file scanned: 0 past their end of life, 1 upcoming, 0 without an end date\n")
    // The same script the day the API ends: the gate closes.
    const after = edgectl(["scan", "report.sh"], { cwd: dir, env: { EDGECTL_PLATFORM_NOW: "2026-12-01T00:00:00Z" } })
    expect(after.status).toBe(1)
    expect(after.stdout).toContain("error[DEP-DNSANALYTICS]")
    expect(after.stdout).toContain("ended 2026-12-01 (today)")
  })

  it("reads the dates on the platform clock: before 2024 the whole list is upcoming", () => {
    const { r, out } = scanJson(["scripts/deploy.sh"], { EDGECTL_PLATFORM_NOW: "2024-01-01T00:00:00Z" })
    expect(r.status).toBe(0)
    expect(out.past).toBe(0)
    expect(out.findings.find((f) => f.id === "DEP-RLOLD")).toMatchObject({ state: "upcoming", daysLeft: 531 })
  })

  it("prints text as `check` does: the place, the line and a caret, and the hint with the command", () => {
    const r = edgectl(["scan", "terraform/main.tf"], { cwd: repo, env: NOW })
    expect(r.status).toBe(1)
    expect(r.stdout).toContain(
      [
        "error[DEP-RLOLD]: resource cloudflare_rate_limit: Rate limiting, previous version (deprecated in the pinned provider 4.40.0, since 4.32.0), ended 2025-06-15 (527 days ago)",
        "  --> terraform/main.tf:12:11",
        "   |",
        '12 | resource "cloudflare_rate_limit" "login" {',
        "   |           ^^^^^^^^^^^^^^^^^^^^^"
      ].join("\n")
    )
    expect(r.stdout).toContain(
      "= hint: use WAF custom rules (the http_request_firewall_custom phase; cloudflare_ruleset in Terraform); move it with `edgectl firewall migrate --zone ZONE`"
    )
    expect(r.stdout).toContain("information[DEP-TF5]: attribute value of cloudflare_record")
  })

  it("reads Terraform by the provider version the module pins", () => {
    const { out } = scanJson(["terraform/old-waf", "terraform/v5"])
    expect(out.findings.map((f) => `${f.path}:${f.line} ${f.id}`)).toEqual([
      "terraform/old-waf/main.tf:10 DEP-WAFOLD",
      "terraform/old-waf/main.tf:16 DEP-WAFOLD",
      "terraform/old-waf/main.tf:21 DEP-WAFOLD",
      "terraform/v5/main.tf.json:8 DEP-TF5",
      "terraform/v5/main.tf.json:9 DEP-TF5",
      "terraform/v5/main.tf.json:11 DEP-RLOLD",
      "terraform/v5/main.tf.json:15 DEP-TF5"
    ])
    const r = edgectl(["scan", "terraform/old-waf/main.tf", "terraform/v5/main.tf.json"], { cwd: repo, env: NOW })
    expect(r.stdout).toContain(
      "resource cloudflare_waf_rule: WAF managed rules, previous version (in the pinned provider 3.30.0; removed in 4.0.0)"
    )
    expect(r.stdout).toContain(
      "resource cloudflare_record: a Terraform provider v4 resource or attribute that v5 renames or removes (the pinned provider 5.1.0 no longer has it (removed in 5.0.0); use cloudflare_dns_record)"
    )
  })

  it("writes SARIF 2.1.0 with check's writer: one rule per deprecation, levels by state", () => {
    const r = edgectl(["scan", "--format", "sarif", "rules", ".github"], { cwd: repo, env: NOW })
    expect(r.status).toBe(1)
    const doc = JSON.parse(r.stdout)
    expect(doc.version).toBe("2.1.0")
    const run = doc.runs[0]
    expect(run.tool.driver.rules.map((x: { id: string }) => x.id)).toEqual([
      "DEP-DNSANALYTICS",
      "DEP-GEOIP",
      "DEP-RLOLD",
      "DEP-SVCKEY",
      "DEP-THREAT",
      "DEP-WAFOLD"
    ])
    expect(run.tool.driver.rules[0].help.markdown).toContain(
      "docs/legacy-migrations.md#find-what-is-going-away-edgectl-scan"
    )
    const levels = run.results.map(
      (x: {
        ruleId: string
        level: string
        locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>
      }) =>
        `${x.locations[0]!.physicalLocation.artifactLocation.uri}:${x.locations[0]!.physicalLocation.region.startLine} ${x.ruleId} ${x.level}`
    )
    expect(levels).toEqual([
      "rules/block-countries.rules:1 DEP-GEOIP note",
      "rules/block-countries.rules:1 DEP-THREAT error",
      "rules/custom-rules.json:4 DEP-THREAT error",
      "rules/custom-rules.json:4 DEP-GEOIP note",
      "rules/custom-rules.json:11 DEP-WAFOLD error",
      "rules/custom-rules.json:11 DEP-RLOLD error",
      ".github/workflows/deploy.yml:7 DEP-SVCKEY error",
      ".github/workflows/deploy.yml:9 DEP-DNSANALYTICS warning"
    ])
  })

  it("says what is wrong with its input: a missing path, a bad clock, a file of no known kind", () => {
    const missing = edgectl(["scan", "nowhere"], { cwd: repo, env: NOW })
    expect(missing.status).toBe(1)
    // One line, as `check` says a file it could not read: no summary of nothing scanned.
    expect(missing.stderr).toBe("error: scan nowhere: no such file or directory\n")
    // Beside files it scanned, the summary counts it.
    const beside = edgectl(["scan", "nowhere", "worker/wrangler.toml"], { cwd: repo, env: NOW })
    expect(beside.stderr.split("\n").filter((l) => l.startsWith("error:"))).toEqual([
      "error: scan nowhere: no such file or directory",
      expect.stringMatching(/^error: scan: 1 file scanned: .*, 1 file not scanned$/)
    ])
    const clock = edgectl(["scan", "."], { cwd: repo, env: { EDGECTL_PLATFORM_NOW: "soon" } })
    expect(clock.status).toBe(2)
    expect(clock.stderr).toBe(
      'error: EDGECTL_PLATFORM_NOW must be an ISO 8601 instant such as 2024-06-01T12:00:00Z, got "soon"\n'
    )
    const kind = edgectl(["scan", "README.md"], { cwd: repo, env: NOW })
    expect(kind.status).toBe(1)
    expect(kind.stderr.split("\n")[0]).toBe(
      "error: scan README.md: unknown kind of file: expected shell, TypeScript/JavaScript, Python, Go, Terraform, JSON, *.rules or wrangler/YAML/TOML configuration"
    )
    const both = edgectl(["scan", "--json", "--format", "sarif", "."], { cwd: repo, env: NOW })
    expect(both.status).toBe(2)
    expect(both.stderr).toBe("error: --json is --format json; it cannot be used with --format sarif\n")
  })
})

describe("edgectl scan --zone", () => {
  it("lists a zone's live use of legacy products with the command that moves each, locally", () => {
    const dir = tempDir()
    const r = edgectl(["scan", "--zone", "acme.com", "--persist-to", dir], { env: NOW })
    expect(r.status).toBe(1)
    expect(r.stdout).toContain(
      "error[DEP-FR]: zone acme.com uses firewall rules (6 items): Firewall Rules and Filters APIs, ended 2025-06-15 (527 days ago)"
    )
    expect(r.stdout).toContain(`move it with \`edgectl firewall migrate --zone acme.com --persist-to ${dir}\``)
    expect(r.stdout).toContain("error[DEP-WAFOLD]: zone acme.com uses previous WAF")
    expect(r.stderr).toBe("error: scan: zone acme.com: 2 legacy products in use, 2 past their end of life\n")
    const none = edgectl(["scan", "--zone", "acme-labs.org", "--persist-to", dir], { env: NOW })
    expect(none.status).toBe(0)
    expect(none.stdout).toBe(
      "Zone acme-labs.org uses none of the legacy products edgectl knows (firewall rules, rate limits (previous version), Zone Lockdown, User Agent Blocking, previous WAF).\n"
    )
    const mail = edgectl(["scan", "--zone", "acme-mail.com", "--persist-to", dir, "--json"], { env: NOW })
    const products = (
      JSON.parse(mail.stdout) as { zone: { products: Array<{ id: string; count: number; command?: string }> } }
    ).zone.products
    expect(products.map((p) => [p.id, p.count])).toEqual([
      ["DEP-FR", 17],
      ["DEP-RLOLD", 3],
      ["DEP-ZL", 3],
      ["DEP-UA", 3],
      ["DEP-WAFOLD", 1]
    ])
    expect(products.find((p) => p.id === "DEP-ZL")!.command).toBe(
      `edgectl firewall lockdowns migrate --zone acme-mail.com --persist-to ${dir}`
    )
  })

  describe("--remote", () => {
    let served: Served
    beforeAll(async () => {
      served = await startServe(tempDir())
    })
    afterAll(() => served.close())

    it("reads the same from the platform's API, as JSON", async () => {
      const r = await edgectlAsync(["scan", "--zone", "acme.com", "--remote", "--json"], {
        env: { ...served.remoteEnv(), ...NOW }
      })
      expect(r.status).toBe(1)
      const out = JSON.parse(r.stdout) as {
        zone: {
          name: string
          products: Array<{ id: string; product: string; count: number; state: string; command: string }>
        }
      }
      // Every product is listed, those the zone does not use with a count of 0.
      expect(
        out.zone.products.filter((p) => p.count > 0).map((p) => [p.id, p.product, p.count, p.state, p.command])
      ).toEqual([
        ["DEP-FR", "firewall rules", 6, "past", "edgectl firewall migrate --zone acme.com --remote"],
        ["DEP-WAFOLD", "previous WAF", 1, "past", "edgectl waf migrate --zone acme.com --remote"]
      ])
    })
  })
})
