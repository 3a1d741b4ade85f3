// The language server and `edgectl check` at the sizes real users have (run by bench/run.mjs, after
// `node build.mjs`), each against the goals of issue 31:
//
//   1. a 50,000-entry 8 MB KV bulk file open in the server (`edgectl lsp`, over stdio): a burst of
//      20 keys typed into one value (one change each, 30 ms apart), the time from the last key to
//      the diagnostics of its version (<= 150 ms); hover and completion in the file (<= 50 ms each);
//      the server's resident memory after (<= 300 MiB);
//   2. `edgectl check --format sarif` of Terraform files of 500 and 5,000 filter/rule pairs: the
//      log's size (500 pairs < 5 MB; 5,000 pairs about ten times that, linear);
//   3. `edgectl check` of a 5 MB Terraform file (about 13,500 pairs): its time (< 10 s) and peak
//      memory (< 1 GiB, from /usr/bin/time where the machine has it).
//
// Prints a table and writes bench/results/lsp-scale.json.
//
//   node bench/lsp-scale.bench.mjs [--quick]
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node.js"
import { benchArgs, bin, resultsDir } from "./lib.mjs"
import { firewallTf, kvBulkFile } from "./lsp-fixtures.mjs"

const { quick } = benchArgs()
fs.mkdirSync(resultsDir, { recursive: true })
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]
}
const positionAt = (text, offset) => {
  const before = text.slice(0, offset)
  const line = before.split("\n").length - 1
  return { line, character: offset - (before.lastIndexOf("\n") + 1) }
}
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6

// 1. The 8 MB KV bulk file in the server.
const child = spawn(process.execPath, [bin, "lsp", "--stdio"], { stdio: ["pipe", "pipe", "inherit"] })
const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin))
const waiting = new Map()
const versions = []
conn.onNotification("textDocument/publishDiagnostics", (p) => {
  versions.push(p.version)
  waiting.get(`${p.uri}@${p.version}`)?.(p)
})
conn.listen()
await conn.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} })
await conn.sendNotification("initialized", {})
const published = (uri, version) => new Promise((resolve) => waiting.set(`${uri}@${version}`, resolve))
/** The server's CPU time so far (user + system, Linux /proc), in ms: what a burst costs whatever the machine's load. */
const cpuMs = () => {
  try {
    const f = fs.readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ")
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100
  } catch {
    return undefined
  }
}
const rssMiB = () => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"))
    return m ? Number(m[1]) / 1024 : undefined
  } catch {
    return undefined
  }
}

const entries = 50_000
const bulk = kvBulkFile(entries)
const uri = "file:///bench/bulk-8mb.json"
const opened = published(uri, 1)
await conn.sendNotification("textDocument/didOpen", {
  textDocument: { uri, languageId: "json", version: 1, text: bulk }
})
await opened
let version = 1
const bursts = []
const burstChecks = []
const burstCpu = []
// Keys typed at the end of the value of entry 25,000 (after its last "x"), 30 ms apart.
let at = bulk.indexOf(` 25000"`, bulk.indexOf('"key": "user:25000"'))
let doc = bulk
for (let b = 0; b < (quick ? 2 : 5); b++) {
  await sleep(300)
  const before = versions.length
  const cpuBefore = cpuMs()
  let t0 = 0n
  let done
  for (let k = 0; k < 20; k++) {
    const pos = positionAt(doc, at)
    version++
    if (k === 19) done = published(uri, version)
    await conn.sendNotification("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: pos, end: pos }, text: "k" }]
    })
    t0 = process.hrtime.bigint()
    doc = `${doc.slice(0, at)}k${doc.slice(at)}`
    at++
    if (k < 19) await sleep(30)
  }
  await done
  bursts.push(ms(t0))
  burstChecks.push(versions.length - before)
  const cpuAfter = cpuMs()
  if (cpuBefore !== undefined && cpuAfter !== undefined) burstCpu.push(cpuAfter - cpuBefore)
}

/** Times `runs` requests of `method` at `offset` (the round trip an editor waits on). */
const requestTimes = async (method, offset, runs, extra = {}) => {
  const times = []
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint()
    const r = await conn.sendRequest(method, { textDocument: { uri }, position: positionAt(doc, offset), ...extra })
    times.push(ms(t0))
    if (r === null) throw new Error(`${method} answered null at ${offset}`)
  }
  return { runs, median: quantile(times, 0.5), p95: quantile(times, 0.95) }
}
const hoverAt = doc.indexOf('"expiration_ttl"', doc.indexOf('"key": "user:40000"')) + 3
const hover = await requestTimes("textDocument/hover", hoverAt, quick ? 10 : 50)
// Completion of a property name in the entry of user:40000 (after its opening brace).
const completeAt = doc.indexOf('"key": "user:40000"')
const completion = await requestTimes("textDocument/completion", completeAt, quick ? 10 : 50, {
  context: { triggerKind: 2, triggerCharacter: '"' }
})
await sleep(200)
const rss = rssMiB()
await conn.sendRequest("shutdown")
await conn.sendNotification("exit")
await new Promise((r) => child.on("exit", r))
conn.dispose()

// 2 and 3: `edgectl check` on Terraform files, in a temp dir.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-lsp-scale-"))
const timeBin = fs.existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined
/** Runs `edgectl check ARGS` in the temp dir: its wall time, peak RSS (MiB, where measurable) and stdout size. */
const check = (args) => {
  const argv = timeBin
    ? ["-f", "maxrss=%M cpu=%U+%S", process.execPath, bin, "check", ...args]
    : [bin, "check", ...args]
  const t0 = process.hrtime.bigint()
  const r = spawnSync(timeBin ?? process.execPath, argv, { cwd: dir, maxBuffer: 1 << 30, encoding: "utf8" })
  const seconds = ms(t0) / 1000
  const m = /maxrss=(\d+)/.exec(r.stderr ?? "")
  const c = /cpu=([\d.]+)\+([\d.]+)/.exec(r.stderr ?? "")
  return {
    seconds,
    cpuSeconds: c ? Number(c[1]) + Number(c[2]) : undefined,
    peakMiB: m ? Number(m[1]) / 1024 : undefined,
    bytes: Buffer.byteLength(r.stdout ?? ""),
    status: r.status
  }
}
const sarif = {}
for (const n of quick ? [500, 1000] : [500, 5000]) {
  fs.writeFileSync(path.join(dir, `fw${n}.tf`), firewallTf(n))
  sarif[n] = check(["--format", "sarif", `fw${n}.tf`])
}
const perPair = firewallTf(1000).length / 1000
const pairs5mb = Math.round(5_000_000 / perPair)
fs.writeFileSync(path.join(dir, "fw-5mb.tf"), firewallTf(pairs5mb))
const big = check(quick ? ["--format", "json", "fw-5mb.tf"] : ["fw-5mb.tf"])
fs.rmSync(dir, { recursive: true, force: true })

const [small, large] = Object.keys(sarif).map(Number)
const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  quick,
  kv: {
    entries,
    bytes: bulk.length,
    burst: { median: quantile(bursts, 0.5), max: Math.max(...bursts), checks: burstChecks, serverCpuMs: burstCpu },
    hover,
    completion,
    rssMiB: rss
  },
  sarif,
  check5mb: { pairs: pairs5mb, ...big }
}
fs.writeFileSync(path.join(resultsDir, "lsp-scale.json"), `${JSON.stringify(results, null, 2)}\n`)

const f = (x) => `${x.toFixed(1)} ms`
const mb = (b) => `${(b / 1e6).toFixed(2)} MB`
const goal = (ok) => (ok ? "met" : "MISSED")
const rows = [
  [
    "8 MB KV file: last key of a 20-key burst -> diagnostics",
    f(results.kv.burst.median),
    "<= 150 ms",
    goal(results.kv.burst.median <= 150)
  ],
  ["  checks published per burst", burstChecks.join(" "), "", ""],
  [
    "  server CPU per burst (20 changes and their checks)",
    burstCpu.length ? `${quantile(burstCpu, 0.5).toFixed(0)} ms` : "n/a",
    "",
    ""
  ],
  ["  hover (median)", f(hover.median), "<= 50 ms", goal(hover.median <= 50)],
  ["  completion (median)", f(completion.median), "<= 50 ms", goal(completion.median <= 50)],
  [
    "  server RSS after",
    rss === undefined ? "n/a" : `${rss.toFixed(0)} MiB`,
    "<= 300 MiB",
    rss === undefined ? "" : goal(rss <= 300)
  ],
  [`SARIF of ${small} pairs`, mb(sarif[small].bytes), "< 5 MB", goal(sarif[small].bytes < 5e6)],
  [
    `SARIF of ${large} pairs`,
    mb(sarif[large].bytes),
    `~${large / small}x`,
    goal(sarif[large].bytes / sarif[small].bytes <= (large / small) * 1.1)
  ],
  [`check of a 5 MB .tf (${pairs5mb} pairs)`, `${big.seconds.toFixed(1)} s`, "< 10 s", goal(big.seconds < 10)],
  ["  CPU time (user + system)", big.cpuSeconds === undefined ? "n/a" : `${big.cpuSeconds.toFixed(1)} s`, "", ""],
  [
    "  peak memory",
    big.peakMiB === undefined ? "n/a" : `${big.peakMiB.toFixed(0)} MiB`,
    "< 1024 MiB",
    big.peakMiB === undefined ? "" : goal(big.peakMiB < 1024)
  ]
]
const head = ["measure", "value", "goal", ""]
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)))
const line = (r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ")
console.log(`\nedgectl lsp at scale: node ${results.node}, ${results.cpus} cpu`)
console.log(line(head))
console.log(widths.map((w) => "-".repeat(w)).join("  "))
for (const r of rows) console.log(line(r))
