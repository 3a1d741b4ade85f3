/**
 * `edgectl waf migrate --remote` on the migration engine, through a proxy in front of the embedded
 * platform that fails the entry point PUT (a 500 on every retry) or applies it and loses its answer
 * (initech.com: a pro zone, so one step, `waf_migration=pending`, start -> finished). After each
 * stop: the error says what was written and the command that finishes it (no undo: irreversible),
 * the journal exists, the re-run finds it, re-reads the zone and finishes, sending the PUT again only
 * if it is not in effect. `--rollback` is refused with the reason. A refusal the platform answered
 * (a 400) saved nothing: its own line and no journal. SIGINT during a stalled PUT too.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { json } from "../helpers/cli.js"
import { remoteFaults, type FaultCtx } from "../helpers/remote-faults.js"

const zone = "initech.com"
const z = ["--zone", zone]

const { setup, cli, spawnCli, journals } = remoteFaults("edgectl-waf-faults-")
type Ctx = FaultCtx

const migrations = (c: Ctx) => {
  const dir = journals(c)
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.includes("-waf-managed-rules.")) : []
}

const migrationState = async (c: Ctx) =>
  json<{ migration_state: string }>(await cli(c, ["waf", "status", ...z, "--json"], true)).migration_state

const journalEvents = (c: Ctx) => {
  const dir = journals(c)
  const log = fs.readdirSync(dir).find((f) => f.endsWith("-waf-managed-rules.log"))!
  expect(log).toBeDefined()
  return fs
    .readFileSync(path.join(dir, log), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { event: string; key?: string })
}

/** The migration PUTs the proxy saw (not the checks: the remote apply sends no dry run). */
const puts = (c: Ctx) => c.proxy.seen.filter((s) => s.method === "PUT" && s.path.includes("waf_migration="))

const hint = `hint: finish it: edgectl waf migrate --zone ${zone} --yes --remote (it cannot be undone: the WAF migration is irreversible)`

describe("waf migrate stopped, then finished from its journal", () => {
  it("a 500 on every retry of the PUT: nothing was written, the journal says so; the re-run sends it and finishes", async () => {
    const c = await setup(1, { kind: "status", status: 500, times: 10 })
    const failed = await cli(c, ["waf", "migrate", ...z, "--yes"])
    expect(failed.status).toBe(1)
    const [error, hintLine] = failed.stderr.trim().split("\n")
    expect(error).toContain(`error: waf migrate: migration of zone ${zone} stopped: finish the WAF migration`)
    expect(error).toContain("; 0 of 1 step(s) written; journal ")
    expect(hintLine).toBe(hint)
    expect(await migrationState(c)).toBe("start")
    const events = journalEvents(c)
    expect(events.filter((e) => e.event === "done")).toHaveLength(0)
    expect(events.at(-1)!.event).toBe("failed")

    c.proxy.arm(undefined)
    const dry = await cli(c, ["waf", "migrate", ...z, "--dry-run"])
    expect(dry.status, dry.stderr).toBe(0)
    expect(dry.stdout).toContain(`Found an unfinished WAF migration of zone ${zone}`)
    expect(dry.stdout).toContain("Dry run: nothing was changed.")
    expect(await migrationState(c)).toBe("start")
    const sentBefore = puts(c).length
    const again = await cli(c, ["waf", "migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain(`Found an unfinished WAF migration of zone ${zone}`)
    expect(again.stdout).toContain("0 of 1 step(s) written")
    expect(again.stdout).toContain(`Finished the WAF migration of zone ${zone}`)
    expect(again.stdout).toContain("1 request(s) sent; the zone was read back and matches the plan")
    expect(puts(c).length).toBe(sentBefore + 1)
    expect(await migrationState(c)).toBe("finished")
    expect(journalEvents(c).at(-1)!.event).toBe("end")
  }, 60_000)

  it("the PUT applied but its answer lost: the re-run finds the step in effect and finishes without sending it again", async () => {
    const c = await setup(1, { kind: "drop-after" })
    const failed = await cli(c, ["waf", "migrate", ...z, "--yes"])
    expect(failed.status).toBe(1)
    expect(failed.stderr).toContain(`error: waf migrate: migration of zone ${zone} stopped: `)
    expect(failed.stderr.trim().split("\n").at(-1)).toBe(hint)
    expect(await migrationState(c)).toBe("finished")

    c.proxy.arm(undefined)
    const sentBefore = puts(c).length
    const again = await cli(c, ["waf", "migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain(`Found an unfinished WAF migration of zone ${zone}`)
    expect(again.stdout).toContain("0 request(s) sent, 1 step(s) already in effect")
    expect(puts(c).length).toBe(sentBefore)
    expect(journalEvents(c).filter((e) => e.event === "skipped")).toHaveLength(1)
    expect(await migrationState(c)).toBe("finished")

    // Finished: nothing undoes it, and the rollback says why.
    const back = await cli(c, ["waf", "migrate", ...z, "--rollback", "--yes"])
    expect(back.status).toBe(1)
    expect(back.stderr.trim()).toBe(
      `error: waf migrate: cannot roll back the WAF migration of zone ${zone}: a finished WAF migration cannot be reversed: the platform turns the previous WAF off for good`
    )
    expect(puts(c).length).toBe(sentBefore)
  }, 60_000)

  it("--rollback without a journal is refused with the reason; the dry run says the step cannot be rolled back", async () => {
    const c = await setup()
    const back = await cli(c, ["waf", "migrate", ...z, "--rollback", "--yes"])
    expect(back.status).toBe(1)
    expect(back.stderr).toContain(
      `error: waf migrate: cannot roll back the WAF migration of zone ${zone}: a finished WAF migration cannot be reversed`
    )
    const dry = await cli(c, ["waf", "migrate", ...z, "--dry-run"])
    expect(dry.status, dry.stderr).toBe(0)
    expect(dry.stdout).toContain(
      "It is journaled and cannot be rolled back: a finished WAF migration cannot be reversed"
    )
    expect(puts(c)).toHaveLength(0)
    expect(await migrationState(c)).toBe("start")
  }, 60_000)

  it("a refusal the platform answered (400): its own line, no journal left; the next run starts afresh", async () => {
    const c = await setup(1, {
      kind: "status",
      status: 400,
      code: 10305,
      message: "the zone has URI-based WAF overrides"
    })
    const refused = await cli(c, ["waf", "migrate", ...z, "--yes"])
    expect(refused.status).toBe(1)
    expect(refused.stderr.split("\n")[0]).toContain("error: waf migrate: the zone has URI-based WAF overrides")
    expect(refused.stderr).not.toContain("stopped")
    expect(migrations(c)).toEqual([])
    c.proxy.arm(undefined)
    const again = await cli(c, ["waf", "migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).not.toContain("Found an unfinished")
    expect(again.stdout).toContain(`Migration finished: zone ${zone} now runs WAF Managed Rules`)
    expect(await migrationState(c)).toBe("finished")
  }, 60_000)

  it("SIGINT while the PUT stalls: exit 130, the journal has it sent with no answer; the re-run finishes", async () => {
    const c = await setup(1, { kind: "stall" })
    const { child, exited } = spawnCli(c, ["waf", "migrate", ...z, "--yes"])
    await c.proxy.stalled()
    child.kill("SIGINT")
    const r = await exited
    expect(r.code).toBe(130)
    const [error, hintLine] = r.stderr.trim().split("\n")
    expect(error).toContain(
      "interrupted by SIGINT; 0 of 1 step(s) written; sent with no answer, may have been applied: "
    )
    expect(hintLine).toBe(hint)
    expect(journalEvents(c).at(-1)!.event).toBe("sent")
    c.proxy.arm(undefined)
    const again = await cli(c, ["waf", "migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain("1 sent with no answer (it may have been applied)")
    expect(again.stdout).toContain(`Finished the WAF migration of zone ${zone}`)
    expect(await migrationState(c)).toBe("finished")
  }, 60_000)
})
