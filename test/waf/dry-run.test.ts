/**
 * `edgectl waf migrate --dry-run --config F` checks F as the real request does (issue 27 item 5):
 * a configuration the platform refuses (1004) fails the dry run with the very error line the real
 * run gives, exit 1, before anything is written — locally (the platform's own check, `dry_run=true`)
 * and with `--remote` against `edgectl serve` (edgectl's copy of the same check: the real platform
 * has no validate-only migration step). The PUT's `dry_run` is also checked over HTTP.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CLOUDFLARE_MANAGED_RULESET } from "../../src/waf/catalog.js"
import { edgectlAsync, json, tempDir } from "../helpers/cli.js"
import { firstError, request } from "../helpers/platform.js"
import { startServe, type Served } from "../helpers/serve.js"

const dir = tempDir("edgectl-waf-dry-run-")
const local = path.join(dir, "local")
let ready: Served

beforeAll(async () => {
  ready = await startServe(path.join(dir, "served"))
})
afterAll(() => ready.close())

const waf = (args: ReadonlyArray<string>, remote = false) =>
  remote
    ? edgectlAsync(["waf", ...args, "--remote"], {
        cwd: dir,
        // Journals of --remote runs in the test's directory, not the user's.
        env: { ...ready.remoteEnv(), XDG_STATE_HOME: path.join(dir, "state") }
      })
    : edgectlAsync(["waf", ...args, "--persist-to", local], { cwd: dir })

/** The zone's own configuration (the config operation's), changed by `edit`, written to a file. */
const configFile = async (zone: string, name: string, edit: (c: any) => void) => {
  const c = json<any>(await waf(["config", "--zone", zone, "--json"]))
  edit(c)
  const file = path.join(dir, `${name}.json`)
  fs.writeFileSync(file, JSON.stringify(c, null, 2))
  return file
}

const ERRORS = {
  ruleset: `error: waf migrate: rules[0].action_parameters.id: must be a managed ruleset id (${CLOUDFLARE_MANAGED_RULESET} or 4814384a9e5d4991b9815dcfc25d2f1f), got "00000000000000000000000000000000" [code 1004]`,
  override:
    'error: waf migrate: rules[0].action_parameters.overrides.action: must be one of block, managed_challenge, js_challenge, challenge, log, got "deny" [code 1004]',
  expression:
    /^error: waf migrate: rules\[0\]\.expression: .*http\.request\.uri\.pth.* \(at character \d+\) \[code 1004\]$/
}

/** Dry run and real run (with and without --yes) of `file` on `zone`: the same error line, exit 1, the zone untouched. */
const refusedAlike = async (zone: string, file: string, remote: boolean) => {
  const dry = await waf(["migrate", "--zone", zone, "--config", file, "--dry-run"], remote)
  const asked = await waf(["migrate", "--zone", zone, "--config", file], remote)
  const real = await waf(["migrate", "--zone", zone, "--config", file, "--yes"], remote)
  for (const r of [dry, asked, real]) {
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
  }
  expect(asked.stderr).toBe(dry.stderr)
  expect(real.stderr).toBe(dry.stderr)
  expect(json<any>(await waf(["status", "--zone", zone, "--json"], remote))).toMatchObject({
    migration_state: "start",
    new_waf_status: "disabled"
  })
  return dry.stderr.trimEnd()
}

describe("waf migrate --dry-run --config checks what the real request checks", () => {
  it("locally: an unknown managed ruleset, a bad override action, an expression error: the platform's 1004 line, as the real run", async () => {
    const ruleset = await configFile("initech.com", "ruleset", (c) => {
      c.rules[0].action_parameters.id = "00000000000000000000000000000000"
    })
    expect(await refusedAlike("initech.com", ruleset, false)).toBe(ERRORS.ruleset)
    const override = await configFile("initech.com", "override", (c) => {
      c.rules[0].action_parameters.overrides = { action: "deny" }
    })
    expect(await refusedAlike("initech.com", override, false)).toBe(ERRORS.override)
    const expression = await configFile("initech.com", "expression", (c) => {
      c.rules[0].expression = 'http.request.uri.pth eq "/admin"'
    })
    expect(await refusedAlike("initech.com", expression, false)).toMatch(ERRORS.expression)
    // `edgectl check` finds the same problem in the file.
    const checked = await edgectlAsync(["check", ruleset], { cwd: dir })
    expect(checked.status).toBe(1)
    expect(checked.stdout).toContain("rules[0].action_parameters.id: must be a managed ruleset id")
  })

  it("--remote against edgectl serve: the same lines for what edgectl can check; the real request is the platform's word", async () => {
    const override = await configFile("initech.com", "override-remote", (c) => {
      c.rules[0].action_parameters.overrides = { action: "deny" }
    })
    // edgectl's own check: the same line, without the code only a platform's answer has.
    const noCode = (line: string) => line.replace(/ \[code 1004\]$/, "")
    expect(await refusedAlike("initech.com", override, true)).toBe(noCode(ERRORS.override))
    const expression = await configFile("initech.com", "expression-remote", (c) => {
      c.rules[0].expression = 'http.request.uri.pth eq "/admin"'
    })
    const remoteExpression = await refusedAlike("initech.com", expression, true)
    expect(remoteExpression).toMatch(
      /^error: waf migrate: rules\[0\]\.expression: .*http\.request\.uri\.pth.* \(at character \d+\)$/
    )
    // Managed rulesets' ids are the platform's: the dry run says it did not check them, and the
    // real request gets the platform's refusal, the same line as locally, before anything is written.
    const ruleset = await configFile("initech.com", "ruleset-remote", (c) => {
      c.rules[0].action_parameters.id = "00000000000000000000000000000000"
    })
    const dry = await waf(["migrate", "--zone", "initech.com", "--config", ruleset, "--dry-run"], true)
    expect(dry.status).toBe(0)
    expect(dry.stdout).toMatch(/the ids of managed rulesets, their rules and categories are the platform's to check/)
    const real = await waf(["migrate", "--zone", "initech.com", "--config", ruleset, "--yes"], true)
    expect(real.status).toBe(1)
    expect(real.stderr.trimEnd()).toBe(ERRORS.ruleset)
  })

  it("a configuration the platform accepts: the dry run prints the exact request the apply sends, says the platform checked it and that finishing is irreversible", async () => {
    const file = await configFile("initech-tps.com", "fine", (c) => {
      c.rules[0].action_parameters.overrides = { action: "log" }
    })
    const dry = await waf(["migrate", "--zone", "initech-tps.com", "--config", file, "--dry-run"])
    expect(dry.status).toBe(0)
    expect(dry.stdout).toMatch(/would go from start to finished \(WAF Managed Rules only; irreversible\)/)
    expect(dry.stdout).toMatch(/The platform checked this request \(dry_run=true\) and would accept it\./)
    const dj = json<any>(await waf(["migrate", "--zone", "initech-tps.com", "--config", file, "--dry-run", "--json"]))
    expect(dj).toMatchObject({ dry_run: true, checked_by: "platform", to: "finished", irreversible: true })
    expect(json<any>(await waf(["status", "--zone", "initech-tps.com", "--json"])).migration_state).toBe("start")
    const real = json<any>(await waf(["migrate", "--zone", "initech-tps.com", "--config", file, "--yes", "--json"]))
    expect(real.request).toEqual(dj.request)
    expect(real).toMatchObject({ dry_run: false, to: "finished" })
  })
})

describe("PUT of the managed entry point with dry_run", () => {
  const zoneId = async (name: string) => {
    const r = await request(ready.baseUrl, `/zones?name=${name}`, { token: ready.token })
    return r.body.result[0].id as string
  }
  const ep = (id: string, q: string) => `/zones/${id}/rulesets/phases/http_request_firewall_managed/entrypoint?${q}`

  it("checks as the real PUT does and saves nothing; a bad dry_run value is named", async () => {
    const id = await zoneId("initech-tps.com")
    const config = (
      await request(ready.baseUrl, `/zones/${id}/waf_migration/config?phase_two=1`, { token: ready.token })
    ).body.result
    const put = (q: string, body: unknown) =>
      request(ready.baseUrl, ep(id, q), { method: "PUT", body, token: ready.token })
    const bad = { ...config, rules: [{ ...config.rules[0], action_parameters: { id: "nope" } }] }
    const dryBad = await put("waf_migration=pending&phase_two=1&dry_run=true", bad)
    const realBad = await put("waf_migration=pending&phase_two=1", bad)
    expect(dryBad.status).toBe(400)
    expect(firstError(dryBad)).toEqual(firstError(realBad))
    expect(firstError(dryBad).code).toBe(1004)
    const validation = await put("waf_migration=validation&phase_two=1&dry_run=true", config)
    expect(firstError(validation).code).toBe(1004)
    const stripped = { ...config, rules: config.rules.map(({ id: _i, version: _v, ref: _r, ...rest }: any) => rest) }
    expect(firstError(await put("waf_migration=validation&phase_two=1&dry_run=true", stripped)).code).toBe(10302)
    const ok = await put("waf_migration=pending&phase_two=1&dry_run=true", config)
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ success: true, result: null })
    const status = await request(ready.baseUrl, `/zones/${id}/waf_migration/status`, { token: ready.token })
    expect(status.body.result.migration_state).toBe("start")
    const entry = await request(ready.baseUrl, ep(id, ""), { token: ready.token })
    expect(entry.status).toBe(404)
    expect(firstError(await put("waf_migration=pending&phase_two=1&dry_run=yes", config)).message).toBe(
      'dry_run: expected true or false, got "yes"'
    )
  })
})
