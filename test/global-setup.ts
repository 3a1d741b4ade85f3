/**
 * The suite's temporary files in one directory of the run's own, removed when the run ends: every
 * test, and every CLI, server and TUI a test starts, makes its state directories, fixtures and
 * caches under `os.tmpdir()`, which follows TMPDIR. Left behind, a run's thousands of directories
 * (several GB) filled the disk of a machine that ran the suite often, and then any test could fail
 * on a write (`SQLITE_FULL`, "disk I/O error").
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export default function setup(): () => void {
  const run = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-suite-"))
  process.env.TMPDIR = run
  // `--remote` keeps migration journals in $XDG_STATE_HOME: the tests' stay in the run's directory,
  // never in the user's home (a test that needs its own sets it).
  process.env.XDG_STATE_HOME = fs.mkdtempSync(path.join(run, "state-"))
  return () => fs.rmSync(run, { recursive: true, force: true, maxRetries: 3 })
}
