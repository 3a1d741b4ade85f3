/**
 * The TUI writes only the lines that changed (Ink's incremental rendering, with build.mjs's fix
 * for frames that end in a newline). What a terminal shows must be exactly what whole-frame
 * redraws show (EDGECTL_TUI_INCREMENTAL=0): the same keys go to both, in a pty each, read through
 * a headless xterm, after many keys and after resizes both ways. And what a cursor move writes: the
 * rows the list moved are moved on the terminal (tui/frame-diff.ts), not written again.
 */
import { afterEach, describe, expect, it } from "vitest"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { DemoZones } from "../helpers/demo-world.js"

const started: Array<PtyTui> = []
afterEach(async () => {
  for (const tui of started.splice(0)) await tui.close()
})

describe("incremental rendering", () => {
  it("shows the same screen as whole-frame redraws after many keys and after resizes", async () => {
    const [incremental, whole] = await Promise.all([
      PtyTui.start({ columns: 80, rows: 24 }),
      PtyTui.start({ columns: 80, rows: 24, env: { EDGECTL_TUI_INCREMENTAL: "0" } })
    ])
    started.push(incremental, whole)
    const both = async (keys: string, waitFor?: string) => {
      incremental.write(keys)
      whole.write(keys)
      if (waitFor !== undefined) await Promise.all([incremental.waitFor(waitFor), whole.waitFor(waitFor)])
      const [a, b] = await Promise.all([incremental.settle(150), whole.settle(150)])
      expect(a, `after ${JSON.stringify(keys)}`).toBe(b)
      expect(a.split("\n")[0]).toMatch(/^ edgectl\s+target local/)
      return a
    }
    await both("/", "type filter")
    await both("acme.com", "1/1 ")
    await both(PtyKeys.enter, "filter: acme.com")
    await both(PtyKeys.enter, "[DNS records]")
    // Down the list (it scrolls and pages from the platform), a page, and back up.
    await Promise.all([incremental.type("j".repeat(40), 15), whole.type("j".repeat(40), 15)])
    await both("")
    await both(PtyKeys.pageDown)
    await both("kkk")
    await both(PtyKeys.tab, "› universal") // the packs read: both screens past "loading"
    await both(PtyKeys.tab, "account Acme Corp")
    await both("?", "Everywhere")
    await both(PtyKeys.escape)
    // Larger, shorter only, then back (Ink clears the screen only when the width shrinks).
    for (const [columns, rows] of [
      [120, 40],
      [120, 30],
      [80, 24]
    ] as const) {
      incremental.resize(columns, rows)
      whole.resize(columns, rows)
      const screen = await both("", "account Acme Corp")
      expect(screen.split("\n")).toHaveLength(rows)
      await both(PtyKeys.escape)
      await both(PtyKeys.enter, "[DNS records]")
      await both("jj")
      await both(PtyKeys.tab, "› universal") // the packs read: both screens past "loading"
      await both(PtyKeys.tab, "account Acme Corp")
    }
  })

  it("moves the cursor on a long list for a few hundred bytes, and shows what whole frames show", async () => {
    const [incremental, whole] = await Promise.all([
      PtyTui.start({ columns: 120, rows: 40 }),
      PtyTui.start({ columns: 120, rows: 40, env: { EDGECTL_TUI_INCREMENTAL: "0" } })
    ])
    started.push(incremental, whole)
    const both = async (keys: string, waitFor?: string | RegExp) => {
      incremental.write(keys)
      whole.write(keys)
      if (waitFor !== undefined) await Promise.all([incremental.waitFor(waitFor), whole.waitFor(waitFor)])
      const [a, b] = await Promise.all([incremental.settle(150), whole.settle(150)])
      expect(a, `after ${JSON.stringify(keys)}`).toBe(b)
      return a
    }
    const openDns = async (zone: string) => {
      await both("/", "type filter")
      await both(zone, "1/1 ")
      await both(PtyKeys.enter, `filter: ${zone}`)
      await both(PtyKeys.enter, "[DNS records]")
      await both("", /\d+\/\d+/)
    }
    await openDns("acme.com")
    // Past the middle of the pane, where every move scrolls the list by a row.
    await Promise.all([incremental.type("j".repeat(25), 15), whole.type("j".repeat(25), 15)])
    await both("")
    const from = Buffer.byteLength(incremental.raw)
    // One frame a key (Ink draws at most one frame per 32 ms).
    await Promise.all([incremental.type("j".repeat(20), 50), whole.type("j".repeat(20), 50)])
    await both("", `${DemoZones}/`)
    // Whole lines were ~3.3 KB a move at 120x40 (every row of the pane).
    expect.soft((Buffer.byteLength(incremental.raw) - from) / 20).toBeLessThan(1000)
    await both("kkkkk")
    // A second zone, its list drawn over the first one's.
    await both(PtyKeys.escape)
    await both(PtyKeys.escape)
    await both(PtyKeys.backspace)
    await openDns("acme-api.com")
    await Promise.all([incremental.type("j".repeat(5), 15), whole.type("j".repeat(5), 15)])
    await both("")
    incremental.resize(80, 24)
    whole.resize(80, 24)
    await both("", "[DNS records]")
    await Promise.all([incremental.type("jjjjjjjjjjkj", 15), whole.type("jjjjjjjjjjkj", 15)])
    await both("")
  })
})
