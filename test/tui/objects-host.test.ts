/**
 * The Objects screen's writes while `edgectl objects dev` runs the object (issue 29): they go
 * through the host, as the CLI's do. The alarm set with `a` (+1s) makes the host run the class's
 * alarm() (its log read back with the CLI); a key put with `n` is read back with the CLI; a value
 * of bytes the object stored shows whole as a hex dump whose rows fit the pane (8 bytes a row at
 * 80 columns, 16 at 120), scrolled to its last row with G.
 */
import { afterEach, describe, expect, it } from "vitest"
import { json } from "../helpers/cli.js"
import { startDev, workspace, type Dev } from "../helpers/objects-live.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { fits } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
let dev: Dev | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
  await dev?.stop()
  dev = undefined
})

describe.each([
  { columns: 80, rows: 24, last: "00018698", row: /^00000000 {2}(00 ){7}00 {2}\|\.{8}\|$/ },
  { columns: 120, rows: 40, last: "00018690", row: /^00000000 {2}(00 ){7}00 {2}(00 ){7}00 {2}\|\.{16}\|$/ }
])("Objects writes through a running host at $columns x $rows", ({ last, row, ...size }) => {
  it("a sets the alarm and the host runs alarm(); n puts a key; bytes show as a hex dump", async () => {
    const w = workspace()
    dev = await startDev(w.cwd, w.state)
    expect(await dev.text("/Counter/a/inc")).toBe("1")
    // 100,000 zero bytes, stored by the object itself.
    expect(await dev.text("/Counter/a/break")).toBe("not reached")
    const t = (tui = await PtyTui.start({ ...size, persistTo: w.state }))
    t.write("6")
    await t.waitFor(/›.*●\s+Counter\s+a\b/)
    t.write(PtyKeys.enter)
    await t.waitFor("<100000 bytes>")
    await t.waitFor("live in pid")

    t.write(PtyKeys.enter)
    const dump = await t.waitFor("bytes (hex) · 97.7 KiB")
    const rows = dump.split("\n").map((l) => /││ (.*?)\s*│$/.exec(l)?.[1] ?? "")
    expect(
      rows.some((r) => row.test(r)),
      dump
    ).toBe(true)
    fits(t, size.columns)
    t.write("G")
    await t.waitFor(`${last}  00`)
    t.write(PtyKeys.escape)
    await t.waitFor("KEY")

    t.write("a")
    await t.waitFor("Set the alarm of Counter a")
    t.write(`+1s${PtyKeys.enter}`)
    await t.waitFor("✓ Alarm set to")
    // The host ran the alarm: the class logged it, and the alarm is gone.
    await t.waitFor(/log\s+\[\{"retryCount":0/)
    const log = json<{ value: Array<{ retryCount: number }> }>(
      await w.run("kv", "Counter", "a", "get", "log", "--json")
    )
    expect(log.value[0]!.retryCount).toBe(0)
    expect(json<{ alarm: null }>(await w.run("alarm", "Counter", "a", "--json")).alarm).toBeNull()

    t.write(`nhello${PtyKeys.enter}`)
    await t.waitFor('the value of "hello"')
    t.write(`world${PtyKeys.enter}`)
    await t.waitFor('✓ Stored key "hello"')
    expect(json<{ value: string }>(await w.run("kv", "Counter", "a", "get", "hello", "--json")).value).toBe("world")
    // The host still runs the object (it was written through it, not beside it).
    expect(await dev.text("/Counter/a/inc")).toBe("2")
  })
})
