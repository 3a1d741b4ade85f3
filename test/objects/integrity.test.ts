// The platform's integrity rules, through ObjectHost and stubs, with an object class written as a
// user writes one (test/fixtures/objects/integrity.ts): what ctx.abort() discards, nested
// transactions, what a critical error keeps, deleteAll() with foreign keys, a commit that leaves
// constraints violated, and stubs broken by a reset.
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { ObjectHost, type ObjectStub } from "../../src/objects/index.js"
import { dump, openStorage, tempDir } from "../helpers/objects.js"
import { ObjectStorage } from "../../src/objects/index.js"

const module = path.resolve(import.meta.dirname, "../fixtures/objects/integrity.ts")
const hosts: Array<ObjectHost> = []
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close()
})
const start = async (maxObjectBytes?: number) => {
  const host = await ObjectHost.start({
    module,
    persistTo: tempDir(),
    control: false,
    ...(maxObjectBytes === undefined ? {} : { maxObjectBytes })
  })
  hosts.push(host)
  const ns = host.namespace("Integrity")
  const id = ns.idFromName("a")
  return { stub: () => ns.get(id) }
}
const json = async (stub: ObjectStub, p: string): Promise<unknown> => (await stub.fetch(p)).json()
const rejection = async (p: Promise<unknown>): Promise<Error & { durableObjectReset?: boolean }> => {
  try {
    await p
  } catch (e) {
    return e as Error
  }
  throw new Error("expected a rejection")
}

describe("object integrity (the platform's rules)", () => {
  it("ctx.abort(reason) discards the unflushed put; the caller gets the reason with durableObjectReset; the stub stays broken", async () => {
    const { stub } = await start()
    let obj = stub()
    expect(await json(obj, "/increment")).toBe(1)
    expect(await json(obj, "/increment")).toBe(2)
    const e = await rejection(obj.fetch("/break"))
    expect([e.message, e.durableObjectReset]).toEqual(["test broken", true])
    // As on the platform, the stub that saw the reset fails until a new one is taken.
    const again = await rejection(obj.fetch("/increment"))
    expect(again.message).toBe("test broken")
    obj = stub()
    expect(await json(obj, "/increment")).toBe(3)
  })

  it("a transaction() inside another nests as a savepoint: no deadlock, inner failures and rollbacks undo only themselves", async () => {
    const { stub } = await start()
    expect(await json(stub(), "/nested")).toEqual({
      outcome: "inner result",
      kv: { a: 1, b: 2 },
      seen: ["inner failure", "outer failure"]
    })
    // The object goes on answering (the output gate is not held).
    expect(await json(stub(), "/increment")).toBe(1)
  })

  it("transaction() commits the implicit transaction first: a disk-full error inside it keeps the earlier writes", async () => {
    const { stub } = await start(256 * 1024)
    await stub().fetch("/string-table")
    const e = await rejection(stub().fetch("/critical-in-transaction"))
    expect(e.message).toMatch(/database or disk is full/)
    expect(e.durableObjectReset).toBe(true)
    expect(await json(stub(), "/seen")).toEqual([
      "database or disk is full: SQLITE_FULL",
      "database or disk is full: SQLITE_FULL"
    ])
    expect(await json(stub(), "/ids")).toEqual([1, 2])
  })

  it("transactionSync() after a disk-full error inside it throws the platform's critical-error message and keeps only committed rows", async () => {
    const { stub } = await start(256 * 1024)
    await stub().fetch("/string-table")
    const obj = stub()
    const e = await rejection(obj.fetch("/critical-in-transaction-sync"))
    expect(e.message).toMatch(/database or disk is full/)
    expect(await json(stub(), "/seen")).toEqual([
      "database or disk is full: SQLITE_FULL",
      "Cannot commit transaction due to an earlier SQL critical error"
    ])
    // transactionSync() joins the implicit transaction, which the critical error rolled back.
    expect(await json(stub(), "/ids")).toEqual([1])
    await expect(obj.fetch("/ids")).rejects.toThrow(/database or disk is full/)
  })

  it("deleteAll() deletes tables linked by foreign keys, views, indexes and key-value data, and keeps the alarm", async () => {
    const { stub } = await start()
    expect(await (await stub().fetch("/foreign-keys")).text()).toBe("ok")
    const alarm = (await json(stub(), "/set-alarm")) as number
    const after = (await json(stub(), "/delete-all")) as {
      tables: Array<string>
      kv: object
      alarm: number
      size: number
    }
    expect(after).toMatchObject({ tables: [], kv: {}, alarm })
    // A new database's size, as on the platform: the dropped tables' pages are not kept.
    expect(after.size).toBeLessThanOrEqual(4 * 4096)
    expect(await json(stub(), "/increment")).toBe(1)
    expect(await (await stub().fetch("/foreign-keys")).text()).toBe("ok")
  })

  it("a commit that leaves a deferred foreign key violated resets the object with the platform's message; the stub stays broken", async () => {
    const { stub } = await start()
    await stub().fetch("/foreign-keys")
    let obj = stub()
    const message =
      "Durable Object was reset and rolled back to its last known good state because the application " +
      "left the database in a state where constraints were violated: FOREIGN KEY constraint failed: SQLITE_CONSTRAINT"
    const e = await rejection(obj.fetch("/violate"))
    expect([e.message, e.durableObjectReset]).toEqual([message, true])
    await expect(obj.fetch("/increment")).rejects.toThrow(message)
    obj = stub()
    // The valid transaction before it was committed; the violating one rolled back.
    expect(await json(obj, "/posts")).toEqual([1, 2])
    expect(await json(obj, "/increment")).toBe(42)
  })

  it("deleteAll() is a commit the recovery log keeps: a restore to a bookmark before it brings everything back", async () => {
    const dir = tempDir()
    const s = new ObjectStorage(dir)
    s.sql.exec(`CREATE TABLE users (id INTEGER PRIMARY KEY);
      CREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER REFERENCES users(id));
      INSERT INTO users VALUES (1); INSERT INTO posts VALUES (1, 1)`)
    await s.put("k", "v")
    await s.setAlarm(Date.now() + 60_000)
    const before = await dump(s)
    const bookmark = await s.getCurrentBookmark()
    await s.deleteAll()
    expect(await dump(s)).toEqual({ kv: [], schema: [], tables: {}, alarm: (before as { alarm: number }).alarm })
    await s.onNextSessionRestoreBookmark(bookmark)
    s.close()
    const again = openStorage(dir)
    expect(await dump(again)).toEqual(before)
  })

  it("deleteAll() inside a transaction is refused with the platform's message; sync() inside one does not wait for it", async () => {
    const s = openStorage()
    await s.put("k", 1)
    await expect(
      s.transaction(async (txn) => {
        await txn.put("j", 2)
        await s.sync()
        await s.deleteAll()
      })
    ).rejects.toThrow("Cannot call deleteAll() within a transaction")
    const inSync = s.transactionSync(() => s.deleteAll())
    await expect(inSync).rejects.toThrow("Cannot call deleteAll() within a transaction")
    expect([...(await s.list()).keys()]).toEqual(["k"])
  })

  it("with delete_all_deletes_alarm (the compatibility flag), deleteAll() deletes the alarm too and tells the host", async () => {
    const told: Array<number | null> = []
    const s = openStorage(undefined, { deleteAllDeletesAlarm: true, onAlarm: (t) => told.push(t) })
    await s.setAlarm(Date.now() + 60_000)
    await s.put("k", 1)
    await s.deleteAll()
    expect([await s.getAlarm(), [...(await s.list()).keys()], told.at(-1)]).toEqual([null, [], null])
  })
})
