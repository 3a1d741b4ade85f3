// The KV write path inside one process, beside a raw better-sqlite3 insert of the same rows.
// bench/kv.bench.mjs bundles this file with esbuild and runs it with plain node.
//
//   node <bundle> <work dir> <bulk file> [rounds]      prints one JSON line
//
// Per round, each into a fresh store (created outside the timed part):
//   raw      rows already made (key and value bytes), one INSERT per row, one transaction;
//   engine   the platform's path for a bulk body: JSON.parse of the bytes, validate every entry
//            (src/kv/validate.ts), insert (src/store/kv-repo.ts), one transaction;
//   service  what `edgectl kv bulk put FILE` does after start-up: the streaming check of the whole
//            file, then the request through the in-process v4 client into the same engine path.
// And the cost of `secure_delete` (on in the platform's store, so that a cleared value or secret is
// overwritten): the engine's writes of checked entries (new keys, the same keys overwritten, all
// deleted), each in one transaction, with the pragma on and off, interleaved.
import type Database from "better-sqlite3"
import { Effect, ManagedRuntime } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { clientLayer } from "../src/cli/environment.js"
import * as Engine from "../src/store/kv-repo.js"
import { checkEntry, type WriteEntry } from "../src/kv/entry-checks.js"
import { nowSeconds } from "../src/kv/validate.js"
import { open } from "../src/store/db.js"
import * as Kv from "../src/services/kv-service.js"
import { bulkPutFile } from "../src/services/kv-bulk-service.js"

const [dir, file, roundsArg] = process.argv.slice(2)
if (!dir || !file) throw new Error("usage: kv-inprocess <work dir> <bulk file> [rounds]")
const rounds = Number(roundsArg ?? 5)
const account = "00000000000000000000000000000001"

let n = 0
/** A fresh store with the platform's schema and one namespace in it. */
const freshStore = async (): Promise<{ db: Database.Database; ns: number }> => {
  const db = await Effect.runPromise(open(path.join(dir, `store-${n++}`, "platform.sqlite")))
  db.prepare(
    "INSERT INTO accounts (id, name, type, plan, created_on) VALUES (?, 'bench', 'standard', 'free', '2024-01-01')"
  ).run(account)
  const ns = Engine.createNamespace(db, account, "bench")
  return { db, ns: ns.seq }
}

const bytes = fs.readFileSync(file)
const items = JSON.parse(bytes.toString("utf8")) as Array<{ key: string; value: string }>
const count = items.length
const rows = items.map((e) => [Buffer.from(e.key, "utf8"), Buffer.from(e.value, "utf8")] as const)

const time = (f: () => void) => {
  const t0 = performance.now()
  f()
  return performance.now() - t0
}

const median = (xs: Array<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

const raw: Array<number> = []
const engine: Array<number> = []
const service: Array<number> = []

for (let r = 0; r < rounds; r++) {
  {
    const { db, ns } = await freshStore()
    const insert = db.prepare("INSERT INTO kv_entries (ns, key, value, metadata, expiration) VALUES (?, ?, ?, ?, ?)")
    raw.push(
      time(() =>
        db.transaction(() => {
          for (const [k, v] of rows) insert.run(ns, k, v, null, null)
        })()
      )
    )
    db.close()
  }
  {
    const { db, ns } = await freshStore()
    engine.push(
      time(() => {
        const parsed = JSON.parse(bytes.toString("utf8")) as ReadonlyArray<unknown>
        const now = nowSeconds()
        const entries: Array<WriteEntry> = []
        for (let i = 0; i < parsed.length; i++) {
          const c = checkEntry(parsed[i], i, now)
          if (c.entry === undefined) throw new Error(`entry ${i} is invalid`)
          entries.push(c.entry)
        }
        Engine.putEntries(db, ns, entries, now)
      })
    )
    const stored = (db.prepare("SELECT count(*) AS n FROM kv_entries WHERE ns = ?").get(ns) as { n: number }).n
    if (stored !== count) throw new Error(`engine stored ${stored} of ${count}`)
    db.close()
  }
  {
    const state = path.join(dir, `service-${r}`)
    const runtime = ManagedRuntime.make(clientLayer({ remote: false, persistTo: state }))
    // Start-up (store creation, demo seed, the platform's app) is not the write path.
    await runtime.runPromise(Kv.listKeysPage(Kv.LocalAccountId, "warm-up"))
    const t0 = performance.now()
    const outcome = await runtime.runPromise(bulkPutFile(Kv.LocalAccountId, `bench-${r}`, file))
    service.push(performance.now() - t0)
    if (outcome.count !== count || outcome.requests !== 1)
      throw new Error(`service wrote ${outcome.count} in ${outcome.requests} requests`)
    await runtime.dispose()
  }
}

const checked: Array<WriteEntry> = (() => {
  const now = nowSeconds()
  return items.map((e, i) => {
    const c = checkEntry(e, i, now)
    if (c.entry === undefined) throw new Error(`entry ${i} is invalid`)
    return c.entry
  })
})()
const keys = items.map((e) => e.key)
type Writes = { insert: Array<number>; overwrite: Array<number>; delete: Array<number> }
const secureDelete: Record<"on" | "off", Writes> = {
  on: { insert: [], overwrite: [], delete: [] },
  off: { insert: [], overwrite: [], delete: [] }
}
for (let r = 0; r < rounds; r++) {
  for (const setting of r % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const)) {
    const { db, ns } = await freshStore()
    db.pragma(`secure_delete = ${setting.toUpperCase()}`)
    const w = secureDelete[setting]
    const now = nowSeconds()
    w.insert.push(time(() => Engine.putEntries(db, ns, checked, now)))
    w.overwrite.push(time(() => Engine.putEntries(db, ns, checked, now)))
    w.delete.push(time(() => Engine.deleteKeys(db, ns, keys, now)))
    db.close()
  }
}
const medians = (w: Writes) => ({
  insertMs: median(w.insert),
  overwriteMs: median(w.overwrite),
  deleteMs: median(w.delete)
})

const rate = (ms: number) => Math.round((count / ms) * 1000)
const out = {
  entries: count,
  bytes: bytes.length,
  rounds,
  rawMs: median(raw),
  engineMs: median(engine),
  serviceMs: median(service),
  rawPerSecond: rate(median(raw)),
  enginePerSecond: rate(median(engine)),
  servicePerSecond: rate(median(service)),
  secureDelete: { on: medians(secureDelete.on), off: medians(secureDelete.off) },
  samples: { raw, engine, service, secureDelete }
}
process.stdout.write(`${JSON.stringify(out)}\n`)
