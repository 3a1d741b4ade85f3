/**
 * `edgectl firewall migrate --dry-run` shows what the apply does (issue 27 items 3 and 5), locally
 * and with `--remote` against `edgectl serve`: on a pro zone with 19 custom rules and 2 firewall
 * rules (21 would be one over the plan's 20), the plan leaves the last rule out with a note, the
 * platform's check of the entry point (`dry_run=true`) passes, and the apply writes exactly the
 * plan: 20 custom rules, the migrated rule paused, the one left out still running.
 */
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { request, startPlatform, World } from "../helpers/platform.js"
import { startServe, type Served } from "../helpers/serve.js"

const dir = tempDir("edgectl-fw-dry-run-")
const local = path.join(dir, "local")
const ZONE = "initech-dev.com"
let served: Served

/** 19 custom rules and 2 firewall rules on ZONE: the migration would make 21 custom rules, one too many for pro. */
const fillZone = async (baseUrl: string, token: string) => {
  const zone = (await request(baseUrl, `/zones?name=${ZONE}`, { token })).body.result[0].id as string
  const custom = await request(baseUrl, `/zones/${zone}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
    method: "PUT",
    token,
    body: {
      rules: Array.from({ length: 19 }, (_, i) => ({
        action: "block",
        expression: `http.request.uri.path eq "/kept-${i}"`
      }))
    }
  })
  expect(custom.status).toBe(200)
  for (const i of [1, 2]) {
    const fw = await request(baseUrl, `/zones/${zone}/firewall/rules`, {
      method: "POST",
      token,
      body: [{ action: "block", filter: { expression: `http.request.uri.path eq "/old-${i}"` } }]
    })
    expect(fw.status).toBe(200)
  }
}

beforeAll(async () => {
  const p = await startPlatform(local)
  await fillZone(p.baseUrl, World.allToken)
  await p.close()
  served = await startServe(path.join(dir, "served"))
  await fillZone(served.baseUrl, served.token)
})
afterAll(() => served.close())

const fw = (args: ReadonlyArray<string>, remote: boolean) =>
  remote
    ? edgectlAsync(["firewall", ...args, "--remote"], { cwd: dir, env: served.remoteEnv() })
    : edgectlAsync(["firewall", ...args, "--persist-to", local], { cwd: dir })

describe("firewall migrate --dry-run shows what the apply does", () => {
  for (const remote of [false, true]) {
    it(`${remote ? "--remote against edgectl serve" : "locally"}: over the plan's quota, one rule is left out by the dry run and by the apply`, async () => {
      const dry = await fw(["migrate", "--zone", ZONE, "--dry-run", "--json"], remote)
      expect([dry.status, dry.stderr]).toEqual([0, ""])
      const plan = JSON.parse(dry.stdout) as {
        expected: { customRules: Array<unknown>; firewallRules: Array<{ id: string; paused: boolean }> }
        notes: Array<{ code: string; rule?: string }>
      }
      expect(plan.expected.customRules).toHaveLength(20)
      const left = plan.notes.filter((n) => n.code === "plan-limit").map((n) => n.rule)
      expect(left).toHaveLength(1)
      const real = await fw(["migrate", "--zone", ZONE, "--yes"], remote)
      expect([real.status, real.stderr]).toEqual([0, ""])
      const rules = JSON.parse((await fw(["rules", "list", "--zone", ZONE, "--json"], remote)).stdout) as Array<{
        id: string
        paused: boolean
      }>
      expect(rules.map((r) => [r.id, r.paused])).toEqual(plan.expected.firewallRules.map((r) => [r.id, r.paused]))
      expect(rules.find((r) => r.id === left[0])?.paused).toBe(false)
      const custom = JSON.parse(
        (
          await (remote
            ? edgectlAsync(["custom-rules", "list", "--zone", ZONE, "--json", "--remote"], {
                cwd: dir,
                env: served.remoteEnv()
              })
            : edgectlAsync(["custom-rules", "list", "--zone", ZONE, "--json", "--persist-to", local], { cwd: dir }))
        ).stdout
      ) as Array<unknown>
      expect(custom).toHaveLength(20)
    })
  }
})
