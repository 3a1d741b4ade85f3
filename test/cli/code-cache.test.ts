/**
 * bin/edgectl.cjs's V8 code cache: one per top-level command (and one for the TUI, test/tui), each
 * written by that command's first run of a build, and a command answers the same bytes with its
 * cache, with another command's cache beside it, and with the cache off.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"

describe("the launcher's code cache", () => {
  it("is kept per top-level command, and changes no output", async () => {
    const state = tempDir("edgectl-cache-state-")
    const cacheHome = tempDir("edgectl-cache-home-")
    const run = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
      edgectlAsync([...args, "--persist-to", state], { env: { XDG_CACHE_HOME: cacheHome, ...env } })
    const zones = ["zones", "list", "--json"]
    const rules = ["firewall", "rules", "list", "--zone", "acme.com", "--json"]
    const first = await run(zones)
    expect(first.status).toBe(0)
    const cached = () => fs.readdirSync(path.join(cacheHome, "edgectl")).sort()
    expect(cached()).toEqual([expect.stringMatching(/^v8-.*-zones-1\.bin$/)])
    const rulesFirst = await run(rules)
    // The firewall's own cache: the zones' one would lack every function of the firewall commands.
    expect(cached()).toEqual([
      expect.stringMatching(/^v8-.*-firewall-1\.bin$/),
      expect.stringMatching(/^v8-.*-zones-1\.bin$/)
    ])
    for (const [args, before] of [
      [zones, first],
      [rules, rulesFirst]
    ] as const) {
      const again = await run(args)
      const off = await run(args, { EDGECTL_CODE_CACHE: "0" })
      for (const r of [again, off]) expect(r).toEqual(before)
    }
    expect(cached()).toHaveLength(2)
  }, 60_000)
})
