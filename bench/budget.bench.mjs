// The API budget (issue 34): a remote `kv bulk put` of REQUESTS × 1,000 keys against
// `edgectl serve --rate-limit N/SECONDS`, the CLI keeping within the same budget
// (EDGECTL_RATE_LIMIT). It must fail nothing (exit 0, no error line) and take the budget's time:
// at most N requests in any SECONDS, a slot back SECONDS after its answer (src/domain/rate-budget.ts),
// so at least floor((REQUESTS - 1) / N) × SECONDS, and not much more (the writes themselves).
//
//   node bench/budget.bench.mjs [--quick] [--requests R] [--budget N] [--seconds S] [--keep]
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as readline from "node:readline"
import { benchArgs, bin, log, resultsDir, round, table } from "./lib.mjs"

const args = benchArgs({
  integers: {
    requests: { quick: 30, full: 100, max: 1000 },
    budget: { quick: 10, full: 20, max: 1000 },
    seconds: { quick: 2, full: 10, max: 300 }
  }
})
const PerRequest = 1000
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-bench-budget-"))
const state = path.join(dir, "state")
const env = { ...process.env, NO_COLOR: "1" }

const created = spawnSync(process.execPath, [bin, "kv", "namespace", "create", "budget", "--persist-to", state], {
  cwd: dir,
  env,
  encoding: "utf8"
})
if (created.status !== 0) throw new Error(`kv namespace create: ${created.stderr}`)
const namespaceId = /\(id ([0-9a-f]{32})\)/.exec(created.stdout)[1]
const file = path.join(dir, "entries.json")
fs.writeFileSync(
  file,
  JSON.stringify(Array.from({ length: args.requests * PerRequest }, (_, i) => ({ key: `k${i}`, value: `v${i}` })))
)

const limit = `${args.budget}/${args.seconds}`
const server = spawn(
  process.execPath,
  [bin, "serve", "--port", "0", "--json", "--persist-to", state, "--rate-limit", limit],
  {
    stdio: ["ignore", "pipe", "inherit"],
    env
  }
)
const ready = await new Promise((resolve, reject) => {
  readline.createInterface({ input: server.stdout }).once("line", (l) => resolve(JSON.parse(l)))
  server.once("exit", (code) => reject(new Error(`serve exited with ${code}`)))
})

log(`kv bulk put --remote: ${args.requests} requests of ${PerRequest} keys against serve --rate-limit ${limit}`)
const t0 = process.hrtime.bigint()
const put = await new Promise((resolve) => {
  const child = spawn(process.execPath, [bin, "kv", "bulk", "put", file, "--namespace-id", namespaceId, "--remote"], {
    cwd: dir,
    env: {
      ...env,
      CLOUDFLARE_API_BASE_URL: ready.baseUrl,
      CLOUDFLARE_API_TOKEN: ready.token,
      CLOUDFLARE_ACCOUNT_ID: ready.accountId,
      EDGECTL_RATE_LIMIT: limit
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (c) => (stdout += c))
  child.stderr.on("data", (c) => (stderr += c))
  child.on("exit", (status) => resolve({ status, stdout, stderr }))
})
const seconds = Number(process.hrtime.bigint() - t0) / 1e9
server.kill("SIGTERM")
if (!args.keep) fs.rmSync(dir, { recursive: true, force: true })

const floor = Math.floor((args.requests - 1) / args.budget) * args.seconds
const results = {
  requests: args.requests,
  keys: args.requests * PerRequest,
  rateLimit: limit,
  seconds: round(seconds, 2),
  budgetFloorSeconds: floor,
  overFloor: round(seconds / Math.max(1, floor), 3),
  status: put.status,
  stderr: put.stderr.trim()
}
table(
  `remote kv bulk put of ${results.keys.toLocaleString("en-US")} keys within serve --rate-limit ${limit}`,
  ["requests", "time (s)", "budget's floor (s)", "ratio", "exit", "failed"],
  [[args.requests, results.seconds, floor, results.overFloor, put.status, put.stderr.trim() === "" ? "none" : "yes"]]
)
fs.mkdirSync(resultsDir, { recursive: true })
fs.writeFileSync(path.join(resultsDir, "budget.json"), `${JSON.stringify(results, null, 2)}\n`)
console.log(`\nwritten: ${path.relative(process.cwd(), path.join(resultsDir, "budget.json"))}`)
if (put.status !== 0 || put.stderr.trim() !== "") {
  log(`error: the bulk put failed (exit ${put.status}): ${put.stderr.trim()}`)
  process.exit(1)
}
