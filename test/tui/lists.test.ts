/**
 * Long lists and the views that go stale, in the built TUI on a real terminal: acme.com's 1,250 DNS
 * records (G to the real end, page down past the loaded rows in one burst, r keeps the record,
 * enter shows a record whole) and the Objects screen (one object's state never shows for another,
 * a restore keeps the bookmark cursor, an object held by another process says who holds it).
 */
import Database from "better-sqlite3"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectl, json, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"

const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
] as const

/** The row under the cursor, without the pane's borders. */
const selected = (screen: string): string => {
  const pane = screen.split("\n").map((l) => l.split("││")[1] ?? "")
  const line = pane.find((l) => l.trimStart().startsWith("› "))
  return (line ?? "")
    .replace(/^\s*› /, "")
    .replace(/\s*│\s*$/, "")
    .trim()
}
/** `N/TOTAL` of the list's status line. */
const status = (screen: string): { at: number; of: number } | undefined => {
  const m = /│ (\d+)\/(\d+)\b/.exec(screen)
  return m ? { at: Number(m[1]), of: Number(m[2]) } : undefined
}

/** Moves the list's cursor to the first row matching `row` (from the top, j by j). */
const pick = async (tui: PtyTui, row: RegExp): Promise<void> => {
  await tui.type("g")
  for (let i = 0; i < 20; i++) {
    if (row.test(selected(await tui.settle(120)))) return
    await tui.type("j")
  }
  throw new Error(`no row matches ${String(row)}:\n${tui.screen()}`)
}

interface DnsRow {
  readonly id: string
  readonly name: string
  readonly type: string
}

/** A DKIM-like TXT value: longer than any row, with its end marked. */
const longTxt = `"v=DKIM1;k=rsa;p=${"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA".repeat(6)}IDAQAB-END"`

describe.each(sizes)("DNS records of acme.com at $columns x $rows", (size) => {
  let tui: PtyTui
  let dir: string
  let rows: ReadonlyArray<DnsRow>

  beforeAll(async () => {
    dir = tempDir("edgectl-lists-")
    rows = json<Array<DnsRow>>(edgectl(["dns", "list", "acme.com", "--json", "--persist-to", dir]))
    expect(rows).toHaveLength(1250)
    const db = new Database(path.join(dir, "platform.sqlite"))
    db.prepare("UPDATE dns_records SET content = ? WHERE id = ?").run(longTxt, rows[rows.length - 1]!.id)
    db.close()
    tui = await PtyTui.start({ ...size, persistTo: dir })
    await tui.type("/")
    await tui.type("acme.com", 60)
    await tui.waitFor((s) => s.includes("/ acme.com") && status(s)?.of === 1)
    await tui.type(PtyKeys.enter)
    await tui.waitFor(/› acme\.com /)
    await tui.type(PtyKeys.enter)
    await tui.waitFor((s) => status(s)?.of === 1250)
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("several page downs in one write move past the 100 loaded rows", async () => {
    expect(status(tui.screen())).toEqual({ at: 1, of: 1250 })
    expect(tui.screen()).toContain("100 loaded")
    tui.write(PtyKeys.pageDown.repeat(9))
    // Nine pages of the visible rows from the top: the cursor lands there once the rows are read.
    const after = await tui.waitFor((s) => (status(s)?.at ?? 0) > 100 && !s.includes("loading"))
    const at = status(after)!.at
    expect(selected(after)).toContain(rows[at - 1]!.name)
  })

  it("G reaches the last record in one press, and enter shows its long TXT content whole", async () => {
    tui.write("G")
    const screen = await tui.waitFor("1250/1250")
    expect(selected(screen)).toContain(rows[rows.length - 1]!.name)
    tui.write(PtyKeys.enter)
    const shown = await tui.waitFor("characters")
    // The content's rows under its label, each from the pane's first column with no indent,
    // joined back: the value, every character (copied rows give the record back).
    const inPane = shown.split("\n").map((l) => (l.split("││")[1] ?? "").replace(/│\s*$/, ""))
    const label = inPane.findIndex((l) => l.trim() === "content")
    const end = inPane.findIndex((l) => / characters/.test(l))
    const contentRows = inPane.slice(label + 1, end).map((l) => l.replace(/^ /, "").trimEnd())
    for (const row of contentRows) expect(row.startsWith(" ")).toBe(false)
    for (const row of contentRows.slice(0, -1)) expect(row.length).toBe(contentRows[0]!.length)
    expect(contentRows.join("")).toBe(longTxt)
    expect(shown).toContain(`TXT ${rows[rows.length - 1]!.name}`)
    expect(shown).toContain(`id         ${rows[rows.length - 1]!.id}`)
    tui.write(PtyKeys.escape)
    await tui.waitFor("1250/1250")
  })

  it("r keeps the cursor on its record when the rows above it change", async () => {
    tui.write("g")
    await tui.waitFor((s) => status(s)?.at === 1)
    tui.write(PtyKeys.pageDown.repeat(9))
    await tui.waitFor((s) => (status(s)?.at ?? 0) > 100)
    // The nine pages act one after another, each on the frame the one before drew: the record is
    // the one the last page down left the cursor on.
    const after = await tui.settle()
    const at = status(after)!.at
    const record = selected(after)
    expect(record).toContain(rows[at - 1]!.name)
    // Another client deletes a record above the cursor; the refresh shifts every row under it.
    const db = new Database(path.join(dir, "platform.sqlite"))
    db.prepare("DELETE FROM dns_records WHERE id = ?").run(rows[1]!.id)
    db.close()
    tui.write("r")
    const refreshed = await tui.waitFor((s) => status(s)?.of === 1249 && !s.includes("refreshing"))
    expect(selected(refreshed)).toBe(record)
    expect(status(refreshed)!.at).toBe(at - 1)
  })
})

describe.each(sizes)("Objects at $columns x $rows", (size) => {
  let tui: PtyTui
  let dir: string

  beforeAll(async () => {
    dir = tempDir("edgectl-lists-objects-")
    const run = (...args: Array<string>) => {
      const r = edgectl(["objects", ...args, "--persist-to", dir])
      expect(r.status, r.stderr).toBe(0)
    }
    // alpha: four commits (four bookmarks); beta: one key; gamma: held by another process.
    run("kv", "Counter", "alpha", "put", "greeting", "hello")
    run("sql", "Counter", "alpha", "CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('alpha-row')", "--create")
    run("kv", "Counter", "alpha", "put", "a", "1")
    run("kv", "Counter", "alpha", "put", "b", "2")
    run("kv", "Counter", "beta", "put", "only-beta", "x")
    run("kv", "Counter", "gamma", "put", "g", "1")
    tui = await PtyTui.start({ ...size, persistTo: dir })
    tui.write("6")
    await tui.waitFor(/› \s*Counter\s+\w+/)
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("SQL results of one object never show for another", async () => {
    await pick(tui, /^Counter\s+alpha/)
    await tui.type(PtyKeys.enter)
    await tui.waitFor("greeting")
    await tui.type(PtyKeys.tab)
    await tui.type(PtyKeys.enter)
    await tui.waitFor("_cf_ tables are reserved")
    await tui.type("SELECT v FROM t", 30)
    await tui.waitFor("SELECT v FROM t")
    await tui.type(PtyKeys.enter)
    await tui.waitFor("alpha-row")
    await tui.type(PtyKeys.escape)
    await pick(tui, /^Counter\s+beta/)
    await tui.type(PtyKeys.enter)
    const beta = await tui.waitFor("only-beta")
    expect(beta).toMatch(/Counter beta/)
    expect(beta).not.toContain("alpha-row")
    await tui.type(PtyKeys.tab)
    const sql = await tui.waitFor("enter: type a query")
    expect(sql).not.toContain("alpha-row")
    expect(sql).not.toMatch(/row\(s\); rows read/)
    await tui.type(PtyKeys.escape)
    await tui.waitFor(/› \s*Counter\s+beta/)
  })

  it("a restore keeps the bookmark cursor on its bookmark", async () => {
    await pick(tui, /^Counter\s+alpha/)
    await tui.type(PtyKeys.enter)
    await tui.waitFor("greeting")
    await tui.type([PtyKeys.tab, PtyKeys.tab])
    await tui.waitFor("BOOKMARK")
    await tui.type(["j", "j"])
    // Newest first (commits 4, 3, 2, 1): two rows down is the second commit.
    const before = await tui.waitFor(/› [0-9a-f]{8}-[0-9a-f]{8}-0+2…/)
    const bookmark = /› ([0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8})…/.exec(before)![1]!
    await tui.type(PtyKeys.enter)
    await tui.waitFor("Restore Counter alpha")
    await tui.type("y")
    const after = await tui.waitFor(/undo:? (bookmark )?[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}/)
    // The restore is itself a commit, at the top of the timeline: every row moved down by one.
    await tui.waitFor((s) => /[0-9a-f]{8}-[0-9a-f]{8}-0+5… .*restore/.test(s))
    expect(/› ([0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8})…/.exec(await tui.settle())?.[1]).toBe(bookmark)
    expect(after).toContain("Counter alpha")
    await tui.type(PtyKeys.escape)
    await tui.waitFor(/› \s*Counter\s+alpha/)
  })

  it("an object held by another process says which process, whole, and what to do", async () => {
    const listed = json<Array<{ name: string; id: string }>>(
      edgectl(["objects", "list", "--json", "--persist-to", dir])
    )
    const gamma = listed.find((o) => o.name === "gamma")!
    const command = "edgectl objects dev src/objects.ts --port 8788"
    // This test's own process is alive and is not the TUI: it holds the lock as a running host would.
    fs.writeFileSync(
      path.join(dir, "objects", "Counter", gamma.id, "owner.lock"),
      JSON.stringify({ pid: process.pid, command })
    )
    await pick(tui, /^Counter\s+gamma/)
    await tui.type(PtyKeys.enter)
    const screen = await tui.waitFor("hint:")
    const text = screen
      .split("\n")
      .map((l) => (l.split("││")[1] ?? "").replace(/│\s*$/, "").trim())
      .join(" ")
    expect(text).toContain(`pid ${process.pid} (${command})`)
    expect(text).toContain("stop that process")
    expect(screen).not.toContain("loading the object")
    await tui.type(PtyKeys.escape)
  })
})
