/**
 * The migration replay's differences in a real terminal (test/helpers/pty.ts) at 80x24 and 120x40:
 * initech-payroll.com's demo traffic has two requests its old rules log and its custom rules cannot
 * (the log action is Enterprise only), each a row with both decisions and the rule responsible;
 * esc goes back to the preview, v shows them again; acme-mail.com shows none of it.
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
  it("initech-payroll.com: every difference a row with both decisions; acme-mail.com sees none", async () => {
    const t = (tui = await PtyTui.start({ columns, rows }))
    await openFirewallTab(t, "initech-payroll.com")
    t.write("m")
    await t.waitFor("p replay")
    t.write("p")
    await t.waitFor("Replay traffic through the old and the new rules")
    t.write(`${traffic}\r`)
    await t.waitFor("Replay of custom-rules-traffic.jsonl")
    let screen = flat(await t.settle())
    expect(screen).toContain("29 requests: 27 alike, 2 decided differently (action 0, skipped 0, logged 2)")
    expect(screen).toMatch(/› 27 logged payroll: GET initech-/)
    expect(screen).toMatch(/ 29 logged payroll-export-inside: GET initech-/)
    expect(screen).toContain("1/2 · line 27 (payroll): GET initech-payroll.com/payroll/2024-06")
    expect(screen).toMatch(/old nothing decides; logged by (".*" \()?[0-9a-f]{32}/)
    expect(screen).toContain("new nothing decides")
    fits(t, columns)
    t.write("j")
    await t.waitFor((s) =>
      flat(s).includes("2/2 · line 29 (payroll-export-inside): GET initech-payroll.com/payroll/export")
    )
    fits(t, columns)

    t.write(PtyKeys.escape)
    await t.waitFor((s) => flat(s).includes("replay: 29 requests, 2 decided differently"))
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
    expect(screen).not.toMatch(/Replay of|29 requests|initech/)
  }, 90_000)
})
