// The deprecation scanner bench (issue 33): `edgectl scan --json DIR` on a generated repository of
// N files (10,000 by default) in the scanner's languages, laid out as a code base is (packages of
// TypeScript and JavaScript, Python, Go, shell scripts, Terraform modules, JSON and YAML), 1 file
// in 20 using a deprecated API, SDK call, field or resource. Measures the wall time (median of
// runs), the rate in files and MB per second and the peak resident memory of the scan process
// (VmHWM from /proc, Linux only), and checks the findings' count. Prints a table and writes
// bench/results/scan.json.
//
//   node bench/scan.bench.mjs [--quick] [--files N]
//
// Notes (this 2-core machine, shared): 10,000 files (30.2 MB, 500 planted uses) in 1.97-1.99 s
// median, ~5,000 files/s, ~15 MB/s, peak RSS ~89 MB (only the texts of files with findings are
// kept, for the report); 2,000 files in ~0.9 s (start-up included).
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { benchArgs, bin, log, median, resultsDir, round, table } from "./lib.mjs"

const { quick, keep, files } = benchArgs({ integers: { files: { quick: 2000, full: 10000, min: 10, max: 100000 } } })
const runs = quick ? 3 : 5
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-bench-scan-"))
if (!keep) process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }))

// Ordinary code of each language, ~1-3 KB a file: what most of a repository is.
const filler = (lang, i) => {
  const lines = []
  for (let k = 0; k < 40; k++) {
    if (lang === "ts")
      lines.push(`export const handler${k} = async (req: Request) => fetch(\`/api/v1/items/\${req.url}\`) // ${i}`)
    else if (lang === "py")
      lines.push(`def handler_${k}(req):\n    return requests.get(f"{BASE}/api/v1/items/{req.id}")  # ${i}`)
    else if (lang === "go")
      lines.push(`func handler${k}(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, "%d", ${i}) }`)
    else if (lang === "sh") lines.push(`echo "step ${k} of ${i}" && ls -la "$WORKDIR/build/${k}"`)
    else if (lang === "tf") lines.push(`# module ${i} line ${k}\nvariable "v${k}" {\n  type = string\n}`)
    else if (lang === "json") lines.push(`  "key${k}": "value ${i} ${k}",`)
    else lines.push(`  step${k}: run ${i}`)
  }
  return lines.join("\n")
}
// One deprecated use per language (the ones the fixture repository tests, one each).
const deprecated = {
  ts: 'await fetch(`${API}/zones/${zoneId}/firewall/rules`, { method: "POST" })',
  py: 'requests.get(f"{API}/zones/{zone_id}/rate_limits")',
  go: "c.UpdateZoneSettings(ctx, zone, nil)",
  sh: 'curl -X PUT "$API/accounts/$A/workers/namespaces/$NS/values/k" --data v',
  tf: 'resource "cloudflare_rate_limit" "x" {\n  zone_id = "z"\n}',
  json: '  "expression": "cf.threat_score gt 10",',
  yml: '  run: curl "$API/zones/$Z/dns_analytics/report"'
}
const kinds = [
  ["ts", "ts", 30],
  ["js", "ts", 15],
  ["py", "py", 15],
  ["go", "go", 10],
  ["sh", "sh", 10],
  ["tf", "tf", 10],
  ["json", "json", 5],
  ["yml", "yml", 5]
]
const weights = kinds.flatMap(([ext, lang, w]) => Array.from({ length: w }, () => [ext, lang]))
let bytes = 0
let planted = 0
for (let i = 0; i < files; i++) {
  const [ext, lang] = weights[i % weights.length]
  const pkg = path.join(dir, `pkg${Math.floor(i / 100)}`, ["src", "lib", "scripts", "infra"][i % 4])
  fs.mkdirSync(pkg, { recursive: true })
  let text = lang === "json" ? `{\n${filler(lang, i)}\n  "end": true\n}\n` : `${filler(lang, i)}\n`
  if (i % 20 === 7) {
    text =
      lang === "json" ? `{\n${deprecated.json}\n${filler(lang, i)}\n  "end": true\n}\n` : `${deprecated[lang]}\n${text}`
    planted++
  }
  fs.writeFileSync(path.join(pkg, `f${i}.${ext}`), text)
  bytes += Buffer.byteLength(text)
}
log(`generated ${files} files (${round(bytes / 1e6)} MB, ${planted} with a deprecated use) in ${dir}`)

/** One scan: its wall time, the peak resident memory of its process, and its JSON. */
const scanOnce = () =>
  new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint()
    const child = spawn(process.execPath, [bin, "scan", "--json", dir], {
      env: { ...process.env, NO_COLOR: "1", EDGECTL_PLATFORM_NOW: "2026-11-24T12:00:00Z" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let peak = null
    const status = `/proc/${child.pid}/status`
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(status, "utf8"))
        if (m) peak = Number(m[1]) * 1024
      } catch {
        // The process has exited, or this is not Linux.
      }
    }, 5)
    let out = ""
    let err = ""
    child.stdout.setEncoding("utf8").on("data", (d) => (out += d))
    child.stderr.setEncoding("utf8").on("data", (d) => (err += d))
    child.on("error", reject)
    child.on("close", (code) => {
      clearInterval(poll)
      const ms = Number(process.hrtime.bigint() - t0) / 1e6
      // Exit 1: something past its end of life was found, as planted.
      if (code !== 1) return reject(new Error(`scan exited ${code}: ${err.trim()}`))
      resolve({ ms, peak, out: JSON.parse(out) })
    })
  })

const times = []
const peaks = []
let result
for (let i = 0; i < runs; i++) {
  const r = await scanOnce()
  times.push(r.ms)
  if (r.peak !== null) peaks.push(r.peak)
  result = r.out
}
if (result.scanned !== files) throw new Error(`scanned ${result.scanned} files, expected ${files}`)
if (result.findings.length !== planted)
  throw new Error(`found ${result.findings.length} deprecated uses, expected ${planted}`)
const ms = median(times)
const results = {
  files,
  megabytes: round(bytes / 1e6, 2),
  findings: result.findings.length,
  runs,
  medianMs: round(ms),
  filesPerSecond: Math.round(files / (ms / 1000)),
  megabytesPerSecond: round(bytes / 1e6 / (ms / 1000)),
  peakRssMb: peaks.length > 0 ? round(median(peaks) / 1048576) : null
}
table(
  `edgectl scan --json on a generated repository (median of ${runs})`,
  ["files", "MB", "findings", "wall", "files/s", "MB/s", "peak RSS"],
  [
    [
      String(files),
      String(results.megabytes),
      String(results.findings),
      `${results.medianMs} ms`,
      String(results.filesPerSecond),
      String(results.megabytesPerSecond),
      results.peakRssMb === null ? "n/a" : `${results.peakRssMb} MB`
    ]
  ]
)
fs.mkdirSync(resultsDir, { recursive: true })
fs.writeFileSync(path.join(resultsDir, "scan.json"), `${JSON.stringify(results, null, 2)}\n`)
