/**
 * The zone's Firewall tab, migration to custom rules (issue 21 item 4) with ink-testing-library
 * over a real embedded platform: m previews (old rule -> new rule, notes), p replays the demo
 * traffic, a applies after a confirmation naming what is sent, and c shows the custom rules,
 * which p disables or enables and d deletes, each confirmed. None of it shows on another zone.
 */
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { allRules } from "../../../src/services/firewall-service.js"
import { getCustomRules } from "../../../src/services/rulesets-service.js"
import { resolveZone } from "../../../src/services/zones-service.js"
import { Fixture, Keys } from "../../helpers/ink.js"
import { withoutNotice } from "../../helpers/tui-screen.js"

const fixture = new Fixture()
afterEach(async () => {
  await fixture.dispose()
})

const traffic = path.resolve("fixtures/firewall/custom-rules-traffic.jsonl")

/** The app with `zone` open on its Firewall tab. */
const openFirewallTab = async (zone: string) => {
  const { app, runtime } = await fixture.openZone(zone, ["Certificate packs", "ESC", "Firewall"])
  await app.waitForText(`Firewall rules of ${zone}`)
  return { app, runtime }
}

describe("the migration to custom rules on a zone's Firewall tab", () => {
  it("m previews, p replays the demo traffic, a applies after a confirmation; c shows the custom rules", async () => {
    const { app, runtime } = await openFirewallTab("acme-mail.com")
    expect(app.frame()).toMatch(/m migrate\s+c custom rules/)
    await app.press("m", "CUSTOM RULE")
    let frame = app.frame()
    expect(frame).toContain("Migrate acme-mail.com to custom rules")
    expect(frame).toMatch(/› #1\s+bypass\s+-> skip securityLevel/)
    expect(frame).toMatch(/#6\s+block\s+-> block off/)
    expect(frame).toMatch(/#7\s+log\s+-> log/)
    expect(frame).toContain('http.user_agent contains "UptimeMonitor"')
    expect(frame).toMatch(/p replay traffic\s+a apply/)

    await app.press("p", "Replay traffic through acme-mail.com before and after the migration")
    await app.press(`${traffic}\r`, "No difference")
    expect(app.frame()).toContain("✓ No difference: 29 request(s): 29 decided alike")
    await app.press(Keys.escape, "replay of custom-rules-traffic.jsonl")
    expect(app.frame()).toContain("replay of custom-rules-traffic.jsonl: 29 requests, no difference")

    await app.press("a", "Migrate the firewall rules of acme-mail.com?")
    frame = app.frame()
    expect(frame).toContain("PUT the custom phase (http_request_firewall_custom) entry point with")
    expect(frame).toMatch(/Pause \d+ firewall rules? that now ha(ve|s) a custom rule/)
    await app.press("y", "Custom rules of acme-mail.com")
    await app.waitForText("#1")
    frame = app.frame()
    expect(frame).toMatch(/› #1\s+skip securityLevel\s+on\s+http\.user_agent contains "UptimeMonitor"/)
    expect(frame).toMatch(/#6\s+block\s+off/)

    // What the platform holds: the custom phase in that order, and every old rule it replaces paused.
    const zone = await runtime.runPromise(resolveZone("acme-mail.com"))
    const custom = await runtime.runPromise(getCustomRules(zone.id))
    expect(custom?.rules.slice(0, 8).map((r) => r.action)).toEqual([
      "skip",
      "skip",
      "skip",
      "skip",
      "skip",
      "block",
      "log",
      "skip"
    ])
    const old = await runtime.runPromise(allRules(zone.id))
    const refs = new Set(custom?.rules.map((r) => r.ref))
    const replaced = old.filter((r) => refs.has(r.id))
    expect(replaced.length).toBe(custom?.rules.length)
    expect(replaced.every((r) => r.paused)).toBe(true)

    // p disables a rule and d deletes one, each after a confirmation.
    await app.press("p", "Disable custom rule #1")
    await app.press("y", (f) => /› #1\s+skip securityLevel\s+off/.test(f))
    await app.press("d", "Delete custom rule #1")
    await app.press("n", (f) => !f.includes("Delete custom rule"))
    expect(app.frame()).toMatch(/› #1\s+skip securityLevel/)
    await app.press("d", "Delete custom rule #1")
    await app.press("y", (f) => /› #1\s+skip zoneLockdown/.test(f))
    const after = await runtime.runPromise(getCustomRules(zone.id))
    expect(after?.rules.length).toBe(custom!.rules.length - 1)
    expect(after?.rules[0]?.action_parameters?.products).toEqual(["zoneLockdown"])

    // esc goes back to the firewall rules; m again says an apply keeps the custom rules and leaves
    // out the rules migrated before (mapped again, paused, they would replace live rules disabled).
    await app.press(Keys.escape, "Firewall rules of acme-mail.com")
    await app.press(
      "m",
      `a keeps the ${after!.rules.length} custom rules; leaves out ${after!.rules.length} rules migrated before`
    )
  })

  it("is kept with its zone: another zone's tab shows neither the preview, the replay nor the custom rules", async () => {
    const { app } = await openFirewallTab("acme-mail.com")
    await app.press("m", "CUSTOM RULE")
    await app.press("p", "Replay traffic")
    await app.press(`${traffic}\r`, "No difference")
    await app.press(Keys.escape, "replay of custom-rules-traffic.jsonl")
    await app.press("a", "Migrate the firewall rules of acme-mail.com?")
    await app.press("y", (f) => /› #1\s+skip securityLevel/.test(f))
    // To another zone by the zone list.
    await app.press(Keys.escape, "Firewall rules of acme-mail.com")
    await app.press(Keys.escape, (f) => !f.includes("[Firewall]"))
    await app.press(Keys.escape, (f) => !f.includes("filter: acme-mail.com"))
    await app.press("/", "type filter by name")
    await app.press("initech-payroll.com", "1/1 ")
    await app.press(Keys.enter, "filter: initech-payroll.com")
    await app.press(Keys.enter, "zone initech-payroll.com")
    await app.press(Keys.tab + Keys.tab + Keys.tab, "Firewall rules of initech-payroll.com")
    await app.press("c", "No custom rules on this zone.")
    expect(withoutNotice(app.frame())).not.toMatch(/acme-mail|securityLevel|29 requests/)
    await app.press("m", "CUSTOM RULE")
    expect(withoutNotice(app.frame())).not.toMatch(/acme-mail|29 requests/)
  })

  it("? lists the migration's keys with the firewall rules' keys", async () => {
    const { app } = await openFirewallTab("acme-mail.com")
    await app.waitForText("UptimeMonitor")
    await app.press("?", "keys here")
    expect(app.frame()).toMatch(/m\s+migrate/)
    expect(app.frame()).toMatch(/c\s+custom rules/)
  })

  it("a on a zone with no firewall rules sends nothing and says why", async () => {
    const { app } = await openFirewallTab("acme.net")
    await app.press("m", "nothing to migrate")
    await app.press("a", "nothing to apply: no firewall rule of this zone becomes a custom rule")
    expect(app.frame()).not.toContain("Migrate the firewall rules of")
  })

  it("a traffic file that cannot be read is an error naming the file", async () => {
    const { app } = await openFirewallTab("acme-mail.com")
    await app.press("m", "CUSTOM RULE")
    await app.press("p", "Replay traffic")
    // The one traffic reader's words (src/rules/replay-file.ts), as `waf replay` and the WAF wizard say them.
    await app.press("/nonexistent/traffic.jsonl\r", "does not exist")
    expect(app.frame()).toContain("traffic file /nonexistent/traffic.jsonl does not exist")
  })

  it("after an apply the replay compares the journal's before with the zone now, as the CLI does", async () => {
    const { app } = await openFirewallTab("acme-mail.com")
    await app.press("m", "CUSTOM RULE")
    await app.press("a", "Migrate the firewall rules of acme-mail.com?")
    await app.press("y", "Custom rules of acme-mail.com")
    await app.press(Keys.escape, "Firewall rules of acme-mail.com")
    await app.press("m", "migrated before")
    await app.press("p", "Replay traffic")
    await app.press(`${traffic}\r`, "No difference")
    expect(app.frame()).toContain("the zone before the migration (its journa")
    expect(app.frame()).not.toContain("nothing to compare")
  })
})
