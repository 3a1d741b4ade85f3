// `npm run bench` (after `node build.mjs`): runs every benchmark of the project, one area per file.
//
// Each `bench/<area>.bench.mjs` is a standalone Node script: it measures its area, prints its
// tables on stdout, writes `bench/results/<area>.json` and exits non-zero if it could not measure.
// The platform bench runs first, the others in name order; each in its own process, one at a time
// (they share two cores, and running them side by side would measure the contention).
//
//   node bench/run.mjs [--area platform,rules,...] [--quick] [other options, passed to each script]
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

const here = import.meta.dirname
const argv = process.argv.slice(2)
const at = argv.findIndex((a) => a === "--area" || a.startsWith("--area="))
let wanted
const rest = [...argv]
if (at >= 0) {
  const value = argv[at].includes("=") ? argv[at].slice(argv[at].indexOf("=") + 1) : argv[at + 1]
  rest.splice(at, argv[at].includes("=") ? 1 : 2)
  wanted = new Set((value ?? "").split(",").filter((s) => s !== ""))
}

const areas = fs
  .readdirSync(here)
  .filter((f) => f.endsWith(".bench.mjs"))
  .map((f) => f.slice(0, -".bench.mjs".length))
  .sort((a, b) => (a === "platform" ? -1 : b === "platform" ? 1 : a.localeCompare(b)))

if (wanted !== undefined) {
  const unknown = [...wanted].filter((a) => !areas.includes(a))
  if (unknown.length > 0) {
    process.stderr.write(`error: --area: no benchmark named ${unknown.join(", ")} (there are: ${areas.join(", ")})\n`)
    process.exit(2)
  }
}

const failed = []
for (const area of areas) {
  if (wanted !== undefined && !wanted.has(area)) continue
  process.stderr.write(`\n== ${area} ==\n`)
  const r = spawnSync(process.execPath, [path.join(here, `${area}.bench.mjs`), ...rest], { stdio: "inherit" })
  if (r.status !== 0) failed.push(`${area} (exit ${r.status ?? r.signal})`)
}
if (failed.length > 0) {
  process.stderr.write(`\nerror: benchmarks failed: ${failed.join(", ")}\n`)
  process.exit(1)
}
