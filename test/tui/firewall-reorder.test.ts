/**
 * After an edit that reorders the firewall rules, the cursor stays on the rule edited (issue 29
 * item 6): it kept the row number, so the next `d` or `p` aimed at another rule.
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

/** acme-api.com with the rules rule-a, rule-b, rule-c at priorities 1, 2, 3. */
const threeRules = async (): Promise<string> => {
  const state = tempDir("edgectl-reorder-")
  for (const [i, name] of ["rule-a", "rule-b", "rule-c"].entries()) {
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

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("the cursor after a reordering edit at $columns x $rows", (size) => {
  it.each([
    { how: "each answer with its enter in one read", oneRead: true },
    { how: "typed", oneRead: false }
  ])("rule-a's priority 1 -> 10 moves it to #3 and the cursor with it ($how)", async ({ oneRead }) => {
    const t = (tui = await PtyTui.start({ ...size, persistTo: await threeRules() }))
    await openFirewallTab(t, "acme-api.com")
    await t.waitFor(/› 1\s[^\n]*rule-a/)
    t.write("e")
    await t.waitFor("Priority of #1 rule-a")
    if (oneRead) t.write(`10${PtyKeys.enter}`)
    else await t.type(["1", "0", PtyKeys.enter])
    await t.waitFor("Description of #1 rule-a")
    // (enter and a key after it in one read would be a paste into the field: apart.)
    t.write(PtyKeys.enter)
    await t.waitFor((s) => !s.includes("Description of"))
    t.write("p")
    const dialog = await t.waitFor(/(Pause|Resume) rule/)
    expect(flat(dialog)).toContain("Pause rule #3 rule-a?")
    t.write(PtyKeys.escape)
    const table = await t.waitFor((s) => !s.includes("Pause rule"))
    expect(table).toMatch(/› 3\s[^\n]*rule-a/)
    expect(flat(table)).toContain("#3 rule-a · block · priority 10")
  })
})
