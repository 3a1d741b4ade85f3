/**
 * The Objects screen beside a running `edgectl objects dev` on the same state directory, in the
 * built TUI on a real terminal: the object shows as live, its keys, a SQL read and a bookmark come
 * through the host, a restore through it resets the object (the next HTTP request counts from the
 * bookmark), writes by HTTP traffic appear without a key; once the host stops the screen opens the
 * storage itself and goes on working.
 */
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Dev, startDev, workspace } from "../helpers/objects-live.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"

// The host stops as on ctrl+c at one size, and is killed (leaving its lock and socket) at the other.
const sizes = [
  { columns: 80, rows: 24, stop: "SIGINT" },
  { columns: 120, rows: 40, stop: "SIGKILL" }
] as const

/** The main pane's lines, without the borders. */
const pane = (screen: string): Array<string> =>
  screen.split("\n").map((l) => (l.split("││")[1] ?? "").replace(/│\s*$/, "").trimEnd())
/** The value shown for a key on the keys tab. */
const keyValue = (screen: string, key: string): string | undefined =>
  pane(screen)
    .map((l) => new RegExp(`^\\s*(?:› )?${key}\\s{2,}(\\S+)$`).exec(l)?.[1])
    .find((v) => v !== undefined)
const selected = (screen: string): string => (pane(screen).find((l) => l.trimStart().startsWith("› ")) ?? "").trim()

describe.each(sizes)("Objects with a running host at $columns x $rows, stopped by $stop", ({ stop, ...size }) => {
  let tui: PtyTui
  let dev: Dev
  let state: string
  let atTwo: string

  beforeAll(async () => {
    state = workspace().state
    dev = await startDev(path.dirname(state), state)
    expect(await dev.text("/Counter/a/inc")).toBe("1")
    expect(await dev.text("/Counter/a/inc")).toBe("2")
    atTwo = await dev.text("/Counter/a/bookmark")
    for (const n of ["3", "4", "5"]) expect(await dev.text("/Counter/a/inc")).toBe(n)
    tui = await PtyTui.start({ ...size, persistTo: state })
    tui.write("6")
    await tui.waitFor(/› ●\s+Counter\s+a\b/)
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
    await dev?.stop()
  })

  it("marks the object as live and shows what the running object holds; an HTTP write appears by itself", async () => {
    const pid = dev.child.pid!
    expect(tui.screen()).toContain(`● running in a host: pid ${pid} (counter.ts)`)
    // The row whole, its size too, beside the pane's border.
    expect(tui.screen()).toMatch(/› ●\s+Counter\s+a\s+[0-9a-f]{12}…\s+\d+ *│/)
    await tui.type(PtyKeys.enter)
    const open = await tui.waitFor((s) => keyValue(s, "n") === "5")
    expect(open).toContain(`Counter a  live in pid ${pid}`)
    expect(await dev.text("/Counter/a/inc")).toBe("6")
    await tui.waitFor((s) => keyValue(s, "n") === "6")
  })

  it("a SQL read runs in the running object", async () => {
    await tui.type(PtyKeys.tab)
    await tui.waitFor("enter: type a query")
    await tui.type(PtyKeys.enter)
    await tui.waitFor("_cf_ tables are reserved")
    tui.write("SELECT 6 * 7 AS answer")
    await tui.waitFor("SELECT 6 * 7 AS answer")
    await tui.type(PtyKeys.enter)
    const shown = await tui.waitFor("rows read")
    expect(pane(shown).some((l) => /^\s*42$/.test(l))).toBe(true)
    expect(shown).toContain("1 row(s); rows read 1, rows written 0")
    // The object is still running in the host and counting.
    expect(await dev.text("/Counter/a/inc")).toBe("7")
    await tui.waitFor("out of date")
  })

  it("restores through the host to a bookmark taken between requests: the next request counts from it", async () => {
    // The object's bookmark is timed by its call; the history lists its commit.
    const row = new RegExp(`^› [0-9a-f]{8}-[0-9a-f]{8}-${atTwo.split("-")[2]}…\\s+\\S+\\s+write$`)
    await tui.type(PtyKeys.tab)
    await tui.waitFor(`-${atTwo.split("-")[2]}…`)
    for (let i = 0; i < 12 && !row.test(selected(await tui.settle(120))); i++) await tui.type("j")
    expect(selected(tui.screen())).toMatch(row)
    await tui.type(PtyKeys.enter)
    const dialog = await tui.waitFor("Restore Counter a")
    // Each line whole, at 80 columns too.
    expect(dialog).toContain(`Running in pid ${dev.child.pid}: reset, requests in flight fail.`)
    expect(dialog).toContain("It can be undone from the bookmark it shows.")
    await tui.type("y")
    await tui.waitFor(/undo: [0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}…/)
    expect(await dev.text("/Counter/a/inc")).toBe("3")
    await tui.type(PtyKeys.tab)
    await tui.waitFor((s) => keyValue(s, "n") === "3")
  })

  it("once the host stops (or is killed), the screen opens the storage itself: same data, no live mark, SQL still runs", async () => {
    await dev.stop(stop)
    const stopped = await tui.waitFor((s) => !s.includes("live in pid"))
    expect(keyValue(stopped, "n")).toBe("3")
    await tui.type(PtyKeys.tab)
    await tui.type(PtyKeys.enter)
    await tui.waitFor("_cf_ tables are reserved")
    tui.write("SELECT 1 + 1 AS two")
    await tui.waitFor("SELECT 1 + 1 AS two")
    await tui.type(PtyKeys.enter)
    const sql = await tui.waitFor("rows read 1")
    expect(pane(sql).some((l) => /^\s*2$/.test(l))).toBe(true)
    await tui.type(PtyKeys.escape)
    const list = await tui.waitFor(/› \s+Counter\s+a\b/)
    expect(list).not.toContain("running in a host")
    expect(list).not.toContain("could not")
  })
})
