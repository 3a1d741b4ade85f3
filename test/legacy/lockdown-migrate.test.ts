/**
 * `edgectl firewall lockdowns migrate`: the dry run is the apply (the same plan, request for
 * request); the apply writes the custom rules and pauses the sources, read back; a re-run has
 * nothing to do; `--rollback` restores the exact "before". Then `--remote` through a proxy that
 * fails or stalls the Nth write (globex-store.com: one lockdown and two UA rules, so 4 steps):
 * the error and the journal say what was written, the re-run finishes to the uninterrupted end
 * state, the rollback restores; SIGINT during a stalled request exits 130 with the same commands.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { edgectl, json, tempDir } from "../helpers/cli.js"
import { remoteFaults, type FaultCtx } from "../helpers/remote-faults.js"

const strip = <T extends Record<string, unknown>>(rows: T[]) =>
  rows.map(({ id: _i, version: _v, last_updated: _l, modified_on: _m, ...r }) => r)

describe("firewall lockdowns migrate, locally", () => {
  const cwd = tempDir()
  const run = (...args: string[]) => edgectl(["firewall", ...args, "--zone", "acme-mail.com"], { cwd })
  const lists = () => ({
    lockdowns: strip(json<Array<Record<string, unknown>>>(run("lockdowns", "list", "--json"))),
    ua: strip(json<Array<Record<string, unknown>>>(run("ua-rules", "list", "--json"))),
    custom: strip(
      json<Array<Record<string, unknown>>>(
        edgectl(["custom-rules", "list", "--zone", "acme-mail.com", "--json"], { cwd })
      )
    )
  })

  it("dry run = apply; read back; re-run sends nothing; --rollback restores the before exactly", () => {
    const before = lists()
    const dry = run("lockdowns", "migrate", "--dry-run", "--json")
    expect(dry.status, dry.stderr).toBe(0)
    const plan = json<{ steps: Array<{ method: string; path: string; body: unknown }> }>(dry)
    expect(plan.steps.map((s) => `${s.method} ${s.path.replace(/\/zones\/\w+/, "")}`)).toEqual([
      "PUT /rulesets/phases/http_request_firewall_custom/entrypoint",
      "PUT /firewall/lockdowns/8940d981301ab2424214efcac1943fb4",
      "PUT /firewall/lockdowns/c12ea5b9a4610083030d78499f0f1d97",
      "PUT /firewall/ua_rules/a1f4dd803416761d2d0f0c87463f748a",
      "PUT /firewall/ua_rules/4151b2b475279e7186b1a8b7a2b04a96"
    ])
    expect(lists()).toEqual(before)
    const applied = run("lockdowns", "migrate", "--yes", "--json")
    expect(applied.status, applied.stderr).toBe(0)
    const out = json<{ plan: { steps: unknown[] }; outcome: { sent: string[] } }>(applied)
    expect(out.plan.steps).toEqual(plan.steps)
    expect(out.outcome.sent).toHaveLength(5)
    const after = lists()
    expect(after.lockdowns.every((l) => l.paused === true)).toBe(true)
    expect(after.ua.every((u) => u.paused === true)).toBe(true)
    expect(after.custom.map((r) => r.ref)).toEqual(
      (plan.steps[0]!.body as { rules: Array<{ ref: string }> }).rules.map((r) => r.ref)
    )
    const again = run("lockdowns", "migrate", "--yes")
    expect(again.stdout).toContain("Nothing to do: zone acme-mail.com has 9 custom rule(s)")
    const back = run("lockdowns", "migrate", "--rollback", "--yes")
    expect(back.status, back.stderr).toBe(0)
    expect(lists()).toEqual(before)
  })

  it("a zone without either product: nothing to migrate; --rollback without a journal says so", () => {
    const none = edgectl(["firewall", "lockdowns", "migrate", "--zone", "acme.com", "--yes"], { cwd })
    expect(none.stdout).toBe("Nothing to migrate: zone acme.com has no Zone Lockdown or User Agent Blocking rules.\n")
    const back = edgectl(["firewall", "lockdowns", "migrate", "--zone", "acme.com", "--rollback", "--yes"], { cwd })
    expect(back.status).toBe(1)
    expect(back.stderr).toContain(
      "zone acme.com has no Zone Lockdown migration journal on this target: nothing to roll back"
    )
  })
})

const zone = "globex-store.com"
const z = ["--zone", zone]
const { setup, cli, spawnCli, closeAll } = remoteFaults("edgectl-lockdown-faults-")
const hint = `hint: finish it: edgectl firewall lockdowns migrate --zone ${zone} --yes --remote; undo it: edgectl firewall lockdowns migrate --zone ${zone} --rollback --yes --remote`

const state = async (c: FaultCtx) => ({
  lockdowns: strip(
    json<Array<Record<string, unknown>>>(await cli(c, ["firewall", "lockdowns", "list", ...z, "--json"], true))
  ),
  ua: strip(json<Array<Record<string, unknown>>>(await cli(c, ["firewall", "ua-rules", "list", ...z, "--json"], true))),
  custom: strip(json<Array<Record<string, unknown>>>(await cli(c, ["custom-rules", "list", ...z, "--json"], true)))
})

let before: Awaited<ReturnType<typeof state>>
let migrated: Awaited<ReturnType<typeof state>>

beforeAll(async () => {
  const c = await setup()
  before = await state(c)
  const r = await cli(c, ["firewall", "lockdowns", "migrate", ...z, "--yes"])
  expect(r.status, r.stderr).toBe(0)
  migrated = await state(c)
  expect(migrated.custom).toHaveLength(4)
  await closeAll()
}, 60_000)

describe("firewall lockdowns migrate --remote, stopped and finished", () => {
  it.each([
    [1, 403],
    [3, 500]
  ])(
    "a %i-th write answered %i: the error says what was written; the re-run finishes; --rollback restores",
    async (at, status) => {
      const c = await setup(at, { kind: "status", status, times: 10 })
      const failed = await cli(c, ["firewall", "lockdowns", "migrate", ...z, "--yes"])
      expect(failed.status).toBe(1)
      const [error, hintLine] = failed.stderr.trim().split("\n")
      expect(error).toContain(`error: firewall lockdowns migrate: migration of zone ${zone} stopped: `)
      expect(error).toContain(`; ${at - 1} of 4 step(s) written`)
      expect(hintLine).toBe(hint)
      c.proxy.arm(undefined)
      const again = await cli(c, ["firewall", "lockdowns", "migrate", ...z, "--yes"])
      expect(again.status, again.stderr).toBe(0)
      expect(again.stdout).toContain(`Found an unfinished migration of zone ${zone}`)
      expect(await state(c)).toEqual(migrated)
      const back = await cli(c, ["firewall", "lockdowns", "migrate", ...z, "--rollback", "--yes"])
      expect(back.status, back.stderr).toBe(0)
      expect(await state(c)).toEqual(before)
    }
  )

  it("SIGINT while the 2nd write stalls: exit 130, the commands that finish and undo it; the re-run finishes", async () => {
    const c = await setup(2, { kind: "stall" })
    const { child, exited } = spawnCli(c, ["firewall", "lockdowns", "migrate", ...z, "--yes"])
    await c.proxy.stalled()
    child.kill("SIGINT")
    const r = await exited
    expect(r.code).toBe(130)
    const [error, hintLine] = r.stderr.trim().split("\n")
    expect(error).toContain("interrupted by SIGINT; 1 of 4 step(s) written")
    expect(hintLine).toBe(hint)
    c.proxy.arm(undefined)
    const again = await cli(c, ["firewall", "lockdowns", "migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain("1 sent with no answer (it may have been applied)")
    expect(await state(c)).toEqual(migrated)
  })
})
