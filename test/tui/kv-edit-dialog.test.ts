/**
 * The KV key dialog (issue 29 item 8): its frame is whole, the right border included, and a value
 * with tabs does not push the border out (a tab is drawn as one cell); a field's error longer than
 * the dialog is wrapped whole under its field, not cut.
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

/** The dialog's lines: from its top border to its bottom one, in the main pane. */
const dialogLines = (screen: string): Array<string> => {
  const inPane = screen.split("\n").map((l) => l.split("││")[1] ?? "")
  const top = inPane.findIndex((l) => l.includes("╭"))
  const bottom = inPane.findIndex((l, i) => i > top && l.includes("╰"))
  return inPane.slice(top, bottom + 1)
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("the KV key dialog at $columns x $rows", (size) => {
  it("keeps its right border on every line, with a value of tabs", async () => {
    const state = tempDir("edgectl-kv-dialog-")
    const t0 = await PtyTui.start({ ...size, persistTo: state })
    t0.write("5")
    await t0.waitFor("acme-feature-flags")
    const title = t0.screen().match(/›\s+(\S+)/)![1]!
    await t0.close()
    const ns = await edgectlAsync(["kv", "namespace", "list", "--persist-to", state])
    const id = (JSON.parse(ns.stdout) as ReadonlyArray<{ id: string; title: string }>).find(
      (n) => n.title === title
    )!.id
    const value = "col1\tcol2\tcol3\t" + "x".repeat(200)
    const r = await edgectlAsync(["kv", "key", "put", "--persist-to", state, "--namespace-id", id, "aaa-tab", value])
    expect(r.status, r.stderr).toBe(0)
    const t = (tui = await PtyTui.start({ ...size, persistTo: state }))
    t.write("5")
    await t.waitFor(title)
    t.write(PtyKeys.enter)
    await t.waitFor(/›\s+aaa-tab/)
    t.write(PtyKeys.enter)
    await t.waitFor("col1")
    t.write("e")
    const shown = await t.waitFor('Edit "aaa-tab"')
    fits(t, size.columns)
    const lines = dialogLines(shown)
    expect(lines.length).toBeGreaterThan(3)
    const right = lines[0]!.lastIndexOf("╮")
    expect(right).toBeGreaterThan(0)
    for (const l of lines.slice(1, -1)) expect(l[right], JSON.stringify(l)).toBe("│")
    expect(lines[lines.length - 1]![right]).toBe("╯")
  })

  it.each([
    { how: "pasted", oneRead: true },
    { how: "typed", oneRead: false }
  ])("shows a field's long error whole ($how)", async ({ oneRead }) => {
    const t = (tui = await PtyTui.start({ ...size, persistTo: tempDir("edgectl-kv-dialog-") }))
    t.write("5")
    await t.waitFor("acme-feature-flags")
    t.write(PtyKeys.enter)
    await t.waitFor("n new key")
    t.write("n")
    await t.waitFor("New key in")
    const metadata = '{"owner": "team-with-a-long-name", oops'
    for (const text of ["long-error", "v", metadata]) {
      if (oneRead) t.write(`${text}${PtyKeys.tab}`)
      else await t.type([...text.split(""), PtyKeys.tab], 5)
    }
    await t.waitFor("oops")
    t.write(PtyKeys.enter)
    const shown = await t.waitFor("is not valid JSON")
    fits(t, size.columns)
    const flat = dialogLines(shown)
      .map((l) => l.replace(/^[│\s]+|[│\s]+$/g, ""))
      .join(" ")
    expect(flat).toContain(
      `metadata is not valid JSON (Expected double-quoted property name in JSON at position 35): ${metadata}`
    )
  })
})
