import { describe, expect, it } from "vitest"
import { openStorage } from "../helpers/objects.js"

const setup = () => {
  const s = openStorage()
  s.sql.exec("CREATE TABLE c (id INTEGER PRIMARY KEY, name TEXT, data BLOB)")
  return s
}

describe("ctx.storage.sql", () => {
  it("cursor counters after INSERT, SELECT, UPDATE and DELETE", () => {
    const s = setup()
    const ins = s.sql.exec(
      "INSERT INTO c (name, data) VALUES (?, ?), (?, ?)",
      "one",
      new Uint8Array([1]).buffer,
      "two",
      null
    )
    expect([ins.columnNames, ins.rowsRead, ins.rowsWritten, ins.toArray()]).toEqual([[], 2, 2, []])
    const sel = s.sql.exec("SELECT * FROM c")
    expect([sel.columnNames, sel.rowsRead, sel.rowsWritten]).toEqual([["id", "name", "data"], 1, 0])
    const rows = sel.toArray()
    expect(sel.rowsRead).toBe(2)
    expect(rows[0]!.data).toBeInstanceOf(ArrayBuffer)
    expect(new Uint8Array(rows[0]!.data as ArrayBuffer)).toEqual(new Uint8Array([1]))
    expect(rows[1]).toEqual({ id: 2, name: "two", data: null })
    const upd = s.sql.exec("UPDATE c SET name = upper(name)")
    expect([upd.rowsRead, upd.rowsWritten]).toEqual([2, 2])
    const del = s.sql.exec("DELETE FROM c WHERE id = ?", 2)
    expect([del.rowsRead, del.rowsWritten]).toEqual([1, 1])
  })

  it("next(), raw(), one() on zero, one and two rows; cursor and raw iterator share the results", () => {
    const s = setup()
    s.sql.exec("INSERT INTO c (name) VALUES ('one'), ('two')")
    const cur = s.sql.exec("SELECT id FROM c ORDER BY id")
    expect(cur.next()).toEqual({ done: false, value: { id: 1 } })
    expect(cur.raw().next()).toEqual({ done: false, value: [2] })
    expect(cur.next()).toEqual({ done: true })
    expect("value" in cur.next()).toBe(false)
    expect(() => s.sql.exec("SELECT * FROM c WHERE id > 5").one()).toThrow(
      "Expected exactly one result from SQL query, but got no results."
    )
    expect(() => s.sql.exec("SELECT * FROM c").one()).toThrow(
      "Expected exactly one result from SQL query, but got multiple results."
    )
    const two = s.sql.exec("SELECT id FROM c ORDER BY id")
    two.next()
    expect(two.one()).toEqual({ id: 2 })
    expect(s.sql.exec("SELECT id, name FROM c ORDER BY id").raw().toArray()).toEqual([
      [1, "one"],
      [2, "two"]
    ])
    expect(s.sql.exec("SELECT 1 AS a, 2 AS a").one()).toEqual({ a: 2 })
    expect(s.sql.exec("SELECT 1 AS a, 2 AS a").raw().one()).toEqual([1, 2])
    // Any column name is an own property: quotes, `__proto__`, backslashes, line separators.
    const odd = s.sql.exec(`SELECT 1 AS "__proto__", x'00ff' AS "a""b\\", 3 AS "\u2028", NULL AS "constructor"`).one()
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype)
    expect(Object.keys(odd)).toEqual(["__proto__", 'a"b\\', "\u2028", "constructor"])
    expect(odd["__proto__"]).toBe(1)
    expect([...new Uint8Array(odd['a"b\\'] as ArrayBuffer)]).toEqual([0, 255])
    // The platform's limit of 100 columns.
    const columns = (n: number) => `SELECT ${Array.from({ length: n }, (_, i) => `${i} AS c${i}`).join(", ")}`
    const wide = s.sql.exec(columns(100)).one()
    expect(Object.keys(wide)).toHaveLength(100)
    expect(wide.c99).toBe(99)
    expect(() => s.sql.exec(columns(101))).toThrow("too many columns in result set: SQLITE_ERROR")
    expect([...s.sql.exec("SELECT id FROM c")].length).toBe(2)
  })

  it("multi-statement queries return the last statement's rows", () => {
    const s = openStorage()
    expect(s.sql.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1); SELECT 1; SELECT 2 AS b").toArray()).toEqual([
      { b: 2 }
    ])
    expect(s.sql.exec("SELECT count(*) AS n FROM t").one()).toEqual({ n: 1 })
    s.sql.exec(
      "CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO t VALUES (NEW.x + 100); END; INSERT INTO t VALUES (-1)"
    )
    expect(s.sql.exec("SELECT count(*) AS n FROM t").one()).toEqual({ n: 3 })
  })

  it("bindings: booleans as text, BigInt refused, wrong counts refused, syntax errors with their code", () => {
    const s = openStorage()
    expect(s.sql.exec("SELECT ? AS v", true).one()).toEqual({ v: "true" })
    expect(() => s.sql.exec("SELECT ?", 1n)).toThrow("Cannot convert a BigInt value to a number")
    expect(() => s.sql.exec("SELECT ?, ?", 1)).toThrow("Wrong number of parameter bindings for SQL query.")
    expect(() => s.sql.exec("SELECT ?", 1, 2)).toThrow("Wrong number of parameter bindings for SQL query.")
    expect(() => s.sql.exec("SELEC 1")).toThrow('near "SELEC": syntax error at offset 0: SQLITE_ERROR')
  })

  it("_cf_ tables can be neither read nor created; BEGIN and SAVEPOINT point at transaction()", async () => {
    const s = openStorage()
    // The first key-value write creates _cf_KV (before it, SQLite knows no such table).
    expect(() => s.sql.exec("SELECT * FROM _cf_KV")).toThrow("no such table: _cf_KV: SQLITE_ERROR")
    await s.put("k", 1)
    expect(() => s.sql.exec("SELECT * FROM _cf_KV")).toThrow("access to _cf_KV.key is prohibited: SQLITE_AUTH")
    expect(() => s.sql.exec('SELECT * FROM "_CF_kv"')).toThrow(/prohibited/)
    expect(() => s.sql.exec("CREATE TABLE _cf_mine (x)")).toThrow(/not authorized/)
    expect(() => s.sql.exec("BEGIN TRANSACTION")).toThrow(/storage.transaction\(\)/)
    expect(() => s.sql.exec("SELECT 1; SAVEPOINT x")).toThrow(/storage.transaction\(\)/)
    expect(() => s.sql.exec("-- note\n  commit")).toThrow(/storage.transaction\(\)/)
    expect(s.sql.exec("SELECT '_cf_KV' AS s").one()).toEqual({ s: "_cf_KV" })
  })

  it("databaseSize grows with the data", () => {
    const s = openStorage()
    const before = s.sql.databaseSize
    s.sql.exec("CREATE TABLE big (x)")
    for (let i = 0; i < 100; i++) s.sql.exec("INSERT INTO big VALUES (?)", "x".repeat(1000))
    expect(before % 4096).toBe(0)
    expect(s.sql.databaseSize).toBeGreaterThan(before + 100_000)
  })
})
