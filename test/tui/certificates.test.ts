/**
 * A pack's certificates in the TUI (issue 29): enter on the Certificate packs tab lists them with
 * issuer, status and expiry, the soonest to expire first, an expired one marked ✗ and one that
 * expires within 30 days marked ⚠; the dates are the ones the CLI reads back.
 */
import Database from "better-sqlite3"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, json, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { flat } from "../helpers/tui-screen.js"

const sizes = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
] as const

interface Pack {
  readonly type: string
  readonly certificates: ReadonlyArray<{ readonly id: string; readonly expires_on: string; readonly issuer: string }>
}

describe.each(sizes)("certificates at $columns x $rows", (size) => {
  let tui: PtyTui
  let dir: string
  let pack: Pack
  const soon = new Date(Date.now() + 10.5 * 86_400_000).toISOString()
  beforeAll(async () => {
    dir = tempDir("edgectl-certs-")
    const before = await edgectlAsync(["certs", "list", "acme-shop.com", "--json", "--persist-to", dir])
    const universal = json<Array<Pack>>(before).find((p) => p.type === "universal")!
    // Another client renews the second certificate: it now expires in ten days.
    const db = new Database(path.join(dir, "platform.sqlite"))
    db.prepare("UPDATE certificates SET expires_on = ? WHERE id = ?").run(soon, universal.certificates[1]!.id)
    db.close()
    const after = await edgectlAsync(["certs", "list", "acme-shop.com", "--json", "--persist-to", dir])
    pack = json<Array<Pack>>(after).find((p) => p.type === "universal")!
    tui = await PtyTui.start({ ...size, persistTo: dir })
    tui.write(":")
    await tui.waitFor("screen or zone name")
    await tui.type("acme-shop.com")
    await tui.waitFor(/› zone\s+acme-shop\.com/)
    tui.write(PtyKeys.enter)
    await tui.waitFor("[DNS records]")
  }, 60_000)
  afterAll(async () => {
    await tui?.close()
  })

  it("enter on a pack lists its certificates, soonest first, expired and soon marked; esc goes back", async () => {
    tui.write(PtyKeys.tab)
    await tui.waitFor((s) => s.includes("HOSTS") && s.includes("1/2"))
    // One read: to the first pack (the universal one), enter.
    tui.write(`jg${PtyKeys.enter}`)
    const shown = await tui.waitFor("soonest first")
    const text = flat(shown)
    expect(text).toContain("universal pack · acme-shop.com, *.acme-shop.com")
    expect(text).toContain("2 certificate(s), soonest first · 1 expired · 1 within 30d")
    const expired = pack.certificates[0]!.expires_on.slice(0, 10)
    const lines = shown.split("\n")
    const first = lines.findIndex((l) => l.includes(expired))
    const second = lines.findIndex((l) => l.includes(soon.slice(0, 10)))
    expect(first).toBeGreaterThan(-1)
    expect(second).toBeGreaterThan(first)
    expect(lines[first]).toMatch(/✗ \d+d ago/)
    expect(lines[second]).toContain("⚠ in 10d")
    expect(lines[first]).toContain("GoogleTrustServices")
    tui.write(PtyKeys.escape)
    await tui.waitFor((s) => !s.includes("soonest first") && s.includes("HOSTS"))
  })
})
