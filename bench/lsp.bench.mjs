// The language server bench (run by bench/run.mjs, after `node build.mjs`): the time from a
// textDocument/didChange to the textDocument/publishDiagnostics of that version, measured on the
// real server (`edgectl lsp`, the shipped bundle) over stdio, as an editor sees it.
//
//   1. a 4,000-character expression in a *.rules file (one incremental edit), target < 5 ms;
//   2. a 10,000-entry KV bulk file (one incremental edit of one value), target < 200 ms.
//
// Changes are sent after the document has been idle (the server checks the first change of a
// burst at once and debounces the rest), one at a time. Prints a table and writes
// bench/results/lsp.json.
//
//   node bench/lsp.bench.mjs [--quick]
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node.js"
import { root, resultsDir } from "./lib.mjs"

const quick = process.argv.includes("--quick")
fs.mkdirSync(resultsDir, { recursive: true })

const child = spawn(process.execPath, [path.join(root, "bin", "edgectl.cjs"), "lsp", "--stdio"], { stdio: ["pipe", "pipe", "inherit"] })
const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin))
const waiting = new Map()
conn.onNotification("textDocument/publishDiagnostics", (p) => {
  const w = waiting.get(`${p.uri}@${p.version}`)
  if (w) w(p)
})
conn.listen()
await conn.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} })
await conn.sendNotification("initialized", {})

const published = (uri, version) => new Promise((resolve) => waiting.set(`${uri}@${version}`, resolve))
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

/** Opens a document, then times `runs` single-character edits at `offset` (alternating two characters). */
const measure = async (uri, text, offset, chars, runs) => {
  const opened = published(uri, 1)
  await conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "plaintext", version: 1, text } })
  const first = await opened
  const times = []
  let diagnostics = first.diagnostics.length
  for (let i = 0; i < runs; i++) {
    await sleep(60) // idle: longer than the server's debounce
    const version = i + 2
    const pos = positionAt(text, offset)
    const done = published(uri, version)
    const t0 = process.hrtime.bigint()
    await conn.sendNotification("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: pos, end: { line: pos.line, character: pos.character + 1 } }, text: chars[i % 2] }]
    })
    const p = await done
    times.push(Number(process.hrtime.bigint() - t0) / 1e6)
    diagnostics = p.diagnostics.length
  }
  return { runs, median: quantile(times, 0.5), p95: quantile(times, 0.95), diagnostics, chars: text.length }
}

// 1. A 4,000-character expression: many host and path conditions.
let expr = ""
for (let i = 0; expr.length < 3950; i++) expr += `${i ? " or " : ""}(http.host eq "h${i}.example.com" and http.request.uri.path contains "/p${i}")`
expr = expr.slice(0, expr.lastIndexOf(" or ("))
const exprOffset = expr.indexOf("h1.example") + 1
const expression = await measure("file:///bench/big.rules", expr, exprOffset, ["2", "1"], quick ? 30 : 200)

// 2. A 10,000-entry bulk file, one entry per line.
const entries = Array.from({ length: 10_000 }, (_, i) => `  {"key": "user:${i}", "value": "value number ${i}", "expiration_ttl": 3600}`)
const bulk = `[\n${entries.join(",\n")}\n]\n`
const bulkOffset = bulk.indexOf('"value number 5000"') + 1
const kv = await measure("file:///bench/bulk.json", bulk, bulkOffset, ["V", "v"], quick ? 10 : 40)

await conn.sendRequest("shutdown")
await conn.sendNotification("exit")
await new Promise((r) => child.on("exit", r))
conn.dispose()

const results = { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? "", quick, expression, kv }
fs.writeFileSync(path.join(resultsDir, "lsp.json"), `${JSON.stringify(results, null, 2)}\n`)

const f = (ms) => `${ms.toFixed(2)} ms`
const rows = [
  ["4,000-char expression", `${expression.chars} chars`, f(expression.median), f(expression.p95), "< 5 ms", expression.median < 5 ? "met" : "MISSED"],
  ["10,000-entry bulk file", `${kv.chars} chars`, f(kv.median), f(kv.p95), "< 200 ms", kv.median < 200 ? "met" : "MISSED"]
]
const head = ["change -> published diagnostics", "document", "median", "p95", "target", ""]
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)))
const line = (r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ")
console.log(`\nedgectl lsp bench: node ${results.node}, ${results.cpus} cpu (${results.cpuModel})`)
console.log(line(head))
console.log(widths.map((w) => "-".repeat(w)).join("  "))
for (const r of rows) console.log(line(r))
