/**
 * The Firewall tab's combined create and filters view (issue 29, "What is missing"): `N` creates a
 * rule and its filter in one POST (`firewall rules create --combined`), its confirmation showing
 * the request on `v`; `f` lists the zone's filters with the rules that use each, `e` edits one's
 * expression (`v`: its PUT), `d` refuses a filter a rule uses (naming the rule) and deletes an
 * unused one (`v`: its DELETE). Over the rule quota the combined call keeps its filter alone: the
 * TUI says so and the filters view shows it. Every write is read back through the CLI; the
 * expressions go in as a paste, bracketed and not; keys in one read.
 */
import Database from "better-sqlite3"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hexId } from "../../src/domain/ids.js"
import { newId, seedRule } from "../../src/store/firewall-rows.js"
import { edgectlAsync, json, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { flat, openFirewallTab, withoutNotice } from "../helpers/tui-screen.js"

// A pro zone (20 firewall rules at most) with no rules in the demo world.
const Zone = "initech-dev.com"

const sizes = [
  { columns: 80, rows: 24, bracketed: true },
  { columns: 120, rows: 40, bracketed: false }
] as const

const pasted = (text: string, bracketed: boolean) => (bracketed ? `\u001b[200~${text}\u001b[201~` : text)

/** The main pane's text with every blank and border gone: a line cut at any width reads whole. */
const squeezed = (screen: string): string =>
  screen
    .split("\n")
    .map((l) => l.split("││")[1] ?? l)
    .join("")
    .replace(/[│╭╮╰╯─\s]+/g, "")

interface RuleRow {
  readonly id: string
  readonly action: string
  readonly description?: string
  readonly filter: { readonly id: string; readonly expression: string }
}
interface FilterRow {
  readonly id: string
  readonly expression: string
}

describe.each(sizes)("firewall filters and the combined create at $columns x $rows", ({ bracketed, ...size }) => {
  let tui: PtyTui
  let dir: string
  let zoneId: string
  const cli = async (args: ReadonlyArray<string>) => {
    const r = await edgectlAsync([...args, "--zone", Zone, "--json", "--persist-to", dir])
    expect(r.status, r.stderr).toBe(0)
    return r
  }
  const rules = async () => json<Array<RuleRow>>(await cli(["firewall", "rules", "list"]))
  const filters = async () => json<Array<FilterRow>>(await cli(["firewall", "filters", "list"]))
  /** Enter on the expression, then the action, the priority and the description, each as its prompt opens. */
  const fields = async ([action, priority, description]: ReadonlyArray<string>) => {
    tui.write(PtyKeys.enter)
    await tui.waitFor("│ Action")
    tui.write(`${action}${PtyKeys.enter}`)
    await tui.waitFor("│ Priority (lower runs first)")
    tui.write(`${priority}${PtyKeys.enter}`)
    await tui.waitFor("│ Description (names the rule")
    tui.write(`${description}${PtyKeys.enter}`)
  }

  beforeAll(async () => {
    dir = tempDir("edgectl-fw-filters-")
    const z = await edgectlAsync(["zones", "get", Zone, "--json", "--persist-to", dir])
    expect(z.status, z.stderr).toBe(0)
    zoneId = json<{ id: string }>(z).id
    tui = await PtyTui.start({ ...size, persistTo: dir })
    await openFirewallTab(tui, Zone)
    await tui.waitFor("No firewall rules on this zone")
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("N: the fields, then a confirmation whose v shows the one POST with the filter inside; y creates both", async () => {
    tui.write("N")
    await tui.waitFor((s) => flat(s).includes(`New rule on ${Zone} in one call: its filter expression`))
    tui.write(pasted('http.request.uri.path eq "/one"', bracketed))
    await tui.waitFor('"/one"')
    // Each field in one read that ends with its enter (text after an enter in one read is a paste
    // into the field, docs/tui.md, "Typing in the TUI").
    await fields(["block", "", "one call"])
    await tui.waitFor((s) => flat(s).includes(`Create a block rule on ${Zone} in one call?`))
    tui.write("v")
    const shown = squeezed(await tui.waitFor((s) => squeezed(s).includes(`POST/zones/${zoneId}/firewall/rules`)))
    expect(shown).toContain('"action":"block"')
    expect(shown).toContain('"filter":{"expression":"http.request.uri.patheq\\"/one\\"","description":"onecall"}')
    expect(await rules()).toEqual([])
    tui.write("y")
    await tui.waitFor("with a new filter in one call")
    const after = await rules()
    expect(after).toHaveLength(1)
    expect(after[0]).toMatchObject({
      action: "block",
      description: "one call",
      filter: { expression: 'http.request.uri.path eq "/one"' }
    })
  })

  it("f lists the filters with their rules; d refuses a used one, naming the rule; e edits the expression (v: the PUT)", async () => {
    const fid = (await rules())[0]!.filter.id
    tui.write("f")
    await tui.waitFor(`Filters of ${Zone}`)
    await tui.waitFor(/#1\s+http\.request\.uri\.path eq "\/one"/)
    tui.write("d")
    const refused = flat(await tui.waitFor((s) => flat(s).includes("is used by")))
    expect(refused).toContain(`filter ${fid} is used by #1 one call`)
    expect((await filters()).map((f) => f.id)).toContain(fid)
    // Dismiss the notice, open the field, clear it, paste the new expression.
    tui.write(` e${PtyKeys.ctrlU}`)
    await tui.waitFor((s) => flat(s).includes(`Expression of filter ${fid}`))
    tui.write(pasted('http.request.uri.path eq "/two"', bracketed))
    await tui.waitFor('"/two"')
    tui.write(PtyKeys.enter)
    await tui.waitFor((s) => flat(s).includes(`Save the expression of filter ${fid}?`))
    tui.write("v")
    const save = squeezed(await tui.waitFor((s) => squeezed(s).includes(`PUT/zones/${zoneId}/filters/${fid}`)))
    expect(save).toContain('"expression":"http.request.uri.patheq\\"/two\\""')
    expect(save).toContain("#1onecallmatchthenewexpression")
    tui.write("y")
    await tui.waitFor(`Saved the expression of filter ${fid}`)
    expect((await filters()).find((f) => f.id === fid)?.expression).toBe('http.request.uri.path eq "/two"')
  })

  it("over the rule quota the combined call keeps its filter alone: said whole; f shows it unused, d deletes it", async () => {
    // The zone is filled to its quota (20) by another client, straight in the store.
    const fid = (await rules())[0]!.filter.id
    const db = new Database(path.join(dir, "platform.sqlite"))
    for (let i = 0; i < 19; i++)
      seedRule(
        db,
        hexId("zone", Zone),
        newId(),
        { filter_id: fid, action: "log", priority: null, paused: false, description: null, ref: null, products: null },
        "2024-07-01T00:00:00.000000Z"
      )
    db.close()
    tui.write(`${PtyKeys.escape}`)
    await tui.waitFor((s) => s.includes(`Firewall rules of ${Zone}`))
    tui.write("N")
    await tui.waitFor((s) => flat(s).includes("in one call: its filter expression"))
    tui.write(pasted('http.request.uri.path eq "/late"', bracketed))
    await tui.waitFor('"/late"')
    await fields(["log", "", ""])
    await tui.waitFor((s) => flat(s).includes(`Create a log rule on ${Zone} in one call?`))
    tui.write("y")
    // The footer's error, its wrapped lines (each after the bar ┃) read as one.
    const error = flat(await tui.waitFor("any key dismisses")).replace(/\s*┃\s*/g, " ")
    const late = (await filters()).find((f) => f.expression.includes("/late"))
    expect(late).toBeDefined()
    expect(error).toContain("the pro plan allows 20 rules per zone")
    expect(error).toContain(`filter ${late!.id} was created without its rule`)
    expect(error).toContain(`hint: filter ${late!.id} was kept without a rule: f lists the filters`)
    expect((await rules()).some((r) => r.filter.id === late!.id)).toBe(false)
    // Any key dismisses the error; f, then / narrows to it.
    tui.write(` f/late${PtyKeys.enter}`)
    const row = await tui.waitFor((s) => s.includes("1/1 of 2 filters"))
    expect(withoutNotice(row)).toMatch(/unused\s+http\.request\.uri\.path eq "\/late"/)
    tui.write("dv")
    await tui.waitFor((s) => squeezed(s).includes(`DELETE/zones/${zoneId}/filters/${late!.id}`))
    tui.write("y")
    await tui.waitFor(`Deleted filter ${late!.id}`)
    expect((await filters()).map((f) => f.id)).not.toContain(late!.id)
  })

  it("L lists the writes: the combined create, the filter's edit, the refused create and the delete", async () => {
    tui.write("L")
    const log = flat(await tui.waitFor("Session log: 4 write(s)"))
    expect(log).toContain(`created a firewall rule (block) on http.request.uri.path eq "/one" in one call`)
    expect(log).toContain("edited filter")
    expect(log).toMatch(/✗ initech-dev\.com created a firewall rule \(log\)/)
    expect(log).toContain("deleted filter")
    tui.write(PtyKeys.escape)
    await tui.waitFor((s) => !s.includes("Session log"))
  })
})
