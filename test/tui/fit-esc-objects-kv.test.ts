/**
 * Issue 29's last small TUI defects, in a pty at 80x24 and 120x40: once ESC is removed, the ESC
 * setting's sentence says what the setting would do (it said "ESC runs for every request" under
 * the banner's "no ESC runs any more"); the Objects header keeps the object's size whole when an
 * alarm is set (at 80 columns it was cut); the KV screen's hex dump fits the pane (8 bytes a row
 * where 16 do not fit, as an object's value does; 16 a row wrapped at 80 columns).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { fits, flat } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const ok = async (args: ReadonlyArray<string>): Promise<string> => {
  const r = await edgectlAsync(args)
  expect(r.status, r.stderr).toBe(0)
  return r.stdout
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("at $columns x $rows", (size) => {
  it("the ESC setting's sentence, once ESC is removed, says what the setting would do", async () => {
    const t = (tui = await PtyTui.start(size))
    t.write(PtyKeys.enter)
    await t.waitFor("[DNS records]")
    t.write(`${PtyKeys.tab}${PtyKeys.tab}`)
    await t.waitFor((s) => flat(s).includes("no ESC runs any more"))
    const shown = flat(await t.waitFor((s) => flat(s).includes("As set, it would")))
    expect(shown).toContain(
      "ESC is removed: it runs for no request. As set, it would run for every request (nothing set)"
    )
    expect(shown).not.toContain("ESC runs for every request")
    fits(t, size.columns)
  })

  it("the Objects header keeps the size whole with an alarm set", async () => {
    const state = tempDir("edgectl-fit-obj-")
    await ok(["objects", "kv", "Counter", "a", "put", "k", "v", "--persist-to", state])
    await ok(["objects", "alarm", "Counter", "a", "--set", "+2h", "--persist-to", state])
    const t = (tui = await PtyTui.start({ ...size, persistTo: state }))
    t.write("6")
    await t.waitFor(/›.*Counter\s+a\b/)
    t.write(PtyKeys.enter)
    const shown = await t.waitFor(/size \d+ bytes/)
    expect(shown).toMatch(/alarm \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in (1h 59m|2h 0m)\)\s+size \d+ bytes/)
    // The keys tab still shows the key under the header.
    expect(shown).toMatch(/\bk\s+"?v"?/)
    fits(t, size.columns)
  })

  it("the KV hex dump fits the pane: 8 bytes a row where 16 do not fit", async () => {
    const state = tempDir("edgectl-fit-kv-")
    const t0 = await PtyTui.start({ ...size, persistTo: state })
    t0.write("5")
    await t0.waitFor("acme-feature-flags")
    const title = t0.screen().match(/›\s+(\S+)/)![1]!
    await t0.close()
    const id = (
      JSON.parse(await ok(["kv", "namespace", "list", "--persist-to", state])) as ReadonlyArray<{
        id: string
        title: string
      }>
    ).find((n) => n.title === title)!.id
    // 40 bytes, not UTF-8: shown as a hex dump.
    const file = path.join(state, "blob.bin")
    fs.writeFileSync(file, Buffer.from(Array.from({ length: 40 }, (_, i) => (i * 37 + 0x80) & 0xff)))
    await ok(["kv", "key", "put", "--persist-to", state, "--namespace-id", id, "aaa-bin", "--path", file])
    const t = (tui = await PtyTui.start({ ...size, persistTo: state }))
    t.write("5")
    await t.waitFor(title)
    t.write(PtyKeys.enter)
    await t.waitFor(/›\s+aaa-bin/)
    t.write(PtyKeys.enter)
    const shown = await t.waitFor("00000000  ")
    const offsets = [...shown.matchAll(/\b(000000[0-9a-f]{2})  /g)].map((m) => m[1])
    const perRow = size.columns < 100 ? 8 : 16
    expect(offsets).toEqual(
      Array.from({ length: Math.ceil(40 / perRow) }, (_, i) => (i * perRow).toString(16).padStart(8, "0"))
    )
    // Each row whole on its line: the offset, the bytes, their characters between bars.
    for (const line of shown.split("\n").filter((l) => /\b000000[0-9a-f]{2}  /.test(l)))
      expect(line).toMatch(/000000[0-9a-f]{2} {2}[0-9a-f]{2}( {1,2}[0-9a-f]{2})*\s+\|[^|]+\|/)
    fits(t, size.columns)
  })
})
