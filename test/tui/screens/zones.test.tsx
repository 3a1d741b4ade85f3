import { afterEach, describe, expect, it } from "vitest"
import { Fixture, Keys, selectedRow, waitFor } from "../../helpers/ink.js"
import { zoneCounter } from "../../helpers/demo-world.js"

const fixture = new Fixture()
afterEach(() => fixture.dispose())

const open = async (requests?: Array<string>) => {
  const app = await fixture.render(fixture.local(requests))
  await app.waitForText(zoneCounter(1))
  return app
}

describe("Zones screen", () => {
  it("lists the zones of all accounts sorted by name, with the cursor on the first", async () => {
    const app = await open()
    expect(selectedRow(app.frame())).toMatch(/^acme-api\.com\s+active\s+Acme Corp/)
    expect(app.frame()).toContain("NAME")
    expect(app.frame()).toContain("acme-assets.net")
  })

  it("moves the cursor with j k and the arrow keys, and scrolls the list", async () => {
    const app = await open()
    await app.press("j", zoneCounter(2))
    expect(selectedRow(app.frame())).toMatch(/^acme-assets\.net/)
    await app.press(Keys.down, zoneCounter(3))
    expect(selectedRow(app.frame())).toMatch(/^acme-cdn\.net/)
    await app.press("k", zoneCounter(2))
    await app.press(Keys.up, zoneCounter(1))
    expect(selectedRow(app.frame())).toMatch(/^acme-api\.com/)
    // The last zone is drawn only once the list scrolls to it.
    expect(app.frame()).not.toContain("initech")
    await app.press("G", zoneCounter("last"))
    expect(app.frame()).not.toContain("acme-api.com")
    expect(app.frame()).toMatch(/› initech/)
  })

  it("/ filters by name in place as the user types; esc clears the filter", async () => {
    const requests: Array<string> = []
    const app = await open(requests)
    await app.press("/", "type filter by name")
    await app.press("globex", "1/14")
    const frame = app.frame()
    expect(frame).toContain("globex-asia.com")
    expect(frame).toContain("globex.org")
    expect(frame).not.toContain("acme")
    expect(frame).not.toContain("initech")
    // Filtered on the server, with the platform's operator prefix.
    expect(requests).toContain("/zones?name=contains:globex&page=1&per_page=50")
    // enter keeps the filter and gives the keys back to the list
    await app.press(Keys.enter, "filter: globex")
    await app.press("j", "2/14")
    await app.press(Keys.escape, zoneCounter(1))
    expect(app.frame()).toContain("acme-api.com")
  })

  it("backspace edits the filter, and a filter that matches nothing says what to do", async () => {
    const app = await open()
    await app.press("/", "type filter by name")
    await app.press("initechx", "No zones match")
    expect(app.frame()).toContain("esc clears the filter")
    await app.press(Keys.backspace, "1/12")
    expect(app.frame()).toContain("initech.com")
    await app.press(Keys.escape, zoneCounter(1))
  })

  it("a picks the account whose zones are listed", async () => {
    const requests: Array<string> = []
    const app = await open(requests)
    await app.press("a", "Choose an account")
    await app.waitForText("Initech")
    expect(selectedRow(app.frame())).toMatch(/^All accounts\s/)
    await app.press("j")
    await app.press("j", "› Globex")
    await app.press(Keys.enter, "1/14")
    expect(app.frame()).toContain("account Globex")
    expect(selectedRow(app.frame())).toMatch(/^globex-asia\.com/)
    expect(app.frame()).not.toContain("acme")
    expect(requests.some((r) => /^\/zones\?account\.id=[0-9a-f]{32}&page=1&per_page=50$/.test(r))).toBe(true)
    // esc in the picker keeps the account
    await app.press("a", "Choose an account")
    await app.press(Keys.escape, "1/14")
  })

  it("enter opens the zone under the cursor, esc comes back to the same place", async () => {
    const app = await open()
    await app.press("j", zoneCounter(2))
    await app.press("j", zoneCounter(3))
    await app.press("j", zoneCounter(4))
    await app.press(Keys.enter, "zone acme-labs.org")
    await app.waitForText("[DNS records]")
    await app.press(Keys.escape, zoneCounter(4))
    expect(app.frame()).toContain("zone —")
    expect(selectedRow(app.frame())).toMatch(/^acme-labs\.org/)
  })

  it("r refreshes the list", async () => {
    const requests: Array<string> = []
    const app = await open(requests)
    await app.press("j", zoneCounter(2))
    const zoneLists = () => requests.filter((r) => r.startsWith("/zones?"))
    expect(zoneLists()).toEqual(["/zones?page=1&per_page=50"])
    const before = app.frames.length
    await app.press("r")
    await waitFor(() => zoneLists().length === 2)
    await app.waitForText(zoneCounter(2))
    // The rows stay on screen while the first page reloads, and the cursor keeps its place.
    expect(app.frames.slice(before).some((x) => x.includes("loading zones"))).toBe(false)
    expect(selectedRow(app.frame())).toMatch(/^acme-assets\.net/)
  })
})
