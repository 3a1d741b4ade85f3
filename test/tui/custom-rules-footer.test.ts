/**
 * The custom rules view's footer in a real terminal at 80x24 and 120x40: one hint per key, the one
 * that acts (the detail's esc goes back to the list, not to the firewall rules; a refusal takes any
 * key), and each notice of a write names its zone.
 */
import { afterEach, describe, expect, it } from "vitest"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { addCustomRuleMeanwhile, openFirewallTab } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

/** The footer's key line: the one under the panes' bottom border (a notice may follow it). */
const keyLine = (t: PtyTui) => {
  const lines = [...t.lines()]
  const border = lines.length - 1 - [...lines].reverse().findIndex((l) => l.startsWith("╰"))
  return lines[border + 1] ?? ""
}

const escHints = (line: string) => line.match(/\besc \S+( rules)?/g) ?? []

describe.each([
  [80, 24],
  [120, 40]
])("the custom rules view's footer at %ix%i", (columns, rows) => {
  it("lists the esc that acts, and its notices name the zone", async () => {
    const t = (tui = await PtyTui.start({ columns, rows }))
    await openFirewallTab(t, "acme-mail.com")
    t.write("m")
    await t.waitFor("a apply")
    t.write("a")
    await t.waitFor("Migrate the firewall rules of acme-mail.com?")
    t.write("y")
    await t.waitFor(/✓ Wrote \d+ custom rules on acme-mail\.com; paused \d+ firewall rules/)
    await t.waitFor(/› #1\s+skip securityLevel\s+on/)

    // One rule whole: esc goes back to the list, and the footer says only that.
    t.write(PtyKeys.enter)
    await t.waitFor("Custom rule #1 (monitoring skips security level)")
    await t.settle()
    expect(escHints(keyLine(t))).toEqual(["esc list"])

    t.write(PtyKeys.escape)
    await t.waitFor(/› #1\s+skip securityLevel\s+on/)
    await t.settle()
    expect(escHints(keyLine(t))).not.toContain("esc list")

    // Added pasted in one write: the notice names the zone.
    t.write(`nhttp.host eq "added.example"\r\r\r\r\r`)
    await t.waitFor(/✓ Added custom rule #\d+ on acme-mail\.com/)

    // Disabled after the confirmation: named with its zone too.
    t.write("p")
    await t.waitFor("?")
    t.write("y")
    await t.waitFor(/✓ Disabled custom rule #\d+.* on acme-mail\.com/)

    // A refusal takes any key: the footer says that, not the tab's keys below the panel. Another
    // client creates the entry point of initech-payroll.com meanwhile, so the TUI's add is refused.
    t.write(PtyKeys.escape)
    await t.waitFor("Firewall rules of acme-mail.com")
    await openFirewallTab(t, "initech-payroll.com")
    t.write("c")
    await t.waitFor("No custom rules on this zone.")
    await t.settle()
    expect(escHints(keyLine(t))).toEqual(["esc firewall rules"])
    await addCustomRuleMeanwhile(t, "initech-payroll.com")
    t.write(`nhttp.host eq "mine.example"\r\r\r\r\r`)
    await t.waitFor("any key dismisses")
    await t.settle()
    expect(keyLine(t).trim()).toBe("any key dismiss")
    expect(escHints(keyLine(t))).toEqual([])
    expect(keyLine(t)).not.toMatch(/\bm migrate\b|\bn new\b/)
    t.write("x")
    await t.waitFor((s) => !s.includes("any key dismisses"))
    await t.settle()
    expect(keyLine(t)).toMatch(/\bn new\b/)
  })
})
