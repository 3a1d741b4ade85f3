import { afterEach, describe, expect, it } from "vitest"
import { allRules } from "../../src/services/firewall.js"
import { hexId } from "../../src/store/world.js"
import { Fixture, Keys } from "../test-support.js"
import { liveDiagnostic } from "./firewall-panel.js"

const fixture = new Fixture()
afterEach(async () => {
  await fixture.dispose()
})

/** The app with `zone` open on its Firewall tab. */
const openFirewallTab = async (zone = "acme.com") => {
  const runtime = fixture.local()
  const app = await fixture.render(runtime)
  await app.waitForText("1/46")
  await app.press("/", "type filter by name")
  await app.press(zone, "1/1 ")
  await app.press(Keys.enter, `filter: ${zone}`)
  await app.press(Keys.enter, `zone ${zone}`)
  await app.press(Keys.tab, "[Certificate packs]")
  await app.press(Keys.tab, "[ESC]")
  await app.press(Keys.tab, "[Firewall]")
  await app.waitForText(`Firewall rules of ${zone}`)
  return { app, runtime }
}

describe("the Firewall tab of a zone", () => {
  it("lists the rules in evaluation order with action, paused state and expression", async () => {
    const { app } = await openFirewallTab()
    await app.waitForText("allow office logins")
    const frame = app.frame()
    expect(frame).toMatch(/#\s+PRIORITY\s+ACTION\s+PAUSED\s+DESCRIPTION\s+EXPRESSION/)
    expect(frame).toMatch(/› 1\s+1\s+allow\s+allow office logins\s+ip\.src in/)
    expect(frame).toMatch(/6\s+none\s+js_challenge\s+paused\s+js challenge sanctioned/)
    expect(frame).toMatch(/n new rule\s+p pause\s+d delete\s+t test request/)
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
    await app.press(Keys.enter, "✓ Created filter")
    await app.waitForText('http.host eq "tui.acme.net"')
    const rules = await runtime.runPromise(allRules(hexId("zone", "acme.net")))
    expect(rules.map((r) => [r.action, r.filter.id.length])).toEqual([["block", 32]])
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
    await app.press("p", "Pause rule allow office logins?")
    await app.press("y", "✓ Paused rule allow office logins")
    await app.waitForText("paused  allow office logins")
    await app.press("d", "Delete rule allow office logins?")
    expect(app.frame()).toContain("stays")
    await app.press(Keys.enter)
    expect(app.frame()).toContain("Delete rule allow office logins?")
    await app.press("y", "✓ Deleted rule allow office logins")
    const rules = await runtime.runPromise(allRules(hexId("zone", "acme.com")))
    expect(rules.map((r) => r.description)).not.toContain("allow office logins")
  })

  it("t tests a request typed as JSON and shows the deciding rule", async () => {
    const { app } = await openFirewallTab()
    await app.waitForText("allow office logins")
    await app.press("t", "Test a request to zone acme.com")
    await app.press('{"http.user_agent": "BadBot/2"', "not JSON yet")
    await app.press("}", (f) => !f.includes("not JSON yet"))
    await app.press(Keys.enter, "test: BLOCK by block bad bots")
  })
})

describe("the Firewall screen (3)", () => {
  it("with no zone open lists zones to pick; enter shows that zone's rules; z picks another", async () => {
    const app = await fixture.render(fixture.local())
    await app.waitForText("1/46")
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

describe("liveDiagnostic", () => {
  it("says what to type, then the first error with its position, then nothing", () => {
    expect(liveDiagnostic("")).toContain("type a filter expression")
    expect(liveDiagnostic("ip.src eq 1.2.3")).toMatch(/^error\[[a-z-]+\] at 11: /)
    expect(liveDiagnostic('http.host eq "a"')).toBeUndefined()
  })
})
