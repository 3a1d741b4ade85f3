/**
 * A rule whose filter is paused never matches: `firewall rules list` says so in its PAUSED column
 * (issue 29 item 5; it showed such a rule as active, only `rules get` named the filter paused).
 */
import { describe, expect, it } from "vitest"
import { edgectl, tempDir } from "../helpers/cli.js"

describe("edgectl firewall rules list and a paused filter", () => {
  it("shows `filter paused` for acme-mail.com's rule whose filter is paused, `paused` for a paused rule", () => {
    const state = tempDir("edgectl-paused-filter-")
    const r = edgectl(["firewall", "rules", "list", "--zone", "acme-mail.com", "--persist-to", state])
    expect(r.status, r.stderr).toBe(0)
    const line = (what: string) => r.stdout.split("\n").find((l) => l.includes(what)) ?? ""
    expect(line("block executables")).toMatch(/\bblock\s+filter paused\s+[0-9a-f]{32}\s+block executables/)
    expect(line("block spam relays")).toMatch(/\bblock\s+paused\s+[0-9a-f]{32}\s+block spam relays/)
    expect(line("log api calls")).not.toContain("paused")
  })
})
