/**
 * The WAF wizard's blocking override and the deploy's requests (issue 29, "What is missing"): the
 * Check step lists the URI-based override that blocks acme.net's migration, `x` deletes it after a
 * red confirmation whose `v` shows the DELETE, and the check runs again (read back through the
 * CLI). On the Deploy step `v` shows the PUT `d` sends, as `edgectl waf migrate --dry-run` prints
 * it, and the validation confirmation shows the same on `v`; `y` deploys exactly that.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, json, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { flat, withoutNotice } from "../helpers/tui-screen.js"

const Zone = "acme.net"

const sizes = [
  { columns: 80, rows: 24, oneRead: true },
  { columns: 120, rows: 40, oneRead: false }
] as const

/** The screen's text with every blank, border and the sidebar's bar gone: lines cut at any width read whole. */
const squeezed = (screen: string): string =>
  screen
    .split("\n")
    .map((l) => l.split("││")[1] ?? l)
    .join("")
    .replace(/[│╭╮╰╯─\s]+/g, "")

describe.each(sizes)("the WAF wizard's override delete and requests at $columns x $rows", ({ oneRead, ...size }) => {
  let tui: PtyTui
  let dir: string
  let zoneId: string
  const cli = async (args: ReadonlyArray<string>) => {
    const r = await edgectlAsync([...args, "--persist-to", dir])
    expect(r.status, r.stderr).toBe(0)
    return r
  }
  const press = async (keys: ReadonlyArray<string>) => (oneRead ? tui.write(keys.join("")) : tui.type(keys))

  beforeAll(async () => {
    dir = tempDir("edgectl-waf-override-")
    zoneId = json<{ id: string }>(await cli(["zones", "get", Zone, "--json"])).id
    tui = await PtyTui.start({ ...size, persistTo: dir })
    tui.write(`:${Zone}${PtyKeys.enter}`)
    await tui.waitFor("[DNS records]")
    tui.write(`${PtyKeys.tab}${PtyKeys.tab}${PtyKeys.tab}${PtyKeys.tab}`)
    await tui.waitFor("[WAF]")
    await tui.waitFor("r refresh")
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("the Check step lists the blocking override; x asks in red, v shows the DELETE, y deletes it and checks again", async () => {
    const overrides = json<Array<{ id: string }>>(await cli(["waf", "overrides", "list", "--zone", Zone, "--json"]))
    expect(overrides).toHaveLength(1)
    const id = overrides[0]!.id
    tui.write("n")
    const check = await tui.waitFor("x deletes the one under the cursor")
    expect(check).toContain("Not compatible")
    expect(check).toContain(id)
    expect(check).toContain("acme.net/api/*")
    // A paste is text, never keys: a pasted `xy` neither opens the delete nor confirms it.
    tui.write("\u001b[200~xy\u001b[201~")
    await tui.waitFor("paste ignored")
    expect(json<Array<unknown>>(await cli(["waf", "overrides", "list", "--zone", Zone, "--json"]))).toHaveLength(1)
    expect(flat(tui.screen())).not.toContain("Delete the URI-based WAF override")
    // The notice goes with the next key (space: it does nothing here), then x and v act.
    tui.write(" ")
    await tui.waitFor((s) => !s.includes("paste ignored"))
    await press(["x", "v"])
    const dialog = await tui.waitFor((s) => squeezed(s).includes(`DELETE/zones/${zoneId}/firewall/waf/overrides/${id}`))
    expect(flat(dialog)).toContain(`Delete the URI-based WAF override ${id} of ${Zone}?`)
    // Nothing is deleted before y.
    expect(json<Array<unknown>>(await cli(["waf", "overrides", "list", "--zone", Zone, "--json"]))).toHaveLength(1)
    tui.write("y")
    const after = await tui.waitFor("Compatible: the zone can migrate")
    expect(withoutNotice(after)).not.toContain(id)
    expect(json<Array<unknown>>(await cli(["waf", "overrides", "list", "--zone", Zone, "--json"]))).toEqual([])
    const checked = await cli(["waf", "check", "--zone", Zone])
    expect(checked.stdout).not.toContain("not compatible")
    tui.write("L")
    const log = flat(await tui.waitFor("Session log: 1 write(s)"))
    expect(log).toContain(`✓ ${Zone} deleted URI-based WAF override ${id} (acme.net/api/*)`)
    tui.write("L")
    await tui.waitFor((s) => !s.includes("Session log"))
  })

  it("the Deploy step's v shows the PUT d sends, as waf migrate --dry-run prints it; y sends exactly it", async () => {
    const dry = await cli(["waf", "migrate", "--zone", Zone, "--dry-run"])
    const printed = dry.stdout.split("\n")
    const request = printed.slice(
      printed.findIndex((l) => l.startsWith("PUT ")),
      printed.findIndex((l) => l.startsWith("and zone "))
    )
    expect(request[0]).toContain("waf_migration=validation")
    const text = request.join("").replace(/\s+/g, "")
    await press([PtyKeys.end, "v"])
    await tui.waitFor((s) => flat(s).includes("v: the request d sends"))
    // The whole request, scrolled through: every line of it is on one of the screens.
    let seen = ""
    for (let i = 0; i < 200 && !squeezed(seen).includes(text.slice(-40)); i++) {
      seen += tui.screen()
      tui.write("j")
      await tui.settle(60)
    }
    const shown = squeezed(seen)
    expect(shown).toContain(`PUT${request[0]!.slice(4).replace(/\s+/g, "")}`)
    for (const line of request.slice(1)) expect(shown).toContain(line.replace(/\s+/g, ""))
    await press(["d", "v"])
    const confirm = await tui.waitFor((s) => squeezed(s).includes(`waf_migration=validation&phase_two=1`))
    expect(flat(confirm)).toContain(`Deploy the new WAF on ${Zone} in validation mode?`)
    tui.write("y")
    await tui.waitFor("Validation mode: both versions run")
    const status = await cli(["waf", "status", "--zone", Zone])
    expect(status.stdout).toMatch(/state:\s+validation/)
  })
})
