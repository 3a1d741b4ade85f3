/**
 * A paste is text, never keys (issue 29): the TUI turns bracketed paste on (and off on every way
 * out), a multi-line paste into the SQL prompt or the KV form stays in the field until the user
 * submits it, and a paste on a screen that takes no text is ignored with a notice. A terminal
 * without bracketed paste sends a paste as one read with a CR inside: the same holds in a field.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { openFirewallTab } from "../helpers/tui-screen.js"

const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
] as const

/** `text` (lines joined by `\n`) as the terminal sends it pasted: marked, or as one plain read. */
const pasted = (text: string, bracketed: boolean): string => {
  const sent = text.replace(/\n/g, "\r")
  return bracketed ? `\u001b[200~${sent}\u001b[201~` : sent
}

const modes = [
  { mode: "bracketed", bracketed: true },
  { mode: "unbracketed", bracketed: false }
] as const

const rowsLeft = async (state: string): Promise<number> => {
  const r = await edgectlAsync(["objects", "sql", "--persist-to", state, "--json", "Counter", "a", "SELECT a FROM t"])
  expect(r.status, r.stderr).toBe(0)
  return (JSON.parse(r.stdout) as { rows: ReadonlyArray<unknown> }).rows.length
}

describe.each(sizes)("pasting at $columns x $rows", (size) => {
  describe.each(modes)("a $mode paste", ({ bracketed }) => {
    let tui: PtyTui
    let state: string
    beforeAll(async () => {
      state = tempDir("edgectl-paste-")
      const made = await edgectlAsync([
        "objects",
        "sql",
        "--persist-to",
        state,
        "--create",
        "Counter",
        "a",
        "CREATE TABLE t(a INTEGER); INSERT INTO t VALUES (1), (2), (3)"
      ])
      expect(made.status, made.stderr).toBe(0)
      tui = await PtyTui.start({ ...size, persistTo: state })
    }, 60_000)
    afterAll(async () => {
      await tui?.close()
    })

    it("the SQL prompt takes a two-line statement whole and runs nothing until enter", async () => {
      tui.write("6")
      await tui.waitFor(/›.*Counter\s+a\b/)
      await tui.type(PtyKeys.enter)
      await tui.waitFor("Counter a  alarm")
      await tui.type(PtyKeys.tab)
      await tui.waitFor("type a query")
      await tui.type(PtyKeys.enter)
      await tui.waitFor("_cf_ tables are reserved")
      tui.write(pasted("DELETE FROM t\nWHERE a = 1", bracketed))
      const shown = await tui.waitFor("2 lines")
      expect(shown).toContain("DELETE FROM t⏎WHERE a = 1")
      expect(shown).toContain("enter to run all of it")
      await tui.settle()
      // Nothing ran, and the `1` switched no screen.
      expect(await rowsLeft(state)).toBe(3)
      expect(tui.screen()).toContain("_cf_ tables are reserved")
      await tui.type(PtyKeys.enter)
      await tui.waitFor("1 written")
      expect(await rowsLeft(state)).toBe(2)
    })

    it("the KV form's value keeps both lines of a paste and no key is deleted", async () => {
      tui.write("5")
      await tui.waitFor("acme-feature-flags")
      const ns = await edgectlAsync(["kv", "namespace", "list", "--persist-to", state])
      const id = (JSON.parse(ns.stdout) as ReadonlyArray<{ id: string; title: string }>).find(
        (n) => n.title === tui.screen().match(/›\s+(\S+)/)?.[1]
      )?.id
      expect(id).toBeDefined()
      await tui.type(PtyKeys.enter)
      await tui.waitFor("new key")
      await tui.type("n")
      await tui.waitFor("New key in")
      await tui.type("pasted-key")
      await tui.type(PtyKeys.tab)
      tui.write(pasted("first line\nsecond day", bracketed))
      await tui.waitFor("first line⏎second day")
      await tui.waitFor("value: 2 lines")
      await tui.settle()
      expect(tui.screen()).toContain("New key in")
      await tui.type(PtyKeys.enter)
      await tui.waitFor((s) => !s.includes("New key in") && s.includes("pasted-key"))
      await tui.settle()
      const got = await edgectlAsync(["kv", "key", "get", "--persist-to", state, "--namespace-id", id!, "pasted-key"])
      expect(got.status, got.stderr).toBe(0)
      expect(got.stdout).toBe("first line\nsecond day")
    })
  })
})

describe.each(sizes)("a pasted expression at $columns x $rows", (size) => {
  it.each(modes)("keeps its line break in a $mode paste, and enter goes on with all of it", async ({ bracketed }) => {
    const tui = await PtyTui.start(size)
    try {
      await openFirewallTab(tui, "acme-api.com")
      tui.write("n")
      await tui.waitFor("its filter expression")
      tui.write(pasted('http.host eq "a.example"\nor http.host eq "b.example"', bracketed))
      await tui.waitFor("2 lines")
      await tui.settle()
      expect(tui.screen()).toContain("its filter expression")
      expect(tui.screen()).toContain('"a.example"⏎or')
      await tui.type(PtyKeys.enter)
      await tui.waitFor((s) => s.includes("Action") && !s.includes("its filter expression"))
    } finally {
      await tui.close()
    }
  })
})

describe.each(sizes)("bracketed paste at $columns x $rows", (size) => {
  it("a paste on a list is ignored with a notice: it switches no screen and does not quit", async () => {
    const tui = await PtyTui.start(size)
    // The top of the pane (the notice in the footer takes rows off its bottom) is the same after.
    const pane = (s: string) => s.split("\n").slice(0, 10).join("\n")
    try {
      const before = pane(await tui.settle())
      tui.write(pasted("3\nq\n2", true))
      const shown = await tui.waitFor("paste ignored")
      expect(shown).toContain("this screen takes no text")
      expect(pane(await tui.settle())).toBe(before)
    } finally {
      await tui.close()
    }
  })

  it.each([
    { how: "q", quit: (t: PtyTui) => t.write("q") },
    { how: "ctrl+c", quit: (t: PtyTui) => t.write(PtyKeys.ctrlC) },
    { how: "SIGTERM", quit: (t: PtyTui) => t.signal("SIGTERM") }
  ])("is turned on at start and off at exit by $how", async ({ quit }) => {
    const tui = await PtyTui.start(size)
    expect(tui.raw).toContain("\u001b[?2004h")
    quit(tui)
    await tui.exit()
    const on = tui.raw.lastIndexOf("\u001b[?2004h")
    const off = tui.raw.lastIndexOf("\u001b[?2004l")
    expect(off).toBeGreaterThan(on)
    await tui.close()
  })
})
