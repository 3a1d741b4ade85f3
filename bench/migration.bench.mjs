// The migration engine's bench (issue 27; run by bench/run.mjs after `node build.mjs`): a zone of
// 1,000 firewall rules (acme-shop.com, Enterprise: all of them fit) on the embedded platform,
// measured as a user runs it, as processes on a copy of one prepared state directory:
//
//   1. plan + dry run: `firewall migrate --dry-run` (text) and `--dry-run --json` (the plan object);
//   2. apply with the journal: `firewall migrate --yes` (1,001 requests, each recorded before and
//      after with an fsync, then the read-back);
//   3. rollback of the same: `firewall migrate --rollback --yes` (1,001 inverse requests, journaled).
//
// Medians of wall times over --runs fresh copies. Prints a table and writes bench/results/migration.json.
//
//   node bench/migration.bench.mjs [--quick] [--runs N]
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as readline from "node:readline"
import { benchArgs, bin, log, median, resultsDir, root, round, table } from "./lib.mjs"

const { runs } = benchArgs({ integers: { runs: { quick: 3, full: 5 } } })
const ZONE = "acme-shop.com"
const RULES = 1000

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
  for (const d of temps) fs.rmSync(d, { recursive: true, force: true })
})
process.on("SIGINT", () => process.exit(130))

/** The state directory with the zone's 1,000 rules, written through `edgectl serve` (the firewall API). */
const prepare = async () => {
  const dir = tmp("edgectl-bench-migration-")
  const serve = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", dir], {
    stdio: ["ignore", "pipe", "inherit"]
  })
  const ready = await new Promise((resolve, reject) => {
    readline.createInterface({ input: serve.stdout }).once("line", (l) => resolve(JSON.parse(l)))
    serve.once("exit", (code) => reject(new Error(`serve exited with ${code}`)))
  })
  const api = (p, init = {}) =>
    fetch(`${ready.baseUrl}${p}`, {
      ...init,
      headers: { authorization: `Bearer ${ready.token}`, "content-type": "application/json" }
    }).then((r) => r.json())
  const zone = (await api(`/zones?name=${ZONE}`)).result[0].id
  for (let i = 0; i < RULES; i += 100) {
    const body = Array.from({ length: 100 }, (_, k) => ({
      action: ["block", "challenge", "allow", "js_challenge"][(i + k) % 4],
      description: `rule ${i + k}`,
      filter: { expression: `http.request.uri.path eq "/bench/${i + k}"` }
    }))
    const r = await api(`/zones/${zone}/firewall/rules`, { method: "POST", body: JSON.stringify(body) })
    if (!r.success) throw new Error(`creating rules: ${JSON.stringify(r.errors)}`)
  }
  serve.kill("SIGTERM")
  await new Promise((resolve) => serve.once("exit", resolve))
  return dir
}

const timed = (args, dir) => {
  const start = process.hrtime.bigint()
  const r = spawnSync(process.execPath, [bin, ...args, "--persist-to", dir], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: "1" }
  })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (r.status !== 0) throw new Error(`edgectl ${args.join(" ")}: exit ${r.status}: ${r.stderr}`)
  return { ms, stdout: r.stdout }
}

log(`preparing ${ZONE} with ${RULES} firewall rules…`)
const prepared = await prepare()
const copy = () => {
  const d = tmp("edgectl-bench-migration-run-")
  fs.cpSync(prepared, d, { recursive: true })
  return d
}

const z = ["firewall", "migrate", "--zone", ZONE]
const samples = { dryRun: [], dryRunJson: [], apply: [], rollback: [] }
let steps = 0
for (let i = 0; i < runs; i++) {
  const d = copy()
  samples.dryRun.push(timed([...z, "--dry-run"], d).ms)
  const plan = timed([...z, "--dry-run", "--json"], d)
  samples.dryRunJson.push(plan.ms)
  steps = JSON.parse(plan.stdout).steps.length
  samples.apply.push(timed([...z, "--yes"], d).ms)
  samples.rollback.push(timed([...z, "--rollback", "--yes"], d).ms)
  log(`run ${i + 1}/${runs} done`)
}

const rows = [
  ["plan + dry run (text)", round(median(samples.dryRun)), steps],
  ["plan + dry run (--json)", round(median(samples.dryRunJson)), steps],
  ["apply with the journal", round(median(samples.apply)), steps],
  ["rollback of the same", round(median(samples.rollback)), steps]
]
table(
  `firewall migrate of ${RULES} rules on ${ZONE} (local, median of ${runs} runs, ms wall)`,
  ["WHAT", "MS", "REQUESTS"],
  rows
)
fs.mkdirSync(resultsDir, { recursive: true })
fs.writeFileSync(
  path.join(resultsDir, "migration.json"),
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rules: RULES, runs, steps, samples, medians: Object.fromEntries(rows.map((r) => [r[0], r[1]])) }, null, 2)}\n`
)
