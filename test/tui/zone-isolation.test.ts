/**
 * Each zone's state is its own (issue 14, item 1): an edit, a test result or a cursor on zone A
 * never shows on zone B, whatever the route from A to B (`:` palette, the zone list, the WAF
 * screen), and a deploy on B sends B's configuration, read back from the platform afterwards.
 * The built TUI in a real pty, at 80x24 and 120x40.
 */
import * as ManagedRuntime from "effect/ManagedRuntime"
import { afterEach, describe, expect, it } from "vitest"
import { clientLayer } from "../../src/cli/environment.js"
import * as Waf from "../../src/services/waf-migration-service.js"
import { resolveWafZone } from "../../src/services/waf-migration-service.js"
import { configSummary } from "../../src/waf/config-diff.js"
import { edgectl } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
] as const

/** `:` then the zone's name typed key by key; enter once the palette shows it selected. */
const jump = async (t: PtyTui, zone: string) => {
  t.write(":")
  await t.waitFor("screen  Zones")
  await t.type(zone)
  await t.waitFor(new RegExp(`› zone\\s+${zone.replace(/\./g, "\\.")}\\s`))
  // The zone matches are asked of the platform per key: let the last answer land before enter.
  await t.settle()
  t.write(PtyKeys.enter)
  await t.waitFor(`zone ${zone}`)
  // A zone opens on its first tab: nothing of the zone before (its tab, its step) carries over.
  expect(await t.settle()).toContain("[DNS records]")
}

/** From the DNS tab to the zone's tab `title`. */
const toTab = async (t: PtyTui, title: string) => {
  const order = ["DNS records", "Certificate packs", "ESC", "Firewall", "WAF"]
  for (let i = 1; i <= order.indexOf(title); i++) {
    t.write(PtyKeys.tab)
    await t.waitFor(`[${order[i]}]`)
  }
}

/** From the wizard's first step to Overrides. */
const toOverrides = async (t: PtyTui) => {
  await t.waitFor("state:")
  await t.type("nnnn")
  await t.waitFor(/OWASP: PL\d/)
}

const GLOBEX_OWASP = "OWASP: PL1, threshold 40, action challenge"
const SHOP_OWASP = "OWASP: PL1, threshold 25, action log"

/** Edits globex.com's overrides on its WAF tab: PL1 -> PL2 and the second rule off. */
const editGlobex = async (t: PtyTui) => {
  await jump(t, "globex.com")
  await toTab(t, "WAF")
  await toOverrides(t)
  expect(t.screen()).toContain(GLOBEX_OWASP)
  await t.type(["L", "j", " "])
  await t.waitFor((s) => s.includes("OWASP: PL2, threshold 40") && s.includes("(edited"))
}

const platform = async (persistTo: string) => {
  const runtime = ManagedRuntime.make(clientLayer({ remote: false, persistTo }))
  try {
    const shop = await runtime.runPromise(resolveWafZone("acme-shop.com"))
    const [entrypoint, proposed] = await Promise.all([
      runtime.runPromise(Waf.deployed(shop)),
      runtime.runPromise(Waf.config(shop))
    ])
    return { entrypoint, proposed }
  } finally {
    await runtime.dispose()
  }
}

describe.each(sizes)("zone isolation at $columns x $rows", (size) => {
  it(": from globex.com (edited) to acme-shop.com shows only acme-shop.com's WAF; Deploy there sends acme-shop.com's configuration", async () => {
    tui = await PtyTui.start(size)
    await editGlobex(tui)
    await jump(tui, "acme-shop.com")
    expect(tui.screen()).not.toContain("(edited")
    expect(tui.screen()).not.toContain("OWASP")
    await toTab(tui, "WAF")
    await toOverrides(tui)
    expect(tui.screen()).toContain(SHOP_OWASP)
    expect(tui.screen()).not.toContain("(edited")
    await tui.type("nn")
    await tui.waitFor("d deploys to validation mode")
    await tui.type("d")
    await tui.waitFor("Deploy the new WAF on acme-shop.com in validation mode?")
    await tui.waitFor("Sends the platform's proposed configuration, unedited.")
    await tui.type("y")
    await tui.waitFor("Sent to acme-shop.com")
    await tui.waitFor("OWASP: PL1, threshold 25, action log")
    const persistTo = tui.persistTo
    expect(await tui.close()).toBe(0)
    tui = undefined

    const shop = edgectl(["waf", "status", "--zone", "acme-shop.com", "--persist-to", persistTo, "--json"])
    expect(shop.status).toBe(0)
    expect(JSON.parse(shop.stdout).migration_state).toBe("validation")
    const globex = edgectl(["waf", "status", "--zone", "globex.com", "--persist-to", persistTo, "--json"])
    expect(JSON.parse(globex.stdout).migration_state).toBe("start")
    const { entrypoint, proposed } = await platform(persistTo)
    expect(JSON.stringify(entrypoint.rules)).not.toContain("globex")
    expect(configSummary(entrypoint)).toEqual(configSummary(proposed))
  }, 60_000)

  it("the zone list: acme-shop.com opened after globex.com shows none of its edits; back on globex.com, its own edits are still there", async () => {
    tui = await PtyTui.start(size)
    await editGlobex(tui)
    const pick = async (t: PtyTui, name: string) => {
      t.write("/")
      await t.waitFor("type filter by name")
      await t.type(name)
      await t.waitFor(new RegExp(`› ${name.replace(/\./g, "\\.")}\\s`))
      t.write(PtyKeys.enter)
      await t.waitFor(`filter: ${name}`)
      await t.settle()
      t.write(PtyKeys.enter)
      await t.waitFor(`zone ${name}`)
      expect(await t.settle()).toContain("[DNS records]")
    }
    tui.write(PtyKeys.escape)
    await tui.waitFor("zone —")
    await pick(tui, "acme-shop.com")
    await toTab(tui, "WAF")
    await toOverrides(tui)
    expect(tui.screen()).toContain(SHOP_OWASP)
    expect(tui.screen()).not.toContain("(edited")
    await tui.type([PtyKeys.escape, PtyKeys.escape])
    await tui.waitFor("zone —")
    await pick(tui, "globex.com")
    await toTab(tui, "WAF")
    await toOverrides(tui)
    expect(tui.screen()).toContain("OWASP: PL2, threshold 40, action challenge")
    expect(tui.screen()).toContain("(edited")
  }, 60_000)

  it("the WAF screen and the Firewall tab: the WAF screen's acme-shop.com has no globex.com edits, its globex.com has the same ones; a firewall test result stays on its zone", async () => {
    tui = await PtyTui.start(size)
    await jump(tui, "globex.com")
    await toTab(tui, "Firewall")
    await tui.waitFor("Firewall rules of globex.com")
    tui.write("t")
    await tui.waitFor("Test a request to zone globex.com")
    await tui.type('{"ip.src": "192.0.2.1"}')
    tui.write(PtyKeys.enter)
    await tui.waitFor("test: ")
    tui.write(PtyKeys.tab)
    await tui.waitFor("[WAF]")
    await toOverrides(tui)
    await tui.type(["L", "j", " "])
    await tui.waitFor((s) => s.includes("OWASP: PL2, threshold 40") && s.includes("(edited"))

    /** On the WAF screen's list: `key` (j or k) until `name` is selected, then enter. */
    const choose = async (t: PtyTui, name: string, key: "j" | "k") => {
      const selected = new RegExp(`› ${name.replace(/\./g, "\\.")}\\s`)
      for (let i = 0; i < 60 && !selected.test(await t.settle(120)); i++) t.write(key)
      t.write(PtyKeys.enter)
      await t.waitFor(`WAF migration · ${name}`)
    }
    tui.write("4")
    await tui.waitFor(/WAF migration · \d+ to migrate/)
    await tui.waitFor(/› globex\.com\s/)
    await choose(tui, "acme-shop.com", "j")
    await toOverrides(tui)
    expect(tui.screen()).toContain(SHOP_OWASP)
    expect(tui.screen()).not.toContain("(edited")
    tui.write(PtyKeys.escape)
    await tui.waitFor(/WAF migration · \d+ to migrate/)
    await choose(tui, "globex.com", "k")
    await toOverrides(tui)
    expect(tui.screen()).toContain("(edited")
    tui.write("u")
    await tui.waitFor("Drop your edits to the overrides of globex.com?")
    tui.write("y")
    await tui.waitFor((s) => s.includes(GLOBEX_OWASP) && !s.includes("(edited"))

    // The Zones screen's globex.com shares the draft: the undo shows there too.
    tui.write("1")
    await tui.waitFor("[WAF]")
    expect(await tui.settle()).toContain(GLOBEX_OWASP)
    expect(tui.screen()).not.toContain("(edited")
    await jump(tui, "acme-shop.com")
    await toTab(tui, "Firewall")
    await tui.waitFor("Firewall rules of acme-shop.com")
    expect(await tui.settle()).not.toContain("test: ")
  }, 60_000)
})

describe("the WAF wizard at 80x24", () => {
  it("shows every step's name whole, replays the shipped traffic sample from any directory, and the WAF screen's table whole", async () => {
    tui = await PtyTui.start({ columns: 80, rows: 24 })
    await jump(tui, "globex.com")
    await toTab(tui, "WAF")
    await tui.waitFor("state:")
    expect(tui.lines().find((l) => l.includes("globex.com  active"))).toMatch(
      /globex\.com  active · Globex · Business Plan\s+│$/
    )
    const bar = tui.lines().find((l) => l.includes("[Status]"))!
    expect(bar).toMatch(/\[Status\] Check\s+Preview\s+Not migrated\s+Overrides\s+Replay\s+Deploy\s+│$/)
    expect(tui.lines().every((l) => l.length <= 80)).toBe(true)
    await tui.type(["n", "n", "n", "n", "n"])
    await tui.waitFor("[Replay]")
    // The TUI runs in a temp directory (PtyTui's cwd): the default is the package's own sample.
    tui.write(PtyKeys.enter)
    await tui.waitFor("32 request(s):")
    expect(tui.screen()).not.toContain("ENOENT")
    // The WAF screen's table fits too: every column of every row, nothing cut.
    tui.write("4")
    await tui.waitFor(/› globex\.com\s+business\s+start\s+on\s+off\s+│/)
    const table = tui.lines().filter((l) => /(acme|globex|initech)[\w.-]*\s+(enterprise|business|pro)/.test(l))
    expect(table.length).toBeGreaterThan(10)
    for (const l of table) expect(l).toMatch(/\s(start|validation|finished)\s+(on|off)\s+(on|off)\s+│$/)
  }, 60_000)

  it("a deploy confirmation with many edits fits the pane: the step bar, the diff's first lines, how many more, and the y line", async () => {
    tui = await PtyTui.start({ columns: 80, rows: 24 })
    await jump(tui, "acme-shop.com")
    await toTab(tui, "WAF")
    await toOverrides(tui)
    await tui.type(["L", "t", "o", " ", "j", " ", "j", "a", "j", " ", "j", " "])
    await tui.waitFor("OWASP: PL2, threshold 40, action block")
    await tui.type(["n", "n", "d"])
    const screen = await tui.waitFor("It differs in:")
    expect(screen).toContain("[Deploy]")
    expect(screen).toContain("- OWASP paranoia level: PL1 -> PL2")
    expect(screen).toMatch(/… and \d+ more/)
    expect(screen).toContain("y deploy to validation · n or esc cancels")
    tui.write(PtyKeys.escape)
    await tui.waitFor("d deploys to validation mode")
  }, 60_000)
})
