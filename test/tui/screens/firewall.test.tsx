import { afterEach, describe, expect, it } from "vitest"
import { allRules } from "../../../src/services/firewall-service.js"
import { hexId } from "../../../src/domain/ids.js"
import { Fixture, Keys, waitFor } from "../../helpers/ink.js"
import { liveDiagnostic } from "../../../tui/screens/firewall-panel.js"
import { ruleTable } from "../../../tui/screens/firewall-table.js"
import { zoneCounter } from "../../helpers/demo-world.js"

const fixture = new Fixture()
afterEach(async () => {
  await fixture.dispose()
})

/** The app with `zone` open on its Firewall tab. */
const openFirewallTab = async (zone = "acme.com") => {
  const { app, runtime } = await fixture.openZone(zone, ["Certificate packs", "ESC", "Firewall"])
  await app.waitForText(`Firewall rules of ${zone}`)
  return { app, runtime }
}

describe("the Firewall tab of a zone", () => {
  it("lists the rules in evaluation order with action, paused state and expression; names a rule #n and description", async () => {
    const { app } = await openFirewallTab()
    await app.waitForText("allow office logins")
    const frame = app.frame()
    // The ink terminal is 100 wide: an 80-column pane, so the narrow table (no priority column).
    expect(frame).toMatch(/#\s+ACTION\s+DESCRIPTION\s+EXPRESSION/)
    expect(frame).toMatch(/› 1\s+allow\s+allow office lo…\s+ip\.src in \{203\.0\.113\.0\/24/)
    expect(frame).toMatch(/6\s+js_challenge\s+paused · js cha…\s+ip\.src\.country in/)
    expect(frame).toContain("#1 allow office logins · allow · priority 1: ip.src in")
    expect(frame).not.toMatch(/[0-9a-f]{32}/)
    expect(frame).toMatch(/enter details\s+n new\s+e edit\s+d delete\s+p pause\s+t test/)
  })

  it("enter shows one rule whole (the expression the table cuts, its filter and who shares it); esc goes back to the table", async () => {
    const { app } = await openFirewallTab()
    await app.waitForText("allow office logins")
    await app.press(Keys.enter, "Rule #1 allow office logins")
    expect(app.frame()).toMatch(/priority\s+1/)
    expect(app.frame()).toContain("no other rule uses this filter")
    expect(app.frame().replace(/[│\s]+/g, " ")).toContain(
      'ip.src in {203.0.113.0/24 2001:db8::/32} and http.request.uri.path in {"/wp-login.php" "/xmlrpc.php"}'
    )
    await app.press(Keys.escape, (f) => f.includes("DESCRIPTION") && !f.includes("Rule #1"))
    // A second esc leaves the tab for the zone list, as on every screen.
    await app.press(Keys.escape, (f) => !f.includes("Firewall rules of"))
  })

  it("n creates a rule with live diagnostics under the expression as it is typed", async () => {
    const { app, runtime } = await openFirewallTab("acme.net")
    await app.waitForText("No firewall rules on this zone.")
    await app.press("n", "its filter expression")
    await app.press("http.hots", "error[unknown-field] at 1: unknown field `http.hots`")
    expect(app.frame()).toContain("http.host")
    await app.press(Keys.enter, "error[unknown-field]")
    for (let i = 0; i < 9; i++) await app.press(Keys.backspace)
    await app.press('http.host eq "tui.acme.net"', (f) => !f.includes("error[") && f.includes('tui.acme.net"'))
    await app.press(Keys.enter, "Action")
    await app.press("block", "› block")
    await app.press(Keys.enter, "Priority")
    await app.press("x", 'priority must be an integer between 0 and 2147483647 or none, got "x"')
    await app.press(Keys.backspace + "12")
    await app.press(Keys.enter, "Description")
    await app.press("tui block", "› tui block")
    await app.press(Keys.enter, "✓ Created #1 tui block (block) with a new filter")
    await app.waitForText('http.host eq "tui.acme.net"')
    const rules = await runtime.runPromise(allRules(hexId("zone", "acme.net")))
    expect(rules.map((r) => [r.action, r.priority, r.description, r.filter.id.length])).toEqual([
      ["block", 12, "tui block", 32]
    ])
  })

  it("bypass asks what it skips, checked as the platform checks it", async () => {
    const { app, runtime } = await openFirewallTab("acme.net")
    await app.waitForText("No firewall rules on this zone.")
    await app.press("n", "its filter expression")
    await app.press('http.request.uri.path eq "/up"', '"/up"')
    await app.press(Keys.enter, "Action")
    await app.press("bypass", "› bypass")
    await app.press(Keys.enter, "What bypass skips")
    await app.press(
      "waf,wafx",
      (f) => f.includes("products must contain only zoneLockdown") && f.includes('got string "wafx"')
    )
    for (let i = 0; i < 5; i++) await app.press(Keys.backspace)
    await app.press(Keys.enter, "Priority")
    await app.press(Keys.enter, "Description")
    await app.press(Keys.enter, "✓ Created #1 (bypass, no description) with a new filter")
    const rules = await runtime.runPromise(allRules(hexId("zone", "acme.net")))
    expect(rules.map((r) => [r.action, r.products, r.priority])).toEqual([["bypass", ["waf"], null]])
  })

  it("e edits a rule's priority and description; the rule is then named by its new place", async () => {
    const { app, runtime } = await openFirewallTab()
    await app.waitForText("allow office logins")
    await app.press("G", "› 6")
    await app.press("e", "Priority of #6 js challenge sanctioned countries (now none)")
    await app.press("0", "› 0")
    await app.press(Keys.enter, "Description of #6 js challenge sanctioned countries")
    await app.press("first", "› first")
    await app.press(Keys.enter, "✓ Saved #1 first")
    // The list is read again after the write; until then the last one stays and the cursor follows
    // the rule it is on, so `g` waits for the new order (the edited rule on the first row).
    await waitFor(() => /\s1\s+js_challenge\s+paused · first/.test(app.frame()), app.frame)
    await app.press("g", "#1 first · js_challenge · priority 0 · paused")
    const rules = await runtime.runPromise(allRules(hexId("zone", "acme.com")))
    expect(rules.find((r) => r.description === "first")?.priority).toBe(0)
  })

  it("a refusal goes to the footer and stays until the next key", async () => {
    const { app } = await openFirewallTab("acme.net")
    await app.waitForText("No firewall rules on this zone.")
    await app.press("p", "no rule selected: n creates one")
    const lines = app.frame().split("\n")
    expect(lines.findIndex((l) => l.includes("no rule selected"))).toBeGreaterThan(lines.length - 4)
    await app.press(Keys.down, (f) => !f.includes("no rule selected"))
  })

  it("p pauses after confirming; d deletes after a destructive confirmation (y only)", async () => {
    const { app, runtime } = await openFirewallTab()
    await app.waitForText("allow office logins")
    await app.press("p", "Pause rule #1 allow office logins?")
    await app.press("y", "✓ Paused rule #1 allow office logins")
    await app.waitForText("paused · all")
    await app.press("d", "Delete rule #1 allow office logins?")
    expect(app.frame()).toContain("No other rule uses its filter: you are asked next whether to delete it too.")
    await app.press(Keys.enter)
    expect(app.frame()).toContain("Delete rule #1 allow office logins?")
    await app.press("y", "Delete its filter too? No rule uses it now.")
    await app.press("y", "✓ Deleted rule #1 allow office logins and its filter")
    const rules = await runtime.runPromise(allRules(hexId("zone", "acme.com")))
    expect(rules.map((r) => r.description)).not.toContain("allow office logins")
  })

  it("t tests a request typed as JSON and shows the deciding rule", async () => {
    const { app } = await openFirewallTab()
    await app.waitForText("allow office logins")
    // With #1 paused, the deciding rule is the 2nd one evaluated but still #3 in the table.
    await app.press("p", "Pause rule #1 allow office logins?")
    await app.press("y", "paused · all")
    await app.press("t", "Test a request to zone acme.com")
    await app.press('{"http.user_agent": "BadBot/2"', "not JSON yet")
    await app.press("}", (f) => !f.includes("not JSON yet"))
    // The rule is named by its place in the table (#3) and its description.
    await app.press(Keys.enter, "test: BLOCK by #3 block bad bots")
    expect(app.frame()).toMatch(/ 3\s+block\s+block bad bo/)
  })
})

describe("the Firewall screen (3)", () => {
  it("with no zone open lists zones to pick; enter shows that zone's rules; z picks another", async () => {
    const app = await fixture.render(fixture.local())
    await app.waitForText(zoneCounter(1))
    await app.press("3", "Pick a zone")
    await app.waitForText("acme-api.com")
    await app.press(Keys.enter, "Firewall rules of acme-api.com")
    await app.waitForText("No firewall rules on this zone.")
    await app.press("z", "Pick a zone")
    for (let i = 0; i < 30 && !/› acme\.com /.test(app.frame()); i++) await app.press("j")
    await app.press(Keys.enter, "Firewall rules of acme.com")
    await app.waitForText("allow office logins")
  })
})

describe("ruleTable", () => {
  it("keeps an expression column at any width, and every column from 90", () => {
    for (const columns of [60, 70, 89]) {
      const t = ruleTable(columns)
      expect(t.header).toMatch(/^#\s+ACTION\s+DESCRIPTION\s+EXP\S*$/)
      expect(t.header.length, String(columns)).toBeLessThanOrEqual(columns - 2)
    }
    expect(ruleTable(60).header.indexOf("EXPRESSION")).toBeLessThanOrEqual(40)
    expect(ruleTable(100).header).toMatch(/^#\s+PRIORITY\s+ACTION\s+PAUSED\s+DESCRIPTION\s+EXPRESSION$/)
  })
})

describe("liveDiagnostic", () => {
  it("says what to type, then the first error with its position, then nothing", () => {
    expect(liveDiagnostic("")).toContain("type a filter expression")
    expect(liveDiagnostic("ip.src eq 1.2.3")).toMatch(/^error\[[a-z-]+\] at 11: /)
    expect(liveDiagnostic('http.host eq "a"')).toBeUndefined()
  })
})
