/**
 * `/` on the firewall rules table and on the WAF screen's zone list (issue 29): the list narrows
 * as the text is typed (one key at a time, or pasted with its enter in one read), a counter shows
 * the place in what is shown, a rule keeps its #n, and esc clears the filter before it goes back.
 */
import { afterEach, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { flat, openFirewallTab } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

/** acme-api.com with rules alpha-one, beta-two, alpha-three at priorities 1, 2, 3. */
const threeRules = async (): Promise<string> => {
  const state = tempDir("edgectl-filter-")
  for (const [i, name] of ["alpha-one", "beta-two", "alpha-three"].entries()) {
    const r = await edgectlAsync([
      "firewall",
      "rules",
      "create",
      "--zone",
      "acme-api.com",
      "--expression",
      `http.host eq "${name}.example"`,
      "--action",
      "block",
      "--priority",
      String(i + 1),
      "--description",
      name,
      "--persist-to",
      state
    ])
    expect(r.status, r.stderr).toBe(0)
  }
  return state
}

const typeFilter = async (t: PtyTui, text: string, oneRead: boolean) => {
  if (oneRead) t.write(`/${text}${PtyKeys.enter}`)
  else await t.type(["/", ...text.split(""), PtyKeys.enter])
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("list filters at $columns x $rows", (size) => {
  it.each([
    { how: "pasted with its enter in one read", oneRead: true },
    { how: "typed", oneRead: false }
  ])("the firewall rules table narrows to the matching rules, each keeping its #n ($how)", async ({ oneRead }) => {
    const t = (tui = await PtyTui.start({ ...size, persistTo: await threeRules() }))
    await openFirewallTab(t, "acme-api.com")
    await t.waitFor(/› 1\s[^\n]*alpha-one/)
    expect(t.screen()).toContain("1/3")
    await typeFilter(t, "alpha", oneRead)
    const narrowed = await t.waitFor("filter: alpha")
    expect(narrowed).not.toContain("beta-two")
    expect(narrowed).toMatch(/› 1\s[^\n]*alpha-one/)
    expect(narrowed).toContain("1/2 of 3 rules")
    t.write("j")
    const second = await t.waitFor("2/2 of 3 rules")
    // alpha-three is still the zone's #3: a write from here names the rule the table does.
    expect(second).toMatch(/› 3\s[^\n]*alpha-three/)
    t.write("p")
    expect(flat(await t.waitFor("rule #3"))).toContain("Pause rule #3 alpha-three?")
    t.write(PtyKeys.escape)
    await t.waitFor((s) => !s.includes("Pause rule"))
    // Nothing matches: said so; esc clears the filter and the tab stays.
    t.write(PtyKeys.escape)
    const all = await t.waitFor((s) => !s.includes("filter: alpha") && s.includes("beta-two"))
    expect(all).toContain("Firewall rules of acme-api.com")
    await typeFilter(t, "nomatch", oneRead)
    expect(await t.waitFor('No rules match "nomatch".')).toContain("esc clears the filter")
  })

  it.each([
    { how: "pasted with its enter in one read", oneRead: true },
    { how: "typed", oneRead: false }
  ])("the WAF screen's zones narrow by name and enter opens the one shown ($how)", async ({ oneRead }) => {
    const t = (tui = await PtyTui.start(size))
    t.write("4")
    // The counter comes with the list, a frame after the heading may.
    const list = await t.waitFor(/WAF migration · \d+ to migrate[\s\S]*\b1\/\d+/)
    // globex.com is past the first screenful of zones: the filter brings it up.
    const total = Number(list.match(/1\/(\d+)/)![1])
    expect(total).toBeGreaterThan(size.rows)
    expect(list).not.toContain("globex.com")
    await typeFilter(t, "globex.com", oneRead)
    const narrowed = await t.waitFor("filter: globex.com")
    expect(narrowed).not.toContain("acme-api.com")
    expect(narrowed).toMatch(/› globex\.com\s/)
    expect(narrowed).toContain("1/1")
    t.write(PtyKeys.enter)
    await t.waitFor("WAF migration · globex.com")
    t.write(PtyKeys.escape)
    await t.waitFor("filter: globex.com")
    t.write(PtyKeys.escape)
    const back = await t.waitFor((s) => !s.includes("filter: globex.com") && s.includes("acme-api.com"))
    expect(back).toContain("/ to filter by zone, plan, state")
  })
})
