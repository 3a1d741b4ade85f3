/**
 * List columns in a real terminal at 80x24 and 120x40: the Zones list keeps its PLAN whole (the
 * plan without "Website" when narrow), the KV namespace list keeps each title and whole id (its
 * ACCOUNT column only where there is room), and every column title is whole.
 */
import { afterEach, describe, expect, it } from "vitest"
import { PtyTui } from "./helpers/pty.js"

const started: Array<PtyTui> = []
afterEach(async () => {
  for (const tui of started.splice(0)) await tui.close()
})

/** The main pane's rows (between its borders), trimmed. */
const pane = (screen: string) =>
  screen
    .split("\n")
    .map((l) => /││ (?:› |  )?(.*?)\s*│\s*$/.exec(l)?.[1])
    .filter((l): l is string => l !== undefined)

const row = (screen: string, text: string) => pane(screen).find((l) => l.includes(text)) ?? ""

describe("list columns fit the pane", () => {
  for (const size of [
    { columns: 80, rows: 24 },
    { columns: 120, rows: 40 }
  ]) {
    it(`zones and KV namespaces at ${size.columns}x${size.rows}`, async () => {
      const tui = await PtyTui.start(size)
      started.push(tui)
      await tui.waitFor("1/46")
      const zones = await tui.settle(150)
      expect(row(zones, "STATUS"), zones).toMatch(/^NAME\s+STATUS\s+ACCOUNT\s+PLAN$/)
      expect(row(zones, "acme-partners.net"), zones).toMatch(
        size.columns === 80
          ? /^acme-partners\.net\s+active\s+Acme Corp\s+Enterprise$/
          : /^acme-partners\.net\s+active\s+Acme Corp\s+Enterprise Website$/
      )
      expect(zones).not.toContain("…")

      tui.write("5")
      await tui.waitFor("acme-sessions")
      const kv = await tui.settle(150)
      expect(row(kv, "TITLE"), kv).toMatch(size.columns === 80 ? /^TITLE\s+ID$/ : /^TITLE\s+ID\s+ACCOUNT$/)
      expect(row(kv, "acme-feature-flags"), kv).toMatch(
        size.columns === 80
          ? /acme-feature-flags\s+b1758d9c90def649a064ed27fa8fba21$/
          : /acme-feature-flags\s+b1758d9c90def649a064ed27fa8fba21\s+Acme Corp$/
      )
      expect(row(kv, "globex-translations"), kv).toMatch(/globex-translations\s+[0-9a-f]{32}/)
    })
  }
})
