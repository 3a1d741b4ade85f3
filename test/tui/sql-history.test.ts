/**
 * The Objects screen's SQL prompt keeps the queries run on the object in this session (issue 29
 * item 10): up brings back the last, up again the one before, down goes forward and, past the
 * newest, gives back what was being typed. A recalled query runs again; what it wrote is read
 * back with the CLI.
 */
import { afterEach, describe, expect, it } from "vitest"
import { edgectl, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

/** The field's line: `› TEXT`, in the prompt's frame. */
const field = (screen: string): string | undefined =>
  screen
    .split("\n")
    .map((l) => /│ › (.*?)\s*│\s*│?$/.exec(l.split("││")[1] ?? "")?.[1])
    .find((v) => v !== undefined)

const sql = async (t: PtyTui, query: string, oneRead: boolean) => {
  await t.type(PtyKeys.enter)
  await t.waitFor("_cf_ tables are reserved")
  if (oneRead) t.write(query)
  else await t.type(query.split(""), 5)
  await t.waitFor(query)
  await t.type(PtyKeys.enter)
  await t.waitFor((s) => !s.includes("_cf_ tables are reserved"))
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("the SQL prompt's history at $columns x $rows", (size) => {
  it.each([
    { how: "pasted", oneRead: true },
    { how: "typed", oneRead: false }
  ])("up/down recall the queries run, down past the newest gives back the draft ($how)", async ({ oneRead }) => {
    const dir = tempDir("edgectl-sql-history-")
    const made = edgectl([
      "objects",
      "sql",
      "Counter",
      "h",
      "CREATE TABLE t (v INTEGER)",
      "--create",
      "--persist-to",
      dir
    ])
    expect(made.status, made.stderr).toBe(0)
    const t = (tui = await PtyTui.start({ ...size, persistTo: dir }))
    t.write("6")
    await t.waitFor(/›.*Counter\s+h\b/)
    await t.type(PtyKeys.enter)
    await t.waitFor("Counter h")
    await t.type(PtyKeys.tab)
    await t.waitFor("type a query")
    await sql(t, "INSERT INTO t VALUES (1)", oneRead)
    await sql(t, "SELECT count(*) AS n FROM t", oneRead)
    await t.type(PtyKeys.enter)
    await t.waitFor("_cf_ tables are reserved")
    if (oneRead) t.write("SELECT 9")
    else await t.type(["S", "E", "L", "E", "C", "T", " ", "9"])
    await t.waitFor((s) => field(s) === "SELECT 9")
    expect(t.screen()).toContain("↑↓ history")
    await t.type([PtyKeys.up])
    await t.waitFor((s) => field(s) === "SELECT count(*) AS n FROM t")
    await t.type([PtyKeys.up])
    await t.waitFor((s) => field(s) === "INSERT INTO t VALUES (1)")
    // Past the oldest: it stays.
    await t.type([PtyKeys.up])
    expect(field(await t.settle())).toBe("INSERT INTO t VALUES (1)")
    await t.type([PtyKeys.down])
    await t.waitFor((s) => field(s) === "SELECT count(*) AS n FROM t")
    await t.type([PtyKeys.down])
    await t.waitFor((s) => field(s) === "SELECT 9")
    // Back to the INSERT and run it again: the object has two rows.
    await t.type([PtyKeys.up, PtyKeys.up])
    await t.waitFor((s) => field(s) === "INSERT INTO t VALUES (1)")
    await t.type(PtyKeys.enter)
    await t.waitFor((s) => !s.includes("_cf_ tables are reserved") && s.includes("1 written"))
    const read = edgectl([
      "objects",
      "sql",
      "Counter",
      "h",
      "SELECT count(*) AS n FROM t",
      "--json",
      "--persist-to",
      dir
    ])
    expect(read.status, read.stderr).toBe(0)
    expect(read.stdout).toMatch(/"n":\s*2/)
  })
})
