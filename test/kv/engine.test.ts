/** Units: the KV engine (src/store/kv-repo.ts) over a real SQLite store in a temp dir. */
import type Database from "better-sqlite3"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Engine from "../../src/store/kv-repo.js"
import * as Pages from "../../src/store/kv-pages.js"
import type { WriteEntry } from "../../src/kv/entry-checks.js"
import { open } from "../../src/store/db.js"
import { sqliteClientOn, type SqliteClient } from "../../src/store/sql-client.js"
import { seedDemo } from "../../src/demo/seeds.js"
import { hexId } from "../../src/domain/ids.js"

let db: Database.Database
/** The store's SQL client on the same handle, for what kv-repo does through it. */
let sql: SqliteClient
const acme = hexId("account", "Acme Corp")
const now = 1_800_000_000
const entry = (key: string, value = "v", extra: Partial<WriteEntry> = {}): WriteEntry => ({
  key,
  value: Buffer.from(value),
  metadata: null,
  expiration: null,
  ...extra
})

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-kvengine-"))
  const file = path.join(dir, "platform.sqlite")
  db = await Effect.runPromise(open(file, seedDemo()))
  sql = await Effect.runPromise(sqliteClientOn(db, file))
})
afterAll(() => db?.close())

const fresh = (title: string) => Engine.createNamespace(db, acme, title)
const names = (ns: number, q: Partial<Pages.KeyQuery> = {}, at = now) =>
  Pages.listKeys(db, ns, { limit: 1000, ...q }, at).keys.map((k) => k.name)

describe("namespaces", () => {
  it("creates, finds (only in its account), renames, pages and deletes with every entry", async () => {
    const ns = (await Effect.runPromise(Engine.createTitledNamespace(sql, acme, "engine-ns")))!
    expect(ns.id).toMatch(/^[0-9a-f]{32}$/)
    expect(Engine.findNamespace(db, ns.id, [acme])?.title).toBe("engine-ns")
    expect(Engine.findNamespace(db, ns.id, [hexId("account", "Globex")])).toBeUndefined()
    // A taken title: neither a second create nor another namespace's rename takes it.
    expect(await Effect.runPromise(Engine.createTitledNamespace(sql, acme, "engine-ns"))).toBeUndefined()
    const other = fresh("engine-other")
    expect(await Effect.runPromise(Engine.renameNamespace(sql, other, "engine-ns"))).toBe(false)
    expect(await Effect.runPromise(Engine.renameNamespace(sql, ns, "engine-renamed"))).toBe(true)
    expect(Engine.findNamespace(db, ns.id, [acme])?.title).toBe("engine-renamed")
    Engine.putEntries(db, ns.seq, [entry("a"), entry("b")], now)
    await Effect.runPromise(Engine.deleteNamespace(sql, ns.seq))
    expect(Engine.findNamespace(db, ns.id, [acme])).toBeUndefined()
    expect((db.prepare("SELECT count(*) AS n FROM kv_entries WHERE ns = ?").get(ns.seq) as { n: number }).n).toBe(0)
  })

  it("an implicit namespace takes its id as title, numbered when the title is taken", () => {
    fresh("taken-id")
    const ns = Engine.createImplicitNamespace(db, acme, "taken-id-2")
    expect(ns).toMatchObject({ id: "taken-id-2", title: "taken-id-2", implicit: true })
    const clash = Engine.createImplicitNamespace(db, acme, "taken-id")
    expect(clash.title).toBe("taken-id (2)")
  })

  it("lists by title or id, both directions, paged", () => {
    const before = Engine.listNamespaces(db, acme, { page: 1, perPage: 1000, order: "title", direction: "asc" }).total
    for (const t of ["p-c", "p-a", "p-b"]) fresh(t)
    const all = Engine.listNamespaces(db, acme, { page: 1, perPage: 1000, order: "title", direction: "asc" })
    expect(all.total).toBe(before + 3)
    const titles = all.rows.map((r) => r.title)
    expect(titles).toEqual([...titles].sort())
    const desc = Engine.listNamespaces(db, acme, { page: 1, perPage: 2, order: "title", direction: "desc" })
    expect(desc.rows).toHaveLength(2)
    expect(desc.rows[0]!.title >= desc.rows[1]!.title).toBe(true)
  })
})

describe("entries", () => {
  it("writes, overwrites, reads bytes and metadata, deletes", () => {
    const ns = fresh("entries-rw")
    Engine.putEntries(db, ns.seq, [entry("k", "one", { metadata: '{"a":1}' }), entry("bin", "\u0000\u00ff")], now)
    expect(Engine.getEntry(db, ns.seq, "k", now)).toMatchObject({ metadata: '{"a":1}', expiration: null })
    Engine.putEntries(db, ns.seq, [entry("k", "two")], now)
    const k = Engine.getEntry(db, ns.seq, "k", now)!
    expect(k.value.toString()).toBe("two")
    expect(k.metadata).toBeNull()
    expect(Engine.deleteKeys(db, ns.seq, ["k", "absent"], now)).toBe(1)
    expect(Engine.getEntry(db, ns.seq, "k", now)).toBeUndefined()
  })

  it("expired entries are invisible to get, metadata and list, and purged lazily", async () => {
    const ns = fresh("entries-exp")
    Engine.putEntries(
      db,
      ns.seq,
      [entry("soon", "v", { expiration: now + 100 }), entry("later", "v", { expiration: now + 1000 }), entry("never")],
      now
    )
    expect(names(ns.seq)).toEqual(["later", "never", "soon"])
    const after = now + 100
    expect(names(ns.seq, {}, after)).toEqual(["later", "never"])
    expect(await Effect.runPromise(Engine.entryMetadata(sql, ns.seq, "later", after))).toBeNull()
    expect(await Effect.runPromise(Engine.entryMetadata(sql, ns.seq, "soon", after))).toBeUndefined()
    // the read purged it
    expect(
      db.prepare("SELECT count(*) AS n FROM kv_entries WHERE ns = ? AND key = ?").get(ns.seq, Buffer.from("soon"))
    ).toEqual({ n: 0 })
    // a write purges every expired entry
    Engine.putEntries(db, ns.seq, [entry("x")], now + 5000)
    expect(
      db.prepare("SELECT count(*) AS n FROM kv_entries WHERE ns = ? AND key = ?").get(ns.seq, Buffer.from("later"))
    ).toEqual({ n: 0 })
  })
})

describe("listing", () => {
  it("orders keys by their UTF-8 bytes, not by JavaScript string order", () => {
    const ns = fresh("listing-order")
    const keys = ["b", "a", "Z", "é", "\uFFFD", "😀", "a/b", "a.b", "ab"]
    Engine.putEntries(
      db,
      ns.seq,
      keys.map((k) => entry(k)),
      now
    )
    const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)))
    expect(names(ns.seq)).toEqual(byBytes)
    // UTF-16 order puts the emoji (a surrogate pair, D83D…) before U+FFFD; UTF-8 puts it after (F0 > EF).
    expect(byBytes.indexOf("\uFFFD")).toBeLessThan(byBytes.indexOf("😀"))
    expect([...keys].sort().indexOf("\uFFFD")).toBeGreaterThan([...keys].sort().indexOf("😀"))
  })

  it("pages with an opaque cursor, empty on the last page; filters by prefix", () => {
    const ns = fresh("listing-pages")
    Engine.putEntries(
      db,
      ns.seq,
      Array.from({ length: 25 }, (_, i) => entry(`key-${String(i).padStart(2, "0")}`)).concat([entry("other")]),
      now
    )
    const seen: Array<string> = []
    let after: Buffer | undefined
    let pages = 0
    for (;;) {
      const page = Pages.listKeys(db, ns.seq, { limit: 10, after, prefix: "key-" }, now)
      seen.push(...page.keys.map((k) => k.name))
      pages++
      if (page.cursor === "") break
      after = Pages.decodeCursor(page.cursor)
      expect(after).toBeDefined()
    }
    expect(pages).toBe(3)
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `key-${String(i).padStart(2, "0")}`))
    expect(names(ns.seq, { prefix: "key-1" })).toHaveLength(10)
    expect(names(ns.seq, { prefix: "nope" })).toEqual([])
    expect(Pages.decodeCursor("not a cursor!")).toBeUndefined()
    expect(Pages.decodeCursor(Buffer.from("x").toString("base64url"))).toBeUndefined()
  })

  it("a page seeks in the key index past the cursor: no scan, no OFFSET", () => {
    const ns = fresh("listing-plan")
    Engine.putEntries(db, ns.seq, [entry("a"), entry("b")], now)
    const plan = (sql: string, ...params: Array<unknown>) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join(" | ")
    const withCursor = plan(
      "SELECT key, expiration, metadata FROM kv_entries WHERE ns = ? AND key > ? AND key < ? AND (expiration IS NULL OR expiration > ?) ORDER BY key LIMIT ?",
      ns.seq,
      Buffer.from("a"),
      Buffer.from("b"),
      now,
      11
    )
    expect(withCursor).toMatch(/SEARCH kv_entries USING INDEX kv_entries_key \(ns=\? AND key>\? AND key<\?\)/)
    expect(withCursor).not.toMatch(/TEMP B-TREE|SCAN/)
  })
})
