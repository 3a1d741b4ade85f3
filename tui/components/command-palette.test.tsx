import { afterEach, describe, expect, it } from "vitest"
import { Fixture, Keys, selectedRow } from "../test-support.js"

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
