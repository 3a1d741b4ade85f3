/**
 * A state directory whose database is damaged (not SQLite, or cut short) gets a hint that says so
 * (issue 29 item 7: it was told the directory must be writable, which it was).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"

describe("a damaged platform.sqlite", () => {
  it.each([
    { what: "not SQLite", damage: (file: string) => fs.writeFileSync(file, "not a database ".repeat(500)) },
    {
      what: "cut short",
      damage: (file: string) => fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 8192))
    }
  ])("$what: error names SQLite's finding, the hint the damage", async ({ damage }) => {
    const state = tempDir("edgectl-damaged-")
    const made = await edgectlAsync(["zones", "list", "--persist-to", state])
    expect(made.status, made.stderr).toBe(0)
    damage(path.join(state, "platform.sqlite"))
    const r = await edgectlAsync(["zones", "list", "--persist-to", state])
    expect(r.status).toBe(1)
    const lines = r.stderr.trim().split("\n")
    expect(lines.at(-2)).toMatch(/^error: zones list: .*(file is not a database|database disk image is malformed)/)
    expect(lines.at(-1)).toBe(
      "hint: the state directory's database (platform.sqlite) is damaged: move it aside (a new one is made), or pick another directory with --persist-to DIR"
    )
  })
})
