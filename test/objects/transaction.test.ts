import { describe, expect, it } from "vitest"
import { openStorage, tempDir, turn } from "../helpers/objects.js"
import { ObjectStorage } from "../../src/objects/index.js"

describe("ctx.storage.transaction", () => {
  it("commits and returns the closure's value", async () => {
    const s = openStorage()
    const r = await s.transaction(async (txn) => {
      await txn.put("a", 1)
      expect(await txn.get("a")).toBe(1)
      expect([...(await txn.list()).keys()]).toEqual(["a"])
      return 42
    })
    expect(r).toBe(42)
    expect(await s.get("a")).toBe(1)
  })

  it("a thrown closure rolls back and rejects with the same error", async () => {
    const s = openStorage()
    await s.put("keep", 1)
    const boom = new Error("boom")
    await expect(
      s.transaction(async (txn) => {
        await txn.put("a", 1)
        await txn.delete("keep")
        throw boom
      })
    ).rejects.toBe(boom)
    expect(await s.get("a")).toBeUndefined()
    expect(await s.get("keep")).toBe(1)
  })

  it("rollback() undoes the writes, the promise resolves, and later operations on txn throw", async () => {
    const s = openStorage()
    let saved: { put: (k: string, v: unknown) => Promise<void> } | undefined
    const r = await s.transaction(async (txn) => {
      await txn.put("a", 1)
      txn.rollback()
      expect(() => txn.put("b", 2)).toThrow(/rolled back/)
      expect(() => txn.get("a")).toThrow(/rolled back/)
      expect(() => txn.rollback()).toThrow(/rolled back/)
      saved = txn
      return "x"
    })
    expect(r).toBe("x")
    expect(await s.get("a")).toBeUndefined()
    expect(() => saved!.put("c", 1)).toThrow(/rolled back/)
  })

  it("transactionSync rolls back SQL and key-value writes on throw", async () => {
    const s = openStorage()
    s.sql.exec("CREATE TABLE t (x)")
    expect(() =>
      s.transactionSync(() => {
        s.sql.exec("INSERT INTO t VALUES (1)")
        void s.put("k", 1)
        throw new Error("no")
      })
    ).toThrow("no")
    expect(s.sql.exec("SELECT count(*) AS n FROM t").one()).toEqual({ n: 0 })
    expect(await s.get("k")).toBeUndefined()
  })

  it("writes with no await between them commit together; sync() resolves when they are on disk", async () => {
    const dir = tempDir()
    const s = new ObjectStorage(dir)
    void s.put("a", 1)
    void s.put("b", 2)
    await s.sync()
    s.close()
    const again = new ObjectStorage(dir)
    expect(await again.get(["a", "b"])).toEqual(
      new Map([
        ["a", 1],
        ["b", 2]
      ])
    )
    await expect(again.sync()).resolves.toBeUndefined()
    again.close()
  })

  it("the output gate waits for confirmed writes, not for allowUnconfirmed ones", async () => {
    const s = openStorage()
    void s.put("a", 1, { allowUnconfirmed: true })
    let opened = false
    void s.outputGate().then(() => (opened = true))
    await Promise.resolve()
    expect(opened).toBe(true)
    void s.put("b", 1)
    let confirmed = false
    const gate = s.outputGate().then(() => (confirmed = true))
    await Promise.resolve()
    expect(confirmed).toBe(false)
    await turn()
    await gate
    expect(confirmed).toBe(true)
  })

  it("a failed write resets the object: the write rejects with the critical error, and so do the gate and later calls", async () => {
    const broken: Array<Error> = []
    // The object may hold 64 KiB: the 100 KB values below do not fit.
    const s = openStorage(undefined, { onBroken: (e) => broken.push(e), maxDatabaseBytes: 64 * 1024 })
    await s.put("before", 1)
    await s.sync()
    void s.put("small", 1)
    const gate = s.outputGate()
    const values = Array.from({ length: 20 }, (_, i) => [`big${i}`, new Uint8Array(100_000)] as const)
    let failure: unknown
    try {
      for (const [k, v] of values) await s.put(k, v)
    } catch (e) {
      failure = e
    }
    expect(String(failure)).toBe("Error: database or disk is full: SQLITE_FULL")
    // As on the platform, the gate and every later call fail with the critical error.
    await expect(gate).rejects.toThrow("database or disk is full: SQLITE_FULL")
    expect(broken).toHaveLength(1)
    await expect(s.get("before")).rejects.toThrow("database or disk is full: SQLITE_FULL")
  })
})
