/**
 * The TUI as users start it: the built launcher (bin/edgectl.cjs) in a real pseudo-terminal (made by
 * util-linux `script`), through the CommonJS script and its code cache. Covers what the component
 * tests cannot: the build's rewrite of Ink's top-level awaits (build.mjs: inkWithoutTopLevelAwait)
 * and the TUI's own code cache, and Ink drawing in a terminal where CI is set (inkOnTerminalInCi).
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { bin, tempDir } from "../helpers/cli.js"

/** Runs the TUI in a pty; `keys` are written when `waitFor` has appeared on the screen, in order. */
const runTui = (
  dir: string,
  cacheHome: string,
  steps: ReadonlyArray<{ readonly waitFor: string; readonly keys: string }>
) =>
  new Promise<{ status: number | null; screen: string }>((resolve, reject) => {
    const command = `stty cols 110 rows 35; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} tui --persist-to ${JSON.stringify(dir)}`
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      // CI set as on a CI runner: Ink would draw nothing until exit (build.mjs: inkOnTerminalInCi).
      env: { ...process.env, XDG_CACHE_HOME: cacheHome, NO_COLOR: "1", TERM: "xterm-256color", CI: "true" },
      stdio: ["pipe", "pipe", "pipe"]
    })
    let screen = ""
    let step = 0
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(
        new Error(
          `the TUI did not show ${JSON.stringify(steps[step]?.waitFor)} within 30 s; it showed:\n${screen.slice(-2000)}`
        )
      )
    }, 30_000)
    child.stdout.on("data", (d: Buffer) => {
      screen += d.toString("utf8")
      while (step < steps.length && screen.includes(steps[step]!.waitFor)) {
        child.stdin.write(steps[step]!.keys)
        step++
      }
    })
    child.on("error", reject)
    child.on("exit", (status) => {
      clearTimeout(timer)
      resolve({ status, screen })
    })
  })

describe("the TUI in a terminal", () => {
  it("opens on the zones, switches screens, quits with q; the second start uses the TUI's code cache", async () => {
    const dir = tempDir("edgectl-tui-pty-")
    const cacheHome = tempDir("edgectl-tui-cache-")
    const steps = [
      { waitFor: "acme-api.com", keys: "2" },
      { waitFor: "ESC disable settings", keys: "q" }
    ]
    for (let run = 0; run < 2; run++) {
      const r = await runTui(dir, cacheHome, steps)
      expect(r.status).toBe(0)
      const text = r.screen.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "")
      expect(text).toMatch(/target\s+local/)
      expect(text).toContain("ESC disable settings")
      // Every frame is one synchronized update: a terminal that knows the mode never shows half of
      // one (and test/helpers/pty.ts shows frames whole on that promise).
      const begun = r.screen.split("\u001b[?2026h").length - 1
      expect(begun).toBeGreaterThan(1)
      expect(r.screen.split("\u001b[?2026l").length - 1).toBe(begun)
      // The alternate screen is left on the way out.
      expect(r.screen).toContain("\u001b[?1049l")
    }
    const caches = fs.readdirSync(path.join(cacheHome, "edgectl"))
    expect(caches.some((f) => /^v8-.*-tui-1\.bin$/.test(f))).toBe(true)
  })
})
