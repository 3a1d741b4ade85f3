// The objects bench (run by bench/run.mjs): `ctx.storage` (src/objects, bundled here with esbuild)
// beside raw better-sqlite3 doing the same work in the same process and run, interleaved, medians.
//
// Every figure of issue 7: 10,000 awaited put; 10,000 un-awaited put; put of 128-entry batches;
// 10,000 get cached and noCache; get of 128-key batches; list() of 10,000 keys; 1,000
// list({prefix, limit: 100}); 10,000 single-row SQL inserts, and the same in one transaction;
// 10,000 point SELECTs with one(); a 10,000-row toArray(); a restore over 10,000 changes.
// Writes are measured up to sync() (on disk). The raw side uses the same file settings (WAL,
// synchronous=NORMAL), one transaction for a batch of writes, and v8 serialization of the values.
//
// Targets (peers.md section 5, the platform's local simulator on this kind of machine): about
// 200,000 awaited puts/s, 500,000 batched puts/s, 200,000 gets/s, 10,000 keys listed in 5 ms,
// 470,000 SQL inserts/s, 230,000 point SELECTs/s, 10,000 rows in 4 ms; a restore of 10,000
// changes under one second. Prints a table and writes bench/results/objects.json.
//
//   node bench/objects.bench.mjs [--quick] [--runs N] [--keep]
import Database from "better-sqlite3"
import { build } from "esbuild"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { deserialize, serialize } from "node:v8"

const root = path.resolve(import.meta.dirname, "..")
const resultsDir = path.join(root, "bench", "results")
const argv = process.argv.slice(2)
const opt = (name) => {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`))
  if (i < 0) return undefined
  return argv[i].includes("=") ? argv[i].slice(argv[i].indexOf("=") + 1) : argv[i + 1]
}
const quick = argv.includes("--quick")
const keep = argv.includes("--keep")
const runs = Number(opt("runs") ?? (quick ? 3 : 7))
if (!Number.isInteger(runs) || runs < 1 || runs > 100) {
  process.stderr.write("error: --runs must be an integer between 1 and 100\n")
  process.exit(2)
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-objects-bench-"))
process.on("exit", () => {
  if (!keep) fs.rmSync(work, { recursive: true, force: true })
})
process.on("SIGINT", () => process.exit(130))

fs.mkdirSync(resultsDir, { recursive: true })
const bundle = path.join(resultsDir, ".objects.bundle.mjs")
await build({
  entryPoints: [path.join(root, "src", "objects", "index.ts")],
  outfile: bundle,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["better-sqlite3"],
  logLevel: "error"
})
const { ObjectStorage } = await import(bundle)

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const log = (s) => process.stderr.write(`${s}\n`)
const turn = () => new Promise((r) => setImmediate(r))
let serial = 0
const fresh = () => path.join(work, `o${serial++}`)
const rawDb = () => {
  const dir = fresh()
  fs.mkdirSync(dir)
  const db = new Database(path.join(dir, "raw.sqlite"))
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = NORMAL")
  db.exec("CREATE TABLE kv (key TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID")
  return db
}
const time = async (f) => {
  const t0 = process.hrtime.bigint()
  await f()
  return Number(process.hrtime.bigint() - t0) / 1e6
}

const N = 10_000
const keys = Array.from({ length: N }, (_, i) => `key-${String(i).padStart(6, "0")}`)
const value = { text: "x".repeat(80), n: 1 }
const prefixed = Array.from({ length: N }, (_, i) => `p${String(i % 100).padStart(3, "0")}/${String(i).padStart(6, "0")}`)

const rawPut = (db, ks) => {
  const st = db.prepare("INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
  db.transaction(() => {
    for (const k of ks) st.run(k, serialize(value))
  })()
}
const filledStorage = async (ks = keys) => {
  const s = new ObjectStorage(fresh())
  for (let i = 0; i < ks.length; i += 128) {
    await s.put(Object.fromEntries(ks.slice(i, i + 128).map((k) => [k, value])))
  }
  await s.sync()
  return s
}
const filledRaw = (ks = keys) => {
  const db = rawDb()
  rawPut(db, ks)
  return db
}
const sqlStorage = () => {
  const s = new ObjectStorage(fresh())
  s.sql.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER)")
  return s
}
const sqlRaw = () => {
  const db = rawDb()
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER)")
  return db
}

// Each case: setup (untimed) -> ours(ctx) and raw(ctx) (timed) -> teardown. `ops` per run.
const cases = [
  {
    name: "put, 10,000 awaited",
    ops: N,
    ours: { setup: () => new ObjectStorage(fresh()), run: async (s) => { for (const k of keys) await s.put(k, value); await s.sync() } },
    raw: { setup: rawDb, run: (db) => rawPut(db, keys) }
  },
  {
    name: "put, 10,000 un-awaited",
    ops: N,
    ours: { setup: () => new ObjectStorage(fresh()), run: async (s) => { for (const k of keys) void s.put(k, value); await s.sync() } },
    raw: { setup: rawDb, run: (db) => rawPut(db, keys) }
  },
  {
    name: "put, 128-entry batches (entries)",
    ops: N,
    ours: {
      setup: () => new ObjectStorage(fresh()),
      run: async (s) => {
        for (let i = 0; i < N; i += 128) await s.put(Object.fromEntries(keys.slice(i, i + 128).map((k) => [k, value])))
        await s.sync()
      }
    },
    raw: { setup: rawDb, run: (db) => rawPut(db, keys) }
  },
  {
    name: "get, 10,000 cached",
    ops: N,
    ours: { setup: async () => { const s = await filledStorage(); for (const k of keys) await s.get(k); return s }, run: async (s) => { for (const k of keys) await s.get(k) } },
    raw: { setup: () => filledRaw(), run: (db) => { const st = db.prepare("SELECT value FROM kv WHERE key = ?").pluck(); for (const k of keys) deserialize(st.get(k)) } }
  },
  {
    name: "get, 10,000 noCache",
    ops: N,
    ours: { setup: () => filledStorage(), run: async (s) => { for (const k of keys) await s.get(k, { noCache: true }) } },
    raw: { setup: () => filledRaw(), run: (db) => { const st = db.prepare("SELECT value FROM kv WHERE key = ?").pluck(); for (const k of keys) deserialize(st.get(k)) } }
  },
  {
    name: "get, 128-key batches (keys)",
    ops: N,
    ours: { setup: () => filledStorage(), run: async (s) => { for (let i = 0; i < N; i += 128) await s.get(keys.slice(i, i + 128), { noCache: true }) } },
    raw: {
      setup: () => filledRaw(),
      run: (db) => {
        const st = db.prepare("SELECT value FROM kv WHERE key = ?").pluck()
        for (let i = 0; i < N; i += 128) {
          const m = new Map()
          for (const k of keys.slice(i, i + 128)) m.set(k, deserialize(st.get(k)))
        }
      }
    }
  },
  {
    name: "list() of 10,000 keys",
    ops: N,
    ours: { setup: () => filledStorage(), run: async (s) => { if ((await s.list()).size !== N) throw new Error("list size") } },
    raw: { setup: () => filledRaw(), run: (db) => { const m = new Map(); for (const [k, v] of db.prepare("SELECT key, value FROM kv ORDER BY key").raw().all()) m.set(k, deserialize(v)) } }
  },
  {
    name: "list({prefix, limit: 100}) x1,000 (lists)",
    ops: 1000,
    ours: {
      setup: () => filledStorage(prefixed),
      run: async (s) => { for (let i = 0; i < 1000; i++) await s.list({ prefix: `p${String(i % 100).padStart(3, "0")}/`, limit: 100 }) }
    },
    raw: {
      setup: () => filledRaw(prefixed),
      run: (db) => {
        const st = db.prepare("SELECT key, value FROM kv WHERE key >= ? AND key < ? ORDER BY key LIMIT 100").raw()
        for (let i = 0; i < 1000; i++) {
          const p = `p${String(i % 100).padStart(3, "0")}/`
          const m = new Map()
          for (const [k, v] of st.all(p, `${p.slice(0, -1)}0`)) m.set(k, deserialize(v))
        }
      }
    }
  },
  {
    name: "SQL insert, 10,000 single-row exec",
    ops: N,
    ours: { setup: sqlStorage, run: async (s) => { for (let i = 0; i < N; i++) s.sql.exec("INSERT INTO t (name, n) VALUES (?, ?)", `name-${i}`, i); await s.sync() } },
    raw: { setup: sqlRaw, run: (db) => { const st = db.prepare("INSERT INTO t (name, n) VALUES (?, ?)"); db.transaction(() => { for (let i = 0; i < N; i++) st.run(`name-${i}`, i) })() } }
  },
  {
    name: "SQL insert, 10,000 in transactionSync",
    ops: N,
    ours: {
      setup: sqlStorage,
      run: async (s) => { s.transactionSync(() => { for (let i = 0; i < N; i++) s.sql.exec("INSERT INTO t (name, n) VALUES (?, ?)", `name-${i}`, i) }); await s.sync() }
    },
    raw: { setup: sqlRaw, run: (db) => { const st = db.prepare("INSERT INTO t (name, n) VALUES (?, ?)"); db.transaction(() => { for (let i = 0; i < N; i++) st.run(`name-${i}`, i) })() } }
  },
  {
    name: "SQL point SELECT .one() x10,000",
    ops: N,
    ours: {
      setup: async () => { const s = sqlStorage(); s.transactionSync(() => { for (let i = 0; i < N; i++) s.sql.exec("INSERT INTO t (name, n) VALUES (?, ?)", `name-${i}`, i) }); await s.sync(); return s },
      run: (s) => { for (let i = 1; i <= N; i++) s.sql.exec("SELECT * FROM t WHERE id = ?", i).one() }
    },
    raw: {
      setup: () => { const db = sqlRaw(); const st = db.prepare("INSERT INTO t (name, n) VALUES (?, ?)"); db.transaction(() => { for (let i = 0; i < N; i++) st.run(`name-${i}`, i) })(); return db },
      run: (db) => { const st = db.prepare("SELECT * FROM t WHERE id = ?"); for (let i = 1; i <= N; i++) st.get(i) }
    }
  },
  {
    name: "SQL 10,000-row toArray() (rows)",
    ops: N,
    ours: {
      setup: async () => { const s = sqlStorage(); s.transactionSync(() => { for (let i = 0; i < N; i++) s.sql.exec("INSERT INTO t (name, n) VALUES (?, ?)", `name-${i}`, i) }); await s.sync(); return s },
      run: (s) => { if (s.sql.exec("SELECT * FROM t").toArray().length !== N) throw new Error("rows") }
    },
    raw: {
      setup: () => { const db = sqlRaw(); const st = db.prepare("INSERT INTO t (name, n) VALUES (?, ?)"); db.transaction(() => { for (let i = 0; i < N; i++) st.run(`name-${i}`, i) })(); return db },
      run: (db) => { if (db.prepare("SELECT * FROM t").all().length !== N) throw new Error("rows") }
    }
  },
  {
    // Ours: 10,000 puts in 100 commits after a bookmark, then restore to it (the restart included).
    // Raw: the same puts into a plain database, then a full copy back of a snapshot file taken at
    // the bookmark, and a reopen.
    name: "restore over 10,000 changes (changes)",
    ops: N,
    ours: {
      setup: async () => {
        const dir = fresh()
        const s = new ObjectStorage(dir)
        await s.put("seed", 1)
        const b = await s.getCurrentBookmark()
        for (let c = 0; c < 100; c++) {
          for (let i = 0; i < 100; i++) void s.put(keys[c * 100 + i], value)
          await turn()
        }
        await s.sync()
        return { s, b, dir }
      },
      run: async (ctx) => {
        await ctx.s.onNextSessionRestoreBookmark(ctx.b)
        ctx.s.close()
        ctx.s = new ObjectStorage(ctx.dir)
        if ((await ctx.s.list()).size !== 1) throw new Error("restore")
      }
    },
    raw: {
      setup: () => {
        const db = rawDb()
        rawPut(db, ["seed"])
        db.pragma("wal_checkpoint(TRUNCATE)")
        const file = db.name
        fs.copyFileSync(file, `${file}.snapshot`)
        const st = db.prepare("INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        for (let c = 0; c < 100; c++) db.transaction(() => { for (let i = 0; i < 100; i++) st.run(keys[c * 100 + i], serialize(value)) })()
        return { db, file }
      },
      run: (ctx) => {
        ctx.db.close()
        for (const extra of ["-wal", "-shm"]) fs.rmSync(ctx.file + extra, { force: true })
        fs.copyFileSync(`${ctx.file}.snapshot`, ctx.file)
        ctx.db = new Database(ctx.file)
        ctx.db.pragma("journal_mode = WAL")
        if (ctx.db.prepare("SELECT count(*) FROM kv").pluck().get() !== 1) throw new Error("restore")
      }
    }
  }
]

const closeAll = (x) => {
  if (x === undefined || x === null) return
  if (typeof x.close === "function") {
    try { x.close() } catch { /* already closed */ }
  }
  if (x.s) closeAll(x.s)
  if (x.db) closeAll(x.db)
}

const rows = []
for (const c of cases) {
  const ours = []
  const raw = []
  for (let r = 0; r < runs; r++) {
    for (const side of r % 2 === 0 ? ["ours", "raw"] : ["raw", "ours"]) {
      const ctx = await c[side].setup()
      const ms = await time(() => c[side].run(ctx))
      closeAll(ctx)
      ;(side === "ours" ? ours : raw).push(ms)
    }
  }
  const row = { name: c.name, ops: c.ops, oursMs: median(ours), rawMs: median(raw) }
  row.oursOps = Math.round((c.ops / row.oursMs) * 1000)
  row.rawOps = Math.round((c.ops / row.rawMs) * 1000)
  row.ratio = Math.round((row.rawMs / row.oursMs) * 100) / 100
  rows.push(row)
  log(`  ${c.name}: ${row.oursMs.toFixed(2)} ms (raw ${row.rawMs.toFixed(2)} ms)`)
}

const fmt = (n) => n.toLocaleString("en-US")
console.log(`\nobjects: ctx.storage beside raw better-sqlite3, medians of ${runs} interleaved runs\n`)
console.log("| operation | ours ms | ours ops/s | raw ms | raw ops/s | ours/raw speed |")
console.log("|---|---|---|---|---|---|")
for (const r of rows) {
  console.log(`| ${r.name} | ${r.oursMs.toFixed(2)} | ${fmt(r.oursOps)} | ${r.rawMs.toFixed(2)} | ${fmt(r.rawOps)} | ${r.ratio} |`)
}
fs.writeFileSync(
  path.join(resultsDir, "objects.json"),
  `${JSON.stringify({ date: new Date().toISOString(), runs, node: process.version, cpus: os.cpus().length, rows }, null, 2)}\n`
)
fs.rmSync(bundle, { force: true })
console.log(`\nwritten: ${path.relative(process.cwd(), path.join(resultsDir, "objects.json"))}`)
