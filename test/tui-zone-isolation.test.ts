/**
 * Each zone's state is its own (issue 14, item 1): an edit, a test result or a cursor on zone A
 * never shows on zone B, whatever the route from A to B (`:` palette, the zone list, the WAF
 * screen), and a deploy on B sends B's configuration, read back from the platform afterwards.
 * The built TUI in a real pty, at 80x24 and 120x40.
 */
import * as ManagedRuntime from "effect/ManagedRuntime"
import { afterEach, describe, expect, it } from "vitest"
import { clientLayer } from "../src/api/target.js"
import * as Waf from "../src/services/waf-migration.js"
import { resolveWafZone } from "../src/services/waf-migration.js"
import { configSummary } from "../src/waf/config-diff.js"
import { edgectl } from "./helpers-cli.js"
import { PtyKeys, PtyTui } from "./helpers/pty.js"

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
    const [entrypoint, proposed] = await Promise.all([runtime.runPromise(Waf.deployed(shop)), runtime.runPromise(Waf.config(shop))])
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
})
