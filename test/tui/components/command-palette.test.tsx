import { afterEach, describe, expect, it } from "vitest"
import type { Zone } from "../../../src/domain/zone.js"
import { Fixture, Keys, selectedRow } from "../../helpers/ink.js"
import { chooseOnEnter, type PaletteChoice } from "../../../tui/components/command-palette.js"

const fixture = new Fixture()
afterEach(() => fixture.dispose())

describe("Command palette", () => {
  it(": finds a zone by part of its name on the platform and enter opens it", async () => {
    const app = await fixture.render(fixture.local())
    await app.waitForText("acme-api.com")
    await app.press(":", "screen or zone name")
    await app.press("acme.co", (f) => f.includes("zone    acme.co.uk") && !f.includes("acme-api.com"))
    expect(app.frame()).toContain("zone    acme.com")
    expect(app.frame()).not.toContain("screen  ")
    await app.press(Keys.down, (f) => selectedRow(f).startsWith("zone    acme.com"))
    await app.press(Keys.enter, "[DNS records]")
    expect(app.frame()).toContain("zone acme.com")
    expect(app.frame()).not.toContain("screen or zone name")
  })

  it("jumps to a screen by name; esc closes without moving; typed keys never leak to the screens", async () => {
    const app = await fixture.render(fixture.local())
    await app.waitForText("acme-api.com")
    await app.press(":", "screen or zone name")
    // q and digits are text here, not quit or screen keys.
    await app.press("q1", ": q1")
    await app.press(Keys.backspace, ": q ")
    await app.press(Keys.backspace, (f) => !f.includes(": q"))
    await app.press("objec", (f) => selectedRow(f).startsWith("screen  Objects"))
    await app.press(Keys.enter, "›6 Objects")
    await app.press(":", "screen or zone name")
    await app.press("zzz-no-such", "nothing matches")
    await app.press(Keys.escape, (f) => !f.includes("nothing matches"))
    expect(app.frame()).toContain("›6 Objects")
  })
})

describe("what enter opens", () => {
  const zone = (name: string) => ({ id: name, name }) as unknown as Zone
  const named = (c: PaletteChoice | undefined | "wait") =>
    c === undefined || c === "wait" ? c : c.kind === "screen" ? `screen ${c.screen.title}` : `zone ${c.zone.name}`
  const untouched = { index: 0, moved: false }

  it("prefers a choice named exactly as typed over the first row", () => {
    expect(named(chooseOnEnter("acme.com", [zone("acme.com.au"), zone("acme.com")], untouched))).toBe("zone acme.com")
    expect(named(chooseOnEnter("acme", [zone("acme-api.com"), zone("acme.com")], untouched))).toBe("zone acme-api.com")
  })

  it("waits while the zones for the text are unknown, unless a screen is named exactly", () => {
    expect(chooseOnEnter("acme.com", undefined, untouched)).toBe("wait")
    expect(named(chooseOnEnter("waf", undefined, untouched))).toBe("screen WAF")
  })

  it("takes the row the user moved to", () => {
    expect(named(chooseOnEnter("acme.com", [zone("acme.com.au"), zone("acme.com")], { index: 0, moved: true }))).toBe(
      "zone acme.com.au"
    )
  })

  it("opens nothing when nothing matches", () => {
    expect(chooseOnEnter("zzz", [], untouched)).toBeUndefined()
  })
})

describe("Command palette input", () => {
  it("a name and enter in one write open that zone once the platform answers, and the line edits in the middle", async () => {
    const app = await fixture.render(fixture.local())
    await app.waitForText("acme-api.com")
    await app.press(":", "screen or zone name")
    // "acme.cm", ← then "o": the middle of the line; then enter, all before any zone query answers.
    await app.press("acme.cm\u001B[Do\r", "[DNS records]")
    expect(app.frame()).toContain("zone acme.com")
    expect(app.frame()).not.toContain("screen or zone name")
  })
})
