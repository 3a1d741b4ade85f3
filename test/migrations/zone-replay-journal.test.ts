/**
 * `edgectl migrate --zone Z --replay FILE` after an apply (issue 33): the umbrella is planned again
 * on its journal's "before", each part replayed on that plan as before the apply, the report saying
 * the "before" is the journal's; a zone changed by hand since is refused, naming the part; after a
 * rollback the plan's replay again. Locally (a --persist-to dir) and once with --remote.
 */
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectl, edgectlAsync, json, root, tempDir } from "../helpers/cli.js"
import { startPlatform, World, type Platform } from "../helpers/platform.js"

const traffic = path.join(root, "fixtures/firewall/custom-rules-traffic.jsonl")
const zone = ["--zone", "acme-mail.com"]
const journalHeading = (file: string) =>
  new RegExp(
    `^Replay of ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: each part's rules before the migration \\(its journal .*-zone-legacy\\.json\\) against the rules now \\(after\\)\n`
  )
const planHeading = `Replay of ${traffic}: each part's rules now (before) against the rules the migration leaves (after)\n`
const allAlike = "In all: 87 request(s) compared, 87 decided alike, 0 differently.\n"

interface Report {
  readonly compared: string
  readonly journal?: string
  readonly requests: number
  readonly agreed: number
}

describe("migrate --zone --replay after an apply, locally", () => {
  const cwd = tempDir("edgectl-zone-replay-journal-")
  const run = (...args: string[]) => edgectl([...args, "--persist-to", "st"], { cwd })

  it("replays the journal's before against the zone now; a zone changed by hand since is refused, naming the part", () => {
    const applied = run("migrate", ...zone, "--yes")
    expect(applied.status, applied.stderr).toBe(0)
    const r = run("migrate", ...zone, "--replay", traffic)
    expect([r.status, r.stderr]).toEqual([0, ""])
    expect(r.stdout).toMatch(journalHeading(traffic))
    expect(r.stdout).toContain(
      "== firewall rules -> custom rules\n29 request(s): 29 decided alike, 0 differently (action 0, skipped 0, logged 0)\n"
    )
    expect(r.stdout).toContain(allAlike)
    const report = json<Report>(run("migrate", ...zone, "--replay", traffic, "--json"))
    expect([report.compared, report.requests, report.agreed]).toEqual(["journal", 87, 87])
    expect(report.journal).toMatch(/-zone-legacy\.json$/)

    // A second run finishes the previous WAF (validation mode, then pending): the journal's "before" still replays.
    expect(run("migrate", ...zone, "--waf-mode", "pending", "--yes").status).toBe(0)
    const again = run("migrate", ...zone, "--replay", traffic)
    expect([again.status, again.stderr]).toEqual([0, ""])
    expect(again.stdout).toMatch(journalHeading(traffic))
    expect(again.stdout).toContain(allAlike)

    // One migrated custom rule deleted by hand: the zone is no longer the plan's end state.
    const rules = json<Array<{ id: string; ref?: string }>>(run("custom-rules", "list", ...zone, "--json"))
    const migrated = rules.find((x) => x.ref?.startsWith("ua:") === true && !x.ref.includes("@"))!
    expect(run("custom-rules", "delete", ...zone, "--yes", migrated.id).status).toBe(0)
    const refused = run("migrate", ...zone, "--replay", traffic)
    expect([refused.status, refused.stdout]).toEqual([1, ""])
    expect(refused.stderr).toMatch(
      /^error: migrate --replay: zone acme-mail\.com is no longer what the migration in its journal \(.*-zone-legacy\.json\) left, so a replay of the journal's "before" would not stand for it: parts firewall rules -> custom rules; Zone Lockdown and User Agent Blocking -> custom rules differ: the custom rules entry point has 33 rule\(s\), the plan has 34\n$/
    )
  })

  it("after a rollback the replay is the plan's again", () => {
    const dir = tempDir("edgectl-zone-replay-rollback-")
    const at = (...args: string[]) => edgectl([...args, "--persist-to", "st"], { cwd: dir })
    // The previous WAF migrated on its own first: the umbrella then has no step it cannot undo.
    expect(at("waf", "migrate", ...zone, "--mode", "pending", "--yes").status).toBe(0)
    expect(at("migrate", ...zone, "--yes").status).toBe(0)
    const journal = at("migrate", ...zone, "--replay", traffic)
    expect(journal.stdout).toMatch(journalHeading(traffic))
    expect(journal.stdout).toContain(allAlike)
    const back = at("migrate", ...zone, "--rollback", "--yes")
    expect(back.status, back.stderr).toBe(0)
    const planned = at("migrate", ...zone, "--replay", traffic)
    expect([planned.status, planned.stderr]).toEqual([0, ""])
    expect(planned.stdout.startsWith(planHeading)).toBe(true)
    expect(planned.stdout).toContain(allAlike)
  })
})

describe("migrate --zone --replay after an apply, --remote on edgectl serve", () => {
  let platform: Platform
  let home: string
  const remote = (args: ReadonlyArray<string>) =>
    edgectlAsync([...args, "--remote"], {
      cwd: home,
      env: {
        CLOUDFLARE_API_BASE_URL: platform.baseUrl,
        CLOUDFLARE_API_TOKEN: World.allToken,
        CLOUDFLARE_API_KEY: undefined,
        CLOUDFLARE_EMAIL: undefined,
        XDG_STATE_HOME: path.join(home, "state")
      }
    })

  beforeAll(async () => {
    platform = await startPlatform()
    home = tempDir("edgectl-zone-replay-remote-")
  })
  afterAll(() => platform.close())

  it("replays the journal kept in the per-user state directory", async () => {
    const applied = await remote(["migrate", ...zone, "--yes"])
    expect(applied.status, applied.stderr).toBe(0)
    const r = await remote(["migrate", ...zone, "--replay", traffic])
    expect([r.status, r.stderr]).toEqual([0, ""])
    expect(r.stdout).toMatch(journalHeading(traffic))
    expect(r.stdout).toContain(path.join(home, "state", "edgectl", "migrations"))
    expect(r.stdout).toContain(allAlike)
  })
})
