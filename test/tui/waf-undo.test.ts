/**
 * `u` on the WAF wizard's Overrides step asks before it drops the edits (issue 29 item 10): it
 * dropped them at once, and they are kept nowhere else. The dialog lists what goes; `n` keeps the
 * edits, `y` drops them; with no edit, `u` is not offered and does nothing.
 */
import { afterEach, describe, expect, it } from "vitest"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { flat } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

/** globex.com's WAF tab, on its Overrides step. */
const toOverrides = async (t: PtyTui) => {
  t.write(`:globex.com${PtyKeys.enter}`)
  await t.waitFor("[DNS records]")
  t.write(`${PtyKeys.tab}${PtyKeys.tab}${PtyKeys.tab}${PtyKeys.tab}`)
  await t.waitFor("[WAF]")
  await t.waitFor("r refresh")
  t.write("nnnn")
  return t.waitFor(/OWASP: PL\d/)
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("u in the WAF overrides at $columns x $rows", (size) => {
  it.each([
    { how: "keys in one read", oneRead: true },
    { how: "typed", oneRead: false }
  ])("asks before dropping the edits; n keeps them, y drops them ($how)", async ({ oneRead }) => {
    const t = (tui = await PtyTui.start(size))
    const before = await toOverrides(t)
    const owasp = before.match(/OWASP: PL\d[^\n│]*/)![0].trim()
    expect(before).not.toContain("u undo edits")
    // No edit: u does nothing.
    t.write("u")
    expect(await t.settle()).not.toContain("Drop your edits")
    if (oneRead) t.write("Lu")
    else await t.type(["L", "u"])
    const dialog = await t.waitFor("Drop your edits")
    expect(flat(dialog)).toContain("Drop your edits to the overrides of globex.com?")
    expect(flat(dialog)).toContain("these edits are lost")
    t.write("n")
    const kept = await t.waitFor((s) => !s.includes("Drop your edits"))
    expect(kept).toContain("(edited")
    expect(kept).not.toContain(owasp)
    if (oneRead) t.write("uy")
    else await t.type(["u", "y"])
    const dropped = await t.waitFor((s) => !s.includes("(edited") && !s.includes("Drop your edits"))
    expect(dropped).toContain(owasp)
  })
})
