/**
 * The custom rules panel never shows one zone's rules or dialogs on another (issue 14's rule),
 * even when the same panel is handed another zone (ink-testing-library over a real embedded
 * platform): no frame after the switch draws the first zone's rules under the second's title.
 */
import { useState } from "react"
import { afterEach, describe, expect, it } from "vitest"
import type { Zone } from "../../../src/domain/zone.js"
import { putCustomRules } from "../../../src/services/rulesets-service.js"
import { resolveZone } from "../../../src/services/zones-service.js"
import { CustomRulesMigration } from "../../../tui/screens/custom-rules-migration.js"
import { CustomRulesPanel } from "../../../tui/screens/custom-rules-panel.js"
import { Fixture, waitFor } from "../../helpers/ink.js"

const fixture = new Fixture()
afterEach(async () => {
  await fixture.dispose()
})

let switchTo: (z: Zone) => void = () => {}

function OnZone({ first, migration = false }: { first: Zone; migration?: boolean }) {
  const [zone, setZone] = useState(first)
  switchTo = setZone
  return migration ? (
    <CustomRulesMigration zone={zone} plan={zone.plan?.legacy_id} active height={14} onApplied={() => {}} />
  ) : (
    <CustomRulesPanel zone={zone} active height={14} />
  )
}

describe("the custom rules panel handed another zone", () => {
  it("shows only the new zone's rules, and none of the old zone's dialog", async () => {
    const runtime = fixture.local()
    const acme = await runtime.runPromise(resolveZone("acme-mail.com"))
    const initech = await runtime.runPromise(resolveZone("initech-payroll.com"))
    await runtime.runPromise(
      putCustomRules(acme.id, {
        rules: [
          { action: "block", expression: 'http.request.uri.path eq "/only-acme"', description: "acme one" },
          { action: "challenge", expression: 'http.host eq "acme-mail.com"', description: "acme two" }
        ]
      })
    )
    const app = await fixture.within(runtime, <OnZone first={acme} />)
    await app.waitForText('http.host eq "acme-mail.com"')
    await app.press("j", "acme two · ref")
    await app.press("d", "Delete custom rule #2 (acme two)?")

    const from = app.frames.length
    switchTo(initech)
    await waitFor(() => app.frame().includes("No custom rules on this zone."), app.frame)
    const after = app.frames.slice(from)
    for (const frame of after) {
      expect(frame).not.toMatch(/only-acme|acme one|acme two|Delete custom rule/)
    }
    expect(after.some((f) => f.includes("Custom rules of initech-payroll.com"))).toBe(true)
  })
  it("the migration preview: no frame shows the first zone's rules under the second's name", async () => {
    const runtime = fixture.local()
    const acme = await runtime.runPromise(resolveZone("acme-mail.com"))
    const initech = await runtime.runPromise(resolveZone("initech-payroll.com"))
    const app = await fixture.within(runtime, <OnZone first={acme} migration />)
    await app.waitForText("skip securityLevel")
    const from = app.frames.length
    switchTo(initech)
    await waitFor(() => app.frame().includes("Migrate initech-payroll.com") && app.frame().includes("#1"), app.frame)
    for (const frame of app.frames.slice(from)) expect(frame).not.toMatch(/securityLevel|UptimeMonitor/)
  })
})
