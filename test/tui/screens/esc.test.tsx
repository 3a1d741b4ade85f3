import { afterEach, describe, expect, it } from "vitest"
import { getEsc, zoneTarget } from "../../../src/services/esc-service.js"
import type { TuiRuntime } from "../../../tui/runtime.js"
import { Fixture, Keys } from "../../helpers/ink.js"
import { ZoneDetail } from "../../../tui/screens/zone-detail.js"
import { zoneCounter } from "../../helpers/demo-world.js"

const fixture = new Fixture()
afterEach(async () => {
  await fixture.dispose()
  delete process.env.EDGECTL_PLATFORM_NOW
})

const SeededSecret = "acme-esc-preview-7Qx2"

/** The app with `zone` open on its ESC tab. */
const openEscTab = async (zone = "acme.com") => {
  const { app, runtime } = await fixture.openZone(zone, ["Certificate packs", "ESC"])
  await app.waitForText(`zone ${zone}`)
  await app.waitForText("account Acme Corp")
  return { app, runtime }
}

/** The zone's setting as stored, read through the same runtime. */
const storedSetting = async (runtime: TuiRuntime, name: string) =>
  (await runtime.runPromise(getEsc(await runtime.runPromise(zoneTarget(name))))).setting

describe("the ESC tab of a zone", () => {
  it("shows the zone's and its account's settings, the removal on the platform's clock and the replacements", async () => {
    const { app } = await openEscTab()
    const frame = app.frame()
    expect(frame).toMatch(/zone acme\.com\s+on · secret ac…x2/)
    expect(frame).toMatch(/account Acme Corp\s+on/)
    // Removed on the platform's clock: the line says what the setting would do.
    expect(frame).toContain("ESC is removed: it runs for no request. As set, it would run, except with a")
    expect(frame).toMatch(/ESC REMOVED 2025-01-01, \d+ years? .*ago \(\d+ days, platform clock/)
    expect(frame).toContain("no ESC runs any more; settings can still be managed and tested.")
    expect(frame).toContain("USE CASE")
    expect(frame).toMatch(/› Redirect to a URL \(no origi…\s+Single Redirects/)
    expect(frame).toContain('example: {"expression":"http.host eq')
    expect(frame).toMatch(/t ESC off \(always\)\s+s set secret\s+x clear secret\s+c test request/)
    await app.press("j", "› Redirect to a URL (large st")
    expect(app.frame()).toContain("$redirect_list")
    expect(app.frames.some((f) => f.includes(SeededSecret))).toBe(false)
  })

  it("t asks before disabling ESC for every request; n cancels, y does it", async () => {
    const { app, runtime } = await openEscTab()
    await app.press("t", "Disable ESC for every request of zone acme.com?")
    expect(app.frame()).toMatch(/y\/enter disable ESC\s+n\/esc cancel/)
    await app.press("n", "test: c tests a request")
    expect(app.frame()).toMatch(/zone acme\.com\s+on · secret/)
    await app.press("t", "Disable ESC for every request")
    await app.press("y", "✓ ESC is now off for every request of zone acme.com")
    expect(app.frame()).toMatch(/zone acme\.com\s+off \(always\) · secret ac…x2/)
    expect(await storedSetting(runtime, "acme.com")).toEqual({ always: true, with_secret: SeededSecret })
    // t again turns ESC on, keeping the secret
    await app.press("t", "Turn ESC on again for zone acme.com?")
    expect(app.frame()).toContain("(it stays stored)")
    await app.press(Keys.enter, "ESC runs again for every request of zone acme.com; the secret stays")
    expect(app.frame()).toMatch(/zone acme\.com\s+on · secret ac…x2/)
  })

  it("s takes a new secret typed masked, checks it as it is typed, and asks before storing it", async () => {
    const { app, runtime } = await openEscTab()
    await app.press("s", "New secret for zone acme.com")
    await app.press("a b", "position 2 of 3")
    await app.press(Keys.enter, "got a space")
    expect(app.frame()).toContain("New secret for zone acme.com")
    await app.press(Keys.backspace + Keys.backspace + Keys.backspace, "0/100")
    await app.press("top-Secret-99", "13/100")
    expect(app.frame()).toContain("› •••••••••••••")
    await app.press(Keys.enter, "Store this secret for zone acme.com?")
    expect(app.frame()).toContain("secret: to…99 (13 characters), replacing ac…x2 (21")
    await app.press("y", "✓ Stored the secret to…99 (13 characters) for zone acme.com")
    expect(app.frame()).toMatch(/zone acme\.com\s+on · secret to…99/)
    expect((await storedSetting(runtime, "acme.com")).with_secret).toBe("top-Secret-99")
    expect(app.frames.some((f) => f.includes("top-Secret-99") || f.includes(SeededSecret))).toBe(false)
  })

  it("x asks before clearing the secret; esc cancels a prompt without a change", async () => {
    const { app } = await openEscTab()
    await app.press("s", "New secret")
    await app.press("abc", "3/100")
    await app.press(Keys.escape, "test: c tests")
    expect(app.frame()).toMatch(/secret ac…x2/)
    await app.press("x", "Clear the secret ac…x2 of zone acme.com?")
    await app.press("y", "✓ Cleared the secret of zone acme.com")
    expect(app.frame()).toMatch(/zone acme\.com\s+on\s+│/)
    await app.press("x", "zone acme.com has no secret to clear")
  })

  it("c tests a request with a Cookie header and says which setting decided", async () => {
    const { app } = await openEscTab()
    await app.press("c", "Test a request to zone acme.com")
    await app.press(`lang=en; disable_esc=${SeededSecret}`, "disable_esc=•••••••••••••••••••••")
    expect(app.frame()).toContain("lang=en; disable_esc=•••••••••••••••••••••")
    // ESC is removed (2025-01-01): the test says what the settings would have done, never "ESC runs" (issue 29).
    await app.press(Keys.enter, "ESC would be OFF")
    const text = () => app.frame().replace(/[│\s]+/g, " ")
    expect(text()).toMatch(
      /test \(Cookie lang=en; disable_esc=ac…x2\): ESC would be OFF \(if it still existed\) · decided by the zone's/
    )
    await app.press("c", "Test a request")
    await app.press("disable_esc=guess\r", "ESC would run")
    expect(text()).toMatch(
      /test \(Cookie disable_esc=g…s\): ESC would run \(if it still existed\) · the request's disable_esc cookie/
    )
    await app.press("c", "Test a request")
    await app.press(Keys.enter, "test (no cookies)")
    expect(text()).toMatch(/test \(no cookies\): ESC would run/)
    expect(text()).not.toMatch(/ESC runs ·/)
    expect(app.frames.some((f) => f.includes(SeededSecret))).toBe(false)
  })

  it("→ selects the account: its always applies to every zone of the account", async () => {
    const { app } = await openEscTab("acme.org")
    await app.press("l", "◆ account Acme Corp")
    await app.press("t", "Disable ESC for every request of every zone of account Acme Corp?")
    await app.press("y", "✓ ESC is now off for every request of every zone of account Acme Corp")
    expect(app.frame()).toMatch(/account Acme Corp\s+off \(always\)/)
    await app.press("c", "Test a request to zone acme.org")
    await app.press(Keys.enter, "decided by")
    expect(app.frame().replace(/[│\s]+/g, " ")).toMatch(
      /ESC would be OFF \(if it still existed\) · decided by the account's always setting/
    )
    await app.press("h", "◆ zone acme.org")
  })

  it("on a platform clock before 2025-01-01, says ESC is still honoured and how long is left", async () => {
    process.env.EDGECTL_PLATFORM_NOW = "2024-06-01T12:00:00Z"
    const { app } = await openEscTab()
    expect(app.frame()).toContain("ESC still honoured: removed on 2025-01-01, in 6 months 30 days (213 days,")
    expect(app.frame()).toContain("platform clock 2024-06-01)")
  })
})

describe("the ESC screen", () => {
  it("without an account or zone says what to do, and still shows the replacements", async () => {
    const app = await fixture.render(fixture.local())
    await app.waitForText(zoneCounter(1))
    await app.press("2", "ESC disable settings")
    await app.waitForText("choose an account (a), or open a zone on the Zones screen (1)")
    expect(app.frame()).toMatch(/ESC REMOVED 2025-01-01, .* this machine's/)
    expect(app.frame()).toContain("Rewrite SNI")
    await app.press("c", "(1 Zones, enter on a zone)")
    // The warning stays until a key, which only dismisses it.
    await app.press("r", (f) => !f.includes("(1 Zones, enter on a zone)"))
    await app.press("t", "nothing to toggle")
  })

  it("a picks the account; its setting can be changed there", async () => {
    const app = await fixture.render(fixture.local())
    await app.waitForText(zoneCounter(1))
    await app.press("2", "ESC disable settings")
    await app.press("a", "Choose an account")
    await app.waitForText("Initech")
    await app.press("j")
    await app.press("j", "› Globex")
    await app.press(Keys.enter, "account Globex")
    await app.waitForText("it would run for every request")
    expect(app.frame()).toMatch(/account Globex\s+on/)
    await app.press("s", "New secret for account Globex")
    await app.press("globex-Key-1\r", "Store this secret for account Globex?")
    await app.press("y", "✓ Stored the secret gl…-1 (12 characters) for account Globex")
    expect(app.frame()).toMatch(/account Globex\s+on · secret gl…-1/)
  })

  it("shows the open zone next to its account", async () => {
    const app = await fixture.render(fixture.local())
    await app.waitForText(zoneCounter(1))
    await app.press("/", "type filter by name")
    await app.press("acme-legacy", "1/1 ")
    await app.press(Keys.enter, "filter: acme-legacy")
    await app.press(Keys.enter, "zone acme-legacy.com")
    await app.press("2", "ESC disable settings")
    await app.waitForText("◆ zone acme-legacy.com")
    expect(app.frame()).toMatch(/◆ zone acme-legacy\.com\s+off \(always\)/)
    expect(app.frame()).toMatch(/account Acme Corp\s+on/)
    expect(app.frame()).toContain("Acme Corp (of the open zone)")
  })
})

describe("ESC errors", () => {
  it("a zone the platform does not know is an error state with its code", async () => {
    const gone = { id: "0".repeat(32), name: "gone.example", account: { id: "1".repeat(32) } }
    const app = await fixture.within(fixture.local(), <ZoneDetail zone={gone} active onBack={() => {}} />)
    await app.press(Keys.tab, "[Certificate packs]")
    await app.press(Keys.tab, "could not read the ESC settings")
    expect(app.frame()).toContain("[code 7003]")
  })
})
