/**
 * `/` on the Firewall screen's zone picker (issue 29: a filter on every list): the zones narrow on
 * the platform to those whose name contains the text (past the first 50 the picker lists), and
 * enter opens the one under the cursor.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, json, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"

const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
] as const

describe.each(sizes)("the Firewall screen's zone picker at $columns x $rows", (size) => {
  let tui: PtyTui
  let dir: string
  beforeAll(async () => {
    dir = tempDir("edgectl-picker-")
    tui = await PtyTui.start({ ...size, persistTo: dir })
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("/ narrows the zones to the names that contain the text; enter opens the one chosen", async () => {
    const r = await edgectlAsync(["zones", "list", "--name", "contains:shop", "--json", "--persist-to", dir])
    const names = json<Array<{ name: string }>>(r).map((z) => z.name)
    expect(names).toContain("acme-shop.com")
    tui.write("3")
    await tui.waitFor("Pick a zone")
    // One read: the filter, kept with enter.
    tui.write(`/shop${PtyKeys.enter}`)
    const shown = await tui.waitFor((s) => s.includes("filter: shop") && s.includes("acme-shop.com"))
    const rows = shown
      .split("\n")
      .map((l) => /││ [› ] (\S+)\s/.exec(l)?.[1])
      .filter((n): n is string => n !== undefined && n.includes("."))
    expect(rows.length).toBeGreaterThan(0)
    expect(rows).toEqual(names.slice(0, rows.length))
    expect(rows.every((n) => n.includes("shop"))).toBe(true)
    const at = names.indexOf("acme-shop.com")
    tui.write(`${"j".repeat(at)}${PtyKeys.enter}`)
    await tui.waitFor("Firewall rules · zone acme-shop.com")
  })
})
