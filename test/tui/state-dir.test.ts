/**
 * The TUI on a state directory that cannot be made (/proc refuses new entries; Node's recursive
 * mkdir spun there forever): the Zones screen shows the error whole, naming the directory and why.
 */
import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import { PtyTui } from "../helpers/pty.js"

describe("a state directory that cannot be made, in the TUI", () => {
  it.runIf(fs.existsSync("/proc/self"))("says so on the Zones screen at 80x24", async () => {
    const tui = await PtyTui.start({
      columns: 80,
      rows: 24,
      args: ["--persist-to", "/proc/edgectl"],
      ready: "does not take new"
    })
    try {
      const screen = await tui.settle(150)
      const pane = screen
        .split("\n")
        .map((l) => /││ (.*?)\s*│\s*$/.exec(l)?.[1] ?? "")
        .join(" ")
        .replace(/\s+/g, " ")
      expect(pane, screen).toContain(
        "error: could not list zones: the local platform could not start: cannot create /proc/edgectl: /proc does not take new directories"
      )
      expect(screen).toMatch(/q quit/)
    } finally {
      await tui.close()
    }
  })
})
