/**
 * List columns in a real terminal at 80x24 and 120x40: the Zones list keeps each name and PLAN
 * whole (the plan's tier alone when narrow), a zone's DNS records keep their CONTENT and its
 * certificate packs their HOSTS whole (the TTL, the authority and the validity only where there is
 * room), the KV namespace list keeps each title and whole id (its ACCOUNT column only where there
 * is room), and every column title is whole.
 */
import { afterEach, describe, expect, it } from "vitest"
import { PtyKeys, PtyTui } from "../helpers/pty.js"
import { zoneCounter } from "../helpers/demo-world.js"

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
      await tui.waitFor(zoneCounter(1))
      const zones = await tui.settle(150)
      expect(row(zones, "STATUS"), zones).toMatch(/^NAME\s+STATUS\s+ACCOUNT\s+PLAN$/)
      expect(row(zones, "acme-partners.net"), zones).toMatch(
        size.columns === 80
          ? /^acme-partners\.net\s+active\s+Acme Corp\s+Enterprise$/
          : /^acme-partners\.net\s+active\s+Acme Corp\s+Enterprise Website$/
      )
      expect(zones).not.toContain("…")

      tui.write("G")
      await tui.waitFor(zoneCounter("last"))
      const end = await tui.settle(150)
      expect(row(end, "globex.org"), end).toMatch(
        size.columns === 80
          ? /^globex\.org\s+active\s+Globex\s+Business$/
          : /^globex\.org\s+active\s+Globex\s+Business Plan$/
      )
      expect(row(end, "initech-intranet.net"), end).toMatch(/^initech-intranet\.net\s+active\s+Initech\s+Pro/)
      expect(end).not.toContain("…")

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

    it(`a zone's DNS records and certificate packs at ${size.columns}x${size.rows}`, async () => {
      const tui = await PtyTui.start(size)
      started.push(tui)
      await tui.waitFor(zoneCounter(1))
      // One account chosen: its name is above the list, and a narrow list leaves out the column.
      tui.write("a")
      await tui.waitFor("Choose an account")
      tui.write("j")
      tui.write(PtyKeys.enter)
      await tui.waitFor("1/20")
      const acme = await tui.settle(150)
      expect(row(acme, "STATUS"), acme).toMatch(
        size.columns === 80 ? /^NAME\s+STATUS\s+PLAN$/ : /^NAME\s+STATUS\s+ACCOUNT\s+PLAN$/
      )
      expect(row(acme, "acme-api.com"), acme).toMatch(/^acme-api\.com\s+active\s+(Acme Corp\s+)?Enterprise/)

      tui.write(PtyKeys.enter)
      await tui.waitFor("CONTENT")
      const dns = await tui.settle(150)
      expect(row(dns, "CONTENT"), dns).toMatch(
        size.columns === 80 ? /^TYPE\s+NAME\s+CONTENT\s+PROXY$/ : /^TYPE\s+NAME\s+CONTENT\s+TTL\s+PROXY$/
      )
      expect(row(dns, "AAAA"), dns).toMatch(/^AAAA\s+acme-api\.com\s+2001:db8::7d32\s+(auto\s+)?proxied$/)
      expect(row(dns, "mx1."), dns).toMatch(/^MX\s+acme-api\.com\s+mx1\.acme-api\.com\s+(3600\s+)?dns only$/)
      // At 80 columns a long name gives way to the content ("host-0006.acme-ap…").
      expect(row(dns, "host-0006"), dns).toMatch(/^MX\s+host-0006\.acme-\S+\s+mx0\.acme-api\.com\s/)
      if (size.columns === 120)
        expect(row(dns, "TXT"), dns).toMatch(/^TXT\s+acme-api\.com\s+"v=spf1 include:_spf\.acme-api\.com ~all"\s+3600/)

      tui.write(PtyKeys.tab)
      await tui.waitFor("HOSTS")
      const certs = await tui.settle(150)
      expect(row(certs, "HOSTS"), certs).toMatch(
        size.columns === 80 ? /^TYPE\s+STATUS\s+AUTHORITY\s+HOSTS$/ : /^TYPE\s+STATUS\s+AUTHORITY\s+VALID\s+HOSTS$/
      )
      expect(row(certs, "universal"), certs).toMatch(
        size.columns === 80
          ? /^universal\s+active\s+google\s+acme-api\.com, \*\.acme-api\.com$/
          : /^universal\s+active\s+google\s+90d\s+acme-api\.com, \*\.acme-api\.com$/
      )
      expect(pane(certs).join("\n"), certs).not.toContain("…")
    })
  }
})
