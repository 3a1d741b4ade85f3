/**
 * The header names the zone the screen shows (issue 29 item 3): over the WAF screen's wizard, the
 * wizard's zone (it named the Zones screen's zone); on the Firewall screen (`3`), the zone whose
 * rules it shows. The WAF screen's choice stays its own: the Zones screen keeps its zone.
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
    if (oneRead) {
      t.write(`j${PtyKeys.enter}`)
      expect(headerZone(await t.waitFor(`WAF migration · ${other}`))).toBe(other)
      t.write("3")
    } else {
      await t.type(["j", PtyKeys.enter])
      await t.waitFor(`WAF migration · ${other}`)
      expect(headerZone(t.screen())).toBe(other)
      await t.type("3")
    }
    const shown = await t.waitFor("Firewall rules · zone")
    expect(shown).toContain("Firewall rules · zone globex.com")
    expect(headerZone(shown)).toBe("globex.com")
    // Back on the WAF screen (its list: the wizard closed as the screen was left), the header
    // names no zone of a wizard any more.
    t.write("4")
    const back = await t.waitFor(/WAF migration · \d+ to migrate/)
    expect(headerZone(back)).toBe("globex.com")
  })
})
