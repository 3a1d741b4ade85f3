/**
 * `edgectl firewall migrate --remote` through a proxy that fails (403, 500 on every retry), drops
 * the connection, loses a write's answer, or stalls at the Nth write, in front of the embedded
 * platform (globex.com: 3 active firewall rules, so 4 steps: the entry point, then 3 pauses). After
 * each stop: the error says what was written and prints the commands that finish and undo it, the
 * journal agrees, the re-run finishes (the end state equals an uninterrupted run's, as whole JSON)
 * and `--rollback` restores the exact "before". SIGINT and SIGTERM during a stalled request too.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { json } from "../helpers/cli.js"
import type { Fault } from "../helpers/fault-proxy.js"
import { remoteFaults, type FaultCtx } from "../helpers/remote-faults.js"
import { request } from "../helpers/platform.js"

const zone = "globex.com"
const z = ["--zone", zone]

const { setup, cli, spawnCli, journals, closeAll } = remoteFaults("edgectl-faults-")
type Ctx = FaultCtx

/** The zone's custom rules and firewall rules as whole JSON, without what the platform assigns (ids of new rules, times, versions). */
const state = async (c: Ctx) => {
  const custom = json<Array<Record<string, unknown>>>(await cli(c, ["custom-rules", "list", ...z, "--json"], true))
  const firewall = json<Array<Record<string, unknown>>>(
    await cli(c, ["firewall", "rules", "list", ...z, "--json"], true)
  )
  return {
    custom: custom.map(({ id: _i, version: _v, last_updated: _l, ...r }) => r),
    firewall: firewall.map(({ modified_on: _m, created_on: _c, ...r }) => r)
  }
}

const journalEvents = (c: Ctx) => {
  const dir = journals(c)
  const log = fs.readdirSync(dir).find((f) => f.endsWith("-firewall-custom-rules.log"))!
  expect(fs.statSync(path.join(dir, log)).mode & 0o777).toBe(0o600)
  expect(fs.statSync(dir).mode & 0o777).toBe(0o700)
  return fs
    .readFileSync(path.join(dir, log), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { event: string; key?: string })
}

const hint = `hint: finish it: edgectl firewall migrate --zone ${zone} --yes --remote; undo it: edgectl firewall migrate --zone ${zone} --rollback --yes --remote`

let before: Awaited<ReturnType<typeof state>>
let migrated: Awaited<ReturnType<typeof state>>

beforeAll(async () => {
  const c = await setup()
  before = await state(c)
  const r = await cli(c, ["firewall", "migrate", ...z, "--yes"])
  expect(r.status, r.stderr).toBe(0)
  migrated = await state(c)
  expect(migrated.custom).toHaveLength(3)
  expect(migrated.firewall.every((r) => r.paused === true)).toBe(true)
  await closeAll()
}, 60_000)

describe("firewall migrate stopped at each step, then finished or rolled back", () => {
  const cases: Array<[string, number, Fault]> = [
    ["a 403 at step 1", 1, { kind: "status", status: 403 }],
    ["a 403 at step 2", 2, { kind: "status", status: 403 }],
    ["a 403 at step 3", 3, { kind: "status", status: 403 }],
    ["a 403 at step 4", 4, { kind: "status", status: 403 }],
    ["a 500 on every retry at step 2", 2, { kind: "status", status: 500, times: 10 }],
    ["a dropped connection at step 3", 3, { kind: "drop" }],
    ["a write applied but its answer lost at step 4", 4, { kind: "drop-after" }]
  ]
  it.each(cases)(
    "%s: the error and the journal say what was written; the re-run finishes; --rollback restores",
    async (_, at, fault) => {
      const c = await setup(at, fault)
      expect(await state(c)).toEqual(before)
      const failed = await cli(c, ["firewall", "migrate", ...z, "--yes"])
      expect(failed.status).toBe(1)
      const [error, hintLine] = failed.stderr.trim().split("\n")
      expect(error).toContain(`error: firewall migrate: migration of zone ${zone} stopped: `)
      expect(error).toContain(`; ${at - 1} of 4 step(s) written`)
      expect(hintLine).toBe(hint)
      const events = journalEvents(c)
      expect(events.filter((e) => e.event === "done")).toHaveLength(at - 1)
      expect(events.filter((e) => e.event === "failed")).toHaveLength(1)
      expect(events.at(-1)!.event).toBe("failed")

      c.proxy.arm(undefined)
      const dry = await cli(c, ["firewall", "migrate", ...z, "--dry-run"])
      expect(dry.status).toBe(0)
      expect(dry.stdout).toContain(`${at - 1} of 4 step(s) written`)
      expect(dry.stdout).toContain("Dry run: nothing was changed. Finishing it re-reads the zone")
      const again = await cli(c, ["firewall", "migrate", ...z, "--yes"])
      expect(again.status, again.stderr).toBe(0)
      expect(again.stdout).toContain(`Found an unfinished migration of zone ${zone}`)
      expect(again.stdout).toContain(`${at - 1} of 4 step(s) written`)
      expect(again.stdout).toContain(`Finished the migration of zone ${zone}`)
      expect(await state(c)).toEqual(migrated)

      const back = await cli(c, ["firewall", "migrate", ...z, "--rollback", "--yes"])
      expect(back.status, back.stderr).toBe(0)
      expect(back.stdout).toContain(`Rolled back the migration of zone ${zone}: 4 request(s) sent`)
      expect(await state(c)).toEqual(before)
    }
  )

  it("--rollback straight after a stop; a stopped rollback is undone by the migration and finished by the rollback; a new migration then ends as an uninterrupted one", async () => {
    const c = await setup(3, { kind: "status", status: 403 })
    const failed = await cli(c, ["firewall", "migrate", ...z, "--yes"])
    expect(failed.status).toBe(1)
    c.proxy.arm(2, { kind: "status", status: 403 })
    const stopped = await cli(c, ["firewall", "migrate", ...z, "--rollback", "--yes"])
    expect(stopped.status).toBe(1)
    expect(stopped.stderr).toContain(`rollback of zone ${zone} stopped`)
    // A stopped rollback's "finish" is the rollback, its "undo" the migration.
    expect(stopped.stderr).toContain(
      `hint: finish it: edgectl firewall migrate --zone ${zone} --rollback --yes --remote; undo it: edgectl firewall migrate --zone ${zone} --yes --remote`
    )
    // The hint's "undo": the migration again, from the journal.
    c.proxy.arm(undefined)
    const undone = await cli(c, ["firewall", "migrate", ...z, "--yes"])
    expect(undone.status, undone.stderr).toBe(0)
    expect(undone.stdout).toContain(`Found an unfinished rollback of zone ${zone}`)
    expect(await state(c)).toEqual(migrated)
    // The hint's "finish": the rollback again.
    c.proxy.arm(3, { kind: "status", status: 403 })
    expect((await cli(c, ["firewall", "migrate", ...z, "--rollback", "--yes"])).status).toBe(1)
    c.proxy.arm(undefined)
    const back = await cli(c, ["firewall", "migrate", ...z, "--rollback", "--yes"])
    expect(back.status, back.stderr).toBe(0)
    expect(back.stdout).toContain("2 step(s) already in effect")
    expect(await state(c)).toEqual(before)
    const fresh = await cli(c, ["firewall", "migrate", ...z, "--yes"])
    expect(fresh.status, fresh.stderr).toBe(0)
    expect(await state(c)).toEqual(migrated)
  })
})

describe("firewall migrate read back", () => {
  it("another client's change of a custom rule meanwhile: the read-back names it, exit 1; the re-run puts the plan back", async () => {
    const entrypoint = async () => {
      const id = (await request<{ result: Array<{ id: string }> }>(c.platform.baseUrl, `/zones?name=${zone}`)).body
        .result[0]!.id
      return `/zones/${id}/rulesets/phases/http_request_firewall_custom/entrypoint`
    }
    const c: Ctx = await setup(3, {
      kind: "meanwhile",
      run: async () => {
        const p = await entrypoint()
        const now = await request<{ result: { rules: Array<Record<string, unknown>> } }>(c.platform.baseUrl, p)
        const rules = now.body.result.rules.map(({ id: _i, version: _v, last_updated: _l, ...r }, i) =>
          i === 0 ? { ...r, enabled: false } : r
        )
        await request(c.platform.baseUrl, p, { method: "PUT", body: { rules } })
      }
    })
    const r = await cli(c, ["firewall", "migrate", ...z, "--yes"])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(
      /stopped: the zone read back differs from the plan: custom rule #1 \(ref \w{32}\) differs in enabled: false, the plan has true; 4 of 4 step\(s\) written/
    )
    expect(r.stderr).toContain("; 4 of 4 step(s) written")
    expect(journalEvents(c).at(-1)!.event).toBe("differs")
    c.proxy.arm(undefined)
    const again = await cli(c, ["firewall", "migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain("1 request(s) sent, 3 step(s) already in effect")
    expect(await state(c)).toEqual(migrated)
  })
})

/** The CLI as a child whose pid the test signals. */

describe("firewall migrate stopped by a signal while a request stalls", () => {
  const cases: Array<[NodeJS.Signals, number, number]> = [
    ["SIGINT", 2, 130],
    ["SIGTERM", 1, 143]
  ]
  it.each(cases)(
    "%s at step %i: exit %i, the journal has the request sent with no answer, the re-run finishes",
    async (signal, at, code) => {
      const c = await setup(at, { kind: "stall" })
      const { child, exited } = spawnCli(c, ["firewall", "migrate", ...z, "--yes"])
      await c.proxy.stalled()
      child.kill(signal)
      const r = await exited
      expect(r.code).toBe(code)
      const [error, hintLine] = r.stderr.trim().split("\n")
      expect(error).toContain(`interrupted by ${signal}; ${at - 1} of 4 step(s) written`)
      expect(error).toContain("sent with no answer, may have been applied: ")
      expect(hintLine).toBe(hint)
      const events = journalEvents(c)
      expect(events.at(-1)!.event).toBe("sent")
      expect(events.filter((e) => e.event === "done")).toHaveLength(at - 1)

      c.proxy.arm(undefined)
      const again = await cli(c, ["firewall", "migrate", ...z, "--yes"])
      expect(again.status, again.stderr).toBe(0)
      expect(again.stdout).toContain("1 sent with no answer (it may have been applied)")
      expect(await state(c)).toEqual(migrated)
    }
  )

  it("kill -9 during a stalled request: the journal has it as sent; the re-run finishes, the rollback restores", async () => {
    const c = await setup(3, { kind: "stall" })
    const { child, exited } = spawnCli(c, ["firewall", "migrate", ...z, "--yes"])
    await c.proxy.stalled()
    child.kill("SIGKILL")
    expect((await exited).code).toBe(null)
    const events = journalEvents(c)
    expect(events.at(-1)!.event).toBe("sent")
    expect(events.filter((e) => e.event === "done")).toHaveLength(2)
    c.proxy.arm(undefined)
    const again = await cli(c, ["firewall", "migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain("2 of 4 step(s) written, 1 sent with no answer (it may have been applied)")
    expect(await state(c)).toEqual(migrated)
    expect((await cli(c, ["firewall", "migrate", ...z, "--rollback", "--yes"])).status).toBe(0)
    expect(await state(c)).toEqual(before)
  })
})
