// The KV lifecycle bench (run by bench/run.mjs, after `node build.mjs`): `kv import` and `kv export`
// of a whole namespace in the local store, as users run them (the built CLI, one process each),
// and `kv diff` of two equal namespaces of that size: wall time, keys per second, and the peak
// memory of the process (its maximum resident set, from the kernel's rusage of the child).
//
// Targets (issue 34): export at least 200,000 keys/s and under 200 MB for 1,000,000 keys.
// Prints a table and writes bench/results/kv-lifecycle.json; exit 1 if a command fails (not if
// a target is missed: the table says so).
//
//   node bench/kv-lifecycle.bench.mjs [--quick] [--keys N] [--keep]
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { root, bin, resultsDir, benchArgs, round, log, table } from "./lib.mjs"

const { quick, keep, keys: thousands } = benchArgs({ integers: { keys: { quick: 50, full: 1000, max: 10000 } } })
const count = thousands * 1000

if (!fs.existsSync(path.join(root, "dist"))) {
  process.stderr.write("error: dist/ is missing; run `node build.mjs` first (npm run bench does)\n")
  process.exit(1)
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-bench-kvlife-"))
const state = path.join(dir, "state")

/** One CLI run: its wall time and its peak resident memory (MB), from GNU time when there is one. */
const run = (args) => {
  const started = process.hrtime.bigint()
  const r = spawnSync(process.execPath, [bin, "kv", ...args, "--persist-to", state], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 1 << 30
  })
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  if (r.status !== 0) {
    process.stderr.write(`error: kv ${args.join(" ")} exited ${r.status}: ${r.stderr}\n`)
    process.exit(1)
  }
  return { seconds, stdout: r.stdout }
}

/** The peak memory of a command, measured apart (GNU time's %M), when /usr/bin/time exists. */
const peakMb = (args) => {
  if (!fs.existsSync("/usr/bin/time")) return undefined
  const r = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, bin, "kv", ...args, "--persist-to", state], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 1 << 30
  })
  const kb = Number(r.stderr.trim().split("\n").pop())
  return Number.isFinite(kb) ? round(kb / 1024) : undefined
}

const idOf = (stdout) => /\(id ([0-9a-f]{32})\)/.exec(stdout)[1]

try {
  log(`writing ${count.toLocaleString("en-US")} entries…`)
  const input = path.join(dir, "in.json")
  const fd = fs.openSync(input, "w")
  fs.writeSync(fd, "[")
  for (let at = 0; at < count; at += 10_000) {
    const lines = []
    for (let i = at; i < Math.min(count, at + 10_000); i++)
      lines.push(`${i === 0 ? "\n" : ",\n"}{"key":"k${String(i).padStart(8, "0")}","value":"value number ${i}"}`)
    fs.writeSync(fd, lines.join(""))
  }
  fs.writeSync(fd, "\n]\n")
  fs.closeSync(fd)

  const a = idOf(run(["namespace", "create", "a"]).stdout)
  const b = idOf(run(["namespace", "create", "b"]).stdout)
  log("kv import…")
  const imported = run(["import", "in.json", "--namespace-id", a])
  log("kv export…")
  const exported = run(["export", "--namespace-id", a, "--output", "out.json"])
  const exportMb = peakMb(["export", "--namespace-id", a, "--output", "out2.json"])
  const same = fs.readFileSync(input).equals(fs.readFileSync(path.join(dir, "out.json")))
  run(["import", "out.json", "--namespace-id", b])
  const importMb = peakMb(["import", "out.json", "--namespace-id", b])
  log("kv diff…")
  const diffed = run(["diff", "--namespace-id", a, "--with-namespace-id", b])
  // A merge of two ordered streams: its memory should not grow with the namespaces (issue 34).
  const diffMb = peakMb(["diff", "--namespace-id", a, "--with-namespace-id", b])
  const rate = (s) => Math.round(count / s).toLocaleString("en-US")
  const rows = [
    ["kv import", round(imported.seconds, 2), rate(imported.seconds), importMb ?? "", ""],
    [
      "kv export",
      round(exported.seconds, 2),
      rate(exported.seconds),
      exportMb ?? "",
      count / exported.seconds >= 200_000 && (exportMb ?? 0) < 200 ? "met" : "MISSED (200,000 keys/s, 200 MB)"
    ],
    ["kv diff (two namespaces)", round(diffed.seconds, 2), rate(diffed.seconds), diffMb ?? "", ""]
  ]
  table(
    `KV lifecycle, ${count.toLocaleString("en-US")} keys, local store${quick ? " (--quick)" : ""}; export is the input byte for byte: ${same}`,
    ["command", "seconds", "keys/s", "peak MB", "target"],
    rows
  )
  fs.mkdirSync(resultsDir, { recursive: true })
  fs.writeFileSync(
    path.join(resultsDir, "kv-lifecycle.json"),
    JSON.stringify(
      {
        keys: count,
        round_trip_same_bytes: same,
        import: { seconds: imported.seconds, peak_mb: importMb },
        export: { seconds: exported.seconds, peak_mb: exportMb },
        diff: { seconds: diffed.seconds, peak_mb: diffMb }
      },
      null,
      2
    )
  )
} finally {
  if (!keep) fs.rmSync(dir, { recursive: true, force: true })
}
