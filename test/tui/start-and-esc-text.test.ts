/**
 * Issue 29's last small TUI defects, in a pty at 80x24 and 120x40: the first frames at start-up no
 * longer jump by one line (the footer's key line took no row until a screen bound keys, so the
 * pane's bottom border moved up when they came), and the ESC request test, once ESC is removed,
 * says what the settings would have done, whole (it was cut at 80 columns and said "ESC runs"
 * under the banner's "no ESC runs any more").
 */
import { Terminal } from "@xterm/headless"
import { afterEach, describe, expect, it } from "vitest"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { flat } from "../helpers/tui-screen.js"
import { zoneCounter } from "../helpers/demo-world.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

/** The row of the pane's bottom border after each frame the TUI wrote (frames end with ESC[?2026l). */
const borderRows = async (raw: string, columns: number, rows: number): Promise<Array<number>> => {
  const term = new Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 0 })
  const out: Array<number> = []
  for (const frame of raw.split("\u001b[?2026l")) {
    await new Promise<void>((resolve) => term.write(frame, resolve))
    const buffer = term.buffer.active
    for (let y = 0; y < rows; y++) {
      if (
        buffer
          .getLine(buffer.viewportY + y)
          ?.translateToString(true)
          .startsWith("╰")
      ) {
        out.push(y)
        break
      }
    }
  }
  term.dispose()
  return out
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("at $columns x $rows", (size) => {
  it("the first frames keep the pane's bottom border on one row (no jump at start-up)", async () => {
    const t = (tui = await PtyTui.start(size))
    await t.waitFor(zoneCounter(1))
    await t.settle()
    const rows = await borderRows(t.raw, size.columns, size.rows)
    expect(rows.length).toBeGreaterThan(1)
    expect(new Set(rows), rows.join(",")).toEqual(new Set([size.rows - 4]))
  })

  it.each([
    { how: "typed", send: "typed" },
    { how: "in one read", send: "one read" },
    { how: "pasted", send: "bracketed" }
  ] as const)("the ESC request test says 'would run' whole once ESC is removed (cookie $how)", async ({ send }) => {
    const t = (tui = await PtyTui.start(size))
    t.write(PtyKeys.enter)
    await t.waitFor("[DNS records]")
    t.write(`${PtyKeys.tab}${PtyKeys.tab}`)
    await t.waitFor((s) => flat(s).includes("no ESC runs any more"))
    t.write("c")
    await t.waitFor("Test a request to zone")
    const cookie = "disable_esc=guess; session=abc"
    if (send === "typed") await t.type(cookie)
    else t.write(send === "one read" ? cookie : `\u001b[200~${cookie}\u001b[201~`)
    await t.waitFor("session=abc")
    t.write(PtyKeys.enter)
    const shown = flat(await t.waitFor("ESC would run"))
    expect(shown).toContain(
      "test (Cookie disable_esc=g…s; session=abc): ESC would run (if it still existed) · the request has a disable_esc cookie, but neither the zone nor its account has a secret"
    )
    expect(shown).not.toMatch(/ESC runs ·/)
  })
})
