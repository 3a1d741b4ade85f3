// The scale bench (run by bench/run.mjs, after `node build.mjs`; issue 35): whether a cost grows
// with the work, not how fast the small case is. Each row is one size; its columns are the time,
// the cost per item, and the marginal cost per item from the previous size (what the added items
// cost): a quadratic step shows as a marginal cost that grows with the size.
//
//   1. worlds generated here (fixtures/generate.ts) at 1k / 10k / 50k / 100k zones, each with as
//      many DNS records in acme.com: `edgectl zones list --json` and `edgectl dns list acme.com
//      --json` as whole processes; and `edgectl serve`'s first and last page of GET /zones
//      (per_page=50), medians of sequential requests (target: the last page within 2x the first);
//   2. `kv bulk put` of 1k / 10k / 100k / 1M entries (100-byte values), each into a new namespace;
//   3. ctx.storage (src/objects, bundled here): 10,000 entries put in 128-entry batches up to
//      sync(), on a fresh object and on one that has taken 1M prior writes of the same keys (its
//      point-in-time log grown by them); target: the aged object within 20 % of the fresh one.
//
// Targets (issue 35): `zones list --json` of 100,000 zones under 3 s; every list's cost per item
// within 2x from 1k to 100k. `--quick` stops at 10k zones, 100k KV entries and 200k prior writes.
// Prints tables and writes bench/results/scale.json.
//
//   node bench/scale.bench.mjs [--quick] [--runs N] [--keep] [--only worlds,kv,objects]
import Database from "better-sqlite3"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as readline from "node:readline"
import { root, bin, resultsDir, benchArgs, buildBench, median, round, log, table } from "./lib.mjs"

const { quick, keep, runs, only } = benchArgs({
  integers: { runs: { quick: 1, full: 3 } },
  sections: ["worlds", "kv", "objects"]
})

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
const children = new Set()
process.on("exit", () => {
  for (const c of children) c.kill("SIGKILL")
  if (!keep) for (const d of temps) fs.rmSync(d, { recursive: true, force: true })
})
process.on("SIGINT", () => process.exit(130))

const cacheHome = tmp("edgectl-bench-scale-cache-")
// No account from the caller's environment: `zones list` would list that account's zones only.
const env = { ...process.env, XDG_CACHE_HOME: cacheHome, EDGECTL_DEBUG: "" }
delete env.CLOUDFLARE_ACCOUNT_ID

/**
 * The CPU time (user + system, ms) of this process's reaped children, from /proc (Linux; 10 ms
 * ticks), or undefined. On a shared machine a child's wall time counts its wait for a core too;
 * its CPU time does not, so the curves are drawn from CPU time where there is one.
 */
const childrenCpuMs = () => {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8")
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    // Fields 16 and 17 of stat(5) (cutime, cstime), here 0-based from field 3.
    return ((Number(f[13]) + Number(f[14])) * 1000) / 100
  } catch {
    return undefined
  }
}

/** One child, timed from spawn to exit; its wall time and its CPU time (user + system). */
const timed = (args, cwd = root) => {
  const c0 = childrenCpuMs()
  const t0 = process.hrtime.bigint()
  const r = spawnSync(process.execPath, args, {
    env,
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 900_000,
    maxBuffer: 1 << 30
  })
  const ms = Number(process.hrtime.bigint() - t0) / 1e6
  const c1 = childrenCpuMs()
  if (r.status !== 0)
    throw new Error(`node ${args.join(" ")} exited ${r.status ?? r.signal}: ${String(r.stderr).trim().slice(0, 500)}`)
  return { ms, cpuMs: c0 === undefined || c1 === undefined ? undefined : c1 - c0, stdout: r.stdout }
}

/** Medians of the wall and CPU times of `runs` runs after one warm-up (page cache, the CLI's code cache). */
const medianMs = (args, check) => {
  check(timed(args).stdout)
  const xs = []
  for (let i = 0; i < runs; i++) xs.push(timed(args))
  const cpu = xs.map((x) => x.cpuMs)
  return {
    ms: round(median(xs.map((x) => x.ms))),
    cpuMs: cpu.includes(undefined) ? undefined : round(median(cpu))
  }
}

/** Rows of `[size, ms]` as table rows with the cost per item and the marginal cost per item. */
const curve = (points, unit) =>
  points.map(({ n, ms, wall }, i) => {
    const prev = points[i - 1]
    const perItem = (ms * 1000) / n
    const first = (points[0].ms * 1000) / points[0].n
    return [
      n.toLocaleString("en-US"),
      wall ?? ms,
      ms,
      `${round(perItem, 2)} µs/${unit}`,
      prev === undefined ? "" : `${round(((ms - prev.ms) * 1000) / (n - prev.n), 2)} µs/${unit}`,
      `${round(perItem / first, 2)}x`
    ]
  })
const curveHead = ["size", "wall ms", "cpu ms", "per item", "marginal per item", "per item vs smallest"]
/** A curve's point from a `medianMs` result: its CPU time where there is one. */
const point = (n, t) => ({ n, ms: t.cpuMs ?? t.ms, wall: t.ms })

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? "",
  loadAverage: os.loadavg(),
  options: { quick, runs }
}

// ---------------------------------------------------------------------------------------------
// Worlds: zones list, DNS list, serve's first and last page

/** `n` more DNS records in acme.com, straight into the generated store. */
const addRecords = (dir, n) => {
  const db = new Database(path.join(dir, "platform.sqlite"))
  try {
    const zone = db.prepare("SELECT id FROM zones WHERE name = 'acme.com'").pluck().get()
    const insert = db.prepare(
      `INSERT INTO dns_records (id, zone_id, type, name, content, proxiable, proxied, ttl, priority, comment, tags, created_on, modified_on)
      VALUES (lower(hex(randomblob(16))), ?, 'A', ?, ?, 1, 0, 300, NULL, NULL, '[]', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z')`
    )
    db.transaction(() => {
      for (let i = 0; i < n; i++) insert.run(zone, `r${i}.acme.com`, `192.0.${(i >> 8) & 255}.${i & 255}`)
    })()
    return db.prepare("SELECT count(*) FROM dns_records WHERE zone_id = ?").pluck().get(zone)
  } finally {
    db.close()
  }
}

const startServe = (dir) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", dir], {
      env,
      stdio: ["ignore", "pipe", "inherit"]
    })
    children.add(child)
    readline.createInterface({ input: child.stdout }).once("line", (l) => resolve({ child, ...JSON.parse(l) }))
    child.once("exit", (code) => reject(new Error(`edgectl serve exited ${code}`)))
  })

/** Median ms of `n` sequential GETs of each route, interleaved (first, last, first, ...). */
const pages = async (server, routes, n) => {
  const auth = { authorization: `Bearer ${server.token}` }
  const once = async (route) => {
    const t0 = performance.now()
    const r = await fetch(server.baseUrl + route, { headers: auth })
    const body = await r.text()
    if (r.status !== 200) throw new Error(`GET ${route} answered ${r.status}: ${body.slice(0, 300)}`)
    return performance.now() - t0
  }
  for (const route of routes) for (let i = 0; i < 5; i++) await once(route)
  const samples = routes.map(() => [])
  for (let i = 0; i < n; i++) for (const [j, route] of routes.entries()) samples[j].push(await once(route))
  return samples.map((s) => round(median(s), 2))
}

if (only.has("worlds")) {
  const sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 50_000, 100_000]
  results.worlds = []
  for (const n of sizes) {
    const dir = tmp("edgectl-bench-scale-world-")
    log(`world of ${n.toLocaleString("en-US")} zones: generating`)
    const gen = timed(
      [
        "--import",
        "tsx",
        path.join(root, "fixtures", "generate.ts"),
        "--zones",
        String(n),
        "--records",
        String(n),
        "--persist-to",
        dir,
        "--json"
      ],
      root
    )
    const generated = JSON.parse(String(gen.stdout))
    const zones = generated.counts.zones
    const records = addRecords(dir, n)
    log(`  ${zones} zones, ${records} records in acme.com: zones list, dns list (${runs} runs), serve pages`)
    const zonesMs = medianMs([bin, "zones", "list", "--json", "--persist-to", dir], (out) => {
      const got = JSON.parse(String(out)).length
      if (got < zones - 100) throw new Error(`zones list --json printed ${got} zones of ${zones}`)
    })
    const dnsMs = medianMs([bin, "dns", "list", "acme.com", "--json", "--persist-to", dir], (out) => {
      const got = JSON.parse(String(out)).length
      if (got !== records) throw new Error(`dns list --json printed ${got} records of ${records}`)
    })
    const server = await startServe(dir)
    let first, last
    try {
      const lastPage = Math.ceil((zones - 10) / 50)
      ;[first, last] = await pages(server, [`/zones?per_page=50&page=1`, `/zones?per_page=50&page=${lastPage}`], 30)
    } finally {
      server.child.kill("SIGTERM")
      children.delete(server.child)
    }
    results.worlds.push({ n, zones, records, zonesMs, dnsMs, serve: { firstMs: first, lastMs: last } })
  }
}

// ---------------------------------------------------------------------------------------------
// KV bulk put

if (only.has("kv")) {
  const sizes = quick ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000]
  const work = tmp("edgectl-bench-scale-kv-")
  const state = path.join(work, "state")
  // The store's first use (migration, demo world) is not part of any row.
  timed([bin, "kv", "key", "put", "first", "x", "--namespace-id", "scale-first", "--persist-to", state], work)
  results.kv = []
  for (const n of sizes) {
    const file = path.join(work, `bulk-${n}.json`)
    const value = "v".repeat(100)
    const out = fs.createWriteStream(file)
    out.write("[")
    for (let i = 0; i < n; i++)
      out.write(`${i > 0 ? "," : ""}{"key":"key-${String(i).padStart(7, "0")}","value":"${value}"}`)
    out.end("]")
    await new Promise((resolve) => out.once("finish", resolve))
    const xs = []
    for (let r = 0; r < runs; r++) {
      log(`kv bulk put of ${n.toLocaleString("en-US")} entries (run ${r + 1} of ${runs})`)
      xs.push(timed([bin, "kv", "bulk", "put", file, "--namespace-id", `scale-${n}-${r}`, "--persist-to", state], work))
    }
    fs.rmSync(file)
    const cpu = xs.map((x) => x.cpuMs)
    results.kv.push({
      n,
      ms: round(median(xs.map((x) => x.ms))),
      cpuMs: cpu.includes(undefined) ? undefined : round(median(cpu))
    })
  }
}

// ---------------------------------------------------------------------------------------------
// Objects: batched puts, fresh and aged

if (only.has("objects")) {
  const bundle = await buildBench("src/objects/index.ts", ".objects-scale.bundle.mjs")
  const { ObjectStorage } = await import(bundle)
  const work = tmp("edgectl-bench-scale-objects-")
  const N = 10_000
  const keys = Array.from({ length: N }, (_, i) => `k${String(i).padStart(6, "0")}`)
  const batches = (v) => {
    const out = []
    for (let i = 0; i < N; i += 128) out.push(Object.fromEntries(keys.slice(i, i + 128).map((k) => [k, v])))
    return out
  }
  /** 10,000 entries in 128-entry batches, awaited, up to sync(): ms. */
  const round10k = async (s, tag) => {
    const bs = batches(`${"x".repeat(96)}${String(tag).padStart(4, "0")}`)
    const t0 = process.hrtime.bigint()
    for (const b of bs) await s.put(b)
    await s.sync()
    return Number(process.hrtime.bigint() - t0) / 1e6
  }
  const prior = quick ? 200_000 : 1_000_000
  const rounds = quick ? 5 : 9
  log(`objects: an object taking ${prior.toLocaleString("en-US")} prior writes`)
  const aged = new ObjectStorage(path.join(work, "aged"))
  const t0 = performance.now()
  for (let w = 0; w < prior; w += N) await round10k(aged, w / N)
  const agingMs = performance.now() - t0
  const logMb = fs.statSync(path.join(work, "aged", "pitr.sqlite")).size / 1048576
  // Interleaved: a fresh object's round, then the aged one's; each fresh object takes one warm-up round.
  const fresh = []
  const old = []
  let tag = 0
  for (let i = 0; i < rounds; i++) {
    const s = new ObjectStorage(path.join(work, `fresh-${i}`))
    try {
      fresh.push(await round10k(s, tag++))
    } finally {
      s.close()
    }
    old.push(await round10k(aged, tag++))
  }
  aged.close()
  fs.rmSync(bundle, { force: true })
  results.objects = {
    prior,
    agingMs: round(agingMs),
    logMb: round(logMb),
    freshMs: round(median(fresh), 2),
    agedMs: round(median(old), 2),
    // The mean too: a checkpoint paid by one round in ten hides from the median.
    freshMeanMs: round(fresh.reduce((a, b) => a + b, 0) / fresh.length, 2),
    agedMeanMs: round(old.reduce((a, b) => a + b, 0) / old.length, 2),
    fresh: fresh.map((x) => round(x)),
    aged: old.map((x) => round(x))
  }
}

// ---------------------------------------------------------------------------------------------
// Report

console.log(
  `\nedgectl scale bench: node ${results.node}, ${results.cpus} cpu (${results.cpuModel}), load ${results.loadAverage.map((x) => round(x)).join(" ")}`
)
if (results.worlds) {
  const w = results.worlds
  table(
    `zones list --json, median of ${runs} (ms; per item from CPU time)`,
    curveHead,
    curve(
      w.map((x) => point(x.zones, x.zonesMs)),
      "zone"
    )
  )
  table(
    `dns list acme.com --json, median of ${runs} (ms; per item from CPU time)`,
    curveHead,
    curve(
      w.map((x) => point(x.records, x.dnsMs)),
      "record"
    )
  )
  table(
    "edgectl serve: GET /zones?per_page=50, first and last page, median of 30 (ms)",
    ["zones", "first page", "last page", "last vs first (target < 2x)"],
    w.map((x) => [
      x.zones.toLocaleString("en-US"),
      x.serve.firstMs,
      x.serve.lastMs,
      `${round(x.serve.lastMs / x.serve.firstMs, 2)}x`
    ])
  )
  const biggest = w[w.length - 1]
  if (biggest.zones >= 100_000)
    console.log(
      `zones list --json at ${biggest.zones.toLocaleString("en-US")} zones: ${biggest.zonesMs.ms} ms wall, ${biggest.zonesMs.cpuMs} ms CPU (target < 3000 ms: ${biggest.zonesMs.ms < 3000 ? "met" : "MISSED"})`
    )
}
if (results.kv) {
  table(
    `kv bulk put, median of ${runs} (ms; per item from CPU time)`,
    curveHead,
    curve(
      results.kv.map((x) => point(x.n, x)),
      "entry"
    )
  )
}
if (results.objects) {
  const o = results.objects
  table(
    `ctx.storage: 10,000 entries in 128-entry batches up to sync(), median of ${o.fresh.length} interleaved (ms)`,
    ["object", "median ms", "mean ms", "per entry", "vs fresh (target aged <= 1.2x)"],
    [
      ["fresh", o.freshMs, o.freshMeanMs, `${round((o.freshMs * 1000) / 10_000, 2)} µs`, "1.00x"],
      [
        `aged (${o.prior.toLocaleString("en-US")} prior writes, log ${o.logMb} MB)`,
        o.agedMs,
        o.agedMeanMs,
        `${round((o.agedMs * 1000) / 10_000, 2)} µs`,
        `${round(o.agedMs / o.freshMs, 2)}x (mean ${round(o.agedMeanMs / o.freshMeanMs, 2)}x)`
      ]
    ]
  )
}
fs.mkdirSync(resultsDir, { recursive: true })
fs.writeFileSync(path.join(resultsDir, "scale.json"), `${JSON.stringify(results, null, 2)}\n`)
