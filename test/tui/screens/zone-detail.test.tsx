import { useInput } from "ink"
import { useState } from "react"
import { afterEach, describe, expect, it } from "vitest"
import type { Zone } from "../../../src/domain/zone.js"
import { resolveZone } from "../../../src/services/zones-service.js"
import { Fixture, Keys, selectedRow, waitFor } from "../../helpers/ink.js"
import { ZoneDetail } from "../../../tui/screens/zone-detail.js"
import { zoneCounter } from "../../helpers/demo-world.js"

const fixture = new Fixture()
afterEach(() => fixture.dispose())

/** The app with acme.com (1250 DNS records) open. */
const openAcme = async (requests?: Array<string>) => {
  const app = await fixture.render(fixture.local(requests))
  await app.waitForText(zoneCounter(1))
  await app.press("/", "type filter by name")
  await app.press("acme.com", "1/1 ")
  await app.press(Keys.enter, "filter: acme.com")
  await app.press(Keys.enter, "zone acme.com")
  await app.waitForText("1/1250")
  return app
}

describe("Zone detail", () => {
  it("shows the zone's DNS records, one page loaded", async () => {
    const app = await openAcme()
    const frame = app.frame()
    expect(frame).toContain("[DNS records]")
    expect(frame).toContain("CONTENT")
    expect(selectedRow(frame)).toMatch(/^A\s+acme\.com\s+203\.0\.113\.205/)
    expect(frame).toContain("100 loaded")
  })

  it("loads the next page as the cursor nears the end, not everything up front", async () => {
    const requests: Array<string> = []
    const app = await openAcme(requests)
    const pages = () => requests.filter((r) => r.includes("/dns_records")).map((r) => /page=(\d+)/.exec(r)?.[1])
    expect(pages()).toEqual(["1"])
    await app.press(Keys.pageDown, "14/1250")
    expect(pages()).toEqual(["1"])
    // G goes to the real end: it reads the pages not read yet, each once.
    await app.press("G", "1250/1250")
    expect(pages().sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 13 }, (_, i) => String(i + 1)))
    expect(requests.filter((r) => r.includes("/dns_records")).every((r) => r.includes("per_page=100"))).toBe(true)
  })

  it("/ filters the records by name on the server", async () => {
    const app = await openAcme()
    await app.press("/", "type filter by name")
    await app.press("host-0009.", (f) => /1\/\d+\s/.test(f) && !f.includes("1250"))
    expect(app.frame()).toContain("host-0009.acme.com")
    expect(app.frame()).not.toContain("host-0011")
    await app.press(Keys.escape, "1/1250")
  })

  it("tab switches to the certificate packs, the ESC settings, the firewall rules, the WAF migration and back", async () => {
    const app = await openAcme()
    await app.press("j", "2/1250")
    await app.press(Keys.tab, "[Certificate packs]")
    await app.waitForText("universal")
    expect(app.frame()).toMatch(/› universal\s+active\s+google\s+90d\s+acme\.com, \*\.acme\.com/)
    expect(app.frame()).not.toContain("203.0.113.205")
    await app.press(Keys.tab, "[ESC]")
    await app.press(Keys.tab, "[Firewall]")
    await app.press(Keys.tab, "[WAF]")
    await app.press(Keys.tab, "[DNS records]")
    expect(app.frame()).toContain("2/1250")
  })

  it("esc and backspace go back to the zones", async () => {
    const app = await openAcme()
    await app.press(Keys.escape, "filter: acme.com")
    expect(app.frame()).toContain("zone —")
    await app.press(Keys.enter, "1/1250")
    await app.press(Keys.backspace, "filter: acme.com")
  })
})

/** Shows zone `a`; `Z` (a key no tab uses) puts zone `b` in its place, as `:` and the palette do. */
function Switcher({ a, b }: { a: Zone; b: Zone }) {
  const [zone, setZone] = useState(a)
  useInput((input) => {
    if (input === "Z") setZone(b)
  })
  return <ZoneDetail zone={zone} active onBack={() => {}} />
}

describe("Zone detail isolation", () => {
  it("another zone put in place of the open one starts fresh: first tab, its own records, cursor at the top", async () => {
    const runtime = fixture.local()
    const [a, b] = await Promise.all([
      runtime.runPromise(resolveZone("acme.com")),
      runtime.runPromise(resolveZone("globex.com"))
    ])
    const app = await fixture.within(runtime, <Switcher a={a} b={b} />)
    await app.waitForText("1/1250")
    await app.press("jjj", "4/1250")
    await app.press(Keys.tab, "[Certificate packs]")
    await app.press("Z", "globex.com")
    await app.waitForText("[DNS records]")
    await waitFor(() => /^1\/\d+/m.test(app.frame()), app.frame)
    expect(app.frame()).not.toContain("1250")
    expect(app.frame()).not.toContain("[Certificate packs]")
    expect(selectedRow(app.frame())).toMatch(/globex\.com/)
  })
})

describe("Zone detail errors", () => {
  it("a zone the platform does not know is an error state with its code, on both tabs", async () => {
    const gone = { id: "0".repeat(32), name: "gone.example", account: { id: "1".repeat(32) } }
    const app = await fixture.within(fixture.local(), <ZoneDetail zone={gone} active onBack={() => {}} />)
    await app.waitForText("could not list DNS records")
    expect(app.frame()).toContain("[code 7003]")
    expect(app.frame()).toContain("hint: it may be gone")
    await app.press(Keys.tab, "could not list certificate packs")
    expect(app.frame()).toContain("[code 7003]")
  })
})
