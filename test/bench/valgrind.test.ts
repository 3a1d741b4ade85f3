/**
 * The benches' valgrind step (bench/lib.mjs `instructions`, run by `npm run bench`), as the benches
 * run it: a Node process importing bench/lib.mjs. It counts the instructions of an edgectl command
 * that prints (its stdout once reached edgectl as /dev/null opened read-write, which edgectl reads
 * as a closed stdout: "standard output is closed"), and says why it counts nothing when valgrind is
 * not installed.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "..", "..")
const lib = path.join(root, "bench", "lib.mjs")

/** Runs `body` (ESM, with `lib` imported as `m`) in a Node process: its stdout, stderr and status. */
const node = (body: string, env: Record<string, string | undefined> = {}) => {
  const r = spawnSync(
    process.execPath,
    ["--input-type=module", "-e", `const m = await import(${JSON.stringify(lib)});\n${body}`],
    {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: "utf8",
      timeout: 280_000
    }
  )
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const hasValgrind = spawnSync("valgrind", ["--version"]).status === 0

describe("the benches' instruction counts", () => {
  it.runIf(hasValgrind)(
    "counts an edgectl command that prints on stdout (it ran and exited 0 under callgrind)",
    () => {
      const r = node(
        "try { console.log(JSON.stringify({ n: m.instructions([m.bin, 'esc', 'replacements', '--json'], process.env) })) }\n" +
          "catch (e) { console.log(JSON.stringify({ error: e.message })) }",
        { EDGECTL_BENCH_INSTRUCTIONS: undefined }
      )
      expect(r.status).toBe(0)
      const out = JSON.parse(r.stdout) as { n?: number; error?: string }
      expect(out.error).toBeUndefined()
      expect(out.n).toBeGreaterThan(1_000_000)
    },
    300_000
  )

  // An empty directory as the PATH: node is spawned by its path, valgrind is not found.
  it("counts nothing without valgrind on the PATH, and says so once on stderr", () => {
    const r = node(
      "console.log(JSON.stringify([m.instructionsSkipped() ?? null, m.instructions(['-e', '0'], process.env) ?? null, m.instructions(['-e', '0'], process.env) ?? null]))",
      { PATH: fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-no-valgrind-")), EDGECTL_BENCH_INSTRUCTIONS: undefined }
    )
    expect(r.status).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual(["valgrind is not installed (not on the PATH)", null, null])
    expect(r.stderr).toBe("instructions: not counted: valgrind is not installed (not on the PATH)\n")
  })

  it("counts nothing with EDGECTL_BENCH_INSTRUCTIONS=0, naming it", () => {
    const r = node("console.log(JSON.stringify(m.instructions(['-e', '0'], process.env) ?? null))", {
      EDGECTL_BENCH_INSTRUCTIONS: "0"
    })
    expect(r.status).toBe(0)
    expect(r.stdout.trim()).toBe("null")
    expect(r.stderr).toBe("instructions: not counted: EDGECTL_BENCH_INSTRUCTIONS=0\n")
  })
})
