/**
 * `edgectl firewall lockdowns|ua-rules|rate-limits list` through the built CLI, locally and
 * `--remote` against `edgectl serve`; the ended switch as `EDGECTL_LEGACY_APIS=ended` for local
 * commands and `serve --legacy-apis ended` for a served platform: one `error:` line with the
 * platform's answer (HTTP 410 for the rate limits, code 10020 for a firewall rule write).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectl, json, tempDir } from "../helpers/cli.js"
import { startServe, type Served } from "../helpers/serve.js"

describe("firewall lockdowns|ua-rules|rate-limits list, locally", () => {
  const cwd = tempDir()

  it("lists each product's rules as a table and as the API's objects", () => {
    const lockdowns = edgectl(["firewall", "lockdowns", "list", "--zone", "acme-mail.com", "--json"], { cwd })
    expect(lockdowns.status).toBe(0)
    expect(json<Array<{ urls: string[] }>>(lockdowns).map((l) => l.urls[0])).toEqual([
      "acme-mail.com/admin/*",
      "acme-mail.com/api/partner*",
      "staging.acme-mail.com"
    ])
    const ua = edgectl(["firewall", "ua-rules", "list", "--zone", "acme-mail.com"], { cwd })
    expect(ua.status).toBe(0)
    expect(ua.stdout.split("\n")[0]).toMatch(/^ID\s+MODE\s+PAUSED\s+USER AGENT\s+DESCRIPTION$/)
    expect(ua.stdout).toContain("BadBot/1.0.2 (+http://bad.bot)")
    const rl = edgectl(["firewall", "rate-limits", "list", "--zone", "initech-payroll.com"], { cwd })
    expect(rl.status).toBe(0)
    expect(rl.stdout).toMatch(/initech-payroll\.com\/login\s+POST\s+5\s+60s\s+ban 3600s\s+payroll login/)
    const none = edgectl(["firewall", "lockdowns", "list", "--zone", "acme.com"], { cwd })
    expect(none.stdout).toBe("No Zone Lockdown rules on zone acme.com.\n")
  })

  it("EDGECTL_LEGACY_APIS=ended: the rate limits fail as the platform answers now, lockdowns still list", () => {
    const env = { EDGECTL_LEGACY_APIS: "ended" }
    const rl = edgectl(["firewall", "rate-limits", "list", "--zone", "acme-mail.com"], { cwd, env })
    expect(rl.status).toBe(1)
    expect(rl.stdout).toBe("")
    expect(rl.stderr.split("\n")[0]).toBe(
      "error: firewall rate-limits list: the Rate Limiting API (previous version) ended on 2025-06-15: use rate limiting rules, the http_ratelimit phase's entry point (/zones/{zone_id}/rulesets/phases/http_ratelimit/entrypoint) [HTTP 410]"
    )
    expect(edgectl(["firewall", "lockdowns", "list", "--zone", "acme-mail.com"], { cwd, env }).status).toBe(0)
    const bad = edgectl(["firewall", "lockdowns", "list", "--zone", "acme-mail.com"], {
      cwd,
      env: { EDGECTL_LEGACY_APIS: "gone" }
    })
    expect(bad.status).toBe(1)
    expect(bad.stderr).toContain('EDGECTL_LEGACY_APIS must be one of served, ended, got "gone"')
    expect(bad.stderr).toContain("hint: unset EDGECTL_LEGACY_APIS, or set it to served or ended")
  })
})

describe("serve --legacy-apis ended, and --remote", () => {
  let served: Served
  beforeAll(async () => {
    served = await startServe(tempDir(), ["--legacy-apis", "ended"])
  })
  afterAll(() => served?.close())

  it("answers the rate limits 410 and a firewall rule write 10020; reads of the rest work", () => {
    const env = served.remoteEnv()
    const rl = edgectl(["firewall", "rate-limits", "list", "--zone", "acme-mail.com", "--remote"], { env })
    expect(rl.status).toBe(1)
    expect(rl.stderr).toContain("[HTTP 410]")
    const create = edgectl(
      [
        "firewall",
        "rules",
        "create",
        "--zone",
        "acme-mail.com",
        "--expression",
        'http.host eq "new.acme-mail.com"',
        "--action",
        "block",
        "--remote"
      ],
      { env }
    )
    expect(create.status).toBe(1)
    expect(create.stderr.split("\n")[0]).toMatch(/^error: .*firewallrules\.api\.maintenance_mode\..*\[code 10020\]$/)
    const ua = edgectl(["firewall", "ua-rules", "list", "--zone", "acme-mail.com", "--remote", "--json"], { env })
    expect(ua.status).toBe(0)
    expect(json<unknown[]>(ua)).toHaveLength(3)
  })
})
