/**
 * A bulk's staged entries committed by the worker thread (src/store/commit-worker.ts) on its own
 * connection to a real store: from memory and from the staging file, all of them or none, and
 * nothing when the namespace is gone by the time its transaction begins. The write gate queues
 * worker commits and keeps the server's writers waiting until the last one is done.
 */
import type Database from "better-sqlite3"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hexId } from "../../src/domain/ids.js"
import { seedDemo } from "../../src/demo/seeds.js"
import { StagedEntries } from "../../src/kv/staging.js"
import { commitInWorker, WriteGate } from "../../src/store/commit-worker.js"
import { open } from "../../src/store/db.js"
import { sqliteClientOn } from "../../src/store/sql-client.js"
import * as Engine from "../../src/store/kv-repo.js"
import * as Pages from "../../src/store/kv-pages.js"

let db: Database.Database
let file = ""
const acme = hexId("account", "Acme Corp")
const now = 1_800_000_000

beforeAll(async () => {
  file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "edgectl-commit-worker-")), "platform.sqlite")
  db = await Effect.runPromise(open(file, seedDemo()))
})
afterAll(() => db?.close())

/** `n` entries staged with `memoryLimit` bytes of memory (beyond it, a temporary file). */
const staged = (n: number, memoryLimit: number) => {
  const s = new StagedEntries(memoryLimit)
  for (let i = 0; i < n; i++) {
    s.add({
      key: `k${i}`,
      value: Buffer.from(`value ${i} `.repeat(50)),
      metadata: i % 2 === 0 ? JSON.stringify({ i }) : null,
      expiration: i % 3 === 0 ? now + 3600 : null
    })
  }
  return s
}

const stored = (ns: number) =>
  Pages.listKeys(db, ns, { limit: 10_000 }, now).keys.map((k) => ({
    ...k,
    value: Engine.getEntry(db, ns, k.name, now)?.value.toString()
  }))

describe("a bulk committed in a worker thread", () => {
  for (const [where, memoryLimit] of [
    ["memory", 64 << 20],
    ["the staging file", 64 << 10]
  ] as const) {
    it(`writes every entry staged in ${where}, as the server's connection would`, async () => {
      const viaWorker = Engine.createNamespace(db, acme, `worker-${where}`)
      const viaMain = Engine.createNamespace(db, acme, `main-${where}`)
      const s = staged(2000, memoryLimit)
      try {
        expect(await commitInWorker({ file, ns: viaWorker.seq, now, staged: s.handoff() })).toBe(true)
        Engine.putEntries(db, viaMain.seq, s.entries(), now)
      } finally {
        s.release()
      }
      const written = stored(viaWorker.seq)
      expect(written).toHaveLength(2000)
      expect(written).toEqual(stored(viaMain.seq))
    })
  }

  it("writes nothing, and says so, when the namespace was deleted before its transaction", async () => {
    const ns = Engine.createNamespace(db, acme, "deleted-before-commit")
    await Effect.runPromise(Effect.flatMap(sqliteClientOn(db, file), (sql) => Engine.deleteNamespace(sql, ns.seq)))
    const s = staged(100, 64 << 10)
    try {
      expect(await commitInWorker({ file, ns: ns.seq, now, staged: s.handoff() })).toBe(false)
    } finally {
      s.release()
    }
    expect(db.prepare("SELECT count(*) AS n FROM kv_entries WHERE ns = ?").get(ns.seq)).toEqual({ n: 0 })
  })

  it("rejects with the store's error when the transaction fails, writing nothing", async () => {
    const s = staged(10, 64 << 10)
    try {
      await expect(
        commitInWorker({ file: path.join(path.dirname(file), "missing.sqlite"), ns: 1, now, staged: s.handoff() })
      ).rejects.toThrow(/missing\.sqlite|unable to open/)
    } finally {
      s.release()
    }
  })
})

describe("the write gate", () => {
  it("is open with no commit, queues commits in order, and opens after the last", async () => {
    const gate = new WriteGate()
    expect(gate.idle()).toBeUndefined()
    const order: Array<string> = []
    let finishFirst!: () => void
    const first = gate.hold(() =>
      new Promise<void>((resolve) => (finishFirst = resolve)).then(() => order.push("first"))
    )
    const second = gate.hold(async () => order.push("second"))
    const idle = gate.idle()
    expect(idle).toBeDefined()
    void idle!.then(() => order.push("writer"))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(order).toEqual([])
    finishFirst()
    await Promise.all([first, second, idle])
    expect(order).toEqual(["first", "second", "writer"])
    expect(gate.idle()).toBeUndefined()
  })
})
