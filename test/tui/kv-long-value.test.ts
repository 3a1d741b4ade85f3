/**
 * Long and odd KV values (issue 29 item 8): a 5,000-character value wraps to the pane in rows cut
 * at its width (no indent, so copied rows give the line back) instead of one cut line, and a tab
 * is drawn as spaces, so the pane's border stays where it is.
 */
import { afterEach, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { fits } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const long = Array.from({ length: 500 }, (_, i) => `w${String(i).padStart(3, "0")}-abcd`).join("")

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("a long KV value at $columns x $rows", (size) => {
  it("wraps whole at the pane's width, and a tab keeps the border in place", async () => {
    const state = tempDir("edgectl-kv-long-")
    // The first namespace of the list (the TUI opens with the cursor on it).
    const t0 = await PtyTui.start({ ...size, persistTo: state })
    t0.write("5")
    await t0.waitFor("acme-feature-flags")
    const title = t0.screen().match(/›\s+(\S+)/)![1]!
    await t0.close()
    const ns = await edgectlAsync(["kv", "namespace", "list", "--persist-to", state])
    const id = (JSON.parse(ns.stdout) as ReadonlyArray<{ id: string; title: string }>).find(
      (n) => n.title === title
    )!.id
    for (const [key, value] of [
      ["aaa-long", long],
      ["aaa-tab", "col1\tcol2\tcol3"]
    ] as const) {
      const r = await edgectlAsync(["kv", "key", "put", "--persist-to", state, "--namespace-id", id, key, value])
      expect(r.status, r.stderr).toBe(0)
    }
    const t = (tui = await PtyTui.start({ ...size, persistTo: state }))
    t.write("5")
    await t.waitFor(title)
    t.write(PtyKeys.enter)
    await t.waitFor(/›\s+aaa-long/)
    t.write(PtyKeys.enter)
    const shown = await t.waitFor(/rows 1-\d+ of \d+/)
    // The rows of the value, read back from the pane, are the value's start, whole.
    const inPane = shown.split("\n").map((l) => l.split("││")[1]?.replace(/│\s*$/, "") ?? "")
    const start = inPane.findIndex((l) => l.trim() === "─".repeat(20)) + 1
    // Less the pane's padding column.
    const pane = inPane
      .slice(start)
      .filter((l) => l.trim() !== "")
      .map((l) => l.replace(/^ /, "").trimEnd())
    // Each row but the last as wide as the pane's inside: cut at the width, no indent.
    for (const row of pane.slice(0, -1)) expect(row.length).toBe(pane[0]!.length)
    expect(pane.length).toBeGreaterThan(3)
    expect(long.startsWith(pane.join(""))).toBe(true)
    fits(t, size.columns)

    t.write(PtyKeys.escape)
    await t.waitFor(/›\s+aaa-long/)
    t.write(`j${PtyKeys.enter}`)
    const tab = await t.waitFor("col1")
    const row = tab.split("\n").find((l) => l.includes("col1"))!
    expect(row).toMatch(/col1 {4}col2 {4}col3\s*│$/)
    expect(row.length).toBe(size.columns)
    fits(t, size.columns)
  })
})
