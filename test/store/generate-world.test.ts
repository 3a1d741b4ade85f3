/**
 * `fixtures/generate.ts`, the large world the benchmarks (and docs/local-platform.md) build, run as
 * the docs give it, on a small size: the store it writes opens and answers the CLI. The store's seed
 * became an Effect and the generator, outside the type check then, failed with "Not a valid effect".
 */
import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectl, json, root, tempDir } from "../helpers/cli.js"

describe("fixtures/generate.ts", () => {
  it("writes a world of the size asked, which the CLI then reads", () => {
    const dir = path.join(tempDir("edgectl-generate-"), "state")
    const gen = spawnSync(
      process.execPath,
      ["--import", "tsx", "fixtures/generate.ts", "--zones", "60", "--records", "300", "--persist-to", dir, "--json"],
      { cwd: root, encoding: "utf8", timeout: 60_000 }
    )
    expect([gen.status, gen.stderr]).toEqual([0, ""])
    const made = JSON.parse(gen.stdout) as { counts: { zones: number; dns_records: number } }
    expect(made.counts.zones).toBeGreaterThanOrEqual(60)
    expect(made.counts.dns_records).toBeGreaterThanOrEqual(300)
    const zones = edgectl(["zones", "list", "--name", "contains:zone-0000", "--json", "--persist-to", dir])
    expect(zones.status, zones.stderr).toBe(0)
    expect(json<Array<{ name: string }>>(zones).length).toBeGreaterThan(0)
  })
})
