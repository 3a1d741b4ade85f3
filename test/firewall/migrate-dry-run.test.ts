/**
 * `edgectl firewall migrate --dry-run` checks what the apply's requests check (issue 27 item 5):
 * the custom phase's new entry point goes to the platform with `dry_run=true` first, so a migration
 * the platform refuses (here the pro plan's 20 custom rules: 19 kept plus 2 migrated) fails the dry
 * run with the error the apply gets, exit 1, and the apply fails with it before asking or writing —
 * locally and with `--remote` against `edgectl serve`.
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

const QUOTA =
  "error: firewall migrate: rules: a pro zone may have at most 20 custom rules in the http_request_firewall_custom phase, got 21 [code 10200]"

describe("firewall migrate --dry-run checks what the apply checks", () => {
  for (const remote of [false, true]) {
    it(`${remote ? "--remote against edgectl serve" : "locally"}: a migration over the plan's quota fails the dry run as the apply, nothing written`, async () => {
      const dry = await fw(["migrate", "--zone", ZONE, "--dry-run"], remote)
      const asked = await fw(["migrate", "--zone", ZONE], remote)
      const real = await fw(["migrate", "--zone", ZONE, "--yes"], remote)
      for (const r of [dry, asked, real]) {
        expect(r.status).toBe(1)
        expect(r.stderr.split("\n")[0]).toBe(QUOTA)
      }
      expect(asked.stderr).toBe(dry.stderr)
      expect(real.stderr).toBe(dry.stderr)
      const rules = await fw(["rules", "list", "--zone", ZONE, "--json"], remote)
      expect(JSON.parse(rules.stdout).map((r: { paused: boolean }) => r.paused)).toEqual([false, false])
    })
  }
})
