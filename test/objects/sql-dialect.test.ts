// The platform's SQL dialect and guards on ctx.storage.sql, and what ctx.storage exposes, through
// `edgectl objects dev` with a module written as the platform's documentation writes one
// (test/fixtures/objects/sql-dialect: a DurableObject class with RPC methods, a worker calling it).
// The rules are the platform runtime's (its SQLite authorizer and limits); src/objects/sql-authorizer.ts.
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync } from "../helpers/cli.js"
import { type Dev, startDev, workspace } from "../helpers/objects-live.js"

const project = path.resolve(import.meta.dirname, "../fixtures/objects/sql-dialect")
let dev: Dev

beforeAll(async () => {
  dev = await startDev(project, workspace().state, null)
})
afterAll(async () => {
  await dev.stop()
})

const get = async <A = unknown>(p: string): Promise<A> => {
  const r = await fetch(`${dev.url}${p}`)
  const text = await r.text()
  if (r.status !== 200) throw new Error(`${p}: ${r.status} ${text}`)
  return JSON.parse(text) as A
}
type Outcome = { ok: Array<Record<string, unknown>> } | { error: string }
const run = async (name: string, ...queries: Array<string | [string, ...Array<unknown>]>): Promise<Array<Outcome>> => {
  const r = await fetch(`${dev.url}/run?name=${name}`, { method: "POST", body: JSON.stringify(queries) })
  return (await r.json()) as Array<Outcome>
}
const runOne = async (name: string, query: string): Promise<Outcome> => (await run(name, query))[0]!
const NOT_AUTHORIZED = { error: "not authorized: SQLITE_AUTH" }

describe("ctx.storage.sql: the platform's SQL dialect", () => {
  it("double-quoted string literals are strings where no column has the name, as the platform's SQLite build takes them", async () => {
    expect(
      await run("dqs", 'SELECT "foo" AS v', 'CREATE TABLE t (a, b DEFAULT "dflt")', "INSERT INTO t (a) VALUES (1)")
    ).toEqual([{ ok: [{ v: "foo" }] }, { ok: [] }, { ok: [] }])
    // A double-quoted name of a column is still the column (a string keeps its quotes as its name).
    expect(await runOne("dqs", 'SELECT "a", "b", "c" FROM t')).toEqual({ ok: [{ a: 1, b: "dflt", '"c"': "c" }] })
  })

  it("pragmas: the platform's allowlist, boolean values checked, internal tables unnamed", async () => {
    await run("pragma", "CREATE TABLE t (a INTEGER PRIMARY KEY, b)", "CREATE INDEX tb ON t (b)")
    const allowed = await run(
      "pragma",
      "PRAGMA foreign_keys = OFF",
      "PRAGMA foreign_keys",
      "PRAGMA defer_foreign_keys = 'yes'",
      "PRAGMA case_sensitive_like = true",
      "PRAGMA recursive_triggers = 0",
      "PRAGMA table_info(t)",
      "PRAGMA index_list(t)",
      "PRAGMA index_info(tb)",
      "PRAGMA foreign_key_check",
      "PRAGMA quick_check",
      "PRAGMA data_version",
      "PRAGMA page_size",
      "SELECT name FROM pragma_table_info('t')"
    )
    expect(allowed.filter((o) => "error" in o)).toEqual([])
    expect(allowed[1]).toEqual({ ok: [{ foreign_keys: 0 }] })
    expect(allowed[12]).toEqual({ ok: [{ name: "a" }, { name: "b" }] })
    const refused = await run(
      "pragma",
      "PRAGMA synchronous = OFF",
      "PRAGMA cache_size = 100",
      "PRAGMA max_page_count = 10",
      "PRAGMA soft_heap_limit = 1",
      "PRAGMA hard_heap_limit = 1",
      "PRAGMA journal_mode = DELETE",
      "PRAGMA writable_schema = ON",
      "PRAGMA page_size = 8192",
      "PRAGMA foreign_keys = maybe",
      "PRAGMA table_info('_cf_KV')",
      "SELECT * FROM pragma_table_info('_cf_KV')",
      "SELECT * FROM pragma_journal_mode"
    )
    expect(refused).toEqual(refused.map(() => NOT_AUTHORIZED))
  })

  it("no sqlite_*() introspection functions, no TEMP objects, no ATTACH, no dbstat; virtual tables fts5, fts5vocab, rtree, rtree_i32 only", async () => {
    expect(
      await run(
        "guards",
        "SELECT sqlite_version()",
        "SELECT upper(sqlite_source_id())",
        "SELECT sqlite_compileoption_used('ENABLE_FTS5')"
      )
    ).toEqual(
      ["sqlite_version", "sqlite_source_id", "sqlite_compileoption_used"].map((f) => ({
        error: `not authorized to use function: ${f}: SQLITE_ERROR`
      }))
    )
    expect(
      await run(
        "guards",
        "CREATE TEMP TABLE tt (a)",
        "CREATE TEMP VIEW tv AS SELECT 1",
        "ATTACH DATABASE 'other.sqlite' AS other",
        "SELECT name FROM dbstat",
        "CREATE VIRTUAL TABLE f4 USING fts4(body)",
        "CREATE VIRTUAL TABLE g USING geopoly(a)"
      )
    ).toEqual(Array.from({ length: 6 }, () => NOT_AUTHORIZED))
    expect(
      await run(
        "guards",
        "CREATE VIRTUAL TABLE docs USING fts5(body)",
        "INSERT INTO docs (body) VALUES ('hello world'), ('other')",
        "SELECT body FROM docs WHERE docs MATCH 'hello'",
        "CREATE VIRTUAL TABLE words USING fts5vocab(docs, row)",
        "SELECT count(*) AS n FROM words",
        "CREATE VIRTUAL TABLE boxes USING rtree(id, x0, x1)",
        "CREATE VIRTUAL TABLE iboxes USING rtree_i32(id, x0, x1)",
        "CREATE TABLE t (a)",
        "CREATE VIEW v AS SELECT a FROM t",
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END",
        "ALTER TABLE t RENAME TO t2",
        "ALTER TABLE t2 RENAME COLUMN a TO b"
      )
    ).toEqual([
      { ok: [] },
      { ok: [] },
      { ok: [{ body: "hello world" }] },
      { ok: [] },
      { ok: [{ n: 3 }] },
      ...Array.from({ length: 7 }, () => ({ ok: [] }))
    ])
  })

  it("the internal tables are unreachable; a string literal naming one is only a string", async () => {
    // Key-value writes create _cf_KV.
    await get("/kv?name=internal")
    expect(
      await run(
        "internal",
        "SELECT * FROM _cf_KV",
        "SELECT key FROM _CF_kv",
        "INSERT INTO _cf_KV VALUES ('k', 'v')",
        "CREATE TABLE _cf_mine (a)",
        "SELECT '_cf_KV' AS s, \"_cf_METADATA\" AS d"
      )
    ).toEqual([
      { error: "access to _cf_KV.key is prohibited: SQLITE_AUTH" },
      { error: "access to _cf_KV.key is prohibited: SQLITE_AUTH" },
      NOT_AUTHORIZED,
      NOT_AUTHORIZED,
      { ok: [{ s: "_cf_KV", d: "_cf_METADATA" }] }
    ])
  })

  it("the platform's limits: compound SELECT terms, bound parameters, columns, LIKE pattern bytes, SQL length, expression depth, trigger depth", async () => {
    const terms = (n: number) => Array.from({ length: n }, (_, i) => `SELECT ${i}`).join(" UNION ALL ")
    const columns = (n: number) => `SELECT ${Array.from({ length: n }, (_, i) => `${i} AS c${i}`).join(", ")}`
    const depth = (n: number) => `SELECT ${Array.from({ length: n }, () => "1").join(" + ")} AS v`
    const sized = (bytes: number) => `SELECT '${"x".repeat(bytes - 14)}' AS v`
    const outcomes = await run(
      "limits",
      terms(5),
      terms(6),
      `SELECT ${Array.from({ length: 101 }, () => "?").join(", ")}`,
      columns(100),
      columns(101),
      `SELECT 'a' LIKE '${"%".repeat(50)}' AS v`,
      `SELECT 'a' LIKE '${"%".repeat(51)}' AS v`,
      sized(100_000),
      sized(100_001),
      depth(90),
      depth(150)
    )
    expect(outcomes.map((o) => ("error" in o ? o.error : "ok"))).toEqual([
      "ok",
      "too many terms in compound SELECT: SQLITE_ERROR",
      "too many SQL variables: SQLITE_ERROR",
      "ok",
      "too many columns in result set: SQLITE_ERROR",
      "ok",
      "LIKE or GLOB pattern too complex: SQLITE_ERROR",
      "ok",
      "statement too long: SQLITE_TOOBIG",
      "ok",
      "Expression tree is too large (maximum depth 100): SQLITE_ERROR"
    ])
    // A trigger that fires itself stops at 10 levels.
    expect(
      await run(
        "limits",
        "PRAGMA recursive_triggers = ON",
        "CREATE TABLE n (v)",
        "CREATE TRIGGER more AFTER INSERT ON n WHEN new.v < 50 BEGIN INSERT INTO n VALUES (new.v + 1); END",
        "INSERT INTO n VALUES (1)"
      )
    ).toEqual([{ ok: [] }, { ok: [] }, { ok: [] }, { error: "too many levels of trigger recursion: SQLITE_ERROR" }])
  })

  it("errors in the platform's words: a syntax error's offset, a piece of comments only, BEGIN pointing at transaction()", async () => {
    expect(await run("errors", "SELEC 1", "SELECT 1 FROM", "SELECT 1; -- done", "/* nothing */", "BEGIN")).toEqual([
      { error: 'near "SELEC": syntax error at offset 0: SQLITE_ERROR' },
      // SQLite gives no offset for input that ends too soon.
      { error: "incomplete input: SQLITE_ERROR" },
      { error: "SQL code did not contain a statement." },
      { error: "SQL code did not contain a statement." },
      { error: expect.stringMatching(/^To execute a transaction, please use the state.storage.transaction\(\)/) }
    ])
  })

  it("a piece of comments only after statements: the statements before it run, then the error (the runtime prepares and runs one piece at a time)", async () => {
    expect(
      await run(
        "comment-tail",
        "CREATE TABLE t (a)",
        "INSERT INTO t VALUES (1); INSERT INTO t VALUES (2); -- done",
        "-- only a comment\n",
        "SELECT a FROM t ORDER BY a"
      )
    ).toEqual([
      { ok: [] },
      { error: "SQL code did not contain a statement." },
      { error: "SQL code did not contain a statement." },
      // What ran before the comment stays.
      { ok: [{ a: 1 }, { a: 2 }] }
    ])
  })

  it("what follows a `;` as the runtime reads it: spaces and newlines skipped, anything else prepared next (a lone `;`, a tab, a \\r)", async () => {
    await runOne("tails", "CREATE TABLE t (a)")
    expect(
      await run(
        "tails",
        "INSERT INTO t VALUES (1);;",
        "INSERT INTO t VALUES (2);\r\n",
        "INSERT INTO t VALUES (3);\t",
        "INSERT INTO t VALUES (4); \n ",
        "INSERT INTO t VALUES (5);; INSERT INTO t VALUES (6)",
        "INSERT INTO t VALUES (7); /* between */; INSERT INTO t VALUES (8)",
        ";; SELECT 9 AS n",
        "",
        " \r\n",
        ["INSERT INTO t VALUES (?); SELECT 1 AS one", 10],
        ["INSERT INTO t VALUES (11); SELECT ? AS v", 12],
        "SELECT a FROM t ORDER BY a"
      )
    ).toEqual([
      { error: "SQL code did not contain a statement." },
      { error: "SQL code did not contain a statement." },
      { error: "SQL code did not contain a statement." },
      { ok: [] },
      { ok: [] },
      { ok: [] },
      { ok: [{ n: 9 }] },
      { error: "SQL code did not contain a statement." },
      { error: "SQL code did not contain a statement." },
      {
        error: "When executing multiple SQL statements in a single call, only the last statement can have parameters."
      },
      { ok: [{ v: 12 }] },
      // Each statement before an empty piece ran; the one with a parameter did not.
      { ok: [1, 2, 3, 4, 5, 6, 7, 8, 11].map((a) => ({ a })) }
    ])
  })

  it("a new object is one page: the internal tables come with their first use", async () => {
    expect(await get("/size?name=fresh")).toBe(4096)
    // Key-value writes create _cf_KV (a table of a few small rows: one page).
    await get("/kv?name=fresh")
    expect(await get("/size?name=fresh")).toBe(2 * 4096)
  })

  it("getCurrentBookmark() advances on every call (bookmarks sort by time); a write moves it to a new commit", async () => {
    const [a, b, c] = await get<Array<string>>("/bookmarks?name=marks")
    const commitOf = (x: string) => x.split("-")[2]
    expect([a! < b!, b! < c!]).toEqual([true, true])
    expect(commitOf(a!)).toBe(commitOf(b!))
    expect(commitOf(c!) > commitOf(b!)).toBe(true)
  })

  it("a cursor's rowsRead is one row ahead of what was read, as the platform's", async () => {
    expect(await get("/rows-read?name=rows")).toEqual([1, 2, 3])
  })
})

describe("the SQLite binding", () => {
  it("a missing build of the patched binding fails with one line naming the file and the rebuild command", async () => {
    const { cwd, state } = workspace()
    const missing = path.join(cwd, "no-such-binding.node")
    const r = await edgectlAsync(["objects", "sql", "Store", "a", "SELECT 1", "--create", "--persist-to", state], {
      cwd,
      env: { EDGECTL_SQLITE_BINDING: missing }
    })
    expect([r.status, r.stderr]).toEqual([
      1,
      `error: objects sql: the SQLite binding for objects cannot be loaded: ${missing}: missing; rebuild it with \`npm run build:sqlite\`\n`
    ])
  })
})

describe("ctx.storage: the platform's API only", () => {
  it("ctx.storage.kv is the synchronous key-value API over the same data as the Promise API", async () => {
    expect(await get("/kv?name=kv")).toEqual({
      get: { one: 1 },
      missing: "undefined",
      viaPromise: "three",
      deleted: true,
      deletedAgain: false,
      all: [
        ["a", { one: 1 }],
        ["b", 2],
        ["c", "three"]
      ],
      start: ["b", "c"],
      startAfter: ["c"],
      end: ["a"],
      prefix: ["c"],
      reverse: ["c", "b"],
      undefinedValue: { error: 'put() called with undefined value (key "u").' }
    })
  })

  it("no internals are reachable from object code: no database handle on sql, no table behind kv, no storage behind a txn", async () => {
    expect(await get("/internals?name=internals")).toEqual({
      sqlDb: "undefined",
      sqlKeys: ["databaseSize", "exec"],
      kvKind: true,
      kvTable: "undefined",
      storageDb: "undefined",
      storageLog: "undefined",
      txnKeys: []
    })
  })
})
