/**
 * Keys typed while the TUI starts (before its first frame, before the zone list has loaded) are
 * applied, in order, as if typed once it shows: the TUI holds them until the screens are mounted
 * and the zone list has its first page.
 */
import { afterEach, describe, expect, it } from "vitest"
import { PtyTui } from "../helpers/pty.js"

const started: Array<PtyTui> = []
afterEach(async () => {
  for (const tui of started.splice(0)) await tui.close()
})

describe.each([
  [80, 24],
  [120, 40]
])("keys typed before the first frame at %ix%i", (columns, rows) => {
  it("are all applied", async () => {
    // ready "": start() returns at once, right after the spawn.
    const early = await PtyTui.start({ columns, rows, ready: "" })
    started.push(early)
    early.write("jjj\r")
    await early.waitFor("acme-api.com")
    const late = await PtyTui.start({ columns, rows })
    started.push(late)
    late.write("jjj\r")
    const screen = await early.settle(300)
    // j j j enter: the fourth zone's records.
    expect(screen).toMatch(/zone acme-labs\.org\n/)
    expect(screen).toBe(await late.settle(300))
  })
})
