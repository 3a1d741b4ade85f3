// The objects bench (run by bench/run.mjs): `ctx.storage` (src/objects, bundled here with esbuild)
// beside raw better-sqlite3 doing the same work in the same process and run, interleaved, medians.
//
// Every figure of issue 7: 10,000 awaited put; 10,000 un-awaited put; put of 128-entry batches;
// 10,000 get cached and noCache; get of 128-key batches; list() of 10,000 keys; 1,000
// list({prefix, limit: 100}); 10,000 single-row SQL inserts, and the same in one transaction;
// 10,000 point SELECTs with one(); a 10,000-row toArray(); a restore over 10,000 changes. Also,
// so that no figure hides behind the cache: list() just after opening, and list() of structured
// (object) values.
//
// The workload is the peer's (peers.md section 5): keys `k000000`..`k009999`, values 100-character
// strings. Writes are measured up to sync() (on disk). The raw side uses the same file settings
// (WAL, synchronous=NORMAL), one transaction for a batch of writes, and stores each value as
// ctx.storage does (a string as TEXT, anything else V8-serialized), doing the same work in the best
// way raw better-sqlite3 can: prepared statements, multi-row INSERTs for batches, single-column
// reads (`pluck`) where rows of several columns would cost an array each.
//
// Targets: at or above the platform's local simulator on this kind of machine (peers.md section 5,
// miniflare 4 run A, copied below as `peer`); a restore of 10,000 changes under one second.
// Each side runs once untimed first (warm-up). No forced GC between runs: a full collection
// shrinks the young generation and slows the next run's allocations, which would measure the GC.
// Prints a table and writes bench/results/objects.json.
//
//   node bench/objects.bench.mjs [--quick] [--runs N] [--keep] [--only TEXT]
import Database from "better-sqlite3"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { deserialize, serialize } from "node:v8"
import { resultsDir, benchArgs, buildBench, median, log } from "./lib.mjs"

// --only <text>: just the cases whose name contains it (while working on one of them).
const { only, keep, runs } = benchArgs({ integers: { runs: { quick: 3, full: 7 } } })

const work = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-objects-bench-"))
process.on("exit", () => {
  if (!keep) fs.rmSync(work, { recursive: true, force: true })
})
process.on("SIGINT", () => process.exit(130))

const bundle = await buildBench("src/objects/index.ts", ".objects.bundle.mjs")
const { ObjectStorage, ObjectHost } = await import(bundle)

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
const keys = Array.from({ length: N }, (_, i) => `k${String(i).padStart(6, "0")}`)
const value = "x".repeat(100)
const objectValue = { text: "x".repeat(80), n: 1 }
// 100 prefixes of 100 keys each: `k0000`..`k0099`.
const prefixes = Array.from({ length: 100 }, (_, i) => `k00${String(i).padStart(2, "0")}`)
const prefixEnd = (p) => `${p.slice(0, -1)}${String.fromCharCode(p.charCodeAt(p.length - 1) + 1)}`
const batches = (v = value) => {
  const out = []
  for (let i = 0; i < N; i += 128) out.push(Object.fromEntries(keys.slice(i, i + 128).map((k) => [k, v])))
  return out
}
// As ctx.storage stores a value.
const stored = (v) => (typeof v === "string" ? v : serialize(v))
const loaded = (v) => (typeof v === "string" ? v : deserialize(v))

const UPSERT = "INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
const rawPut = (db, ks, v = value) => {
  const st = db.prepare(UPSERT)
  db.transaction(() => {
    for (const k of ks) st.run(k, stored(v))
  })()
}
const rawPutBatches = (db, bs) => {
  const st = db.prepare(
    `INSERT INTO kv (key, value) VALUES ${"(?, ?), ".repeat(127)}(?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`
  )
  const one = db.prepare(UPSERT)
  db.transaction(() => {
    for (const b of bs) {
      const pairs = []
      for (const k in b) pairs.push(k, stored(b[k]))
      if (pairs.length === 256) st.run(pairs)
      else for (let i = 0; i < pairs.length; i += 2) one.run(pairs[i], pairs[i + 1])
    }
  })()
}
// A Map of key -> value for a range, by two single-column reads (keys, then values).
const rawList = (keysSt, valuesSt, args) => {
  const ks = keysSt.all(args)
  const vs = valuesSt.all(args)
  const m = new Map()
  for (let i = 0; i < ks.length; i++) m.set(ks[i], loaded(vs[i]))
  return m
}
const filledStorage = async (v = value) => {
  const s = new ObjectStorage(fresh())
  for (const b of batches(v)) await s.put(b)
  await s.sync()
  return s
}
// Filled, closed and opened again: nothing is in the cache, every read goes to SQLite.
const reopenedStorage = async (v = value) => {
  const dir = fresh()
  const s = new ObjectStorage(dir)
  for (const b of batches(v)) await s.put(b)
  s.close()
  return new ObjectStorage(dir)
}
const filledRaw = (v = value) => {
  const db = rawDb()
  rawPut(db, keys, v)
  return db
}
// The same, closed and opened again: SQLite's page cache is empty, as ours is after reopening.
const reopenedRaw = (v = value) => {
  const db = filledRaw(v)
  const file = db.name
  db.close()
  const again = new Database(file)
  again.pragma("journal_mode = WAL")
  again.pragma("synchronous = NORMAL")
  return again
}
const rawListAll = (db) =>
  rawList(
    db.prepare("SELECT key FROM kv ORDER BY key").pluck(),
    db.prepare("SELECT value FROM kv ORDER BY key").pluck(),
    []
  )
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
/** 1,000 prefix lists of 100 keys each, through the storage and through raw SQLite. */
const prefixListsOurs = async (s) => {
  for (let i = 0; i < 1000; i++)
    if ((await s.list({ prefix: prefixes[i % 100], limit: 100 })).size !== 100) throw new Error("list size")
}
const prefixListsRaw = (db) => {
  const range = "FROM kv WHERE key >= ? AND key < ? ORDER BY key LIMIT ?"
  const ks = db.prepare(`SELECT key ${range}`).pluck()
  const vs = db.prepare(`SELECT value ${range}`).pluck()
  for (let i = 0; i < 1000; i++) {
    const p = prefixes[i % 100]
    if (rawList(ks, vs, [p, prefixEnd(p), 100]).size !== 100) throw new Error("list size")
  }
}

const cases = [
  {
    name: "put, 10,000 awaited",
    ops: N,
    peer: 212_524,
    ours: {
      setup: () => new ObjectStorage(fresh()),
      run: async (s) => {
        for (const k of keys) await s.put(k, value)
        await s.sync()
      }
    },
    raw: { setup: rawDb, run: (db) => rawPut(db, keys) }
  },
  {
    name: "put, 10,000 un-awaited",
    ops: N,
    peer: 153_825,
    ours: {
      setup: () => new ObjectStorage(fresh()),
      run: async (s) => {
        for (const k of keys) void s.put(k, value)
        await s.sync()
      }
    },
    raw: { setup: rawDb, run: (db) => rawPut(db, keys) }
  },
  {
    name: "put, 128-entry batches (entries)",
    ops: N,
    peer: 567_068,
    ours: {
      setup: () => ({ s: new ObjectStorage(fresh()), bs: batches() }),
      run: async (ctx) => {
        for (const b of ctx.bs) await ctx.s.put(b)
        await ctx.s.sync()
      }
    },
    raw: { setup: () => ({ db: rawDb(), bs: batches() }), run: (ctx) => rawPutBatches(ctx.db, ctx.bs) }
  },
  {
    name: "get, 10,000 cached",
    ops: N,
    peer: 167_422,
    ours: {
      setup: async () => {
        const s = await filledStorage()
        for (const k of keys) await s.get(k)
        return s
      },
      run: async (s) => {
        for (const k of keys) await s.get(k)
      }
    },
    raw: {
      setup: () => filledRaw(),
      run: (db) => {
        const st = db.prepare("SELECT value FROM kv WHERE key = ?").pluck()
        for (const k of keys) loaded(st.get(k))
      }
    }
  },
  {
    // Just opened, and noCache: every get reads SQLite.
    name: "get, 10,000 noCache",
    ops: N,
    peer: 167_422,
    ours: {
      setup: () => reopenedStorage(),
      run: async (s) => {
        for (const k of keys) await s.get(k, { noCache: true })
      }
    },
    raw: {
      setup: () => reopenedRaw(),
      run: (db) => {
        const st = db.prepare("SELECT value FROM kv WHERE key = ?").pluck()
        for (const k of keys) loaded(st.get(k))
      }
    }
  },
  {
    // Just opened, and noCache: every key is read from SQLite.
    name: "get, 128-key batches (keys)",
    ops: N,
    peer: 321_641,
    ours: {
      setup: () => reopenedStorage(),
      run: async (s) => {
        for (let i = 0; i < N; i += 128) await s.get(keys.slice(i, i + 128), { noCache: true })
      }
    },
    raw: {
      setup: () => reopenedRaw(),
      run: (db) => {
        const st = db.prepare(`SELECT key, value FROM kv WHERE key IN (${"?, ".repeat(127)}?) ORDER BY key`).raw()
        for (let i = 0; i < N; i += 128) {
          const batch = keys.slice(i, i + 128)
          const rows =
            batch.length === 128
              ? st.all(batch)
              : db
                  .prepare(`SELECT key, value FROM kv WHERE key IN (${batch.map(() => "?").join(", ")}) ORDER BY key`)
                  .raw()
                  .all(batch)
          const m = new Map()
          for (const [k, v] of rows) m.set(k, loaded(v))
        }
      }
    }
  },
  {
    name: "list() of 10,000 keys",
    ops: N,
    peer: 2_702_703,
    ours: {
      setup: () => filledStorage(),
      run: async (s) => {
        if ((await s.list()).size !== N) throw new Error("list size")
      }
    },
    raw: {
      setup: () => filledRaw(),
      run: (db) => {
        if (rawListAll(db).size !== N) throw new Error("list size")
      }
    }
  },
  {
    // The cache is empty: the object was just opened.
    name: "list() of 10,000 keys, just opened",
    ops: N,
    peer: 2_702_703,
    ours: {
      setup: () => reopenedStorage(),
      run: async (s) => {
        if ((await s.list()).size !== N) throw new Error("list size")
      }
    },
    raw: {
      setup: () => reopenedRaw(),
      run: (db) => {
        if (rawListAll(db).size !== N) throw new Error("list size")
      }
    }
  },
  {
    // Values that are not strings: V8-serialized BLOBs, read with the fast reader.
    name: "list() of 10,000 keys, object values",
    ops: N,
    ours: {
      setup: () => filledStorage(objectValue),
      run: async (s) => {
        if ((await s.list()).size !== N) throw new Error("list size")
      }
    },
    raw: {
      setup: () => filledRaw(objectValue),
      run: (db) => {
        if (rawListAll(db).size !== N) throw new Error("list size")
      }
    }
  },
  {
    name: "list({prefix, limit: 100}) x1,000 (lists)",
    ops: 1000,
    peer: 18_168,
    ours: {
      setup: () => filledStorage(),
      run: prefixListsOurs
    },
    raw: {
      setup: () => filledRaw(),
      run: prefixListsRaw
    }
  },
  {
    // list() does not fill the cache: all 1,000 read their values from SQLite.
    name: "list({prefix, limit: 100}) x1,000, just opened (lists)",
    ops: 1000,
    peer: 18_168,
    ours: {
      setup: () => reopenedStorage(),
      run: prefixListsOurs
    },
    raw: {
      setup: () => reopenedRaw(),
      run: prefixListsRaw
    }
  },
  {
    name: "SQL insert, 10,000 single-row exec",
    ops: N,
    peer: 473_570,
    ours: {
      setup: sqlStorage,
      run: async (s) => {
        for (let i = 0; i < N; i++) s.sql.exec("INSERT INTO t (name, n) VALUES (?, ?)", `name-${i}`, i)
        await s.sync()
      }
    },
    raw: {
      setup: sqlRaw,
      run: (db) => {
        const st = db.prepare("INSERT INTO t (name, n) VALUES (?, ?)")
        db.transaction(() => {
          for (let i = 0; i < N; i++) st.run(`name-${i}`, i)
        })()
      }
    }
  },
  {
    name: "SQL insert, 10,000 in transactionSync",
    ops: N,
    peer: 568_205,
    ours: {
      setup: sqlStorage,
      run: async (s) => {
        s.transactionSync(() => {
          for (let i = 0; i < N; i++) s.sql.exec("INSERT INTO t (name, n) VALUES (?, ?)", `name-${i}`, i)
        })
        await s.sync()
      }
    },
    raw: {
      setup: sqlRaw,
      run: (db) => {
        const st = db.prepare("INSERT INTO t (name, n) VALUES (?, ?)")
        db.transaction(() => {
          for (let i = 0; i < N; i++) st.run(`name-${i}`, i)
        })()
      }
    }
  },
  {
    name: "SQL point SELECT .one() x10,000",
    ops: N,
    peer: 231_906,
    ours: {
      setup: async () => {
        const s = sqlStorage()
        s.transactionSync(() => {
          for (let i = 0; i < N; i++) s.sql.exec("INSERT INTO t (name, n) VALUES (?, ?)", `name-${i}`, i)
        })
        await s.sync()
        return s
      },
      run: (s) => {
        for (let i = 1; i <= N; i++) s.sql.exec("SELECT * FROM t WHERE id = ?", i).one()
      }
    },
    raw: {
      setup: () => {
        const db = sqlRaw()
        const st = db.prepare("INSERT INTO t (name, n) VALUES (?, ?)")
        db.transaction(() => {
          for (let i = 0; i < N; i++) st.run(`name-${i}`, i)
        })()
        return db
      },
      run: (db) => {
        const st = db.prepare("SELECT * FROM t WHERE id = ?")
        for (let i = 1; i <= N; i++) st.get(i)
      }
    }
  },
  {
    name: "SQL 10,000-row toArray() (rows)",
    ops: N,
    peer: 2_776_101,
    ours: {
      setup: async () => {
        const s = sqlStorage()
        s.transactionSync(() => {
          for (let i = 0; i < N; i++) s.sql.exec("INSERT INTO t (name, n) VALUES (?, ?)", `name-${i}`, i)
        })
        await s.sync()
        return s
      },
      run: (s) => {
        if (s.sql.exec("SELECT * FROM t").toArray().length !== N) throw new Error("rows")
      }
    },
    raw: {
      setup: () => {
        const db = sqlRaw()
        const st = db.prepare("INSERT INTO t (name, n) VALUES (?, ?)")
        db.transaction(() => {
          for (let i = 0; i < N; i++) st.run(`name-${i}`, i)
        })()
        return db
      },
      // The best raw way for a known schema: rows as arrays, objects built by a literal.
      run: (db) => {
        const rows = db.prepare("SELECT * FROM t").raw().all()
        const objects = new Array(rows.length)
        for (let i = 0; i < rows.length; i++) objects[i] = { id: rows[i][0], name: rows[i][1], n: rows[i][2] }
        if (objects.length !== N) throw new Error("rows")
      }
    }
  },
  {
    // Ours: 10,000 puts in 100 commits after a bookmark, then restore to it (the restart included).
    // Raw: the same puts into a plain database, then a full copy back of a snapshot file taken at
    // the bookmark, and a reopen.
    name: "restore over 10,000 changes (changes)",
    ops: N,
    // The target: under one second.
    peer: N,
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
        const st = db.prepare(
          "INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        )
        for (let c = 0; c < 100; c++)
          db.transaction(() => {
            for (let i = 0; i < 100; i++) st.run(keys[c * 100 + i], stored(value))
          })()
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

// Events through the host (ObjectHost.event: the input gate, then the output gate) beside the same
// storage calls made directly: what delivering an event costs. One at a time, each event waits for
// its commit (the output gate); concurrent ones share commits.
const HOST_EVENTS = 2_000
class Tally {
  constructor(ctx) {
    this.ctx = ctx
  }
}
const bump = async (s) => {
  const n = (await s.get("n")) ?? 0
  await s.put("n", n + 1)
}
const hostCtx = async () => {
  const host = await ObjectHost.start({ module: { Tally }, persistTo: fresh(), control: false })
  const id = host.namespace("Tally").idFromName("a")
  await host.event("Tally", id, (inst) => bump(inst.storage))
  return { host, id, close: () => void host.close() }
}
cases.push(
  {
    name: `host events, ${HOST_EVENTS.toLocaleString("en-US")} one at a time (get + put each)`,
    ops: HOST_EVENTS,
    ours: {
      setup: hostCtx,
      run: async (ctx) => {
        for (let i = 0; i < HOST_EVENTS; i++) await ctx.host.event("Tally", ctx.id, (inst) => bump(inst.storage))
      }
    },
    raw: {
      setup: () => new ObjectStorage(fresh()),
      run: async (s) => {
        for (let i = 0; i < HOST_EVENTS; i++) {
          await bump(s)
          await s.sync()
        }
      }
    }
  },
  {
    name: `host events, ${HOST_EVENTS.toLocaleString("en-US")} concurrent (get + put each)`,
    ops: HOST_EVENTS,
    ours: {
      setup: hostCtx,
      run: (ctx) =>
        Promise.all(
          Array.from({ length: HOST_EVENTS }, () => ctx.host.event("Tally", ctx.id, (inst) => bump(inst.storage)))
        )
    },
    raw: {
      setup: () => new ObjectStorage(fresh()),
      run: async (s) => {
        for (let i = 0; i < HOST_EVENTS; i++) await bump(s)
        await s.sync()
      }
    }
  }
)

const closeAll = (x) => {
  if (x === undefined || x === null) return
  if (typeof x.close === "function") {
    try {
      x.close()
    } catch {
      /* already closed */
    }
  }
  if (x.s) closeAll(x.s)
  if (x.db) closeAll(x.db)
}

const rows = []
for (const c of cases) {
  if (only !== undefined && !c.name.includes(only)) continue
  const ours = []
  const raw = []
  // Run -1 warms both sides up (the JIT, SQLite's code paths) and is not counted.
  for (let r = -1; r < runs; r++) {
    for (const side of r % 2 === 0 ? ["ours", "raw"] : ["raw", "ours"]) {
      const ctx = await c[side].setup()
      const ms = await time(() => c[side].run(ctx))
      closeAll(ctx)
      if (r >= 0) (side === "ours" ? ours : raw).push(ms)
    }
  }
  const row = { name: c.name, ops: c.ops, oursMs: median(ours), rawMs: median(raw) }
  row.oursOps = Math.round((c.ops / row.oursMs) * 1000)
  row.rawOps = Math.round((c.ops / row.rawMs) * 1000)
  row.ratio = Math.round((row.rawMs / row.oursMs) * 100) / 100
  if (c.peer !== undefined) {
    row.peerOps = c.peer
    row.met = row.oursOps >= c.peer
  }
  rows.push(row)
  log(`  ${c.name}: ${row.oursMs.toFixed(2)} ms (raw ${row.rawMs.toFixed(2)} ms)`)
}

const fmt = (n) => n.toLocaleString("en-US")
console.log(
  `\nobjects: ctx.storage beside raw better-sqlite3, medians of ${runs} interleaved runs; peer: miniflare 4 run A (peers.md 5)\n`
)
console.log("| operation | ours ms | ours ops/s | raw ms | raw ops/s | ours/raw speed | peer ops/s | target |")
console.log("|---|---|---|---|---|---|---|---|")
for (const r of rows) {
  const peer = r.peerOps === undefined ? "–" : r.name.startsWith("restore") ? "(< 1 s)" : fmt(r.peerOps)
  const met = r.met === undefined ? "–" : r.met ? "met" : "MISSED"
  console.log(
    `| ${r.name} | ${r.oursMs.toFixed(2)} | ${fmt(r.oursOps)} | ${r.rawMs.toFixed(2)} | ${fmt(r.rawOps)} | ${r.ratio} | ${peer} | ${met} |`
  )
}
fs.writeFileSync(
  path.join(resultsDir, "objects.json"),
  `${JSON.stringify({ date: new Date().toISOString(), runs, node: process.version, cpus: os.cpus().length, rows }, null, 2)}\n`
)
fs.rmSync(bundle, { force: true })
console.log(`\nwritten: ${path.relative(process.cwd(), path.join(resultsDir, "objects.json"))}`)
