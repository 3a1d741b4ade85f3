/**
 * The Firewall table shows a rule whose filter is paused as paused (issue 29 item 5): before, only
 * `enter` revealed `(paused)` and the row read as an active rule.
 */
import { afterEach, describe, expect, it } from "vitest"
import { PtyTui } from "../helpers/pty.js"
import { fits, flat, openFirewallTab } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

/** acme-mail.com's #6, `block executables`: its rule runs, its filter is paused. */
const sixth = /\n[^\n]*││\s+›?\s*6\s[^\n]*/

describe.each([
  { columns: 80, rows: 24, wide: false },
  { columns: 120, rows: 40, wide: true }
])("a paused filter in the Firewall table at $columns x $rows", ({ wide, ...size }) => {
  it("the row of acme-mail.com's rule whose filter is paused says so, and its summary line too", async () => {
    const t = (tui = await PtyTui.start(size))
    await openFirewallTab(t, "acme-mail.com")
    const screen = await t.waitFor(sixth)
    const row = screen.match(sixth)![0]
    if (wide) expect(row).toMatch(/\b5\s+block\s+filter paused\s+block executables/)
    // The narrow table has no PAUSED column: the pause leads the description.
    else expect(row).toMatch(/\bblock\s+filter pau/)
    // Five `j` in one read: the cursor on #6, its summary under the table.
    t.write("jjjjj")
    await t.waitFor(/›\s*6\s/)
    expect(flat(await t.settle())).toContain(
      '#6 block executables · block · priority 5 · filter paused: http.request.uri.path contains ".exe"'
    )
    fits(t, size.columns)
  })
})
