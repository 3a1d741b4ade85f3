/**
 * The migration replay's differences in a real terminal (test/helpers/pty.ts) at 80x24 and 120x40:
 * on initech-payroll.com the log rule the migration leaves live (the log action of custom rules is
 * Enterprise only) runs before the migrated block after it, so it logs the blocked export: a row
 * with both decisions and the rules responsible; esc goes back to the preview, v shows it again;
 * acme-mail.com shows none of it.
 */
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { fits, flat, openFirewallTab } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const traffic = path.resolve("fixtures/firewall/custom-rules-traffic.jsonl")

describe.each([
  [80, 24],
  [120, 40]
])("the replay's differences at %ix%i", (columns, rows) => {
  it("initech-payroll.com: the difference a row with both decisions; acme-mail.com sees none", async () => {
    const t = (tui = await PtyTui.start({ columns, rows }))
    await openFirewallTab(t, "initech-payroll.com")
    t.write("m")
    await t.waitFor("p replay")
    t.write("p")
    await t.waitFor("Replay traffic through")
    t.write(`${traffic}\r`)
    await t.waitFor("Replay of custom-rules-traffic.jsonl")
    let screen = flat(await t.settle())
    expect(screen).toContain("29 request(s): 28 decided alike, 1 differently (action 0, skipped 0, logged 1)")
    expect(screen).toMatch(/› 28 logged payroll-export: GET initech-/)
    expect(screen).toContain("1/1 · line 28 (payroll-export): GET initech-payroll.com/payroll/export")
    expect(screen).toMatch(/before block by firewall rule ".*" \([0-9a-f]{32}\)/)
    expect(screen).toMatch(/after block by custom rule ".*" \([0-9a-f]{32}\); logged by firewall rule/)
    fits(t, columns)

    t.write(PtyKeys.escape)
    await t.waitFor((s) => flat(s).includes("replay of custom-rules-traffic.jsonl: 29 requests, 1 decided differently"))
    t.write("v")
    await t.waitFor("Replay of custom-rules-traffic.jsonl")
    t.write(PtyKeys.escape)
    await t.waitFor("Migrate initech-payroll.com to custom rules")

    t.write(PtyKeys.escape)
    await t.waitFor("Firewall rules of initech-payroll.com")
    await openFirewallTab(t, "acme-mail.com")
    t.write("m")
    await t.waitFor("Migrate acme-mail.com to custom rules")
    t.write("v")
    screen = await t.settle()
    expect(screen).not.toMatch(/Replay of|29 request|initech/)
  }, 90_000)
})
