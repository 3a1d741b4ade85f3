/**
 * Units: `listEntries` (src/store/kv-repo.ts), the local export's page of keys with their values,
 * read as text by SQLite: the same keys, order and cursors as `listKeys` (prefix, cursor, expired
 * keys left out), each value its stored bytes exactly (as text only when the text is the bytes).
 */
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
import { seedDemo } from "../../src/demo/seeds.js"
import { hexId } from "../../src/domain/ids.js"

let db: Database.Database
const acme = hexId("account", "Acme Corp")
const now = 1_800_000_000

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-kv-entries-"))
  db = await Effect.runPromise(open(path.join(dir, "platform.sqlite"), seedDemo()))
})
afterAll(() => db?.close())

const values: ReadonlyArray<Buffer> = [
  Buffer.from("plain"),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xc0, 0x80]),
  Buffer.from([0xff]),
  Buffer.from("\uFFFD"),
  Buffer.from("a\u0000b"),
  Buffer.from("😀"),
  Buffer.alloc(0)
]

/** An entry's value as bytes, whichever form the page gave it in. */
const bytesOf = (v: string | Buffer) => (typeof v === "string" ? Buffer.from(v, "utf8") : v)

describe("listEntries", () => {
  it("pages as listKeys does, every value its bytes exactly", () => {
    const ns = Engine.createNamespace(db, acme, "list-entries").seq
    const entries: Array<WriteEntry> = Array.from({ length: 57 }, (_, i) => ({
      key: `${i % 2 === 0 ? "p:" : "q:"}${String(i).padStart(3, "0")}-é`,
      value: values[i % values.length]!,
      metadata: i % 3 === 0 ? JSON.stringify({ i }) : null,
      // Every 7th has expired by `now`.
      expiration: i % 7 === 0 ? now - 10 : i % 5 === 0 ? now + 3600 : null
    }))
    Engine.putEntries(db, ns, entries, now - 100)
    const stored = new Map(entries.map((e) => [e.key, e]))
    for (const prefix of [undefined, "p:", "q:0"]) {
      let after: Buffer | undefined
      for (let pages = 0; ; pages++) {
        expect(pages).toBeLessThan(100)
        const keys = Pages.listKeys(db, ns, { limit: 4, prefix, after }, now)
        const page = Pages.listEntries(db, ns, { limit: 4, prefix, after }, now)
        expect(page.cursor).toBe(keys.cursor)
        expect(page.entries.map(({ name, expiration, metadata }) => ({ name, expiration, metadata }))).toEqual(
          keys.keys.map(({ name, expiration, metadata }) => ({ name, expiration, metadata }))
        )
        for (const e of page.entries) {
          const want = stored.get(e.name)!.value
          expect([e.name, bytesOf(e.value).equals(want)]).toEqual([e.name, true])
          // Text only when it is the bytes: a value that is not UTF-8 comes as a Buffer.
          if (typeof e.value === "string") expect(Buffer.from(e.value, "utf8").equals(want)).toBe(true)
        }
        if (page.cursor === "") break
        after = Pages.decodeCursor(page.cursor)
      }
    }
  })
})
