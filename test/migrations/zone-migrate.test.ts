/**
 * `edgectl migrate --zone Z`: everything legacy on a demo zone in one plan (src/demo/legacy-rules.ts,
 * src/demo/firewall-rules.ts). Locally: the preview names every part (and those with nothing to
 * do), the dry run is the apply (the whole JSON), one journal, the Zone Lockdown part planned on
 * the custom rules the firewall part leaves, the rollback refused once the previous WAF moved; a
 * bad zone, a zone with nothing legacy, a quota refusal. Then `--remote` through a proxy that fails
 * or stalls the Nth write (acme-mail.com: 24 writes over four parts): the error says what was
 * written and prints the two commands, the re-run finishes to the uninterrupted run's end state,
 * `--rollback` before the WAF step restores the exact "before"; SIGINT exits 130 likewise.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { edgectl, edgectlAsync, json, root, tempDir } from "../helpers/cli.js"
import { request } from "../helpers/platform.js"
import { remoteFaults, type FaultCtx } from "../helpers/remote-faults.js"

interface Step {
  readonly key: string
  readonly part: string
  readonly method: string
  readonly path: string
  readonly body?: { readonly rules?: ReadonlyArray<{ readonly ref?: string }> }
}
interface Plan {
  readonly steps: ReadonlyArray<Step>
  readonly notes: ReadonlyArray<{ readonly code: string }>
  readonly summary: ReadonlyArray<{ readonly part: string; readonly status: string; readonly steps: number }>
  readonly parts: Record<string, { readonly before: { readonly customRules: ReadonlyArray<unknown> } }> & {
    readonly "firewall-rules": { readonly expected: { readonly customRules: ReadonlyArray<{ readonly ref?: string }> } }
  }
}

describe("migrate --zone, locally", () => {
  const cwd = tempDir("edgectl-zone-migrate-")
  const run = (...args: string[]) => edgectl(["migrate", ...args], { cwd })

  it("preview names each part in order; the dry run is the apply; one journal; rollback refused after the WAF step", () => {
    const preview = run("--zone", "acme-mail.com")
    expect(preview.status).toBe(1)
    expect(preview.stderr).toContain("hint: pass --yes to migrate, or --dry-run to see the requests")
    const order = [
      "firewall rules -> custom rules",
      "Zone Lockdown and User Agent Blocking -> custom rules",
      "rate limits (previous version) -> rate limiting rules",
      "previous WAF -> WAF Managed Rules"
    ].map((t) => preview.stdout.indexOf(`== ${t}`))
    expect(order.every((i, n) => i > 0 && (n === 0 || i > order[n - 1]!))).toBe(true)
    expect(preview.stdout).toContain("The previous WAF part runs last and cannot be undone")

    const dry = run("--zone", "acme-mail.com", "--dry-run", "--json")
    const plan = json<Plan>(dry)
    expect(plan.summary.map((s) => [s.part, s.status, s.steps])).toEqual([
      ["firewall-rules", "planned", 16],
      ["lockdowns-ua", "planned", 4],
      ["rate-limits", "planned", 3],
      ["waf", "planned", 1]
    ])
    // One write of the custom rules for both parts: the firewall part's rules, then the lockdown part's.
    const puts = plan.steps.filter((s) => s.path.endsWith("/http_request_firewall_custom/entrypoint"))
    expect(puts.map((s) => s.key)).toEqual(["firewall-rules/entrypoint"])
    const firewallRefs = plan.parts["firewall-rules"].expected.customRules.map((r) => r.ref)
    expect(plan.parts["lockdowns-ua"]!.before.customRules).toHaveLength(firewallRefs.length)
    // The lockdown part's rules come after the firewall part's, and again, for what it matches, right
    // before the migrated firewall allow (a skip of the rest), which did not exempt from Zone Lockdown.
    const written = puts[0]!.body!.rules!.map((r) => r.ref ?? "")
    const ours = (r: string) => /^(lockdown|ua):/.test(r)
    expect(written.filter((r) => !ours(r))).toEqual(firewallRefs)
    const end = written.slice(written.lastIndexOf(firewallRefs.at(-1)!) + 1)
    expect(end.length > 0 && end.every(ours)).toBe(true)
    const office = "273d82f59cb78511f7c81944baabf441"
    const placed = written.slice(0, written.indexOf(office)).filter(ours)
    expect(placed).toEqual(
      end
        .filter((r) => r.startsWith("lockdown:"))
        .map((r) => `${r}@${office}`)
        .concat(end.filter((r) => r.startsWith("ua:")).map((r) => `${r}@${office}`))
    )
    expect(written.indexOf(placed.at(-1)!)).toBe(written.indexOf(office) - 1)
    expect(plan.steps.at(-1)!.part).toBe("waf")
    expect(plan.notes.filter((n) => n.code === "waf-last-irreversible")).toHaveLength(1)

    const applied = run("--zone", "acme-mail.com", "--yes", "--json")
    const out = json<{ plan: Plan; outcome: { sent: string[]; journal: string } }>(applied)
    expect(out.plan).toEqual(plan)
    expect(out.outcome.sent).toEqual(plan.steps.map((s) => s.key))
    expect(path.basename(out.outcome.journal)).toMatch(/-zone-legacy\.json$/)
    expect(fs.readdirSync(path.dirname(out.outcome.journal)).filter((f) => f.endsWith(".json"))).toEqual([
      path.basename(out.outcome.journal)
    ])

    const back = run("--zone", "acme-mail.com", "--rollback", "--yes")
    expect(back.status).toBe(1)
    expect(back.stderr).toMatch(
      /^error: migrate: cannot roll back: the platform has no documented way back from validation mode/
    )
  })

  it("parts with nothing to do are named; a quota refusal sends nothing; nothing legacy; a bad zone", () => {
    const globex = run("--zone", "globex-store.com", "--yes")
    expect(globex.status).toBe(1)
    expect(globex.stdout).toMatch(/firewall rules -> custom rules\s+0\s+nothing: no firewall rules/)
    expect(globex.stderr).toContain(
      "error: migrate: refused, nothing was changed: rate limits (previous version) -> rate limiting rules: zone globex-store.com would need 6 rate limiting rules"
    )
    const dry = run("--zone", "globex-store.com", "--dry-run")
    expect(dry.status).toBe(1)
    expect(dry.stdout).toContain("Dry run: nothing was changed. The migration is refused:")

    // The previous rate limits' API ended (410): that part has nothing to move, the others go on.
    const ended = edgectl(["migrate", "--zone", "acme-mail.com", "--dry-run", "--json"], {
      cwd: tempDir("edgectl-zone-ended-"),
      env: { EDGECTL_LEGACY_APIS: "ended" }
    })
    expect(json<Plan>(ended).summary.map((p) => p.status)).toEqual(["planned", "planned", "nothing", "planned"])

    const none = run("--zone", "acme-labs.org", "--yes")
    expect(none.status, none.stderr).toBe(0)
    expect(none.stdout).toBe(
      "Nothing to migrate: zone acme-labs.org has no firewall rules, Zone Lockdown, User Agent Blocking or rate limits (previous version), and its WAF migration is finished.\n"
    )
    const noJournal = run("--zone", "acme-labs.org", "--rollback", "--yes")
    expect(noJournal.status).toBe(1)
    expect(noJournal.stderr).toContain(
      "zone acme-labs.org has no zone migration journal on this target: nothing to roll back"
    )

    const bad = run("--zone", "nope.example", "--dry-run")
    expect(bad.status).toBe(1)
    expect(bad.stderr).toContain("error: migrate: no zone named nope.example is visible to these credentials")
    const empty = run("--zone", " ", "--dry-run")
    expect(empty.status).toBe(2)
    expect(empty.stderr).toBe("error: --zone needs a value, got an empty string\n")
  })
})

describe("migrate --zone --replay", () => {
  const traffic = path.join(root, "fixtures/firewall/custom-rules-traffic.jsonl")

  it("runs each part's replay and sums them; the part without one is named; every request alike is exit 0; nothing planned compares nothing", () => {
    const cwd = tempDir("edgectl-zone-replay-")
    const r = edgectl(["migrate", "--zone", "acme-mail.com", "--replay", traffic], { cwd })
    expect([r.status, r.stderr]).toEqual([0, ""])
    expect(r.stdout).toContain(
      "== firewall rules -> custom rules\n29 request(s): 29 decided alike, 0 differently (action 0, skipped 0, logged 0)\n"
    )
    // The office's firewall allow (now a skip of the rest) did not exempt its requests from Zone
    // Lockdown: the lockdown's rules placed before that skip still refuse the office on /admin.
    expect(r.stdout).toContain(
      "== Zone Lockdown and User Agent Blocking -> custom rules\n29 request(s): 29 decided alike, 0 differently (action 0, skipped 0, logged 0)\n"
    )
    expect(r.stdout).toContain(
      "== rate limits (previous version) -> rate limiting rules\n29 request(s): 29 decided alike"
    )
    expect(r.stdout).toContain(
      "== previous WAF -> WAF Managed Rules\nnot replayed: the previous WAF has its own replay: edgectl waf replay --zone acme-mail.com --traffic FILE\n"
    )
    // The pointer reaches the same platform: a state directory of its own is named in it.
    const state = tempDir("edgectl-zone-replay-state-")
    const elsewhere = edgectl(["migrate", "--zone", "acme-mail.com", "--replay", traffic, "--persist-to", state], {
      cwd
    })
    expect(elsewhere.stdout).toContain(
      `not replayed: the previous WAF has its own replay: edgectl waf replay --zone acme-mail.com --persist-to ${state} --traffic FILE\n`
    )
    expect(r.stdout).toContain("In all: 87 request(s) compared, 87 decided alike, 0 differently.\n")
    const replayed = edgectl(["migrate", "--zone", "acme-mail.com", "--replay", traffic, "--json"], { cwd })
    expect(replayed.status).toBe(0)
    const report = JSON.parse(replayed.stdout) as {
      zone: string
      requests: number
      agreed: number
      parts: Array<{ part: string }>
    }
    expect([report.zone, report.requests, report.agreed, report.parts.map((p) => p.part)]).toEqual([
      "acme-mail.com",
      87,
      87,
      ["firewall-rules", "lockdowns-ua", "rate-limits", "waf"]
    ])
    // A zone with nothing planned has nothing to compare: a replay of nothing proves nothing.
    const none = edgectl(["migrate", "--zone", "acme-labs.org", "--replay", traffic], { cwd })
    expect([none.status, none.stdout]).toEqual([1, ""])
    expect(none.stderr).toContain("error: migrate --replay: nothing to compare:")
    const mixed = edgectl(["migrate", "--zone", "acme-mail.com", "--replay", traffic, "--yes"], { cwd })
    expect(mixed.status).toBe(2)
  })

  it("reads the file once for all its parts: stdin (-) and a FIFO replay as the file does", async () => {
    const cwd = tempDir("edgectl-zone-replay-once-")
    const text = fs.readFileSync(traffic, "utf8")
    const fromFile = edgectl(["migrate", "--zone", "acme-mail.com", "--replay", traffic, "--json"], { cwd })
    expect(fromFile.status, fromFile.stderr).toBe(0)
    // The report as the file's, the name it was given read as the file's path.
    const asFile = (stdout: string, name: string) =>
      JSON.parse(stdout.split(JSON.stringify(name)).join(JSON.stringify(traffic))) as unknown
    // Each part read stdin again before: the second found it consumed and the process ended, exit 0, silent.
    const fromStdin = edgectl(["migrate", "--zone", "acme-mail.com", "--replay", "-", "--json"], { cwd, input: text })
    expect([fromStdin.status, fromStdin.stderr]).toEqual([0, ""])
    expect(asFile(fromStdin.stdout, "-")).toEqual(JSON.parse(fromFile.stdout))
    // A FIFO opens once for its writer: a second open waited for a writer that never came.
    const fifo = path.join(cwd, "traffic.fifo")
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0)
    const [fromFifo] = await Promise.all([
      edgectlAsync(["migrate", "--zone", "acme-mail.com", "--replay", fifo, "--json"], { cwd }),
      fs.promises.writeFile(fifo, text)
    ])
    expect([fromFifo.status, fromFifo.stderr]).toEqual([0, ""])
    expect(asFile(fromFifo.stdout, fifo)).toEqual(JSON.parse(fromFile.stdout))
  })
})

const zone = "acme-mail.com"
const zoneId = "0ee5b798aac27318f8b8281c4b0e3375"
const z = ["--zone", zone]
const { setup, cli, spawnCli, closeAll } = remoteFaults("edgectl-zone-migrate-")
const hint = `hint: finish it: edgectl migrate --zone ${zone} --yes --remote; undo it: edgectl migrate --zone ${zone} --rollback --yes --remote`

/** What the platform assigns on each write (ids of rewritten rules, versions, times) is left out. */
const comparable = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(comparable)
    : typeof v === "object" && v !== null
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => !["id", "version", "last_updated", "modified_on", "created_on", "created"].includes(k))
            .map(([k, x]) => [k, comparable(x)])
        )
      : v

type Rules = { readonly rules: ReadonlyArray<unknown> } | null

/** Everything the migration touches, read from the platform itself. */
const state = async (c: FaultCtx) => {
  const get = async (p: string) => {
    const a = await request(c.platform.baseUrl, `/zones/${zoneId}${p}`)
    return a.status === 404 ? null : (a.body as { result: unknown }).result
  }
  return comparable({
    firewallRules: await get("/firewall/rules?per_page=100"),
    // An entry point the rollback leaves empty is the "none" the migration found: its rules are compared.
    customRules: ((await get("/rulesets/phases/http_request_firewall_custom/entrypoint")) as Rules)?.rules ?? [],
    lockdowns: await get("/firewall/lockdowns?per_page=100"),
    uaRules: await get("/firewall/ua_rules?per_page=100"),
    rateLimits: await get("/rate_limits?per_page=100"),
    rateLimitRules: ((await get("/rulesets/phases/http_ratelimit/entrypoint")) as Rules)?.rules ?? [],
    waf: await get("/waf_migration/status")
  })
}

describe("migrate --zone: one custom rules quota for the firewall and the Zone Lockdown parts", () => {
  it("each part fits alone; together they do not, so the plan is refused before anything is written", async () => {
    const c = await setup()
    const cloud = "initech-cloud.io"
    const id = "89553babaa6f8976a776292bf3f71d77"
    const rules = Array.from({ length: 15 }, (_, n) => ({
      filter: { expression: `http.request.uri.path eq "/blocked/${n}"` },
      action: "block"
    }))
    expect(
      (await request(c.platform.baseUrl, `/zones/${id}/firewall/rules`, { method: "POST", body: rules })).status
    ).toBe(200)
    for (const n of [1, 2, 3]) {
      const body = { urls: [`${cloud}/admin${n}/*`], configurations: [{ target: "ip", value: "192.0.2.1" }] }
      expect(
        (await request(c.platform.baseUrl, `/zones/${id}/firewall/lockdowns`, { method: "POST", body })).status
      ).toBe(200)
    }
    const alone = async (...cmd: string[]) =>
      json<{ refused?: string; expected: { customRules: unknown[] } }>(
        await cli(c, ["firewall", ...cmd, "--zone", cloud, "--dry-run", "--json"], true)
      )
    expect((await alone("migrate")).expected.customRules).toHaveLength(15)
    expect((await alone("lockdowns", "migrate")).expected.customRules).toHaveLength(6)
    const both = await cli(c, ["migrate", "--zone", cloud, "--dry-run", "--json"], true)
    expect(both.status).toBe(1)
    const plan = JSON.parse(both.stdout) as Plan & { refused: string }
    expect(plan.steps).toEqual([])
    expect(plan.refused).toContain(
      `Zone Lockdown and User Agent Blocking -> custom rules: zone ${cloud} would need 21 custom rules`
    )
    expect(plan.refused).toContain("more than the 20 its pro plan allows")
    expect(plan.refused).toContain(
      "(counted with the 15 custom rule(s) the firewall rules part writes first: one quota for both)"
    )
    expect(both.stderr).toBe(`error: migrate: refused: ${plan.refused}\n`)
  }, 60_000)
})

let before: unknown
let migrated: unknown

beforeAll(async () => {
  const c = await setup()
  before = await state(c)
  const r = await cli(c, ["migrate", ...z, "--yes"])
  expect(r.status, r.stderr).toBe(0)
  migrated = await state(c)
  expect(migrated).not.toEqual(before)
  await closeAll()
}, 90_000)

describe("migrate --zone --remote, stopped, finished and rolled back", () => {
  it("a 403 at the 18th write (a lockdown's pause): the re-run finishes to the uninterrupted end", async () => {
    const c = await setup(18, { kind: "status", status: 403, times: 10 })
    const failed = await cli(c, ["migrate", ...z, "--yes"])
    expect(failed.status).toBe(1)
    const [error, hintLine, ...rest] = failed.stderr.trim().split("\n")
    expect(error).toContain(`error: migrate: migration of zone ${zone} stopped: `)
    expect(error).toContain("; 17 of 24 step(s) written")
    expect(hintLine).toBe(hint)
    expect(rest).toEqual([])
    c.proxy.arm(undefined)
    const again = await cli(c, ["migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain(`Found an unfinished migration of zone ${zone}`)
    expect(again.stdout).toContain("Finished the migration of everything legacy of zone")
    expect(await state(c)).toEqual(migrated)
  }, 90_000)

  it("a 500 at the 22nd write (a rate limit): --rollback restores the before; a new run ends as the uninterrupted one", async () => {
    const c = await setup(22, { kind: "status", status: 500, times: 10 })
    const failed = await cli(c, ["migrate", ...z, "--yes"])
    expect(failed.status).toBe(1)
    expect(failed.stderr).toContain("; 21 of 24 step(s) written")
    c.proxy.arm(undefined)
    const back = await cli(c, ["migrate", ...z, "--rollback", "--yes"])
    expect(back.status, back.stderr).toBe(0)
    expect(back.stdout).toContain(`Rolled back the migration of everything legacy of zone ${zone}`)
    expect(await state(c)).toEqual(before)
    const again = await cli(c, ["migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(await state(c)).toEqual(migrated)
    const refused = await cli(c, ["migrate", ...z, "--rollback", "--yes"])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain("error: migrate: cannot roll back: ")
    expect(await state(c)).toEqual(migrated)
  }, 120_000)

  it("the WAF step (the 24th write) applied but its answer lost: --rollback is refused, saying why; the re-run finishes", async () => {
    const c = await setup(24, { kind: "drop-after" })
    const failed = await cli(c, ["migrate", ...z, "--yes"])
    expect(failed.status).toBe(1)
    expect(failed.stderr).toContain("; 23 of 24 step(s) written")
    expect(failed.stderr).toContain("stopped: deploy validation mode (entry point of http_request_firewall_managed")
    c.proxy.arm(undefined)
    const back = await cli(c, ["migrate", ...z, "--rollback", "--yes"])
    expect([back.status, back.stdout]).toEqual([1, ""])
    expect(back.stderr).toMatch(
      /^error: migrate: cannot roll back: the platform has no documented way back from validation mode: .*; journal .*-zone-legacy\.json\n/
    )
    const again = await cli(c, ["migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(await state(c)).toEqual(migrated)
  }, 90_000)

  it("a 403 at the WAF step: nothing of the WAF written, so --rollback restores everything before", async () => {
    const c = await setup(24, { kind: "status", status: 403, times: 10 })
    const failed = await cli(c, ["migrate", ...z, "--yes"])
    expect(failed.status).toBe(1)
    expect(failed.stderr).toContain("; 23 of 24 step(s) written")
    c.proxy.arm(undefined)
    const back = await cli(c, ["migrate", ...z, "--rollback", "--yes"])
    expect(back.status, back.stderr).toBe(0)
    expect(await state(c)).toEqual(before)
  }, 90_000)

  it("SIGINT while the 2nd write stalls: exit 130 with the two commands; the re-run finishes", async () => {
    const c = await setup(2, { kind: "stall" })
    const { child, exited } = spawnCli(c, ["migrate", ...z, "--yes"])
    await c.proxy.stalled()
    child.kill("SIGINT")
    const r = await exited
    expect(r.code).toBe(130)
    const [error, hintLine] = r.stderr.trim().split("\n")
    expect(error).toContain("interrupted by SIGINT; 1 of 24 step(s) written")
    expect(hintLine).toBe(hint)
    c.proxy.arm(undefined)
    const again = await cli(c, ["migrate", ...z, "--yes"])
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain("1 sent with no answer (it may have been applied)")
    expect(await state(c)).toEqual(migrated)
  }, 90_000)
})
