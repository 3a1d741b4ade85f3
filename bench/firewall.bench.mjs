// The firewall bench (area C; run by bench/run.mjs after `node build.mjs`):
//
//   1. cold start of the scripted firewall commands on the embedded platform (existing state dir,
//      after a warm-up run) against a bare `node -e 0`: medians of interleaved runs and the ratio
//      (target, as for every scripted command: < 2.5x), with the foundation's `zones get` as a reference;
//   2. a decision over a zone's rules (src/rules' firewall, bundled with esbuild here): the demo
//      zone's 6 rules as `firewall rules list --json` prints them, and a zone at the migration
//      limit (200 rules); compile once, then ns per decided request;
//   3. the migration to custom rules (bench/custom-rules-inprocess.ts, bundled): 1,000 firewall rules
//      migrated (target < 100 ms), and the replay of the demo traffic through old and new rules
//      (target >= 20,000 requests/s) for acme-mail.com's rules, 200 rules and 1,000 rules, and the
//      1,000 rules (a tenth of them keyless) with traffic that matches them;
//   4. a firewall write in-process (bench/firewall-write-inprocess.ts, bundled): one POST of 1,000
//      rules with their filters inline through the local transport, on a fresh state dir each
//      round: the median request and the time per rule.
//
// Plain Node ESM. Every loop is bounded; prints tables and writes bench/results/firewall.json.
//
//   node bench/firewall.bench.mjs [--quick] [--only cold,decide,migrate,write] [--runs N]
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { spawnSync } from "node:child_process"
import { pathToFileURL } from "node:url"
import {
  root,
  bin,
  resultsDir,
  benchArgs,
  buildBench,
  median,
  round,
  log,
  table,
  runOnce,
  coldStart,
  coldStartTable
} from "./lib.mjs"

const { quick, only, runs } = benchArgs({
  integers: { runs: { quick: 7, full: 11 } },
  sections: ["cold", "decide", "migrate", "write"]
})

const temps = []
const tmp = (prefix) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  temps.push(d)
  return d
}
process.on("exit", () => {
  for (const d of temps) fs.rmSync(d, { recursive: true, force: true })
})
process.on("SIGINT", () => process.exit(130))

if (!fs.existsSync(path.join(root, "dist"))) {
  process.stderr.write("error: dist/ is missing; run `node build.mjs` first (npm run bench does)\n")
  process.exit(1)
}

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? "",
  options: { runs }
}
const state = tmp("edgectl-bench-firewall-")
const env = { ...process.env, XDG_CACHE_HOME: tmp("edgectl-bench-cache-"), EDGECTL_DEBUG: "" }

// Creates the store (migrations + demo world) and reads the demo zone's rules, once.
const demoRules = JSON.parse(
  runOnce([bin, "firewall", "rules", "list", "--zone", "acme.com", "--json", "--persist-to", state], env).stdout
)

if (only.has("cold")) {
  const commands = [
    ["firewall rules list --zone acme.com --json", ["firewall", "rules", "list", "--zone", "acme.com", "--json"]],
    ["firewall filters list --zone acme.com --json", ["firewall", "filters", "list", "--zone", "acme.com", "--json"]],
    ["zones get acme.com --json (reference)", ["zones", "get", "acme.com", "--json"]]
  ]
  log(`cold start: ${runs} interleaved runs each`)
  const withState = (args) => [bin, ...args, "--persist-to", state]
  results.coldStart = coldStart(commands, { runs, env, argsOf: withState })
}

if (only.has("decide")) {
  log("decisions: bundling src/rules/index.ts")
  const bundle = await buildBench("src/rules/index.ts", ".firewall-rules.bundle.mjs")
  try {
    const { firewall } = await import(pathToFileURL(bundle).href)
    const asRule = (r) => ({
      id: r.id,
      priority: r.priority,
      paused: r.paused,
      action: r.action,
      ...(r.products ? { products: r.products } : {}),
      expression: r.filter.deleted ? "false" : r.filter.expression
    })
    const demo = demoRules.map(asRule)
    const big = Array.from({ length: 200 }, (_, i) => ({
      id: `r${i}`,
      priority: i % 3 === 0 ? null : i,
      paused: false,
      action: ["block", "challenge", "log", "allow", "managed_challenge"][i % 5],
      expression: `(http.request.uri.path contains "/area-${i}/" and ip.src in {198.51.${i % 250}.0/24}) or (http.host eq "h${i}.example.com" and http.user_agent contains "bot-${i}")`
    }))
    const requests = [
      {
        "http.request.uri.path": "/wp-login.php",
        "ip.src": "198.51.100.9",
        "http.user_agent": "Mozilla/5.0",
        "http.request.method": "GET",
        "ip.src.country": "GB"
      },
      {
        "http.request.uri.path": "/api/orders",
        "ip.src": "203.0.113.7",
        "http.user_agent": "curl/8",
        "http.request.method": "POST",
        "http.host": "acme.com"
      }
    ]
    const measure = (rules, n) => {
      const t0 = process.hrtime.bigint()
      const fw = firewall(rules)
      const compileMs = Number(process.hrtime.bigint() - t0) / 1e6
      let decided = 0
      for (let i = 0; i < 5_000; i++) decided += fw.decide(requests[i & 1]).evaluated // warm-up
      const rounds = []
      for (let r = 0; r < 7; r++) {
        const t1 = process.hrtime.bigint()
        for (let i = 0; i < n; i++) decided += fw.decide(requests[i & 1]).evaluated
        rounds.push(Number(process.hrtime.bigint() - t1) / n)
      }
      if (decided === 0) throw new Error("no rule was evaluated")
      const ns = median(rounds)
      return {
        rules: rules.length,
        compileMs: round(compileMs, 2),
        nsPerDecision: round(ns),
        decisionsPerSecond: Math.round(1e9 / ns)
      }
    }
    results.decide = { demo: measure(demo, quick ? 50_000 : 200_000), limit: measure(big, quick ? 2_000 : 10_000) }
  } finally {
    fs.rmSync(bundle, { force: true })
  }
}

if (only.has("migrate")) {
  log("migration to custom rules: bundling bench/custom-rules-inprocess.ts")
  const rulesFile = path.join(tmp("edgectl-bench-custom-rules-"), "acme-mail.com.json")
  fs.writeFileSync(
    rulesFile,
    runOnce([bin, "firewall", "rules", "list", "--zone", "acme-mail.com", "--json", "--persist-to", state], env).stdout
  )
  const bundle = await buildBench("bench/custom-rules-inprocess.ts", ".custom-rules.bundle.mjs")
  try {
    const traffic = path.join(root, "fixtures", "firewall", "custom-rules-traffic.jsonl")
    const r = spawnSync(process.execPath, [bundle, rulesFile, traffic, ...(quick ? ["--quick"] : [])], {
      encoding: "utf8",
      timeout: 300_000
    })
    if (r.status !== 0) throw new Error(`custom rules bench exited ${r.status ?? r.signal}: ${r.stderr}`)
    results.migrate = JSON.parse(r.stdout.trim().split("\n").pop())
  } finally {
    fs.rmSync(bundle, { force: true })
  }
}

if (only.has("write")) {
  log("firewall write in-process: bundling bench/firewall-write-inprocess.ts")
  const bundle = await buildBench("bench/firewall-write-inprocess.ts", ".firewall-write.bundle.mjs")
  try {
    const r = spawnSync(process.execPath, [bundle, tmp("edgectl-bench-firewall-write-"), quick ? "3" : "7"], {
      encoding: "utf8",
      env,
      timeout: 300_000
    })
    if (r.status !== 0) throw new Error(`firewall write bench exited ${r.status ?? r.signal}: ${r.stderr}`)
    results.write = JSON.parse(r.stdout.trim().split("\n").pop())
  } finally {
    fs.rmSync(bundle, { force: true })
  }
}

console.log(`\nedgectl firewall bench: node ${results.node}, ${results.cpus} cpu (${results.cpuModel})`)
if (results.coldStart) coldStartTable(results.coldStart, runs)
if (results.decide) {
  const d = results.decide
  table(
    "decision over a zone's rules (compiled once)",
    ["rules", "compile ms", "ns/decision", "decisions/s"],
    [
      [
        `acme.com demo (${d.demo.rules})`,
        d.demo.compileMs,
        d.demo.nsPerDecision,
        d.demo.decisionsPerSecond.toLocaleString("en-US")
      ],
      [
        `migration limit (${d.limit.rules})`,
        d.limit.compileMs,
        d.limit.nsPerDecision,
        d.limit.decisionsPerSecond.toLocaleString("en-US")
      ]
    ]
  )
}
if (results.migrate) {
  const m = results.migrate
  table(
    "migration to custom rules (target: 1,000 rules < 100 ms; replay >= 20,000 requests/s)",
    ["work", "result"],
    [
      [`migrate ${m.migrate.rules} rules (median; first run)`, `${m.migrate.ms} ms; ${m.migrate.first} ms`],
      ...[
        [`acme-mail.com demo (${m.replayDemo.rules} rules)`, m.replayDemo],
        [`${m.replayLimit.rules} rules`, m.replayLimit],
        [`${m.replayThousand.rules} rules`, m.replayThousand],
        [`${m.replayHitting.rules} rules, a tenth keyless, matching traffic`, m.replayHitting]
      ].map(([name, x]) => [
        `replay, ${name}`,
        `${x.requestsPerSecond.toLocaleString("en-US")} requests/s (${x.disagreements} disagreements)`
      ])
    ]
  )
}
if (results.write) {
  const w = results.write
  table(
    "firewall write in-process (POST /firewall/rules, filters inline, local transport, fresh state dir each round)",
    ["work", "result"],
    [
      [
        `create ${w.rules.toLocaleString("en-US")} rules (median of ${w.rounds}; first round)`,
        `${w.ms} ms; ${w.first} ms`
      ],
      ["per rule (median round)", `${w.usPerRule} µs`]
    ]
  )
}
fs.mkdirSync(resultsDir, { recursive: true })
fs.writeFileSync(path.join(resultsDir, "firewall.json"), `${JSON.stringify(results, null, 2)}\n`)
