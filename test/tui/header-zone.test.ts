/**
 * The header names the zone the screen shows (issue 29 item 3): a zone opened in the WAF screen's
 * wizard becomes the app's zone, so the header says it and `3` opens its firewall rules, never
 * those of the zone open before.
 */
import { afterEach, describe, expect, it } from "vitest"
import { PtyKeys, PtyTui } from "../helpers/pty.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const headerZone = (screen: string): string | undefined => screen.split("\n")[0]?.match(/zone (\S+)/)?.[1]

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("the header's zone at $columns x $rows", (size) => {
  it.each([
    { how: "keys one by one", oneRead: false },
    { how: "keys in one read", oneRead: true }
  ])("WAF screen 4, another zone, enter, then 3 ($how)", async ({ oneRead }) => {
    const t = (tui = await PtyTui.start(size))
    t.write(`:globex.com${PtyKeys.enter}`)
    await t.waitFor((s) => headerZone(s) === "globex.com")
    t.write("4")
    await t.waitFor(/› globex\.com\s/)
    // The second row: another zone than the one open.
    const second = /› globex\.com[^\n]*\n[^\n]*││\s+(\S+)/
    const other = (await t.waitFor(second)).match(second)![1]!
    expect(other).not.toBe("globex.com")
    if (oneRead) t.write(`j${PtyKeys.enter}3`)
    else {
      await t.type(["j", PtyKeys.enter])
      await t.waitFor(`WAF migration · ${other}`)
      expect(headerZone(t.screen())).toBe(other)
      await t.type("3")
    }
    const shown = await t.waitFor("Firewall rules · zone")
    expect(shown).toContain(`Firewall rules · zone ${other}`)
    expect(headerZone(shown)).toBe(other)
  })
})
