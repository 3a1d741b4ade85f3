/**
 * The TUI's start: keys typed while it starts (before its first frame, before the zone list has
 * loaded) are applied, in order, as if typed once it shows (the TUI holds them until the screens
 * are mounted and the zone list has its first page); its code cache is written once the zone list
 * is drawn.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { tempDir } from "../helpers/cli.js"
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
    // j j j enter: the fourth zone's records (the list may show only for a frame before them).
    await early.waitFor(/zone acme-labs\.org\n/)
    const late = await PtyTui.start({ columns, rows })
    started.push(late)
    late.write("jjj\r")
    expect(await early.settle(300)).toBe(await late.settle(300))
  })
})

describe("the TUI's code cache", () => {
  it("is written once the zone list is drawn, not only at a clean exit (a closed terminal never gets there)", async () => {
    const cache = tempDir("edgectl-pty-cache-")
    const tui = await PtyTui.start({ columns: 80, rows: 24, env: { XDG_CACHE_HOME: cache } })
    started.push(tui)
    const dir = path.join(cache, "edgectl")
    const tuiCache = () => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /-tui-1\.bin$/.test(f)) : [])
    const deadline = Date.now() + 10_000
    while (tuiCache().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    // Checked while the TUI still runs (nothing has asked it to quit): a SIGHUP now would leave this
    // cache for the next start.
    expect(tuiCache()).toHaveLength(1)
  })
})
