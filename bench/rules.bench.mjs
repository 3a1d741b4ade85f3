// The rules bench (run by bench/run.mjs, after `node build.mjs`): the rules language in one process.
//
//   1. check() (parse + type check + regex validation) of a ~4,000-character expression,
//      target < 1 ms;
//   2. evaluation of one compiled expression per request (fresh request objects, so field
//      conversion is included);
//   3. a 200-rule firewall decision per request, target < 20 µs median.
//
// bench/rules-inprocess.ts is bundled with esbuild here and run with plain node. Prints a table
// and writes bench/results/rules.json.
//
//   node bench/rules.bench.mjs [--quick]
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { resultsDir, benchArgs, buildBench, table } from "./lib.mjs"

const { quick } = benchArgs()

const bundle = await buildBench("bench/rules-inprocess.ts", ".rules.bundle.mjs")
let measured
try {
  process.stderr.write("rules: check, evaluation and firewall decisions in one process\n")
  const r = spawnSync(process.execPath, [bundle, ...(quick ? ["--quick"] : [])], { encoding: "utf8", timeout: 300_000 })
  if (r.status !== 0) {
    process.stderr.write(`error: the rules bench failed (exit ${r.status ?? r.signal}): ${r.stderr}\n`)
    process.exit(1)
  }
  measured = JSON.parse(r.stdout)
} finally {
  fs.rmSync(bundle, { force: true })
}

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? "",
  quick,
  ...measured
}

const met = (ok) => (ok ? "met" : "MISSED")
const { check, evaluate, firewall } = results
console.log(`\nedgectl rules bench: node ${results.node}, ${results.cpus} cpu (${results.cpuModel})`)
table(
  "rules language, in process",
  ["measure", "median", "p99", "throughput", "target"],
  [
    [
      `check(), ${check.characters}-character expression (${check.runs} variants)`,
      `${check.medianMs} ms`,
      `${check.p99Ms} ms`,
      `${Math.round(1000 / check.medianMs)}/s`,
      `< 1 ms: ${met(check.medianMs < check.targetMs)}`
    ],
    [
      "evaluate one compiled expression per request",
      `${evaluate.nsPerRequest} ns`,
      "",
      `${evaluate.requestsPerSecond.toLocaleString("en-US")} req/s`,
      ""
    ],
    [
      `firewall decision, ${firewall.rules} rules (mean ${firewall.meanRulesEvaluated} evaluated)`,
      `${firewall.medianMicros} µs`,
      `${firewall.p99Micros} µs`,
      `${firewall.decisionsPerSecond.toLocaleString("en-US")} req/s`,
      `< 20 µs: ${met(firewall.medianMicros < firewall.targetMicros)}`
    ]
  ]
)
fs.writeFileSync(path.join(resultsDir, "rules.json"), `${JSON.stringify(results, null, 2)}\n`)
console.log(`\nwritten: ${path.relative(process.cwd(), path.join(resultsDir, "rules.json"))}`)
