/**
 * What is typed outlives a terminal that passes below 80x24 and back (issue 29): the app hides
 * behind the "too small" message, and its fields come back as they were (the KV form and the `/`
 * filter always did; the firewall and custom-rule expressions, the ESC secret and the `:` palette
 * came back empty).
 */
import { afterEach, describe, expect, it } from "vitest"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { openFirewallTab } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

/** The terminal goes below 80x24 (the app says so), then back to `size`. */
const shrinkAndGrow = async (t: PtyTui, size: { columns: number; rows: number }): Promise<void> => {
  // `script` relays the keys on its own time and a resize signal can overtake them: let them land.
  await t.settle(300)
  t.resize(70, 20)
  await t.waitFor("needs at least 80x24")
  t.resize(size.columns, size.rows)
  await t.waitFor((s) => !s.includes("needs at least 80x24"))
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("typed text across a too-small terminal at $columns x $rows", (size) => {
  it("the firewall rule's expression is kept", async () => {
    const t = (tui = await PtyTui.start(size))
    await openFirewallTab(t, "acme-api.com")
    t.write("n")
    await t.waitFor("its filter expression")
    t.write('http.host eq "kept"')
    await t.waitFor('http.host eq "kept"')
    await shrinkAndGrow(t, size)
    const back = await t.waitFor('http.host eq "kept"')
    expect(back).toContain("its filter expression")
  })

  it("the custom rule's expression is kept", async () => {
    const t = (tui = await PtyTui.start(size))
    await openFirewallTab(t, "acme-mail.com")
    t.write("m")
    await t.waitFor("a apply")
    t.write("a")
    await t.waitFor("Migrate the firewall rules of acme-mail.com?")
    t.write("y")
    await t.waitFor(/› #1\s+skip/)
    t.write("n")
    await t.waitFor("New custom rule: its expression")
    t.write('http.host eq "kept"')
    await t.waitFor('http.host eq "kept"')
    await shrinkAndGrow(t, size)
    const back = await t.waitFor('http.host eq "kept"')
    expect(back).toContain("New custom rule: its expression")
  })

  it("the ESC secret is kept (as bullets)", async () => {
    const t = (tui = await PtyTui.start(size))
    t.write("2")
    await t.waitFor("choose an account (a)")
    t.write("a")
    await t.waitFor("choose account")
    // The first account after "All accounts".
    await t.type(["j", PtyKeys.enter])
    await t.waitFor("set secret")
    t.write("s")
    await t.waitFor("New secret for")
    t.write("s3cret")
    await t.waitFor("••••••")
    await shrinkAndGrow(t, size)
    const back = await t.waitFor("••••••")
    expect(back).toContain("New secret for")
    // It is the same secret: enter sets it.
    t.write(PtyKeys.enter)
    await t.waitFor((s) => !s.includes("New secret for"))
  })

  it("the : palette's text is kept", async () => {
    const t = (tui = await PtyTui.start(size))
    t.write(":")
    await t.waitFor("screen or zone name")
    t.write("globex")
    await t.waitFor(/› zone\s+globex/)
    await shrinkAndGrow(t, size)
    await t.waitFor(/› zone\s+globex/)
    t.write(PtyKeys.enter)
    await t.waitFor("[DNS records]")
  })
})
