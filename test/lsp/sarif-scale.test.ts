/**
 * `edgectl check --format sarif` on Terraform firewall files grows with the rule count, not its
 * square: the zone's ruleset (one fix for all of its resources) is written once, so that a module
 * of 500 filter/rule pairs stays far under code scanning's upload limit.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"

const ACTIONS = ["block", "allow", "challenge", "log", "js_challenge", "managed_challenge"]

/** `n` filter/rule pairs in one zone, the provider pinned to 4.x. */
const firewallTf = (n: number) => {
  const out = ['terraform {\n  required_providers {\n    cloudflare = {\n      version = "~> 4.52"\n    }\n  }\n}\n']
  for (let i = 0; i < n; i++)
    out.push(
      `resource "cloudflare_filter" "f${i}" {\n  zone_id    = var.zone_id\n  expression = "(http.request.uri.path eq \\"/p${i}\\")"\n}\n`,
      `resource "cloudflare_firewall_rule" "r${i}" {\n  zone_id   = var.zone_id\n  filter_id = cloudflare_filter.f${i}.id\n  action    = "${ACTIONS[i % ACTIONS.length]}"\n}\n`
    )
  return out.join("\n")
}

const sarifOf = async (n: number) => {
  const dir = tempDir("edgectl-sarif-scale-")
  fs.writeFileSync(path.join(dir, "main.tf"), firewallTf(n))
  const r = await edgectlAsync(["check", "--format", "sarif", "main.tf"], { cwd: dir })
  expect(r.stderr).toBe("")
  expect(r.status).toBe(0)
  return r.stdout
}

describe("SARIF of Terraform firewall files at size", () => {
  it("500 filter/rule pairs: 1,000 warnings, the zone's ruleset once, under 5 MB; 1,000 pairs about twice that", async () => {
    const small = await sarifOf(500)
    const results = JSON.parse(small).runs[0].results as Array<{ fixes?: Array<unknown> }>
    expect(results).toHaveLength(1000)
    expect(results.filter((r) => r.fixes !== undefined)).toHaveLength(1)
    expect(small.length).toBeLessThan(5_000_000)
    const large = await sarifOf(1000)
    expect(large.length / small.length).toBeLessThan(2.2)
  })
})
