/**
 * Issue 29 item 10, the small ones fixed here: `shift+tab` on the Objects sub-tabs, `esc` once in
 * the custom rules' help, a new rule without a description named once (`(block, no description)`,
 * not followed by `(block)`).
 */
import { afterEach, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { flat, openFirewallTab } from "../helpers/tui-screen.js"
import { zoneCounter } from "../helpers/demo-world.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const shiftTab = "\u001b[Z"

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("small fixes at $columns x $rows", (size) => {
  it.each([
    { how: "one by one", oneRead: false },
    { how: "in one read", oneRead: true }
  ])("shift+tab goes back through the Objects sub-tabs ($how)", async ({ oneRead }) => {
    const state = tempDir("edgectl-small-")
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
    // keys -> (back) bookmarks -> (back) sql
    if (oneRead) t.write(`${shiftTab}${shiftTab}`)
    else {
      t.write(shiftTab)
      await t.settle()
      t.write(shiftTab)
    }
    await t.waitFor("type a query")
  })

  it("the custom rules' help lists esc once", async () => {
    const state = tempDir("edgectl-small-")
    const r = await edgectlAsync([
      "custom-rules",
      "add",
      "--zone",
      "acme-shop.com",
      "--expression",
      'http.host eq "x.example"',
      "--action",
      "block",
      "--persist-to",
      state
    ])
    expect(r.status, r.stderr).toBe(0)
    const t = (tui = await PtyTui.start({ ...size, persistTo: state }))
    await openFirewallTab(t, "acme-shop.com")
    t.write("c")
    await t.waitFor("Custom rules of acme-shop.com")
    t.write("?")
    const help = await t.waitFor("keys here")
    const escLines = help
      .split("\n")
      .filter((l) => /(^|[│\s])esc\s{2,}/.test(l) || /\besc\s+(back|firewall rules|list)\b/.test(l))
    expect(escLines).toHaveLength(1)
    expect(flat(help)).toContain("esc firewall rules")
  })

  it("a new rule without a description is named once in the notice", async () => {
    const t = (tui = await PtyTui.start(size))
    await openFirewallTab(t, "acme-api.com")
    t.write("n")
    await t.waitFor("its filter expression")
    t.write('http.request.uri.path eq "/nodesc"\r')
    await t.waitFor("Action")
    t.write("block\r")
    await t.waitFor("Priority (lower runs first)")
    t.write("\r")
    await t.waitFor("Description (names the rule")
    t.write("\r")
    const shown = flat(await t.waitFor("✓ Created"))
    expect(shown).toContain("✓ Created #1 (block, no description) with a new filter")
  })
})

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("the : palette with one account chosen at $columns x $rows", (size) => {
  it("says it finds that account's zones only", async () => {
    const t = (tui = await PtyTui.start(size))
    await t.waitFor(zoneCounter(1))
    t.write("a")
    await t.waitFor("Choose an account")
    t.write(`j${PtyKeys.enter}`)
    await t.waitFor("1/20")
    const account = t
      .screen()
      .split("\n")[0]!
      .match(/account (.+?)\s{2,}zone/)![1]!
    t.write(":")
    const shown = await t.waitFor("screen or zone name")
    expect(flat(shown)).toContain(`zones of ${account} only`)
  })
})

/** Opens `zone`'s WAF tab (the migration wizard) with the `:` palette. */
const openWaf = async (t: PtyTui, zone: string) => {
  t.write(`:${zone}${PtyKeys.enter}`)
  await t.waitFor("[DNS records]")
  t.write(`${PtyKeys.tab}${PtyKeys.tab}${PtyKeys.tab}${PtyKeys.tab}`)
  await t.waitFor("[WAF]")
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("the WAF wizard at $columns x $rows", (size) => {
  it("offers no deploy on a finished migration, and d does nothing there", async () => {
    const t = (tui = await PtyTui.start(size))
    await openWaf(t, "acme-labs.org")
    await t.waitFor("r refresh")
    t.write(PtyKeys.end)
    await t.settle()
    t.write("d")
    const shown = await t.settle()
    expect(shown).not.toContain("d deploy")
    expect(shown).not.toMatch(/Deploy .*\?|type acme-labs\.org/)
  })

  it("g and G go to the first and last rule in Overrides (in one read)", async () => {
    const t = (tui = await PtyTui.start(size))
    await openWaf(t, "acme-api.com")
    await t.waitFor("r refresh")
    t.write("nnnn")
    await t.waitFor("g/G first/last rule")
    const cursorRow = (screen: string) => screen.match(/││ › (\w{8})/)?.[1]
    const first = cursorRow(await t.settle())
    expect(first).toBeDefined()
    t.write("jjjg")
    await t.settle()
    expect(cursorRow(t.screen())).toBe(first)
    t.write("G")
    await t.settle()
    expect(cursorRow(t.screen())).not.toBe(first)
  })
})
