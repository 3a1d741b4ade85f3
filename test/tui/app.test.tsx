import { afterEach, describe, expect, it } from "vitest"
import { World, startPlatform, type Platform } from "../helpers/platform.js"
import { Fixture, Keys, waitFor } from "../helpers/ink.js"
import { zoneCounter } from "../helpers/demo-world.js"

const fixture = new Fixture()
let platform: Platform | undefined
afterEach(async () => {
  await fixture.dispose()
  await platform?.close()
  platform = undefined
})

describe("App shell", () => {
  it("draws the header, the screens, the zones and the keys that work", async () => {
    const app = await fixture.render(fixture.local())
    await app.waitForText("acme-api.com")
    const frame = app.frame()
    expect(frame).toContain("target local")
    expect(frame).toContain("account All accounts")
    for (const screen of ["Zones", "ESC", "Firewall", "WAF", "KV", "Objects"]) expect(frame).toContain(screen)
    expect(frame).toMatch(/enter open/)
    expect(frame).toMatch(/\? help/)
    expect(frame).toMatch(/q quit/)
  })

  it("? lists the keys of the screen it opens over, then the global ones; esc closes it", async () => {
    const app = await fixture.render(fixture.local())
    await app.waitForText("acme-api.com")
    await app.press("?", "esc/? close help")
    const help = app.frame()
    expect(help).toContain("Zones: keys here")
    for (const key of [
      /↑↓\/jk\s+move/,
      /enter\s+open/,
      /\/\s+filter/,
      /a\s+account/,
      /Everywhere/,
      /1-6\s+screens/,
      /ctrl\+c\s+quit, from anywhere/,
      /any key\s+dismisses an error/
    ]) {
      expect(help).toMatch(key)
    }
    expect(help.indexOf("enter")).toBeLessThan(help.indexOf("Everywhere"))
    expect(app.frame()).not.toContain("acme-api.com")
    await app.press(Keys.escape, "acme-api.com")
    expect(app.frame()).not.toContain("close help")
  })

  it("every screen has arrived, and Zones keeps its place while others show", async () => {
    const runtime = fixture.local()
    const app = await fixture.render(runtime)
    await app.waitForText("acme-api.com")
    // Keys sent faster than they are read arrive as one chunk: each still moves the cursor.
    await app.press("jj", zoneCounter(3))
    await app.press("j")
    await app.press("j", zoneCounter(5))
    await app.press("3", "Pick a zone")
    expect(app.frame()).not.toContain("arrives with its issue")
    expect(app.frame()).not.toContain(zoneCounter(5))
    // Objects has arrived: it shows the objects of the state directory (or says there are none).
    await app.press("6", (f) => f.includes(fixture.stateDirOf(runtime)!) && !f.includes("acme-api.com"))
    await app.press("1", zoneCounter(5))
  })

  it("q quits, and ctrl+c quits even while typing a filter", async () => {
    let quits = 0
    const app = await fixture.render(fixture.local(), { onQuit: () => quits++ })
    await app.waitForText("acme-api.com")
    await app.press("/", "ctrl+c quit")
    await app.press("q", "/ q")
    expect(quits).toBe(0)
    await app.press(Keys.ctrlC)
    await waitFor(() => quits === 1)

    const again = await fixture.render(fixture.local(), { onQuit: () => quits++ })
    await again.waitForText("acme-api.com")
    await again.press("q")
    await waitFor(() => quits === 2)
  })

  it("a remote target without credentials is an error state with its code and what to do, not a crash", async () => {
    const app = await fixture.render(fixture.runtime({ remote: true, env: {} }), { target: "remote" })
    await app.waitForText("could not connect to the platform")
    const frame = app.frame()
    // No platform answered: no code (issue 15).
    expect(frame).not.toContain("[code")
    expect(frame).toContain("CLOUDFLARE_API_TOKEN")
    expect(frame).toContain("hint:")
    expect(frame).toContain("target remote")
    // Keys still work: help opens and closes.
    await app.press("?", "close help")
    await app.press(Keys.escape, "could not connect")
  })

  it("a token the platform rejects shows the API's code on the zones screen", async () => {
    platform = await startPlatform()
    const env = { CLOUDFLARE_API_TOKEN: "x".repeat(40), CLOUDFLARE_API_BASE_URL: platform.baseUrl }
    const app = await fixture.render(fixture.runtime({ remote: true, env }))
    await app.waitForText("could not list zones")
    expect(app.frame()).toContain(`target ${platform.baseUrl}`)
    expect(app.frame()).toContain("[code 9109]")
    expect(app.frame()).toContain("hint: check CLOUDFLARE_API_TOKEN")
    expect(World.allToken).not.toBe(env.CLOUDFLARE_API_TOKEN)
  })
})
