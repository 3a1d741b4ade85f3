/**
 * `edgectl firewall lockdowns migrate --remote` on a zone whose custom rules already skip the rest
 * of the phase: acme-mail.com once its firewall rules are migrated (`firewall migrate`: the office's
 * `allow` becomes a custom skip of the rest, which did not exempt the office from Zone Lockdown).
 * Against a served platform: the migrated rules are placed before that skip too (the preview says
 * so), the replay agrees on every request, the dry run is the apply, the entry point read over HTTP
 * is the plan's, the two standalone migrations leave the list `migrate --zone` plans, a re-run has
 * nothing to do, and `--rollback` restores the custom rules the firewall migration left. Then, locally,
 * the other order: the lockdowns migrated first, the firewall rules after (their allow now a skip
 * before the migrated rules): a re-run converts the paused lockdowns again before that skip (the
 * office refused on /admin again, the difference its note explains), and the zone ends with the list
 * `migrate --zone` plans.
 */
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectl, edgectlAsync, json, root, tempDir } from "../helpers/cli.js"
import { request, startPlatform, World, type Platform } from "../helpers/platform.js"

const zone = "acme-mail.com"
const zoneId = "0ee5b798aac27318f8b8281c4b0e3375"
const office = "273d82f59cb78511f7c81944baabf441"
const traffic = path.join(root, "fixtures", "firewall", "custom-rules-traffic.jsonl")

interface Rule {
  readonly ref: string
  readonly expression: string
  readonly action: string
}
interface Plan {
  readonly steps: ReadonlyArray<{ readonly key: string; readonly body?: { readonly rules?: ReadonlyArray<Rule> } }>
  readonly expected: { readonly customRules: ReadonlyArray<Rule> }
  readonly notes: ReadonlyArray<{ readonly code: string; readonly message: string }>
}

/** A rule as written: what the platform assigns on a write (id, version, time) left out. */
const written = (rules: ReadonlyArray<Record<string, unknown>>) =>
  rules.map(({ id: _i, version: _v, last_updated: _l, ...r }) => r)

describe("firewall lockdowns migrate --remote, on custom rules that skip the rest", () => {
  let p: Platform
  let env: Record<string, string | undefined>
  const cwd = tempDir("edgectl-lockdown-skip-")
  const run = (...args: string[]) => edgectlAsync([...args, "--zone", zone, "--remote"], { cwd, env })
  const entrypoint = async () =>
    written(
      (await request(p.baseUrl, `/zones/${zoneId}/rulesets/phases/http_request_firewall_custom/entrypoint`)).body.result
        .rules
    )

  beforeAll(async () => {
    p = await startPlatform()
    env = {
      CLOUDFLARE_API_BASE_URL: p.baseUrl,
      CLOUDFLARE_API_TOKEN: World.allToken,
      CLOUDFLARE_API_KEY: undefined,
      CLOUDFLARE_EMAIL: undefined,
      // Its own `--remote` journals: the demo world's zone ids are the same in every test file.
      XDG_STATE_HOME: tempDir("edgectl-xdg-state-")
    }
    const fw = await run("firewall", "migrate", "--yes")
    expect(fw.status, fw.stderr).toBe(0)
  }, 60_000)
  afterAll(async () => p?.close())

  it("places the lockdown and UA rules before the skip, for what it matches; replay, dry run, apply, re-run and rollback agree", async () => {
    const firewallMigrated = await entrypoint()
    expect(firewallMigrated.map((r) => r.ref)).toContain(office)

    const preview = await run("firewall", "lockdowns", "migrate")
    expect(preview.status).toBe(1)
    expect(preview.stdout).toContain(
      `info: custom rule ${office} skips the rest of the custom phase, which did not exempt the requests it matches from Zone Lockdown or User Agent Blocking: the migrated rules are placed before it too`
    )
    expect(preview.stdout).not.toContain("firewall-allow")

    // The office on /admin: refused by the lockdown before, and by its rule placed before the skip after.
    const replay = await run("firewall", "lockdowns", "migrate", "--replay", traffic)
    expect([replay.status, replay.stderr]).toEqual([0, ""])
    expect(replay.stdout).toContain("29 request(s): 29 decided alike, 0 differently (action 0, skipped 0, logged 0)")

    const dry = json<Plan>(await run("firewall", "lockdowns", "migrate", "--dry-run", "--json"))
    const refs = dry.expected.customRules.map((r) => r.ref)
    const before = refs.slice(0, refs.indexOf(office)).filter((r) => r.includes("@"))
    expect(before).toEqual(refs.filter((r) => /^(lockdown|ua):[^@]*$/.test(r)).map((r) => `${r}@${office}`))
    expect(refs.indexOf(before.at(-1)!)).toBe(refs.indexOf(office) - 1)
    expect(dry.notes.map((n) => n.code)).toContain("placed-before-skip")
    expect(dry.notes.map((n) => n.code)).not.toContain("skip-current-covers-migrated")

    const applied = await run("firewall", "lockdowns", "migrate", "--yes", "--json")
    const out = json<{ plan: Plan; outcome: { sent: string[] } }>(applied)
    expect(out.plan.steps).toEqual(dry.steps)
    expect(out.outcome.sent).toEqual(dry.steps.map((s) => s.key))
    const migrated = await entrypoint()
    expect(migrated).toEqual(dry.expected.customRules)

    // The umbrella, on a fresh copy of the demo world, plans the very list the two standalone runs left.
    const umbrella = json<Plan>(edgectl(["migrate", "--zone", zone, "--dry-run", "--json"], { cwd: tempDir() }))
    const put = umbrella.steps.find((s) => s.key === "firewall-rules/entrypoint")
    expect(put?.body?.rules).toEqual(migrated)

    const again = await run("firewall", "lockdowns", "migrate", "--yes")
    expect(again.stdout).toContain(`Nothing to do: zone ${zone} has ${migrated.length} custom rule(s)`)
    const after = await run("firewall", "lockdowns", "migrate", "--replay", traffic, "--json")
    expect([after.status, after.stderr]).toEqual([0, ""])
    expect(JSON.parse(after.stdout)).toMatchObject({ compared: "journal", requests: 29, agreed: 29 })

    const back = await run("firewall", "lockdowns", "migrate", "--rollback", "--yes")
    expect(back.status, back.stderr).toBe(0)
    expect(await entrypoint()).toEqual(firewallMigrated)
  }, 120_000)
})

describe("firewall lockdowns migrate before firewall migrate, then a skip added by hand", () => {
  it("a re-run places the migrated rules before a skip added after the migration, and names it on the replay", () => {
    const cwd = tempDir("edgectl-lockdown-first-")
    const run = (...args: string[]) => edgectl([...args, "--zone", zone], { cwd })
    expect(run("firewall", "lockdowns", "migrate", "--yes").status).toBe(0)
    // The firewall migration places the copies itself (test/legacy/firewall-migrate-gates.test.ts):
    // nothing left for a re-run of the lockdown migration.
    expect(run("firewall", "migrate", "--yes").status).toBe(0)
    expect(run("firewall", "lockdowns", "migrate", "--yes").stdout).toContain("Nothing to do")
    // A skip of the rest added by hand, first in the list: the migrated rules come after it.
    const add = run(
      "custom-rules",
      ...[
        "add",
        "--expression",
        "ip.src in {192.0.2.0/24}",
        "--action",
        "skip",
        "--skip-rest",
        "--index",
        "1",
        "--json"
      ]
    )
    expect(add.status, add.stderr).toBe(0)
    const first = json<Array<{ ref: string }>>(run("custom-rules", "list", "--json"))[0]!
    const plan = json<Plan>(run("firewall", "lockdowns", "migrate", "--dry-run", "--json"))
    expect(plan.steps.map((s) => s.key)).toEqual(["entrypoint"])
    expect(plan.notes.find((n) => n.code === "placed-again-before-skip")?.message).toContain(
      `custom rule ${first.ref} skips the rest of the custom phase and came after the migration`
    )
    // Against the zone now, the office on /admin is refused again: the difference the note explains.
    const replay = run("firewall", "lockdowns", "migrate", "--replay", traffic, "--json")
    expect(replay.status).toBe(1)
    expect(JSON.parse(replay.stdout)).toMatchObject({
      requests: 29,
      agreed: 28,
      explained: 1,
      disagreements: [
        {
          id: "office-admin",
          before: { action: "allow" },
          after: { action: "block" },
          explainedBy: [{ code: "placed-again-before-skip" }]
        }
      ]
    })
    expect(run("firewall", "lockdowns", "migrate", "--yes").status).toBe(0)
    expect(run("firewall", "lockdowns", "migrate", "--yes").stdout).toContain("Nothing to do")
  }, 60_000)
})
