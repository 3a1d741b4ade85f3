/**
 * ctrl+l redraws the whole screen, and the frame after a resize is drawn whole (issue 29 item 9):
 * rapid resizes under load could leave a frame shifted by a row, which later frames, written as
 * differences from where the last one left the cursor, kept until another resize. Here another
 * program's output spoils the screen (what a shifted frame leaves: cells the TUI does not know).
 */
import { afterEach, describe, expect, it } from "vitest"
import { PtyKeys, PtyTui } from "../helpers/pty.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

/** Junk over the header and the middle of the screen, and the cursor left elsewhere. */
const spoil = (t: PtyTui) => t.scribble("\u001b[1;1HJUNKJUNKJUNK\u001b[8;20HJUNKJUNKJUNK\u001b[3;3H")

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("redrawing at $columns x $rows", (size) => {
  it.each([
    { how: "alone", keys: PtyKeys.ctrlL },
    { how: "between keys in one read", keys: `j${PtyKeys.ctrlL}j` }
  ])("ctrl+l ($how) draws the whole screen again", async ({ keys }) => {
    const t = (tui = await PtyTui.start(size))
    if (keys.length > 1) {
      t.write("jj")
      await t.waitFor(/› \S+[^\n]*\n/)
    }
    const before = await t.settle()
    spoil(t)
    await t.waitFor("JUNK")
    t.write(keys)
    // The redraw reaches the terminal in more than one read: judge the frame once it is whole.
    await t.waitFor((s) => !s.includes("JUNK"))
    const after = await t.settle()
    expect(after.split("\n")[0]).toMatch(/^ edgectl\s+target local/)
    if (keys.length === 1) expect(after).toBe(before)
  })

  it("ctrl+l in a text field redraws and types nothing", async () => {
    const t = (tui = await PtyTui.start(size))
    t.write(":acme")
    await t.waitFor(": acme")
    spoil(t)
    await t.waitFor("JUNK")
    t.write(PtyKeys.ctrlL)
    await t.waitFor((s) => !s.includes("JUNK"))
    const after = await t.settle()
    expect(after).not.toContain("JUNK")
    expect(after).toContain(": acme")
    t.write("-api.com")
    await t.waitFor(": acme-api.com")
  })

  it("the frame after a resize is whole", async () => {
    const t = (tui = await PtyTui.start(size))
    await t.settle()
    spoil(t)
    await t.waitFor("JUNK")
    t.resize(size.columns + 1, size.rows)
    await t.waitFor((s) => !s.includes("JUNK"), 5_000)
    const after = await t.settle()
    expect(after).not.toContain("JUNK")
    expect(after.split("\n")[0]).toMatch(/^ edgectl\s+target local/)
  })
})
