// The WAF bench (run by bench/run.mjs, after `node build.mjs`): the WAF migration in one process.
//
//   1. config generation (the mapping) for a zone with 200 firewall rules that bypass the WAF,
//      target < 50 ms median;
//   2. traffic replay throughput, JSONL lines through both WAF versions, target >= 20,000 req/s.
//
// bench/waf-inprocess.ts is bundled with esbuild here and run with plain node. Prints a table and
// writes bench/results/waf.json.
//
//   node bench/waf.bench.mjs [--quick]
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { resultsDir, benchArgs, buildBench, table } from "./lib.mjs"

const { quick } = benchArgs()

const bundle = await buildBench("bench/waf-inprocess.ts", ".waf.bundle.mjs")
let measured
try {
  process.stderr.write("waf: config generation and traffic replay in one process\n")
  const r = spawnSync(process.execPath, [bundle, ...(quick ? ["--quick"] : [])], { encoding: "utf8", timeout: 300_000 })
  if (r.status !== 0) {
    process.stderr.write(`error: the waf bench failed (exit ${r.status ?? r.signal}): ${r.stderr}\n`)
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
const { config, replay } = results
console.log(`\nedgectl waf bench: node ${results.node}, ${results.cpus} cpu (${results.cpuModel})`)
table(
  "WAF migration, in process",
  ["measure", "median", "other", "target"],
  [
    [
      `config generation, ${config.firewallRules} firewall rules -> ${config.generatedRules} ruleset rules`,
      `${config.medianMs} ms`,
      `max ${config.maxMs} ms`,
      `< 50 ms: ${met(config.medianMs < config.targetMs)}`
    ],
    [
      `replay, ${replay.requests.toLocaleString("en-US")} JSONL requests x ${replay.rounds} (both versions)`,
      `${replay.medianPerSecond.toLocaleString("en-US")} req/s`,
      `min ${replay.minPerSecond.toLocaleString("en-US")} req/s, ${replay.disagreements} disagreements`,
      `>= 20,000 req/s: ${met(replay.medianPerSecond >= replay.target)}`
    ]
  ]
)
fs.writeFileSync(path.join(resultsDir, "waf.json"), `${JSON.stringify(results, null, 2)}\n`)
console.log(`\nwritten: ${path.relative(process.cwd(), path.join(resultsDir, "waf.json"))}`)
