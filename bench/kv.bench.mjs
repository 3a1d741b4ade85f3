// The KV bench (run by bench/run.mjs, after `node build.mjs`): the local store, as users run it.
//
//   1. whole processes (the built CLI), medians of interleaved runs beside a bare `node -e 0`:
//      a cold `kv key get`; `kv bulk put` of 10,000 and 100,000 entries (100-byte values, each run
//      into a fresh namespace); `kv key list` over 100,000 keys, without and with a prefix;
//   2. in one process (bench/kv-inprocess.ts, bundled here): the bulk write path (parse, validate,
//      insert) beside a raw better-sqlite3 insert of the same rows in one transaction, as a ratio;
//      and the cost of secure_delete on the engine's writes (new keys, overwrites, deletes).
//
// Targets (issue 4; the peer tool on this kind of machine: 1.35 s for a cold get, 40 s for a
// 10,000-entry bulk put): cold single-key command < 2.5x `node -e 0`; bulk put of 100,000 entries
// < 2 s wall, process included; the write path at no less than a third of the raw insert rate.
// Prints tables and writes bench/results/kv.json.
//
//   node bench/kv.bench.mjs [--quick] [--runs N] [--keep]
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
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
  instructions,
  instructionRatio
} from "./lib.mjs"

const { quick, keep, runs } = benchArgs({ integers: { runs: { quick: 5, full: 9 } } })
const bulkRuns = quick ? 2 : 3

if (!fs.existsSync(path.join(root, "dist"))) {
  process.stderr.write("error: dist/ is missing; run `node build.mjs` first (npm run bench does)\n")
  process.exit(1)
}

const temps = []
const tmp = (prefix) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  temps.push(d)
  return d
}
process.on("exit", () => {
  if (!keep) for (const d of temps) fs.rmSync(d, { recursive: true, force: true })
})
process.on("SIGINT", () => process.exit(130))

const work = tmp("edgectl-bench-kv-")
const state = path.join(work, "state")
const cacheHome = tmp("edgectl-bench-kv-cache-")
const env = { ...process.env, XDG_CACHE_HOME: cacheHome, EDGECTL_DEBUG: "", CLOUDFLARE_ACCOUNT_ID: "" }

const runOnce = (args, options = {}) => {
  const t0 = process.hrtime.bigint()
  const r = spawnSync(process.execPath, args, {
    env,
    cwd: work,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
    maxBuffer: 256 << 20,
    ...options
  })
  const ms = Number(process.hrtime.bigint() - t0) / 1e6
  if (r.status !== 0)
    throw new Error(`node ${args.join(" ")} exited ${r.status ?? r.signal}: ${String(r.stderr).trim().slice(0, 500)}`)
  return { ms, stdout: String(r.stdout) }
}
const kv = (...args) => [bin, "kv", ...args, "--persist-to", state]

/** A bulk file of `n` entries with 100-byte values, keys key-000000… */
const bulkFile = (n) => {
  const file = path.join(work, `bulk-${n}.json`)
  const value = "v".repeat(100)
  const parts = []
  for (let i = 0; i < n; i++) parts.push(`{"key":"key-${String(i).padStart(6, "0")}","value":"${value}"}`)
  fs.writeFileSync(file, `[${parts.join(",")}]`)
  return file
}

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? "",
  options: { runs, bulkRuns },
  peer: { wrangler4ColdGetS: 1.35, wrangler4BulkPut10kS: 40.51, source: "reference/peers.md section 4" }
}

// ---------------------------------------------------------------------------------------------
// Whole processes

log("preparing: first use (store + demo world), 100,000 keys to list")
const file10k = bulkFile(10_000)
const file100k = bulkFile(100_000)
const firstUse = runOnce(kv("key", "put", "cold", "x".repeat(100), "--namespace-id", "bench-get"))
runOnce(kv("bulk", "put", file100k, "--namespace-id", "bench-list"))

/** Medians of `args` interleaved with `node -e 0`, after one warm-up of each. */
const interleaved = (args, n) => {
  runOnce(args)
  runOnce(["-e", "0"])
  const bare = []
  const cli = []
  let stdout = ""
  for (let i = 0; i < n; i++) {
    bare.push(runOnce(["-e", "0"]).ms)
    const r = runOnce(args)
    cli.push(r.ms)
    stdout = r.stdout
  }
  return {
    nodeMs: round(median(bare)),
    ms: round(median(cli)),
    minMs: round(Math.min(...cli)),
    ratio: round(median(cli) / median(bare), 2),
    samples: cli.map((x) => round(x)),
    stdout
  }
}

log(`cold kv key get: ${runs} interleaved runs`)
const get = interleaved(kv("key", "get", "cold", "--namespace-id", "bench-get"), runs)
if (get.stdout !== "x".repeat(100)) throw new Error(`kv key get printed ${JSON.stringify(get.stdout.slice(0, 80))}`)
results.coldGet = { ...get, stdout: undefined, target: 2.5 }
const nodeInstructions = instructions(["-e", "0"], env, work)
if (nodeInstructions !== undefined) {
  results.coldGet.instructions = {
    node: nodeInstructions,
    edgectl: instructions(kv("key", "get", "cold", "--namespace-id", "bench-get"), env, work)
  }
}

// For reference, the same machine at the same moment: the CLI starting without the platform, and a
// foundation command on the same in-process path (local transport + HttpApi app).
log(`reference: edgectl --version, edgectl zones get: ${runs} interleaved runs`)
results.version = { ...interleaved([bin, "--version"], runs), stdout: undefined }
results.zonesGet = {
  ...interleaved([bin, "zones", "get", "acme.com", "--json", "--persist-to", state], runs),
  stdout: undefined
}

log(`cold kv key put: ${runs} interleaved runs`)
results.coldPut = {
  ...interleaved(kv("key", "put", "cold-put", "x".repeat(100), "--namespace-id", "bench-get"), runs),
  stdout: undefined
}

let fresh = 0
const bulk = (file, n) => {
  const samples = []
  for (let i = 0; i < bulkRuns; i++) {
    const r = runOnce(kv("bulk", "put", file, "--namespace-id", `bench-bulk-${fresh++}`))
    if (!r.stdout.startsWith(`Wrote ${n.toLocaleString("en-US")} entries`))
      throw new Error(`bulk put printed ${r.stdout}`)
    samples.push(r.ms)
  }
  return {
    entries: n,
    ms: round(median(samples)),
    samples: samples.map((x) => round(x)),
    perSecond: Math.round((n / median(samples)) * 1000)
  }
}
log(`kv bulk put, 10,000 and 100,000 entries: ${bulkRuns} runs each, fresh namespaces`)
results.bulkPut10k = bulk(file10k, 10_000)
results.bulkPut100k = { ...bulk(file100k, 100_000), targetMs: 2000 }

log(`kv key list over 100,000 keys: ${Math.min(runs, 5)} runs each`)
const list = (extra, expected) => {
  const samples = []
  for (let i = 0; i < Math.min(runs, 5); i++) {
    const r = runOnce(kv("key", "list", "--namespace-id", "bench-list", ...extra))
    const n = JSON.parse(r.stdout).length
    if (n !== expected) throw new Error(`kv key list ${extra.join(" ")} listed ${n} keys, expected ${expected}`)
    samples.push(r.ms)
  }
  return { keys: expected, ms: round(median(samples)), samples: samples.map((x) => round(x)) }
}
results.listAll = list([], 100_000)
results.listPrefix = { ...list(["--prefix", "key-0500"], 100), prefix: "key-0500" }
results.firstUseMs = round(firstUse.ms)

// ---------------------------------------------------------------------------------------------
// In one process

log("in-process: the bulk write path beside a raw better-sqlite3 insert")
// Inside the project (as the platform bench does), so that better-sqlite3 resolves from node_modules.
const bundle = await buildBench("bench/kv-inprocess.ts", ".kv-inprocess.bundle.mjs")
let p
try {
  fs.mkdirSync(path.join(work, "inproc"))
  p = JSON.parse(runOnce([bundle, path.join(work, "inproc"), file100k, quick ? "3" : "5"]).stdout)
} finally {
  fs.rmSync(bundle, { force: true })
}
results.inProcess = {
  ...p,
  engineRatio: round(p.rawMs / p.engineMs, 3),
  serviceRatio: round(p.rawMs / p.serviceMs, 3),
  target: 1 / 3
}

// ---------------------------------------------------------------------------------------------
// Report

const met = (ok) => (ok ? "met" : "MISSED")
const r = results
console.log(`\nedgectl kv bench: node ${r.node}, ${r.cpus} cpu (${r.cpuModel}), local store (in-process platform)`)
const getIns = r.coldGet.instructions
if (getIns !== undefined)
  console.log(
    `\ninstructions (callgrind): kv key get (cold) ${instructionRatio(getIns.edgectl, getIns.node)} node -e 0's`
  )
table(
  "whole processes, local store (ms)",
  ["command", "median", "vs node -e 0", "target", "wrangler 4"],
  [
    ["node -e 0", r.coldGet.nodeMs, "1.00x", "", ""],
    [
      "kv key get (cold)",
      r.coldGet.ms,
      `${r.coldGet.ratio.toFixed(2)}x`,
      `< 2.5x: ${met(r.coldGet.ratio < 2.5)}`,
      "1,350"
    ],
    ["kv key put (cold)", r.coldPut.ms, `${r.coldPut.ratio.toFixed(2)}x`, "", "1,350"],
    ["  ref: edgectl --version (no platform)", r.version.ms, `${r.version.ratio.toFixed(2)}x`, "", ""],
    ["  ref: edgectl zones get (same path)", r.zonesGet.ms, `${r.zonesGet.ratio.toFixed(2)}x`, "", ""],
    ["kv bulk put, 10,000 entries", r.bulkPut10k.ms, "", "", "40,510"],
    ["kv bulk put, 100,000 entries", r.bulkPut100k.ms, "", `< 2,000 ms: ${met(r.bulkPut100k.ms < 2000)}`, ""],
    ["kv key list, 100,000 keys", r.listAll.ms, "", "", ""],
    [`kv key list --prefix ${r.listPrefix.prefix} (100 keys)`, r.listPrefix.ms, "", "", ""],
    ["first use (store + demo world)", r.firstUseMs, "", "", ""]
  ]
)
const ip = r.inProcess
table(
  `in one process: ${ip.entries.toLocaleString("en-US")} entries of 100-byte values, median of ${ip.rounds} rounds`,
  ["path", "ms", "entries/s", "vs raw insert", "target"],
  [
    [
      "raw better-sqlite3 insert, one transaction",
      round(ip.rawMs),
      ip.rawPerSecond.toLocaleString("en-US"),
      "1.00",
      ""
    ],
    [
      "engine: parse + validate + insert",
      round(ip.engineMs),
      ip.enginePerSecond.toLocaleString("en-US"),
      ip.engineRatio.toFixed(2),
      `>= 0.33: ${met(ip.engineRatio >= 1 / 3)}`
    ],
    [
      "service: file check + in-process request + engine",
      round(ip.serviceMs),
      ip.servicePerSecond.toLocaleString("en-US"),
      ip.serviceRatio.toFixed(2),
      ""
    ]
  ]
)
const sd = ip.secureDelete
const overhead = (on, off) => `${on >= off ? "+" : ""}${(((on - off) / off) * 100).toFixed(0)}%`
table(
  `secure_delete (on in the platform's store): the engine's writes of ${ip.entries.toLocaleString("en-US")} checked entries, one transaction each (ms)`,
  ["write", "on", "off", "cost"],
  [
    ["new keys", round(sd.on.insertMs), round(sd.off.insertMs), overhead(sd.on.insertMs, sd.off.insertMs)],
    [
      "the same keys overwritten",
      round(sd.on.overwriteMs),
      round(sd.off.overwriteMs),
      overhead(sd.on.overwriteMs, sd.off.overwriteMs)
    ],
    ["every key deleted", round(sd.on.deleteMs), round(sd.off.deleteMs), overhead(sd.on.deleteMs, sd.off.deleteMs)]
  ]
)
fs.mkdirSync(resultsDir, { recursive: true })
fs.writeFileSync(path.join(resultsDir, "kv.json"), `${JSON.stringify(results, null, 2)}\n`)
console.log(`\nwritten: ${path.relative(process.cwd(), path.join(resultsDir, "kv.json"))}`)
