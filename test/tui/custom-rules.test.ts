/**
 * The migration to custom rules in a real terminal (test/helpers/pty.ts), at 80x24 and 120x40:
 * acme-mail.com's Firewall tab, m previews, p replays the demo traffic, a applies after the
 * confirmation, and the tab shows the custom rules; then initech-payroll.com shows none of it.
 */
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { fits, flat, openFirewallTab, withoutNotice } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const traffic = path.resolve("fixtures/firewall/custom-rules-traffic.jsonl")

describe.each([
  [80, 24],
  [120, 40]
])("the migration to custom rules at %ix%i", (columns, rows) => {
  it("acme-mail.com: preview, replay, apply, custom rules; initech-payroll.com sees none of it", async () => {
    const t = (tui = await PtyTui.start({ columns, rows }))
    await openFirewallTab(t, "acme-mail.com")
    await t.waitFor("m migrate")

    t.write("m")
    await t.waitFor(/› #1\s+bypass(\(securityLevel\))?\s+-> skip securityLevel/)
    let screen = await t.settle()
    expect(screen).toMatch(/#6\s+block\s+-> block off/)
    expect(screen).toContain("a apply")
    fits(t, columns)

    t.write("p")
    await t.waitFor("Replay traffic through")
    t.write(`${traffic}\r`)
    // The replay's differences open over the preview: none here, said whole; esc goes back.
    await t.waitFor((s) => flat(s).includes("✓ No difference: 29 request(s): 29 decided alike"))
    fits(t, columns)
    t.write(PtyKeys.escape)
    // At 80 columns the line wraps inside the pane.
    await t.waitFor((s) => flat(s).includes("replay of custom-rules-traffic.jsonl: 29 requests, no difference"))
    fits(t, columns)

    t.write("a")
    await t.waitFor("Migrate the firewall rules of acme-mail.com?")
    screen = flat(await t.settle())
    // The sidebar's rows sit between the dialog's wrapped lines: each part on its own.
    expect(screen).toContain("PUT the custom phase (http_request_firewall_custom)")
    expect(screen).toMatch(/entry point with (.* )?16 rules\./)
    expect(screen).toMatch(/Pause \d+ firewall rules? that now ha(ve|s) a custom rule/)
    fits(t, columns)
    t.write("y")
    await t.waitFor("Custom rules of acme-mail.com")
    await t.waitFor(/› #1\s+skip securityLevel\s+on\s+http\.user_agent contains/)
    expect(await t.settle()).toMatch(/#6\s+block\s+off/)
    fits(t, columns)

    // Another zone: its own firewall rules, no custom rules, no preview or replay of acme-mail.com.
    t.write(PtyKeys.escape)
    await t.waitFor("Firewall rules of acme-mail.com")
    await openFirewallTab(t, "initech-payroll.com")
    t.write("c")
    await t.waitFor("No custom rules on this zone.")
    expect(withoutNotice(t.screen())).not.toMatch(/acme-mail\.com|securityLevel|29 requests/)
    t.write("m")
    await t.waitFor("Migrate initech-payroll.com to custom rules")
    screen = await t.settle()
    expect(withoutNotice(screen)).not.toMatch(/acme-mail\.com|29 requests/)
    fits(t, columns)
  }, 90_000)
})
