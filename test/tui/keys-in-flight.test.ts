/**
 * Keys pressed while a write or a load is in flight act once it is done, in order (issue 29 item 4):
 * `K K K` in one read moves a custom rule three places, not two; the keys after a `:` jump that
 * waits for the platform go to the zone it opens, not to the palette.
 */
import { afterEach, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { openFirewallTab } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const shiftTab = "\u001b[Z"

/** A state whose `zone` has custom rules for the hosts r1..r4, in that order. */
const withCustomRules = async (zone: string): Promise<string> => {
  const state = tempDir("edgectl-inflight-")
  for (const host of ["r1", "r2", "r3", "r4"]) {
    const r = await edgectlAsync([
      "custom-rules",
      "add",
      "--zone",
      zone,
      "--expression",
      `http.host eq "${host}.example"`,
      "--action",
      "block",
      "--description",
      host,
      "--persist-to",
      state
    ])
    expect(r.status, r.stderr).toBe(0)
  }
  return state
}

const order = async (state: string, zone: string): Promise<ReadonlyArray<string>> => {
  const r = await edgectlAsync(["custom-rules", "list", "--zone", zone, "--json", "--persist-to", state])
  expect(r.status, r.stderr).toBe(0)
  return (JSON.parse(r.stdout) as ReadonlyArray<{ description: string }>).map((x) => x.description)
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("keys while a write or a load runs, at $columns x $rows", (size) => {
  it("K K K in one read moves the last custom rule three places up", async () => {
    const state = await withCustomRules("acme-shop.com")
    const t = (tui = await PtyTui.start({ ...size, persistTo: state }))
    await openFirewallTab(t, "acme-shop.com")
    t.write("c")
    await t.waitFor("Custom rules of acme-shop.com")
    t.write("G")
    await t.waitFor(/› #4\s+block/)
    t.write("KKK")
    await t.waitFor(/› #1\s+block/)
    await t.settle()
    expect(await order(state, "acme-shop.com")).toEqual(["r4", "r1", "r2", "r3"])
    expect(t.screen()).toMatch(/› #1\s+block\s+on\s+http\.host eq "r4\.example"/)
  })

  it("enter :zone enter tab tab tab c in one read opens that zone's custom rules", async () => {
    const t = (tui = await PtyTui.start(size))
    t.write(`${PtyKeys.enter}:acme-shop.com${PtyKeys.enter}${PtyKeys.tab}${PtyKeys.tab}${PtyKeys.tab}c`)
    await t.waitFor("Custom rules of acme-shop.com")
    expect(t.screen()).toContain("[Firewall]")
  })

  it("two shift+tab after :zone enter in one read go back two tabs", async () => {
    const t = (tui = await PtyTui.start(size))
    t.write(`:acme-shop.com${PtyKeys.enter}${shiftTab}${shiftTab}`)
    await t.waitFor("[Firewall]")
    await t.waitFor("Firewall rules of acme-shop.com")
  })
})
