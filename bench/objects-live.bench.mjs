// The live objects bench (run by bench/run.mjs): what going through a running host costs.
//
// - a cold `edgectl objects kv get` (a whole CLI process) with the host stopped (the CLI opens the
//   storage itself) and with `edgectl objects dev` running the object (the CLI finds the host
//   through the object's lock and asks it over its control socket), beside `node -e 0`;
// - a cold `edgectl objects bookmark` through the running host;
// - round trips over the control channel from a warm process (the CLI's control client, bundled
//   from bench/objects-live-client.ts): a bookmark, and a kv get.
// Prints a table and writes bench/results/objects-live.json.
//
//   node bench/objects-live.bench.mjs [--quick] [--runs N]
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as readline from "node:readline"
import { root, bin, resultsDir, benchArgs, buildBench, median, round, log, table, runOnce } from "./lib.mjs"

const { quick, runs } = benchArgs({ integers: { runs: { quick: 3, full: 9 } } })
const roundTrips = quick ? 50 : 300

const work = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-objects-live-bench-"))
const state = path.join(work, "st")
let dev
process.on("exit", () => {
  dev?.kill("SIGKILL")
  fs.rmSync(work, { recursive: true, force: true })
})
process.on("SIGINT", () => process.exit(130))

const module = path.join(root, "test", "fixtures", "objects", "counter.ts")
const env = { ...process.env, NO_COLOR: "1" }
const cli = (...a) => [bin, "objects", ...a, "--persist-to", state]
const sample = (args) => {
  runOnce(args, env)
  const ms = []
  for (let i = 0; i < runs; i++) ms.push(runOnce(args, env).ms)
  return round(median(ms))
}

const clientBundle = await buildBench("bench/objects-live-client.ts", ".objects-live.bundle.mjs")
const { callHost, findHost, resolveId, objectDir } = await import(clientBundle)

runOnce(cli("kv", "Counter", "a", "put", "n", "1", "--value-json"), env)
log("objects-live: cold kv get, host stopped…")
const node = sample(["-e", "0"])
const stopped = sample(cli("kv", "Counter", "a", "get", "n"))

dev = spawn(
  process.execPath,
  [bin, "objects", "dev", module, "--port", "0", "--json", "--persist-to", state, "--no-watch"],
  { env, stdio: ["ignore", "pipe", "inherit"] }
)
const { url } = JSON.parse(
  await new Promise((resolve) => readline.createInterface({ input: dev.stdout }).once("line", resolve))
)
await (await fetch(`${url}/Counter/a/get`)).text()
log("objects-live: cold kv get and bookmark through the running host…")
const through = sample(cli("kv", "Counter", "a", "get", "n"))
const bookmarkCold = sample(cli("bookmark", "Counter", "a"))

const id = resolveId("Counter", "a")
const host = findHost(state, "Counter", objectDir(state, "Counter", id))
if (host === undefined) throw new Error("the running host was not found through the object's lock")
const target = { className: "Counter", id: id.hex, name: "a" }
const perCall = async (request) => {
  for (let i = 0; i < 20; i++) await callHost(host, target, request)
  const ms = []
  for (let i = 0; i < roundTrips; i++) {
    const t0 = process.hrtime.bigint()
    await callHost(host, target, request)
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6)
  }
  return round(median(ms), 3)
}
const bookmarkTrip = await perCall({ op: "bookmark" })
const getTrip = await perCall({ op: "get", key: "n" })
dev.kill("SIGINT")
await new Promise((r) => dev.once("exit", r))
dev = undefined

const results = {
  runs,
  roundTrips,
  nodeMs: node,
  kvGetStoppedMs: stopped,
  kvGetThroughHostMs: through,
  bookmarkThroughHostMs: bookmarkCold,
  bookmarkRoundTripMs: bookmarkTrip,
  kvGetRoundTripMs: getTrip
}
table(
  `objects through a running host: cold CLI processes, median of ${runs} runs (ms)`,
  ["command", "median", "vs node -e 0"],
  [
    ["node -e 0", node, "1.00x"],
    ["edgectl objects kv get (host stopped: opens the storage)", stopped, `${(stopped / node).toFixed(2)}x`],
    ["edgectl objects kv get (through the running host)", through, `${(through / node).toFixed(2)}x`],
    ["edgectl objects bookmark (through the running host)", bookmarkCold, `${(bookmarkCold / node).toFixed(2)}x`]
  ]
)
table(
  `control channel round trips from a warm process, median of ${roundTrips} (ms)`,
  ["request", "median"],
  [
    ["bookmark", bookmarkTrip],
    ["kv get", getTrip]
  ]
)
fs.writeFileSync(path.join(resultsDir, "objects-live.json"), `${JSON.stringify(results, null, 2)}\n`)
