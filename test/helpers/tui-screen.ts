/**
 * Reading and reaching TUI screens in the pty tests (test/helpers/pty.ts): a zone's Firewall tab
 * opened as a user does, the main pane read as one line, the frame's width, the screen without the
 * footer's notice.
 */
import { expect } from "vitest"
import { edgectlAsync } from "./cli.js"
import { PtyKeys, type PtyTui } from "./pty.js"

/** Opens `zone` with the `:` palette, then its Firewall tab. */
export const openFirewallTab = async (t: PtyTui, zone: string): Promise<void> => {
  t.write(":")
  await t.waitFor("screen or zone name")
  await t.type(zone)
  await t.waitFor(new RegExp(`› zone\\s+${zone.replace(/\./g, "\\.")}`))
  t.write(PtyKeys.enter)
  await t.waitFor("[DNS records]")
  await t.type([PtyKeys.tab, PtyKeys.tab, PtyKeys.tab])
  await t.waitFor(`Firewall rules of ${zone}`)
}

/** The main pane on one line (the sidebar's column and the borders gone), so wrapped text reads whole. */
export const flat = (screen: string): string =>
  screen
    .split("\n")
    .map((line) => line.split("││")[1] ?? line)
    .join(" ")
    .replace(/[│╭╮╰╯─\s]+/g, " ")

/** Every line of the screen fits in `columns`. */
export const fits = (t: PtyTui, columns: number): void => {
  for (const line of t.lines()) expect(line.length).toBeLessThanOrEqual(columns)
}

/** The screen without the footer's notice: a notice names the zone it is about, which may be the zone left. */
export const withoutNotice = (s: string): string =>
  s
    .split("\n")
    .filter((l) => !l.includes("✓ "))
    .join("\n")

/**
 * Another client (the CLI) creates `zone`'s custom-rules entry point while the TUI has the zone
 * open, with one rule for `meanwhile.example`: the TUI's next add must not write over it.
 */
export const addCustomRuleMeanwhile = async (t: PtyTui, zone: string): Promise<void> => {
  const other = await edgectlAsync([
    "custom-rules",
    "add",
    "--zone",
    zone,
    "--expression",
    'http.host eq "meanwhile.example"',
    "--action",
    "block",
    "--persist-to",
    t.persistTo
  ])
  expect(other.status).toBe(0)
}
