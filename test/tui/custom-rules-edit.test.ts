/**
 * Custom rules edited in the TUI like firewall rules, in a real terminal (test/helpers/pty.ts) at
 * 80x24 and 120x40: acme-mail.com is migrated, then a rule is added (typed key by key, and another
 * pasted in one write, the whole form), edited, moved, disabled and deleted; the CLI on the same
 * --persist-to directory reads what the TUI wrote. A bad expression is shown whole and cannot be
 * sent, nor a regex on initech-payroll.com (pro); that zone shows none of acme-mail.com's rules, and
 * the platform's refusal (the entry point another client created meanwhile) shows whole in the
 * panel and replaces nothing.
 */
import { afterEach, describe, expect, it } from "vitest"
import type { ZoneRule } from "../../src/domain/ruleset.js"
import { edgectlAsync, json } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { addCustomRuleMeanwhile, fits, flat, openFirewallTab, withoutNotice } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

/** The zone's custom rules as the CLI reads them from the TUI's state directory. */
const cliRules = async (t: PtyTui, zone: string): Promise<ReadonlyArray<ZoneRule>> => {
  const r = await edgectlAsync(["custom-rules", "list", "--zone", zone, "--json", "--persist-to", t.persistTo])
  expect(r.stderr).toBe("")
  return json<ReadonlyArray<ZoneRule>>(r)
}

describe.each([
  [80, 24],
  [120, 40]
])("custom rules edited in the TUI at %ix%i", (columns, rows) => {
  it("add (typed, pasted), edit, move, disable, delete; bad input; another zone", async () => {
    const t = (tui = await PtyTui.start({ columns, rows }))
    await openFirewallTab(t, "acme-mail.com")
    t.write("m")
    await t.waitFor("a apply")
    t.write("a")
    await t.waitFor("Migrate the firewall rules of acme-mail.com?")
    t.write("y")
    await t.waitFor(/› #1\s+skip securityLevel\s+on/)
    const migrated = (await cliRules(t, "acme-mail.com")).length

    // A bad expression: the checker's message whole under the field; enter sends nothing.
    t.write("n")
    await t.waitFor("New custom rule: its expression")
    await t.type('http.request.uri.path eq "/x" and')
    await t.waitFor((s) => /error\[\S+\] at \d+: .*/.test(flat(s)))
    t.write(PtyKeys.enter)
    expect(flat(await t.settle())).toContain("its expression")
    fits(t, columns)
    t.write(PtyKeys.escape)
    await t.waitFor(/› #1\s+skip securityLevel/)
    expect((await cliRules(t, "acme-mail.com")).length).toBe(migrated)

    // Typed key by key: block (the first action), a description, enabled, at place 2.
    t.write("n")
    await t.waitFor("its expression")
    await t.type('http.request.uri.path eq "/typed"')
    t.write(PtyKeys.enter)
    await t.waitFor("its action")
    fits(t, columns)
    t.write(PtyKeys.enter)
    await t.waitFor("its description")
    await t.type("typed rule")
    t.write(PtyKeys.enter)
    await t.waitFor("on or off?")
    t.write(PtyKeys.enter)
    await t.waitFor("its place in the run order")
    await t.type("2")
    t.write(PtyKeys.enter)
    await t.waitFor(/› #2\s+block\s+on\s+http\.request\.uri\.path eq "[\s\S]*typed rule · ref/)

    // The whole form pasted in one write: a skip of the rest and uaBlock, not logged, last.
    t.write(`nhttp.request.uri.path eq "/pasted"\rjjjjj\r jj \rj\rpasted rule\r\r\r`)
    await t.waitFor(/› #\d+\s+skip rest,uaBlock\s+on\s+http\.request\.uri\.path eq [\s\S]*pasted rule · ref/)
    let rules = await cliRules(t, "acme-mail.com")
    expect(rules.length).toBe(migrated + 2)
    expect(rules[1]).toMatchObject({ action: "block", description: "typed rule", enabled: true })
    expect(rules.at(-1)).toMatchObject({
      action: "skip",
      expression: 'http.request.uri.path eq "/pasted"',
      description: "pasted rule",
      action_parameters: { ruleset: "current", products: ["uaBlock"] },
      logging: { enabled: false }
    })
    const pasted = rules.at(-1)!.id

    // Edit every field but the switch: the expression grows, skip -> managed_challenge, a new description.
    t.write("e")
    await t.waitFor(`Custom rule #${migrated + 2}: its expression`)
    await t.type(" and ip.src ne 192.0.2.1")
    t.write(PtyKeys.enter)
    await t.waitFor("its action")
    await t.type(["k", "k"])
    t.write(PtyKeys.enter)
    await t.waitFor("its description")
    t.write(`${PtyKeys.ctrlU}edited rule\r`)
    await t.waitFor("on or off?")
    t.write(PtyKeys.enter)
    await t.waitFor(/› #\d+\s+managed_challenge\s+on\s+http\.request\.uri\.path eq [\s\S]*edited rule · ref/)

    // Moved up one (K), then to place 1 (o): the cursor stays on it.
    t.write("K")
    await t.waitFor(new RegExp(`› #${migrated + 1}\\s+managed_challenge`))
    t.write("o")
    await t.waitFor("to place")
    t.write("1\r")
    await t.waitFor(/› #1\s+managed_challenge\s+on/)

    // Disabled after the confirmation.
    t.write("p")
    await t.waitFor("Disable custom rule #1 (edited rule)?")
    fits(t, columns)
    t.write("y")
    await t.waitFor(/› #1\s+managed_challenge\s+off/)
    rules = await cliRules(t, "acme-mail.com")
    expect(rules[0]).toMatchObject({
      id: pasted,
      action: "managed_challenge",
      expression: 'http.request.uri.path eq "/pasted" and ip.src ne 192.0.2.1',
      description: "edited rule",
      enabled: false
    })
    expect(rules[0]!.action_parameters).toBeUndefined()

    // Deleted after the (destructive) confirmation.
    t.write("d")
    await t.waitFor("Delete custom rule #1 (edited rule)?")
    t.write("y")
    await t.waitFor(/› #1\s+skip securityLevel\s+on/)
    rules = await cliRules(t, "acme-mail.com")
    expect(rules.length).toBe(migrated + 1)
    expect(rules.map((r) => r.id)).not.toContain(pasted)

    // Another zone: none of acme-mail.com's rules.
    t.write(PtyKeys.escape)
    await t.waitFor("Firewall rules of acme-mail.com")
    await openFirewallTab(t, "initech-payroll.com")
    t.write("c")
    await t.waitFor("No custom rules on this zone.")
    expect(withoutNotice(t.screen())).not.toMatch(/acme-mail\.com|typed rule|securityLevel/)

    // A regex on a pro zone: refused as typed, as the platform would; enter sends nothing.
    t.write(`nhttp.request.uri.path matches "^/payroll"\r`)
    await t.waitFor((s) =>
      flat(s).includes("`matches` (regex) needs the Business or Enterprise plan, this zone is on pro")
    )
    expect(flat(await t.settle())).toContain("its expression")
    fits(t, columns)
    t.write(PtyKeys.escape)
    await t.waitFor("No custom rules on this zone.")

    // The platform's refusal, whole in the panel: another client created the entry point meanwhile.
    await addCustomRuleMeanwhile(t, "initech-payroll.com")
    t.write(`nhttp.host eq "mine.example"\r\r\r\r\r`)
    await t.waitFor((s) => flat(s).includes("could not add the custom rule:"))
    const screen = flat(await t.settle())
    expect(screen).toMatch(
      /exceeded maximum number of zone\/account rulesets for phase http_request_firewall_custom: the zone has its entry point; update it with a PUT of the phase entry point \[code 20217\]/
    )
    expect(screen).toContain("nothing was written")
    fits(t, columns)
    expect((await cliRules(t, "initech-payroll.com")).map((r) => r.expression)).toEqual([
      'http.host eq "meanwhile.example"'
    ])
  }, 120_000)
})
