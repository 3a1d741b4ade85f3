// The platform's integrity rules, through ObjectHost and stubs, with an object class written as a
// user writes one (test/fixtures/objects/integrity.ts): what ctx.abort() discards, nested
// transactions, what a critical error keeps, deleteAll() with foreign keys, a commit that leaves
// constraints violated, and stubs broken by a reset.
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { ObjectHost, type ObjectStub } from "../../src/objects/index.js"
import { tempDir } from "../helpers/objects.js"

const module = path.resolve(import.meta.dirname, "../fixtures/objects/integrity.ts")
const hosts: Array<ObjectHost> = []
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close()
})
const start = async () => {
  const host = await ObjectHost.start({ module, persistTo: tempDir(), control: false })
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
    const { stub } = await start()
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
    const { stub } = await start()
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
})
