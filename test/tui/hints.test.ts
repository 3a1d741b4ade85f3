/**
 * The footer's `hint:` says what can help (issue 29 item 7): an SQL typo or a reserved `_cf_` table
 * is the statement's fault, not "a bug in edgectl"; a damaged database is not "the state directory
 * must be writable"; the replay's missing file names no `/` filter on a view that has none.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { flat, openFirewallTab } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
] as const

/** `text` then enter, as typed in one read, or pasted (bracketed) and then enter. */
const entered = (t: PtyTui, text: string, how: "one read" | "pasted") =>
  how === "one read" ? t.write(`${text}\r`) : (t.write(`\u001b[200~${text}\u001b[201~`), t.write(PtyKeys.enter))

describe.each(sizes)("hints at $columns x $rows", (size) => {
  it.each([
    { statement: "SELEC 1", how: "one read" },
    { statement: "SELECT * FROM _cf_KV", how: "one read" },
    { statement: "SELECT * FROM _cf_KV", how: "pasted" }
  ] as const)("objects SQL `$statement` ($how): the statement's fault, not a bug", async ({ statement, how }) => {
    const state = tempDir("edgectl-hints-")
    const made = await edgectlAsync([
      "objects",
      "sql",
      "--persist-to",
      state,
      "--create",
      "Counter",
      "a",
      "CREATE TABLE t(a)"
    ])
    expect(made.status, made.stderr).toBe(0)
    const t = (tui = await PtyTui.start({ ...size, persistTo: state }))
    t.write("6")
    await t.waitFor(/›.*Counter\s+a\b/)
    t.write(PtyKeys.enter)
    await t.waitFor("Counter a  alarm")
    t.write(PtyKeys.tab)
    await t.waitFor("type a query")
    t.write(PtyKeys.enter)
    await t.waitFor("_cf_ tables are reserved")
    entered(t, statement, how)
    const shown = flat(await t.waitFor("hint:"))
    expect(shown).toContain("the statement was refused: enter types it again, fixed")
    expect(shown).not.toContain("bug in edgectl")
  })

  it("a damaged database: the hint says so, not that the directory must be writable", async () => {
    const state = tempDir("edgectl-hints-")
    fs.writeFileSync(
      path.join(state, "platform.sqlite"),
      "not a database, not a database, not a database ".repeat(200),
      {
        mode: 0o600
      }
    )
    const t = (tui = await PtyTui.start({ ...size, persistTo: state, ready: "hint:" }))
    const shown = flat(await t.waitFor((s) => flat(s).includes("move it aside")))
    expect(shown).toContain("platform.sqlite) is damaged")
    expect(shown).not.toContain("must be a directory edgectl can write")
  })

  it.each(["one read", "pasted"] as const)(
    "the migration replay's missing file ($how): no `/` filter named",
    async (how) => {
      const t = (tui = await PtyTui.start(size))
      await openFirewallTab(t, "acme-mail.com")
      t.write("m")
      await t.waitFor("a apply")
      t.write("p")
      await t.waitFor("Replay traffic through")
      entered(t, "/nonexistent/traffic.jsonl", how)
      const shown = flat(await t.waitFor("hint:"))
      expect(shown).toContain("traffic.jsonl")
      expect(shown).not.toContain("(/)")
      expect(shown).toContain("hint: change what was typed and try again")
    }
  )
})
