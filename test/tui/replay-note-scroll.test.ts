/**
 * A replay's note read whole however long it is, in a real terminal at 80x24 and 120x40: a note is
 * data of the plan, here the Zone Lockdown migration's note on a lockdown whose URLs have no path,
 * which lists them all (90 hosts, given through the API). On acme-mail.com, `l` then `p` replays the
 * demo traffic; the office's request on /admin, blocked by that lockdown now and allowed after, is
 * explained by it and by the firewall allow's note, and `n` opens both in a box that scrolls
 * (↑↓ j k, page up/down, home/end, `lines a–b of n`), keys typed in one burst acting in order.
 * Back on the preview, the replay's line counts the difference and that the notes explain it.
 */
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { request, startPlatform, tempDir } from "../helpers/platform.js"
import { fits, flat, openFirewallTab } from "../helpers/tui-screen.js"

let tui: PtyTui | undefined
afterEach(async () => {
  await tui?.close()
  tui = undefined
})

const Zone = "acme-mail.com"
const traffic = path.resolve("fixtures/firewall/custom-rules-traffic.jsonl")
/** The lockdown that keeps /admin to the office (the demo world's). */
const Lockdown = "8940d981301ab2424214efcac1943fb4"
/** Hosts with no path: each is taken to cover every path of its host, which the plan's note says, naming them all. */
const hosts = Array.from({ length: 90 }, (_, i) => `mailbox-archive-${String(i + 1).padStart(2, "0")}.acme-mail.com`)

/** A state directory whose lockdown also covers the 90 hosts (none of them in the traffic). */
const stateWithLongNote = async () => {
  const dir = tempDir("edgectl-tui-note-scroll-")
  const p = await startPlatform(dir)
  try {
    const zones = await request(p.baseUrl, `/zones?name=${Zone}`)
    const zone = zones.body.result[0].id as string
    const url = `/zones/${zone}/firewall/lockdowns/${Lockdown}`
    const now = (await request(p.baseUrl, url)).body.result
    const put = await request(p.baseUrl, url, {
      method: "PUT",
      body: {
        description: now.description,
        configurations: now.configurations,
        priority: now.priority,
        paused: false,
        urls: [...now.urls, ...hosts]
      }
    })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
  } finally {
    await p.close()
  }
  return dir
}

/** The marker of the lines shown: [first, last, total]. */
const shown = (screen: string): [number, number, number] => {
  const m = /lines (\d+)–(\d+) of (\d+)/.exec(screen)
  expect(m, screen).not.toBeNull()
  return [Number(m![1]), Number(m![2]), Number(m![3])]
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("a replay's note longer than the screen at $columns x $rows", (size) => {
  it("n opens it at its start with lines a–b of n; a burst of keys scrolls it in order, to its last words", async () => {
    const dir = await stateWithLongNote()
    const t = (tui = await PtyTui.start({ ...size, persistTo: dir }))
    await openFirewallTab(t, Zone)
    t.write("l")
    await t.waitFor("Zone Lockdown and UA rules → custom rules")
    await t.waitFor("p replay")
    t.write("p")
    await t.waitFor("Replay traffic through")
    t.write(`${traffic}\r`)
    await t.waitFor((s) => flat(s).includes("explained by the plan's notes: 1 of 1 difference(s)"))

    t.write("n")
    // The box's keys in the footer: the list's are gone.
    let screen = flat(
      await t.waitFor((s) => s.includes("What explains line 6 (office-admin)") && s.includes("esc close"))
    )
    const [first, last, total] = shown(screen)
    const rows = last - first + 1
    expect(first).toBe(1)
    expect(total).toBeGreaterThan(rows)
    expect(screen).toContain(`lockdown-url-without-path: lockdown ${Lockdown}: a URL without a path`)
    expect(screen).not.toContain("(derived: not documented)")
    expect(t.screen()).not.toContain("n note")
    fits(t, size.columns)

    // One read: three lines down, a page down, one up; then page by page to the end, every line read.
    t.write(`jjj${PtyKeys.pageDown}k`)
    const top = Math.min(total - rows, 3 + rows) - 1
    // The title stays over the lines scrolled.
    expect(await t.waitFor(`lines ${top + 1}–${top + rows} of ${total}`)).toContain(
      "What explains line 6 (office-admin)"
    )

    t.write(`${PtyKeys.home}${PtyKeys.down}${PtyKeys.up}`)
    await t.waitFor(`lines 1–${rows} of ${total}`)
    let read = flat(t.screen())
    for (let at = 1; at + rows - 1 < total;) {
      t.write(PtyKeys.pageDown)
      at = Math.min(total - rows + 1, at + rows)
      read += flat(await t.waitFor(`lines ${at}–${at + rows - 1} of ${total}`))
    }
    // Every host the note names, and the last words of both notes.
    for (const h of hosts) expect(read.replace(/ /g, "")).toContain(h)
    screen = flat(t.screen())
    expect(screen).toContain("firewall-allow-covers-migrated: ")
    expect(screen).toContain("the migrated rules are placed before the skip it becomes (derived)")

    // To either end in one read, in order: G then k is one line above the end; g then G the end.
    t.write("Gk")
    await t.waitFor(`lines ${total - rows}–${total - 1} of ${total}`)
    t.write(`g${PtyKeys.end}`)
    await t.waitFor(`lines ${total - rows + 1}–${total} of ${total}`)
    fits(t, size.columns)

    // esc closes: the replay's list again, which took none of the keys.
    t.write(PtyKeys.escape)
    screen = flat(await t.waitFor((s) => !s.includes("What explains line") && flat(s).includes("28 decided alike")))
    expect(screen).toContain("1/1 · line 6 (office-admin)")

    // The preview again: its replay line counts the difference and that the plan's notes explain it.
    t.write(PtyKeys.escape)
    screen = flat(await t.waitFor("replay of custom-rules-traffic.jsonl"))
    expect(screen).toContain(
      "replay of custom-rules-traffic.jsonl: 29 requests, 1 decided differently, 1 of 1 explained by the plan's notes"
    )
    expect(screen).toContain("Zone Lockdown and UA rules → custom rules")
    fits(t, size.columns)
  }, 120_000)
})
