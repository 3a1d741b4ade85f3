/**
 * The firewall migration's replay names what explains a difference (issue 33), in a real terminal
 * at 80x24 and 120x40: on acme-mail.com after `firewall lockdowns migrate --yes` (the built CLI, on
 * the TUI's --persist-to state), the migration places the migrated Zone Lockdown rules again before
 * the office's skip, so the office's request on /admin, allowed now, is blocked after. The counts
 * line says the plan's notes explain it, the difference names its note (the CLI's words,
 * `firewall migrate --replay`), `n` reads the note whole, and the replay's line under the preview
 * counts the difference and that it is explained.
 */
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { fits, flat, openFirewallTab } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const Zone = "acme-mail.com"
const traffic = path.resolve("fixtures/firewall/custom-rules-traffic.jsonl")

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("the firewall migration's replay explained at $columns x $rows", (size) => {
  it("after the Zone Lockdown migration: the one difference explained by placed-again-before-skip, n reads it", async () => {
    const dir = tempDir("edgectl-tui-replay-explained-")
    const lockdowns = await edgectlAsync([
      "firewall",
      "lockdowns",
      "migrate",
      "--yes",
      "--zone",
      Zone,
      "--persist-to",
      dir
    ])
    expect(lockdowns.status, lockdowns.stderr).toBe(0)

    const t = (tui = await PtyTui.start({ ...size, persistTo: dir }))
    await openFirewallTab(t, Zone)
    t.write("m")
    await t.waitFor("p replay")
    t.write("p")
    await t.waitFor("Replay traffic through")
    t.write(`${traffic}\r`)
    await t.waitFor("Replay of custom-rules-traffic.jsonl")
    let screen = flat(await t.settle())
    expect(screen).toContain(
      "29 request(s): 28 decided alike, 1 differently (action 1, skipped 0, logged 0); explained by the plan's notes: 1 of 1 difference(s)"
    )
    expect(screen).toContain("1/1 · line 6 (office-admin): GET acme-mail.com/admin/users")
    expect(screen).toContain("explained by placed-again-before-skip · n reads it")
    expect(screen).toMatch(/before allow by firewall rule ".*" \([0-9a-f]{32}\)/)
    expect(screen).toMatch(/after block by custom rule/)
    // Where there is room, the list has the CLI's EXPLAINED BY column.
    if (size.columns >= 120) expect(screen).toMatch(/6 action placed-again-before-skip office-admin: GET/)
    fits(t, size.columns)

    t.write("n")
    await t.waitFor("What explains line 6 (office-admin)")
    screen = flat(await t.settle())
    expect(screen).toContain(
      "placed-again-before-skip: firewall rule 273d82f59cb78511f7c81944baabf441 becomes a custom rule that skips the rest of the custom phase"
    )
    // The note whole, to its last words.
    expect(screen).toContain("so those requests are checked as before the Zone Lockdown migration (derived)")
    fits(t, size.columns)

    t.write(PtyKeys.escape)
    await t.waitFor(
      (s) => !s.includes("What explains line") && flat(s).includes("explained by placed-again-before-skip")
    )
    t.write(PtyKeys.escape)
    screen = flat(await t.waitFor(`Migrate ${Zone} to custom rules`))
    // The replay's line under the preview counts the differences and those the notes explain, as the counts line does.
    expect(screen).toContain(
      "replay of custom-rules-traffic.jsonl: 29 requests, 1 decided differently, 1 of 1 explained by the plan's notes (line 6:"
    )
    fits(t, size.columns)
    // In one read: v opens the replay again, n its note, backspace closes each, j moves on the preview.
    t.write(`vn${PtyKeys.backspace}${PtyKeys.backspace}j`)
    screen = flat(await t.waitFor("› #2"))
    expect(screen).toContain("1 decided differently, 1 of 1 explained by the plan's notes")
    expect(screen).not.toContain("What explains line")
  }, 120_000)
})
