// The ESC bench (area B; run by bench/run.mjs after `node build.mjs`):
//
//   1. cold start of the scripted ESC commands on the embedded platform (existing state dir, after a
//      warm-up run) against a bare `node -e 0`: medians of interleaved runs and the ratio (target,
//      as for every scripted command: < 2.5x), with the foundation's `zones get` as a reference;
//   2. the decision for one request (src/esc/decide.ts, bundled with esbuild here): Cookie parsing
//      and both scopes' settings, for a typical header and a 4 KiB one;
//   3. req/s of GET /zones/{id}/disable_esc against `edgectl serve`, next to GET /zones/{id} on the
//      same server (autocannon, 10 connections, 127.0.0.1).
//
// Plain Node ESM. Every loop is bounded; prints tables and writes bench/results/esc.json.
//
//   node bench/esc.bench.mjs [--quick] [--only cold,decide,serve] [--runs N] [--duration S]
import autocannon from "autocannon"
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as readline from "node:readline"
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

const { quick, only, runs, duration } = benchArgs({
  integers: { runs: { quick: 7, full: 11 }, duration: { quick: 2, full: 5 } },
  sections: ["cold", "decide", "serve"]
})

const temps = []
const tmp = (prefix) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  temps.push(d)
  return d
}
const children = new Set()
process.on("exit", () => {
  for (const c of children) c.kill("SIGTERM")
  for (const d of temps) fs.rmSync(d, { recursive: true, force: true })
})
process.on("SIGINT", () => process.exit(130))

const hexId = (...parts) => createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 32)

if (!fs.existsSync(path.join(root, "dist"))) {
  process.stderr.write("error: dist/ is missing; run `node build.mjs` first (npm run bench does)\n")
  process.exit(1)
}

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? "",
  options: { runs, duration }
}
const state = tmp("edgectl-bench-esc-")
const env = { ...process.env, XDG_CACHE_HOME: tmp("edgectl-bench-cache-"), EDGECTL_DEBUG: "", EDGECTL_PLATFORM_NOW: "" }
const SeededSecret = "acme-esc-preview-7Qx2"
const ACME = hexId("zone", "acme.com")

// Creates the store (migrations + demo world), once.
runOnce([bin, "esc", "get", "--zone", "acme.com", "--json", "--persist-to", state], env)

if (only.has("cold")) {
  const commands = [
    ["esc get --zone acme.com --json", ["esc", "get", "--zone", "acme.com", "--json"]],
    [
      "esc test --zone acme.com --cookie … --json",
      ["esc", "test", "--zone", "acme.com", "--cookie", `a=1; disable_esc=${SeededSecret}`, "--json"]
    ],
    ["esc replacements --json", ["esc", "replacements", "--json"]],
    // The foundation's command of the same shape (one zone lookup), for reference on this machine.
    ["zones get acme.com --json (reference)", ["zones", "get", "acme.com", "--json"]]
  ]
  log(`cold start: ${runs} interleaved runs each`)
  const withState = (args) => [bin, ...args, ...(args[1] === "replacements" ? [] : ["--persist-to", state])]
  results.coldStart = coldStart(commands, { runs, env, argsOf: withState })
}

if (only.has("decide")) {
  log("decision per request: bundling src/esc/decide.ts")
  const bundle = await buildBench("src/esc/decide.ts", ".decide.bundle.mjs")
  try {
    const { decide } = await import(pathToFileURL(bundle).href)
    const zone = { always: false, with_secret: SeededSecret }
    const account = { always: false, with_secret: "account-wide-secret-0001" }
    const typical = `_ga=GA1.2.1234567890.1700000000; session=9f8e7d6c5b4a; lang=en-GB; theme=dark; cart=3; disable_esc=${SeededSecret}; _gid=GA1.2.99`
    const big = `${Array.from({ length: 120 }, (_, i) => `c${i}=${"v".repeat(24)}`).join("; ")}; disable_esc=nope`
    const measure = (cookie, n) => {
      let off = 0
      for (let i = 0; i < 10_000; i++) off += decide({ zone, account, cookie }).escRuns ? 0 : 1 // warm-up
      const rounds = []
      for (let r = 0; r < 7; r++) {
        const t0 = process.hrtime.bigint()
        for (let i = 0; i < n; i++) off += decide({ zone, account, cookie }).escRuns ? 0 : 1
        rounds.push(Number(process.hrtime.bigint() - t0) / n)
      }
      if (off === 0 && cookie === typical) throw new Error("decide never turned ESC off for the typical header")
      const ns = median(rounds)
      return {
        headerBytes: Buffer.byteLength(cookie),
        nsPerDecision: round(ns),
        decisionsPerSecond: Math.round(1e9 / ns)
      }
    }
    results.decide = {
      typical: measure(typical, quick ? 50_000 : 200_000),
      large: measure(big, quick ? 5_000 : 20_000)
    }
  } finally {
    fs.rmSync(bundle, { force: true })
  }
}

const startServer = (args) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })
    children.add(child)
    let stderr = ""
    child.stderr.on("data", (d) => (stderr += d))
    readline.createInterface({ input: child.stdout }).once("line", (line) => resolve({ child, ...JSON.parse(line) }))
    child.once("exit", (code) => {
      children.delete(child)
      reject(new Error(`edgectl serve exited ${code}: ${stderr.trim()}`))
    })
  })

const load = async (url, headers, seconds) => {
  const r = await autocannon({ url, headers, connections: 10, duration: seconds, timeout: 10 })
  return {
    rps: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    failures: r.errors + r.timeouts + r.non2xx
  }
}

if (only.has("serve")) {
  log(`served: edgectl serve, ${duration} s per route`)
  const server = await startServer([bin, "serve", "--port", "0", "--json", "--persist-to", state])
  try {
    const auth = { authorization: `Bearer ${server.token}` }
    results.served = []
    for (const route of [`/zones/${ACME}/disable_esc`, `/zones/${ACME}`]) {
      const check = await fetch(server.baseUrl + route, { headers: auth })
      if (check.status !== 200) throw new Error(`GET ${route} answered ${check.status}`)
      await load(server.baseUrl + route, auth, 1)
      results.served.push({ route, ...(await load(server.baseUrl + route, auth, duration)) })
    }
  } finally {
    server.child.kill("SIGTERM")
  }
}

console.log(`\nedgectl ESC bench: node ${results.node}, ${results.cpus} cpu (${results.cpuModel})`)
if (results.coldStart) coldStartTable(results.coldStart, runs)
if (results.decide) {
  const d = results.decide
  table(
    "decision for one request (Cookie parsing + zone and account settings)",
    ["Cookie header", "bytes", "ns/decision", "decisions/s"],
    [
      [
        "typical (7 cookies, secret matches)",
        d.typical.headerBytes,
        d.typical.nsPerDecision,
        d.typical.decisionsPerSecond.toLocaleString("en-US")
      ],
      [
        "large (121 cookies, no match)",
        d.large.headerBytes,
        d.large.nsPerDecision,
        d.large.decisionsPerSecond.toLocaleString("en-US")
      ]
    ]
  )
}
if (results.served) {
  table(
    `edgectl serve over 127.0.0.1, 10 connections, ${duration} s each`,
    ["request", "req/s", "p50/p99 ms", "failed"],
    results.served.map((r) => [
      `GET ${r.route.replace(ACME, "{acme.com}")}`,
      r.rps,
      `${r.p50Ms}/${r.p99Ms}`,
      r.failures
    ])
  )
}
fs.mkdirSync(resultsDir, { recursive: true })
fs.writeFileSync(path.join(resultsDir, "esc.json"), `${JSON.stringify(results, null, 2)}\n`)
console.log(`\nwritten: ${path.relative(process.cwd(), path.join(resultsDir, "esc.json"))}`)
