import * as os from "node:os"
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
    // TMPDIR and XDG_STATE_HOME: a directory of the run's own, removed when it ends.
    globalSetup: ["test/global-setup.ts"]
  }
})
