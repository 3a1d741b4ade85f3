/**
 * The TUI's options on the bare command (`edgectl --persist-to DIR`), and the TUI's hints fitting
 * its target: a local store that cannot be created is not a network problem. In a real pty.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { tempDir } from "../helpers/cli.js"
import { PtyTui } from "../helpers/pty.js"

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 }
])("the TUI at $columns x $rows", (size) => {
  it("opens from `edgectl --persist-to DIR` with its state in DIR", async () => {
    const dir = tempDir("edgectl-bare-")
    const tui = await PtyTui.start({ ...size, command: [], args: ["--persist-to", dir], cwd: tempDir() })
    try {
      expect(tui.screen()).toContain("local")
      expect(fs.existsSync(path.join(dir, "platform.sqlite"))).toBe(true)
    } finally {
      await tui.close()
    }
  })

  it("says a state directory it cannot create is not writable, not a network problem", async () => {
    // /sys refuses new directories to every user, root included (chmod does not stop root).
    const tui = await PtyTui.start({
      ...size,
      args: ["--persist-to", "/sys/edgectl-state"],
      ready: "hint:",
      cwd: tempDir()
    })
    try {
      const screen = await tui.settle()
      // The main pane's text, its wrapped lines joined: what is right of the sidebar's box.
      const flat = screen
        .split("\n")
        .filter((l) => l.includes("││"))
        .map((l) =>
          l
            .slice(l.lastIndexOf("││") + 2)
            .replace(/│\s*$/, "")
            .trim()
        )
        .join(" ")
      expect(flat).toContain("could not start")
      expect(flat).toMatch(
        /hint: the local platform could not start: its state directory \(--persist-to\) must be a directory edgectl can write; q quits/
      )
      expect(flat).not.toMatch(/network|base URL|\[code/)
    } finally {
      await tui.close()
    }
  })
})
