import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One test file more than the machine has cores: most of a file's time is spent waiting on the
    // processes it starts (the CLI, `edgectl serve`, a TUI in a pty), so vitest's default (cores
    // - 1: one file at a time on 2 cores) leaves a core idle for most of the run.
    maxWorkers: os.availableParallelism() + 1,
    minWorkers: 1,
    // `--remote` keeps migration journals in $XDG_STATE_HOME: the tests' go to a directory of the
    // run's own, never into the user's home (a test that needs its own sets it).
    env: { XDG_STATE_HOME: fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-test-state-")) }
  }
})
