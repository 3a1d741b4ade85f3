// The language server bench (run by bench/run.mjs, after `node build.mjs`): the time from a
// textDocument/didChange to the textDocument/publishDiagnostics of that version, measured on the
// real server (`edgectl lsp`, the shipped bundle) over stdio, as an editor sees it.
//
//   1. a 4,000-character expression in a *.rules file (one incremental edit), target < 5 ms;
//      completion and hover requests in it (the answer's round trip), target < 5 ms;
//   2. a 10,000-entry KV bulk file (one incremental edit of one value), target < 50 ms;
//   3. a 50,000-entry KV bulk file edited structurally (an entry inserted, then removed: not an
//      edit inside one entry), the time to diagnostics and the server's resident memory after.
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
import { root, resultsDir, benchArgs } from "./lib.mjs"

const { quick } = benchArgs()
fs.mkdirSync(resultsDir, { recursive: true })

const child = spawn(process.execPath, [path.join(root, "bin", "edgectl.cjs"), "lsp", "--stdio"], {
  stdio: ["pipe", "pipe", "inherit"]
})
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
  await conn.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "plaintext", version: 1, text }
  })
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
      contentChanges: [
        { range: { start: pos, end: { line: pos.line, character: pos.character + 1 } }, text: chars[i % 2] }
      ]
    })
    const p = await done
    times.push(Number(process.hrtime.bigint() - t0) / 1e6)
    diagnostics = p.diagnostics.length
  }
  return { runs, median: quantile(times, 0.5), p95: quantile(times, 0.95), diagnostics, chars: text.length }
}

// 1. A 4,000-character expression: many host and path conditions.
let expr = ""
for (let i = 0; expr.length < 3950; i++)
  expr += `${i ? " or " : ""}(http.host eq "h${i}.example.com" and http.request.uri.path contains "/p${i}")`
expr = expr.slice(0, expr.lastIndexOf(" or ("))
const exprOffset = expr.indexOf("h1.example") + 1
const expression = await measure("file:///bench/big.rules", expr, exprOffset, ["2", "1"], quick ? 30 : 200)

/** Times `runs` requests of `method` at `offset` in an open document (the round trip an editor waits on). */
const requestTimes = async (method, uri, text, offset, runs) => {
  const times = []
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint()
    const r = await conn.sendRequest(method, { textDocument: { uri }, position: positionAt(text, offset) })
    times.push(Number(process.hrtime.bigint() - t0) / 1e6)
    if (r === null) throw new Error(`${method} answered null at ${offset}`)
  }
  return { runs, median: quantile(times, 0.5), p95: quantile(times, 0.95) }
}
// The document is at the version the last edit left (its first character is as it was).
const midExpr = expr.indexOf(" and ", expr.length >> 1) + 1
const completion = await requestTimes(
  "textDocument/completion",
  "file:///bench/big.rules",
  expr,
  midExpr + 5,
  quick ? 30 : 200
)
const hover = await requestTimes("textDocument/hover", "file:///bench/big.rules", expr, midExpr + 1, quick ? 30 : 200)

/** The server's resident memory (Linux /proc), in MiB. */
const rssMiB = () => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"))
    return m ? Number(m[1]) / 1024 : undefined
  } catch {
    return undefined
  }
}

// 2. A 10,000-entry bulk file, one entry per line.
const entries = Array.from(
  { length: 10_000 },
  (_, i) => `  {"key": "user:${i}", "value": "value number ${i}", "expiration_ttl": 3600}`
)
const bulk = `[\n${entries.join(",\n")}\n]\n`
const bulkOffset = bulk.indexOf('"value number 5000"') + 1
const kv = await measure("file:///bench/bulk.json", bulk, bulkOffset, ["V", "v"], quick ? 10 : 40)

// 3. A 50,000-entry bulk file: an entry inserted after the first line, then removed (two structural edits, each re-checked whole).
const big = `[\n${Array.from({ length: 50_000 }, (_, i) => `  {"key": "user:${i}", "value": "value number ${i}", "expiration_ttl": 3600}`).join(",\n")}\n]\n`
const bigUri = "file:///bench/bulk50k.json"
const bigOpened = published(bigUri, 1)
await conn.sendNotification("textDocument/didOpen", {
  textDocument: { uri: bigUri, languageId: "json", version: 1, text: big }
})
await bigOpened
const structural = []
for (let i = 0; i < (quick ? 2 : 6); i++) {
  await sleep(60)
  const version = i + 2
  const insert = i % 2 === 0
  const change = insert
    ? {
        range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } },
        text: '  {"key": "new", "value": "x"},\n'
      }
    : { range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } }, text: "" }
  const done = published(bigUri, version)
  const t0 = process.hrtime.bigint()
  await conn.sendNotification("textDocument/didChange", {
    textDocument: { uri: bigUri, version },
    contentChanges: [change]
  })
  await done
  structural.push(Number(process.hrtime.bigint() - t0) / 1e6)
}
// An editor asks for the outline and the folds on open and after edits.
const outlineTimes = []
for (let i = 0; i < (quick ? 2 : 5); i++) {
  const t0 = process.hrtime.bigint()
  await conn.sendRequest("textDocument/documentSymbol", { textDocument: { uri: bigUri } })
  await conn.sendRequest("textDocument/foldingRange", { textDocument: { uri: bigUri } })
  outlineTimes.push(Number(process.hrtime.bigint() - t0) / 1e6)
}
await sleep(200)
const bulk50k = {
  runs: structural.length,
  median: quantile(structural, 0.5),
  p95: quantile(structural, 0.95),
  chars: big.length,
  outline: { median: quantile(outlineTimes, 0.5), p95: quantile(outlineTimes, 0.95) },
  rssMiB: rssMiB()
}

await conn.sendRequest("shutdown")
await conn.sendNotification("exit")
await new Promise((r) => child.on("exit", r))
conn.dispose()

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? "",
  quick,
  expression,
  completion,
  hover,
  kv,
  bulk50k
}
fs.writeFileSync(path.join(resultsDir, "lsp.json"), `${JSON.stringify(results, null, 2)}\n`)

const f = (ms) => `${ms.toFixed(2)} ms`
const rows = [
  [
    "4,000-char expression",
    `${expression.chars} chars`,
    f(expression.median),
    f(expression.p95),
    "< 5 ms",
    expression.median < 5 ? "met" : "MISSED"
  ],
  [
    "  completion request in it",
    "",
    f(completion.median),
    f(completion.p95),
    "< 5 ms",
    completion.median < 5 ? "met" : "MISSED"
  ],
  ["  hover request in it", "", f(hover.median), f(hover.p95), "< 5 ms", hover.median < 5 ? "met" : "MISSED"],
  [
    "10,000-entry bulk file",
    `${kv.chars} chars`,
    f(kv.median),
    f(kv.p95),
    "< 50 ms",
    kv.median < 50 ? "met" : "MISSED"
  ],
  ["50,000-entry file, structural edit", `${bulk50k.chars} chars`, f(bulk50k.median), f(bulk50k.p95), "", ""],
  ["  symbols + folding requests", "", f(bulk50k.outline.median), f(bulk50k.outline.p95), "", ""],
  [
    "  server memory (RSS) after",
    "",
    bulk50k.rssMiB === undefined ? "n/a" : `${bulk50k.rssMiB.toFixed(0)} MiB`,
    "",
    "",
    ""
  ]
]
const head = ["change -> published diagnostics", "document", "median", "p95", "target", ""]
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)))
const line = (r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ")
console.log(`\nedgectl lsp bench: node ${results.node}, ${results.cpus} cpu (${results.cpuModel})`)
console.log(line(head))
console.log(widths.map((w) => "-".repeat(w)).join("  "))
for (const r of rows) console.log(line(r))
