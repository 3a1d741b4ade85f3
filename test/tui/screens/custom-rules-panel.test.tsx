/**
 * The custom rules panel's edges with ink-testing-library over a real embedded platform: the plan's
 * rule limit refused by the platform and shown whole in the panel (nothing written, the next key
 * only dismisses it), a place out of range named with its limit and value, a move past the top
 * said instead of sent, the detail view, and an edit that keeps the rule's ref.
 */
import { afterEach, describe, expect, it } from "vitest"
import { getCustomRules, putCustomRules } from "../../../src/services/rulesets-service.js"
import { resolveZone } from "../../../src/services/zones-service.js"
import { CustomRulesPanel } from "../../../tui/screens/custom-rules-panel.js"
import { Fixture, Keys } from "../../helpers/ink.js"

const fixture = new Fixture()
afterEach(async () => {
  await fixture.dispose()
})

const flat = (frame: string) => frame.replace(/[│╭╮╰╯─\s]+/g, " ")

/** initech-payroll.com (pro: 20 custom rules at most) with `n` rules, and the panel on it. */
const panelWith = async (n: number) => {
  const runtime = fixture.local()
  const zone = await runtime.runPromise(resolveZone("initech-payroll.com"))
  await runtime.runPromise(
    putCustomRules(zone.id, {
      rules: Array.from({ length: n }, (_, i) => ({
        action: "block",
        expression: `http.request.uri.path eq "/r${i + 1}"`,
        description: `rule ${i + 1}`,
        ref: `ref-${i + 1}`
      }))
    })
  )
  const app = await fixture.within(runtime, <CustomRulesPanel zone={zone} active height={14} />)
  await app.waitForText('"/r1"')
  const rules = async () => (await runtime.runPromise(getCustomRules(zone.id)))?.rules ?? []
  return { app, rules }
}

describe("the custom rules panel", () => {
  it("shows the plan's rule limit whole when the platform refuses a 21st rule on a pro zone; nothing is written", async () => {
    const { app, rules } = await panelWith(20)
    await app.press("n", "New custom rule: its expression")
    await app.press('http.request.uri.path eq "/one-more"', '"/one-more"')
    await app.press(Keys.enter, "its action")
    expect(app.frame()).not.toMatch(/› log/)
    expect(app.frame()).toContain("log needs the Enterprise plan (pro here)")
    await app.press(Keys.enter, "its description")
    await app.press(Keys.enter, "on or off?")
    await app.press(Keys.enter, "its place in the run order")
    await app.press(Keys.enter, "could not add the custom rule")
    const frame = flat(app.frame())
    expect(frame).toContain(
      "could not add the custom rule: rules: a pro zone may have at most 20 custom rules in the http_request_firewall_custom phase, got 21"
    )
    expect(frame).toMatch(
      /\[code \d+\] nothing was written · hint: the plan's limit: delete \(d\) or merge rules first/
    )
    expect((await rules()).length).toBe(20)
    // The key that dismisses it does only that: d does not open the delete dialog.
    await app.press("d", (f) => !f.includes("could not add"))
    expect(app.frame()).not.toContain("Delete custom rule")
  })

  it("names the field, the limit and the value of a place out of range; a move past the top is said, not sent", async () => {
    const { app, rules } = await panelWith(3)
    await app.press("K", "#1 is already first")
    // Shown as a warning in the footer: the next key only dismisses it.
    await app.press("o", (f) => !f.includes("already first"))
    await app.press("o", "Move custom rule #1 (rule 1) to place")
    await app.press("9", 'place: expected a whole number from 1 to 3, got "9"')
    await app.press(Keys.backspace + "3" + Keys.enter, "Moved custom rule #1 (rule 1) to #3")
    await app.waitForText("› #3")
    expect((await rules()).map((r) => r.description)).toEqual(["rule 2", "rule 3", "rule 1"])
  })

  it("enter shows a rule whole; e edits it in place and keeps its ref", async () => {
    const { app, rules } = await panelWith(2)
    await app.press("j", "rule 2 · ref ref-2")
    await app.press(Keys.enter, "Custom rule #2 (rule 2)")
    expect(app.frame()).toMatch(/ref\s+ref-2/)
    await app.press(Keys.escape, "ACTION")
    await app.press("e", "Custom rule #2: its expression")
    expect(app.frame()).toContain('http.request.uri.path eq "/r2"')
    await app.press(' or http.host eq "x.example"' + Keys.enter, "its action")
    await app.press("j" + Keys.enter, "its description")
    await app.press(Keys.enter, "on or off?")
    await app.press(Keys.enter, "Saved custom rule #2 (rule 2)")
    const after = await rules()
    expect(after[1]).toMatchObject({
      ref: "ref-2",
      action: "challenge",
      description: "rule 2",
      expression: 'http.request.uri.path eq "/r2" or http.host eq "x.example"'
    })
  })

  it("a first rule never replaces rules another client wrote since the list was read", async () => {
    const runtime = fixture.local()
    const zone = await runtime.runPromise(resolveZone("initech-payroll.com"))
    const app = await fixture.within(runtime, <CustomRulesPanel zone={zone} active height={14} />)
    await app.waitForText("No custom rules on this zone.")
    await runtime.runPromise(
      putCustomRules(zone.id, { rules: [{ action: "block", expression: 'http.host eq "meanwhile"' }] })
    )
    await app.press("n", "its expression")
    await app.press('http.host eq "mine"' + Keys.enter, "its action")
    await app.press(Keys.enter, "its description")
    await app.press(Keys.enter, "on or off?")
    await app.press(Keys.enter, "its place")
    await app.press(Keys.enter, "could not add the custom rule")
    expect(flat(app.frame())).toMatch(/the zone has its entry point; .* \[code 20217\] nothing was written/)
    const rules = (await runtime.runPromise(getCustomRules(zone.id)))?.rules ?? []
    expect(rules.map((r) => r.expression)).toEqual(['http.host eq "meanwhile"'])
  })
})
