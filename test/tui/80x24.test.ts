/**
 * Every screen of the TUI in a real terminal at 80x24 (the smallest it supports) and at 120x40,
 * read through a headless xterm: the frame fits (the header on row 1, no line wider than the
 * terminal, in the raw output too, nothing below the last row), `? help` and `q quit` stay in the
 * footer, and texts that matter are not cut mid-word. Below 80x24 it says the terminal is too small.
 */
import { afterEach, describe, expect, it } from "vitest"
import { edgectl } from "../helpers/cli.js"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { zoneCounter } from "../helpers/demo-world.js"

const started: Array<PtyTui> = []
afterEach(async () => {
  for (const tui of started.splice(0)) await tui.close()
})

const start = async (columns: number, rows: number, ready?: string) => {
  const tui = await PtyTui.start({ columns, rows, ...(ready === undefined ? {} : { ready }) })
  started.push(tui)
  return tui
}

/** Moves of the cursor to another line or column (incremental frames write lines between them). */
const Moves = /\u001b\[[0-9;]*[ABEFGHf]/g
const Escapes = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007|\u001b[=>()][0-9A-Za-z]?/g

/** The main pane's text, its lines joined: what a reader of the pane sees, wrapped or not. */
const paneText = (screen: string) =>
  screen
    .split("\n")
    .map((l) => /││ (.*?)\s*│\s*$/.exec(l)?.[1] ?? "")
    .join(" ")
    .replace(/\s+/g, " ")

/**
 * Waits for `what`, then checks the frame: it fits `columns` x `rows`, the header is on row 1, the
 * footer (the row above the spare last one) shows `keys`. Returns the screen.
 */
const check = async (
  tui: PtyTui,
  size: { columns: number; rows: number },
  what: string | RegExp | ((screen: string) => boolean),
  keys: ReadonlyArray<RegExp> = [/\? help/, /q quit/]
) => {
  const before = tui.raw.length
  await tui.waitFor(what)
  const screen = await tui.settle(150)
  const lines = tui.lines()
  const context = `at ${size.columns}x${size.rows}, showing ${String(what)}:\n${screen}`
  expect(lines.length, context).toBe(size.rows)
  expect(lines[0], context).toMatch(/^ edgectl\s+target local\s+account /)
  // The frame is one row short of the terminal (Ink clears a frame as tall as the screen).
  expect(lines[size.rows - 1], context).toBe("")
  // The footer: every row below the pane's bottom border (an error makes it taller).
  const bottom = Math.max(...lines.map((l, i) => (l.startsWith("╰") ? i : -1)))
  const footer = lines.slice(bottom + 1).join("\n")
  for (const key of keys) expect(footer, context).toMatch(key)
  // No line of what was written is wider than the terminal (xterm would wrap it and scroll).
  const written = tui.raw
    .slice(Math.max(0, before - 1))
    .replace(Moves, "\n")
    .replace(Escapes, "")
    .split(/\r?\n|\r/)
  const wide = written.filter((l) => [...l].length > size.columns)
  expect(wide, context).toEqual([])
  return screen
}

/** The wizard's step bar: all seven steps, none cut. */
const Steps = /Status\s+Check\s+Preview\s+Not migrated\s+Overrides\s+Replay\s+Deploy/
const stepBar = (screen: string) =>
  (screen.split("\n").find((l) => l.includes("Status") && l.includes("Check")) ?? "").replace(/[[\]]/g, " ")

const Banner =
  /ESC REMOVED 2025-01-01, .* ago \(\d+ days, (platform|this machine's) clock \d{4}-\d\d-\d\d\): no ESC runs any more; settings can still be managed and tested\./

const walk = async (size: { columns: number; rows: number }) => {
  const tui = await start(size.columns, size.rows)
  // An object on disk, so the Objects screen has one to open.
  const put = edgectl(["objects", "kv", "Counter", "a", "put", "hits", "1", "--persist-to", tui.persistTo])
  expect(put.status, put.stderr).toBe(0)

  await check(tui, size, zoneCounter(1))
  tui.write(PtyKeys.enter)
  await check(tui, size, "[DNS records]")
  tui.write(PtyKeys.tab)
  await check(tui, size, "[Certificate packs]")
  tui.write(PtyKeys.tab)
  const escTab = await check(tui, size, (s) => s.includes("account Acme Corp") && Banner.test(paneText(s)))
  expect(paneText(escTab)).toMatch(Banner)
  tui.write(PtyKeys.tab)
  await check(tui, size, "[Firewall]")
  tui.write(PtyKeys.tab)
  // The wizard's keys (its footer lists them) and its step bar: at 120 frames a second the frame
  // between the two (keys listed, status still loading) lasts long enough to be read.
  const wafTab = await check(
    tui,
    size,
    (screen) =>
      screen.includes("[WAF]") && /step/.test(screen.split("\n").slice(-4).join(" ")) && Steps.test(stepBar(screen))
  )
  expect(stepBar(wafTab), wafTab).toMatch(Steps)
  // Help over the WAF tab: the wizard's keys first, then the ones that work everywhere.
  tui.write("?")
  const wafHelp = await check(tui, size, "Everywhere", [/esc\/\? close help/, /q quit/])
  expect(wafHelp).toMatch(/step/)
  expect(wafHelp.indexOf("step")).toBeLessThan(wafHelp.indexOf("Everywhere"))
  tui.write(PtyKeys.escape)
  await check(tui, size, "[WAF]")

  // A digit means a screen everywhere, on the WAF tab too (the wizard's steps move with ←→).
  tui.write("2")
  // The banner's dates come from the platform's clock, read when the screen opens: wait for it.
  const esc = await check(tui, size, (s) => s.includes("ESC disable settings") && Banner.test(paneText(s)))
  expect(paneText(esc)).toMatch(Banner)
  expect(paneText(esc)).toContain("(a to change the account)")
  // Back on Zones, the zone is still open; esc closes it, so Firewall asks for a zone.
  tui.write("1")
  await check(tui, size, "[WAF]")
  tui.write(PtyKeys.escape)
  await check(tui, size, zoneCounter(1))

  tui.write("3")
  await check(tui, size, "Pick a zone")
  tui.write(PtyKeys.enter)
  await check(tui, size, (screen) => /Firewall rules of acme-api\.com/.test(screen) && screen.includes("n new"))
  tui.write("?")
  const firewallHelp = await check(tui, size, "Everywhere", [/esc\/\? close help/, /q quit/])
  expect(firewallHelp).toMatch(/n\s+new/)
  tui.write(PtyKeys.escape)
  await check(tui, size, /Firewall rules of acme-api\.com/)

  tui.write("4")
  await check(tui, size, "WAF migration · 44")
  tui.write(PtyKeys.enter)
  const wafScreen = await check(tui, size, /\[Status\]/)
  expect(stepBar(wafScreen), wafScreen).toMatch(Steps)
  tui.write(PtyKeys.escape)
  await check(tui, size, "WAF migration · 44")

  tui.write("5")
  await check(tui, size, "acme-sessions")
  tui.write(PtyKeys.enter)
  await check(tui, size, "flag:dark-mode")

  tui.write("6")
  await check(tui, size, "Counter")
  tui.write(PtyKeys.enter)
  await check(tui, size, (screen) => screen.includes("hits") && screen.includes("keys/sql/bookmarks"))
  tui.write("?")
  const objectsHelp = await check(tui, size, "Everywhere", [/esc\/\? close help/, /q quit/])
  expect(objectsHelp).toMatch(/keys\/sql\/bookmarks/)
  tui.write(PtyKeys.escape)
  await check(tui, size, "hits")

  // The palette takes typed text, so `?` and `q` type there: its footer says how to leave and quit.
  tui.write(":")
  await check(tui, size, "screen  Zones", [/esc close/, /ctrl\+c quit/])
  tui.write(PtyKeys.escape)
  await check(tui, size, "hits")
}

describe("the TUI at 80x24 and 120x40", () => {
  it("every screen fits 80x24, keeps ? help and q quit in view, and shows the ESC banner whole", async () => {
    await walk({ columns: 80, rows: 24 })
  })

  it("every screen fits 120x40 the same way", async () => {
    await walk({ columns: 120, rows: 40 })
  })

  it("an error shows whole above the keys, the pane shrinks for it, and the key that dismisses it does nothing else", async () => {
    const size = { columns: 80, rows: 24 }
    const tui = await start(size.columns, size.rows)
    tui.write("2")
    await check(tui, size, "ESC disable settings")
    tui.write("t")
    const screen = await check(tui, size, "any key dismisses")
    const footer = screen.split("\n").slice(-8).join(" ").replace(/[┃│]/g, " ").replace(/\s+/g, " ")
    expect(footer).toContain("nothing to toggle: choose an account (a), or open a zone on the Zones screen (1)")
    expect(footer).toMatch(/\? help q quit/)
    // 1 would open the Zones screen: here it only dismisses the error.
    tui.write("1")
    const after = await check(tui, size, (s) => !s.includes("any key dismisses"))
    expect(after).toContain("›2 ESC")
    tui.write("1")
    await check(tui, size, zoneCounter(1))
  })

  it("a remote target with a long base URL keeps the header on one line", async () => {
    const tui = await PtyTui.start({
      columns: 80,
      rows: 24,
      args: ["--remote"],
      ready: "could not list zones",
      // Nothing listens on port 9: the zones are an error state, drawn inside the frame.
      env: {
        CLOUDFLARE_API_TOKEN: "t".repeat(40),
        CLOUDFLARE_API_BASE_URL: "http://127.0.0.1:9/client/v4/a-rather-long-base-path"
      }
    })
    started.push(tui)
    await tui.settle(200)
    const lines = tui.lines()
    expect(lines[0]).toMatch(/^ edgectl\s+target http:\/\/127\.0\..*….*base-path\s+account All/)
    expect(lines[1]).toMatch(/^╭/)
    expect(lines[23]).toBe("")
    expect(lines.slice(20).join("\n")).toMatch(/\? help\s+q quit/)
  })

  it("below 80x24 it says the terminal is too small, and draws the app again when it grows", async () => {
    const tui = await start(40, 10, "too small")
    const screen = await tui.settle(150)
    expect(screen).toContain("40x10")
    expect(screen.replace(/\s+/g, " ")).toContain("needs at least 80x24")
    expect(tui.lines()[9]).toBe("")
    // Keys do nothing behind the message (2 would open ESC), but q quits.
    tui.write("2")
    // `script` relays the key to the pty on its own time, and a resize signal can overtake it: let
    // the key reach the TUI (drawn at 40x10) before the terminal grows.
    await tui.settle(400)
    tui.resize(80, 24)
    const size = { columns: 80, rows: 24 }
    const zones = await check(tui, size, (screen) => screen.includes(zoneCounter(1)) && screen.includes("? help"))
    expect(zones).toContain("›1 Zones")
    expect(zones).not.toContain("too small")
    tui.resize(60, 20)
    await tui.waitFor("60x20")
    tui.write("q")
    // The alternate screen is left on the way out.
    for (let i = 0; i < 250 && !tui.raw.includes("\u001b[?1049l"); i++) await new Promise((r) => setTimeout(r, 20))
    expect(await tui.close()).toBe(0)
  })
})
