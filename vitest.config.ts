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
    // `--remote` keeps migration journals in $XDG_STATE_HOME: the tests' go to a directory of the
    // run's own, never into the user's home (a test that needs its own sets it).
    env: { XDG_STATE_HOME: fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-test-state-")) }
  }
})
