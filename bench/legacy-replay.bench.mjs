// The legacy-product migrations' bench (issue 33; run by bench/run.mjs): the plan and the replay of
// 1,000 legacy rules per kind (Zone Lockdown + UA Blocking, rate limits previous version), in one
// process (bench/legacy-inprocess.ts, bundled here with esbuild and run with plain node). Prints a
// table and writes bench/results/legacy-replay.json.
//
//   node bench/legacy-replay.bench.mjs [--quick]
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { benchArgs, buildBench, log, resultsDir, table } from "./lib.mjs"

const { quick } = benchArgs()
log("legacy migrations: bundling bench/legacy-inprocess.ts")
const bundle = await buildBench("bench/legacy-inprocess.ts", ".legacy-inprocess.bundle.mjs")
let m
try {
  const r = spawnSync(process.execPath, [bundle, ...(quick ? ["--quick"] : [])], { encoding: "utf8", timeout: 600_000 })
  if (r.status !== 0) {
    process.stderr.write(`error: the legacy bench exited ${r.status ?? r.signal}: ${r.stderr}\n`)
    process.exit(1)
  }
  m = JSON.parse(r.stdout.trim().split("\n").pop())
} finally {
  fs.rmSync(bundle, { force: true })
}

const results = { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? "", quick, ...m }
console.log(`\nedgectl legacy migrations bench: node ${results.node}, ${results.cpus} cpu (${results.cpuModel})`)
table(
  `plan and replay of ${m.rules} legacy rules per kind`,
  ["kind", "plan ms (median; first)", "replay", "requests/s"],
  [
    [
      `${m.rules} lockdowns + ${m.rules} UA rules -> ${m.lockdownUa.plan.customRules} custom rules`,
      `${m.lockdownUa.plan.ms}; ${m.lockdownUa.plan.first}`,
      `${m.lockdownUa.replay.requests} requests, ${m.lockdownUa.replay.agreed} alike, ${m.lockdownUa.replay.ms} ms`,
      m.lockdownUa.replay.requestsPerSecond.toLocaleString("en-US")
    ],
    [
      `${m.rules} rate limits -> ${m.rateLimits.plan.rules} rate limiting rules`,
      `${m.rateLimits.plan.ms}; ${m.rateLimits.plan.first}`,
      `${m.rateLimits.replay.requests} timed requests, ${m.rateLimits.replay.agreed} alike, ${m.rateLimits.replay.ms} ms`,
      m.rateLimits.replay.requestsPerSecond.toLocaleString("en-US")
    ]
  ]
)
fs.mkdirSync(resultsDir, { recursive: true })
fs.writeFileSync(path.join(resultsDir, "legacy-replay.json"), `${JSON.stringify(results, null, 2)}\n`)
