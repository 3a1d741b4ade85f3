/**
 * The legacy-product migrations in a real terminal (issue 33 item 3, the TUI's side), at 80x24 and
 * 120x40: a zone's Firewall tab, `l` previews the move of its Zone Lockdown and UA rules to custom
 * rules and `R` that of its rate limits; `a` applies after a confirmation whose `v` shows the exact
 * requests, `u` undoes it. Each write is read back through the CLI. Keys go in one read; a
 * bracketed paste on the preview is text no field takes: ignored, never run as keys.
 */
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { edgectlAsync, json, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { World } from "../helpers/platform.js"
import { remoteFaults } from "../helpers/remote-faults.js"
import { fits, flat, openFirewallTab } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const Zone = "acme-mail.com"
const traffic = path.resolve("fixtures/firewall/custom-rules-traffic.jsonl")
const { setup, cli: remoteCli } = remoteFaults("edgectl-tui-legacy-faults-")
const pasted = (text: string, bracketed: boolean) => (bracketed ? `\u001b[200~${text}\u001b[201~` : text)

interface Paused {
  readonly id: string
  readonly paused?: boolean
  readonly disabled?: boolean
}

const cli = async <A>(dir: string, ...args: Array<string>): Promise<A> => {
  const r = await edgectlAsync([...args, "--json", "--persist-to", dir])
  expect(r.status, r.stderr).toBe(0)
  return json<A>(r)
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("the legacy migrations at $columns x $rows", (size) => {
  it("l: Zone Lockdown and UA rules -> custom rules, previewed, applied with v showing the requests, undone", async () => {
    const dir = tempDir("edgectl-tui-lockdowns-")
    const lockdowns = () => cli<Array<Paused>>(dir, "firewall", "lockdowns", "list", "--zone", Zone)
    const uaRules = () => cli<Array<Paused>>(dir, "firewall", "ua-rules", "list", "--zone", Zone)
    const customRules = () => cli<Array<{ ref?: string }>>(dir, "custom-rules", "list", "--zone", Zone)
    // Who is paused (an undo writes the flags back: times of modification move on).
    const pausedFlags = async () =>
      [...(await lockdowns()), ...(await uaRules())].map((r) => ({ id: r.id, paused: r.paused }))
    const before = await pausedFlags()
    const t = (tui = await PtyTui.start({ ...size, persistTo: dir }))
    await openFirewallTab(t, Zone)

    t.write("l")
    await t.waitFor("Zone Lockdown and UA rules → custom rules")
    const screen = flat(await t.waitFor(/#1 skip, #2 block/))
    expect(screen).toMatch(/note\(s\), n reads them/)
    fits(t, size.columns)

    // A paste on the preview is not keys: "a⏎y" pasted neither opens the apply nor confirms it.
    // (Without the terminal's paste markers the same bytes are keys in one read, which act in
    // order, as docs/tui.md says: only the markers tell a paste from a burst of keys.)
    t.write(pasted("a\ny", true))
    await t.waitFor("paste ignored (2 lines): this screen takes no text")
    expect(t.screen()).not.toContain("Migrate the Zone Lockdown and UA rules")
    expect(await customRules()).toEqual([])
    // The notice takes the next key to go away.
    t.write(PtyKeys.escape)
    await t.waitFor((s) => !s.includes("paste ignored"))

    // p replays a traffic file through the zone now and the plan's end state, as --replay does:
    // the office's request on /admin, blocked by the lockdown now, is allowed after: its firewall
    // allow runs before every custom rule (issue 33), which the plan's note says and n shows.
    t.write("p")
    await t.waitFor("Replay traffic through")
    t.write(`${traffic}\r`)
    await t.waitFor((s) => flat(s).includes("28 decided alike, 1 differently"))
    expect(flat(t.screen())).toContain("office-admin")
    // The note that explains it named, in the firewall migration's replay's words (n reads it whole).
    expect(flat(t.screen())).toContain("explained by the plan's notes: 1 of 1 difference(s)")
    expect(flat(t.screen())).toContain("explained by firewall-allow-covers-migrated · n reads it")
    t.write("n")
    await t.waitFor("What explains line 6 (office-admin)")
    expect(flat(await t.settle())).toContain("firewall-allow-covers-migrated: ")
    t.write(PtyKeys.escape)
    await t.waitFor((s) => !s.includes("What explains line") && flat(s).includes("28 decided alike"))
    fits(t, size.columns)
    t.write(PtyKeys.escape)
    await t.waitFor((s) => s.includes("v replay") || flat(s).includes("Zone Lockdown and UA rules → custom rules"))

    t.write("n")
    // More notes than rows: the title stays, the notes are cut at the bottom (↓ scrolls).
    await t.waitFor((s) => s.includes(`Notes of the migration of ${Zone}`) && s.includes("esc close"))
    expect(flat(t.screen())).toContain("derived")
    expect(flat(t.screen())).toContain("(allow office network) allows the requests it matches")
    t.write(PtyKeys.escape)
    await t.waitFor((s) => !s.includes("Notes of the migration") && s.includes("a apply"))

    t.write("av")
    await t.waitFor(`Migrate the Zone Lockdown and UA rules of ${Zone}?`)
    await t.waitFor(/request\(s\) y sends/)
    expect(flat(t.screen())).toContain("PUT /zones/")
    fits(t, size.columns)
    t.write("y")
    await t.waitFor((s) => flat(s).includes(`Wrote 9 custom rules on ${Zone}`))
    await t.waitFor("in effect: every rule is migrated")
    expect((await customRules()).map((r) => r.ref?.split(":")[0])).toEqual([
      ...Array<string>(6).fill("lockdown"),
      ...Array<string>(3).fill("ua")
    ])
    expect([...(await lockdowns()), ...(await uaRules())].every((r) => r.paused === true)).toBe(true)

    t.write("u")
    await t.waitFor(`Undo the migration of ${Zone}?`)
    t.write("y")
    await t.waitFor((s) => flat(s).includes(`Rolled back the migration of ${Zone}`))
    expect(await customRules()).toEqual([])
    expect(await pausedFlags()).toEqual(before)
  }, 120_000)

  it("R: rate limits -> rate limiting rules, applied and undone; l and R each show their own migration", async () => {
    const dir = tempDir("edgectl-tui-ratelimits-")
    const plan = () =>
      cli<{ before: { rateLimits: Array<Paused>; rules: Array<unknown> } }>(
        dir,
        "firewall",
        "rate-limits",
        "migrate",
        "--zone",
        Zone,
        "--dry-run"
      )
    const before = (await plan()).before
    expect(before.rules).toEqual([])
    const t = (tui = await PtyTui.start({ ...size, persistTo: dir }))
    await openFirewallTab(t, Zone)
    // From one migration straight to the other: each view reads its own plan.
    t.write("l")
    await t.waitFor("Zone Lockdown and UA rules → custom rules")
    await t.waitFor(/#1 skip, #2 block/)
    t.write("R")
    await t.waitFor("Rate limits (previous version) → rate limiting rules")
    await t.waitFor(/#1 block 5\/300s/)
    fits(t, size.columns)

    t.write("a")
    await t.waitFor(`Migrate the rate limits of ${Zone}?`)
    t.write("y")
    await t.waitFor((s) => flat(s).includes(`Wrote 3 rate limiting rules on ${Zone}`))
    const after = (await plan()).before
    expect(after.rules).toHaveLength(3)
    expect(after.rateLimits.every((r) => r.disabled === true)).toBe(true)

    t.write("u")
    await t.waitFor(`Undo the migration of ${Zone}?`)
    t.write("y")
    await t.waitFor((s) => flat(s).includes(`Rolled back the migration of ${Zone}`))
    expect((await plan()).before).toEqual(before)
  }, 120_000)
})

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("a legacy migration stopped by a failure, at $columns x $rows", (size) => {
  it("the TUI shows the CLI's unfinished journal (--remote), f finishes it, u undoes it", async () => {
    // globex-store.com: one lockdown and two UA rules, 4 steps; the 3rd write fails.
    const zone = "globex-store.com"
    const c = await setup(3, { kind: "status", status: 500, times: 10 })
    const stopped = await remoteCli(c, ["firewall", "lockdowns", "migrate", "--zone", zone, "--yes"])
    expect(stopped.status).toBe(1)
    expect(stopped.stderr).toContain("2 of 4 step(s) written")
    c.proxy.arm(undefined)
    const read = async <A>(...args: Array<string>) => {
      const r = await remoteCli(c, [...args, "--json"], true)
      expect(r.status, r.stderr).toBe(0)
      return json<A>(r)
    }
    const paused = async () =>
      [
        ...(await read<Array<Paused>>("firewall", "lockdowns", "list", "--zone", zone)),
        ...(await read<Array<Paused>>("firewall", "ua-rules", "list", "--zone", zone))
      ].map((r) => r.paused)

    const t = (tui = await PtyTui.start({
      ...size,
      args: ["--remote"],
      cwd: c.home,
      env: {
        CLOUDFLARE_API_BASE_URL: c.platform.baseUrl,
        CLOUDFLARE_API_TOKEN: World.allToken,
        CLOUDFLARE_API_KEY: undefined,
        CLOUDFLARE_EMAIL: undefined,
        XDG_STATE_HOME: `${c.home}/state`,
        HOME: c.home
      }
    }))
    await openFirewallTab(t, zone)
    t.write("l")
    await t.waitFor((s) => flat(s).includes("unfinished migrate: 2 of 4 steps written"))
    expect(t.screen()).toContain("f finish")
    fits(t, size.columns)
    t.write("f")
    await t.waitFor((s) => flat(s).includes(`Finished the migration of ${zone}`))
    await t.waitFor("in effect: every rule is migrated")
    expect(await paused()).toEqual([true, true, true])
    expect(await read<Array<unknown>>("custom-rules", "list", "--zone", zone)).toHaveLength(4)

    t.write("u")
    await t.waitFor(`Undo the migration of ${zone}?`)
    t.write("y")
    await t.waitFor((s) => flat(s).includes(`Rolled back the migration of ${zone}`))
    expect(await paused()).toEqual([false, false, false])
    expect(await read<Array<unknown>>("custom-rules", "list", "--zone", zone)).toEqual([])
  }, 120_000)
})
