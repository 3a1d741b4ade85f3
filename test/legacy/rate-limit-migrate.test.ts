/**
 * `edgectl firewall rate-limits migrate`: the dry run is the apply (the same plan, request for
 * request); the apply writes the rate limiting rules and disables the old rate limits, read back; a
 * re-run has nothing to do; `--rollback` restores the exact "before"; a plan over the new quota is
 * refused with nothing written. Then `--remote` through a proxy that fails or stalls the Nth write
 * (acme-mail.com: the entry point and two enabled rate limits, so 3 steps): the error and the
 * journal say what was written, the re-run finishes, the rollback restores; SIGINT during a stalled
 * request exits 130 with the same commands.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { edgectl, json, tempDir } from "../helpers/cli.js"
import { remoteFaults, type FaultCtx } from "../helpers/remote-faults.js"

const strip = <T extends Record<string, unknown>>(rows: T[]) =>
  rows.map(({ id: _i, version: _v, last_updated: _l, modified_on: _m, ...r }) => r)

describe("firewall rate-limits migrate, locally", () => {
  const cwd = tempDir()
  const run = (zone: string, ...args: string[]) =>
    edgectl(["firewall", "rate-limits", ...args, "--zone", zone], { cwd })
  const list = (zone: string) => json<Array<Record<string, unknown>>>(run(zone, "list", "--json"))

  it("dry run = apply; read back; re-run sends nothing; --rollback restores the before exactly", () => {
    const before = list("acme-mail.com")
    const dry = run("acme-mail.com", "migrate", "--dry-run", "--json")
    expect(dry.status, dry.stderr).toBe(0)
    const plan = json<{ steps: Array<{ method: string; path: string; body: unknown }> }>(dry)
    expect(plan.steps.map((s) => `${s.method} ${s.path.replace(/\/zones\/\w+/, "")}`)).toEqual([
      "PUT /rulesets/phases/http_ratelimit/entrypoint",
      "PUT /rate_limits/5cd518d2634d82071ebe2c7b5bc535b1",
      "PUT /rate_limits/b5db7a755a50963faace5e1fe9f4d6b0"
    ])
    expect(list("acme-mail.com")).toEqual(before)
    const applied = run("acme-mail.com", "migrate", "--yes", "--json")
    expect(applied.status, applied.stderr).toBe(0)
    const out = json<{ plan: { steps: unknown[] }; outcome: { sent: string[] } }>(applied)
    expect(out.plan.steps).toEqual(plan.steps)
    expect(out.outcome.sent).toHaveLength(3)
    expect(list("acme-mail.com").every((r) => r.disabled === true)).toBe(true)
    const again = run("acme-mail.com", "migrate", "--yes")
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain("Nothing to do: zone acme-mail.com has 3 rate limiting rule(s)")
    const back = run("acme-mail.com", "migrate", "--rollback", "--yes")
    expect(back.status, back.stderr).toBe(0)
    expect(list("acme-mail.com")).toEqual(before)
  })

  it("refuses globex-store.com (6 rate limits, business allows 5) whole, nothing written", () => {
    const before = list("globex-store.com")
    const r = run("globex-store.com", "migrate", "--yes")
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(
      "error: firewall rate-limits migrate: refused, nothing was changed: zone globex-store.com would need 6 rate limiting rules (0 there now, 6 for the previous rate limits), more than the 5 its business plan allows: delete some rate limits, or upgrade the plan\n"
    )
    expect(list("globex-store.com")).toEqual(before)
  })

  it("a zone without rate limits: nothing to migrate", () => {
    const none = run("acme.com", "migrate", "--yes")
    expect(none.stdout).toBe("Nothing to migrate: zone acme.com has no rate limits (previous version).\n")
  })
})

const zone = "acme-mail.com"
const z = ["--zone", zone]
const { setup, cli, spawnCli, closeAll } = remoteFaults("edgectl-ratelimit-faults-")
const hint = `hint: finish it: edgectl firewall rate-limits migrate --zone ${zone} --yes --remote; undo it: edgectl firewall rate-limits migrate --zone ${zone} --rollback --yes --remote`

const state = async (c: FaultCtx) =>
  strip(json<Array<Record<string, unknown>>>(await cli(c, ["firewall", "rate-limits", "list", ...z, "--json"], true)))

let before: Awaited<ReturnType<typeof state>>
let migrated: Awaited<ReturnType<typeof state>>

beforeAll(async () => {
  const c = await setup()
  before = await state(c)
  const r = await cli(c, ["firewall", "rate-limits", "migrate", ...z, "--yes"])
  expect(r.status, r.stderr).toBe(0)
  migrated = await state(c)
  expect(migrated.every((r) => r.disabled === true)).toBe(true)
  await closeAll()
}, 60_000)

describe("firewall rate-limits migrate --remote, stopped and finished", () => {
  it("the 3rd write answered 500: the error says what was written; the re-run finishes; --rollback restores", async () => {
    const c = await setup(3, { kind: "status", status: 500, times: 10 })
    const failed = await cli(c, ["firewall", "rate-limits", "migrate", ...z, "--yes"])
    expect(failed.status).toBe(1)
    const [error, hintLine] = failed.stderr.trim().split("\n")
    expect(error).toContain(`error: firewall rate-limits migrate: migration of zone ${zone} stopped: `)
    expect(error).toContain("; 2 of 3 step(s) written")
    expect(hintLine).toBe(hint)
    c.proxy.arm(undefined)
    const again = await cli(c, ["firewall", "rate-limits", "migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain(`Found an unfinished migration of zone ${zone}`)
    expect(await state(c)).toEqual(migrated)
    const back = await cli(c, ["firewall", "rate-limits", "migrate", ...z, "--rollback", "--yes"])
    expect(back.status, back.stderr).toBe(0)
    expect(await state(c)).toEqual(before)
  })

  it("SIGINT while the 2nd write stalls: exit 130, the commands that finish and undo it; the re-run finishes", async () => {
    const c = await setup(2, { kind: "stall" })
    const { child, exited } = spawnCli(c, ["firewall", "rate-limits", "migrate", ...z, "--yes"])
    await c.proxy.stalled()
    child.kill("SIGINT")
    const r = await exited
    expect(r.code).toBe(130)
    const [error, hintLine] = r.stderr.trim().split("\n")
    expect(error).toContain("interrupted by SIGINT; 1 of 3 step(s) written")
    expect(hintLine).toBe(hint)
    c.proxy.arm(undefined)
    const again = await cli(c, ["firewall", "rate-limits", "migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain("1 sent with no answer (it may have been applied)")
    expect(await state(c)).toEqual(migrated)
  })
})
