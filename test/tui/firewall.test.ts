/**
 * The Firewall screen in a real terminal (test/helpers/pty.ts), at 80x24 and 120x40: create a rule
 * (each field pasted with its enter in one write), delete it and keep its filter, re-create the
 * same expression (its filter is offered for reuse), test a request (the answer names the table's
 * #n), delete again with the filter, and go back with esc. What the platform holds afterwards is
 * read back with the CLI on the same state directory.
 */
import { afterEach, describe, expect, it } from "vitest"
import { edgectl } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"

interface Filter {
  id: string
  expression: string
}
interface Rule {
  id: string
  action: string
  priority: number | null
  description?: string
  filter: { id: string }
}

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const platform = <A>(t: PtyTui, args: ReadonlyArray<string>): A => {
  const r = edgectl([...args, "--zone", "acme-api.com", "--persist-to", t.persistTo, "--json"])
  if (r.status !== 0) throw new Error(`${args.join(" ")}: exit ${r.status}: ${r.stderr}`)
  return JSON.parse(r.stdout) as A
}

/** Types a new rule's fields, each pasted with its enter. */
const newRule = async (t: PtyTui, description: string) => {
  t.write("n")
  await t.waitFor("its filter expression")
  t.write('http.request.uri.path eq "/pty"\r')
  await t.waitFor("Action")
  t.write("block\r")
  await t.waitFor("Priority (lower runs first)")
  t.write("5\r")
  await t.waitFor("Description (names the rule")
  t.write(`${description}\r`)
}

const hexId = /[0-9a-f]{32}/

describe.each([
  [80, 24],
  [120, 40]
])("the Firewall screen at %ix%i", (columns, rows) => {
  it("create, delete keeping the filter, re-create reusing it, test, delete with the filter, esc back", async () => {
    const t = (tui = await PtyTui.start({ columns, rows }))
    t.write("3")
    await t.waitFor((s) => s.includes("Pick a zone") && s.includes("› acme-api.com  Enterprise"))
    t.write(PtyKeys.enter)
    await t.waitFor("No firewall rules on this zone.")

    await newRule(t, "pty rule")
    await t.waitFor("✓ Created #1 pty rule (block) with a new filter")
    await t.waitFor(/EXPRESSION/)
    const table = await t.settle()
    // The expression keeps its column at 80x24; no rule is named by its 32-hex id.
    expect(table).toMatch(/› 1\s+(5\s+)?block\s+pty rule\s+http\.request\.uri\.p/)
    expect(table).toContain("#1 pty rule · block · priority 5")
    expect(table).not.toMatch(hexId)
    for (const line of t.lines()) expect(line.length).toBeLessThanOrEqual(columns)

    t.write("d")
    await t.waitFor("Delete rule #1 pty rule?")
    t.write("y")
    await t.waitFor("Delete its filter too? No rule uses it now.")
    t.write("n")
    await t.waitFor("Kept filter")
    expect(platform<Array<Filter>>(t, ["firewall", "filters", "list"]).map((f) => f.expression)).toEqual([
      'http.request.uri.path eq "/pty"'
    ])

    // The same expression again: its filter exists (10102), and the flow offers it.
    await newRule(t, "again")
    await t.waitFor("This expression already has a filter: reuse it?")
    expect(t.screen()).toContain("No rule uses it")
    t.write("y")
    await t.waitFor("✓ Created #1 again (block) on the existing filter")
    const [filter] = platform<Array<Filter>>(t, ["firewall", "filters", "list"])
    const rules = platform<Array<Rule>>(t, ["firewall", "rules", "list"])
    expect(rules.map((r) => [r.description, r.priority, r.filter.id])).toEqual([["again", 5, filter!.id]])

    t.write("t")
    await t.waitFor("Test a request to zone acme-api.com")
    t.write('{"http.request.uri.path": "/pty"}\r')
    await t.waitFor("test: BLOCK by #1 again")

    t.write("d")
    await t.waitFor("Delete rule #1 again?")
    t.write("y")
    await t.waitFor("Delete its filter too?")
    t.write("y")
    await t.waitFor("✓ Deleted rule #1 again and its filter")
    expect(platform<Array<Filter>>(t, ["firewall", "filters", "list"])).toEqual([])

    // esc goes back, as on every screen: to the list of zones.
    t.write(PtyKeys.escape)
    await t.waitFor("Pick a zone")
  }, 90_000)

  it("enter shows a rule whole; esc goes back to the table, then to the zones", async () => {
    const t = (tui = await PtyTui.start({ columns, rows }))
    t.write(":")
    await t.waitFor("screen or zone name")
    await t.type("acme.com")
    await t.waitFor(/› zone\s+acme\.com/)
    t.write(PtyKeys.enter)
    await t.waitFor("1250")
    t.write("3")
    await t.waitFor("allow office logins")
    // Read once the frame is whole (a slow machine draws it in several writes).
    const table = await t.settle()
    expect(table).toMatch(/#\s+(PRIORITY\s+)?ACTION\s+(PAUSED\s+)?DESCRIPTION\s+EXPRESSION/)
    expect(table).toMatch(/› 1\s+(1\s+)?allow\s+allow off[^│]*\s+ip\.src in \{203/)
    t.write("jj")
    await t.waitFor("#3 block bad bots · block · priority 10")
    t.write(PtyKeys.enter)
    // The whole expression, wrapped inside the pane.
    await t.waitFor(
      (s) =>
        s.includes("Rule #3 block bad bots") &&
        s.replace(/[│\s]+/g, " ").includes('http.user_agent contains "BadBot" or http.user_agent contains "sqlmap"')
    )
    t.write(PtyKeys.escape)
    await t.waitFor((s) => s.includes("EXPRESSION") && !s.includes("Rule #3"))
    t.write(PtyKeys.escape)
    await t.waitFor("Pick a zone")
    // From the list opened by esc, enter shows the rules again.
    expect(t.screen()).not.toContain("EXPRESSION")
  }, 90_000)
})
