// Writes and restores of `edgectl objects` through a running `edgectl objects dev`: each is one
// event of the object; a restore resets it as the platform does; a host killed in the middle of a
// write loses nothing it acknowledged.
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { startDev, workspace } from "../helpers/objects-live.js"

const ledger = path.resolve(import.meta.dirname, "../fixtures/objects/ledger.ts")
const sorted = (xs: Array<number>) => [...xs].sort((a, b) => a - b)
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i)

describe("objects writes and restore through a running host", () => {
  it("kv put|delete and sql writes are events of the object; restore resets it, the next request sees the restored data, the undo bookmark brings the rest back", async () => {
    const { state, run, runJson } = workspace()
    const dev = await startDev(path.dirname(state), state, ledger)
    let final: number
    try {
      expect(await dev.text("/Ledger/a/inc")).toBe("1")
      expect(await dev.text("/Ledger/a/inc")).toBe("2")
      const before = (await runJson<{ bookmark: string }>("bookmark", "Ledger", "a")).bookmark

      // A put among 20 increments: those before it count from 2, those after from 100.
      const [answers, put] = await Promise.all([
        Promise.all(range(0, 20).map(() => dev.text("/Ledger/a/inc").then(Number))),
        runJson("kv", "Ledger", "a", "put", "n", "100", "--value-json")
      ])
      expect(put).toEqual({ key: "n", written: true })
      const after = answers.filter((x) => x > 100).length
      expect(sorted(answers)).toEqual([...range(3, 20 - after), ...range(101, after)])
      final = 100 + after
      expect(await dev.text("/Ledger/a/get")).toBe(JSON.stringify({ n: final }))

      // Several statements in one command: a concurrent request sees none or all of them.
      const [seen, created] = await Promise.all([
        Promise.all(
          range(0, 15).map(async (i) => (await new Promise((r) => setTimeout(r, i * 20)), dev.text("/Ledger/a/rows")))
        ),
        runJson<{ rowsWritten: number }>("sql", "Ledger", "a", "CREATE TABLE t (v); INSERT INTO t VALUES (1), (2), (3)")
      ])
      expect(created.rowsWritten).toBe(3)
      for (const s of seen) expect(["no table", "3"]).toContain(s)
      expect(await dev.text("/Ledger/a/rows")).toBe("3")
      expect(await runJson("sql", "Ledger", "a", "SELECT v FROM t ORDER BY v")).toMatchObject({
        rows: [{ v: 1 }, { v: 2 }, { v: 3 }]
      })
      expect(await runJson("kv", "Ledger", "a", "put", "x", "y")).toEqual({ key: "x", written: true })
      expect(await runJson("kv", "Ledger", "a", "delete", "x")).toEqual({ key: "x", deleted: true })
      const human = await run("kv", "Ledger", "a", "delete", "x")
      expect([human.status, human.stderr]).toEqual([0, 'no key "x" (nothing deleted)\n'])

      // Restore while a request is in flight: it is answered with the reset, the next one sees the past.
      const slow = fetch(`${dev.url}/Ledger/a/slow?ms=1500`)
      await new Promise((r) => setTimeout(r, 300))
      const queued = dev.text("/Ledger/a/get")
      await new Promise((r) => setTimeout(r, 100))
      const restored = await runJson<{ restoredTo: string; undoBookmark: string; pages: number }>(
        "restore",
        "Ledger",
        "a",
        "--bookmark",
        before
      )
      expect(restored.restoredTo).toBe(before)
      expect(restored.pages).toBeGreaterThan(0)
      const interrupted = await slow
      expect(interrupted.status).toBe(500)
      expect(await interrupted.text()).toContain(`reset to restore its storage to ${before}`)
      // The request queued behind the one in flight runs on the restarted object.
      expect(await queued).toBe(JSON.stringify({ n: 2 }))
      expect(await dev.text("/Ledger/a/get")).toBe(JSON.stringify({ n: 2 }))
      expect(await dev.text("/Ledger/a/rows")).toBe("no table")
      expect(await dev.text("/Ledger/a/inc")).toBe("3")

      const undo = await run("restore", "Ledger", "a", "--bookmark", restored.undoBookmark)
      expect(undo.status).toBe(0)
      expect(undo.stderr).toContain(`restored Ledger "a" to ${restored.undoBookmark}`)
      expect(undo.stdout).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}\n$/)
      expect(await dev.text("/Ledger/a/get")).toBe(JSON.stringify({ n: final }))
      expect(await dev.text("/Ledger/a/rows")).toBe("3")
      const bad = await run("restore", "Ledger", "a", "--bookmark", "000000000000-0000000000ff")
      expect([bad.status, bad.stderr]).toEqual([
        1,
        "error: objects restore: unknown bookmark 000000000000-0000000000ff: no such point in this object's retained history\n"
      ])
      expect(await dev.text("/Ledger/a/get")).toBe(JSON.stringify({ n: final }))
    } finally {
      await dev.stop()
    }
    expect(await runJson("kv", "Ledger", "a", "get", "n")).toEqual({ key: "n", found: true, value: final })
    expect(await runJson("sql", "Ledger", "a", "SELECT count(*) AS c FROM t")).toMatchObject({ rows: [{ c: 3 }] })
  })

  it("a kill -9 of the host in the middle of CLI writes through it loses nothing acknowledged", async () => {
    const { state, run, runJson } = workspace()
    const dev = await startDev(path.dirname(state), state, ledger)
    expect(await dev.text("/Ledger/a/inc")).toBe("1")
    const acked: Array<string> = []
    const failed: Array<string> = []
    let killed = false
    const writer = async (w: number) => {
      for (let i = 0; i < 4; i++) {
        const key = `k${w}-${i}`
        const r = await run("kv", "Ledger", "a", "put", key, "x".repeat(5000))
        if (r.status === 0) acked.push(key)
        else failed.push(r.stderr)
        if (!killed && acked.length >= 3) {
          // A request in flight holds the writes that arrive next inside the host: the kill
          // comes while they are under way.
          killed = true
          // (Long enough for the writers' next commands to start and reach the host.)
          fetch(`${dev.url}/Ledger/a/slow?ms=60000`).catch(() => undefined)
          setTimeout(() => dev.child.kill("SIGKILL"), 2500)
        }
      }
    }
    await Promise.all(range(0, 4).map(writer))
    await dev.stop()
    expect(killed).toBe(true)
    // Unacknowledged: cut off by the kill. (Once the host is gone the commands write directly,
    // waiting for one another.)
    for (const e of failed)
      expect(e).toMatch(/^error: objects kv put: the host \(pid \d+\) went away before answering[^\n]*\n$/)
    expect(failed.length + acked.length).toBe(16)
    expect(failed.some((e) => e.includes("went away before answering"))).toBe(true)
    const keys = (await runJson<Array<{ key: string }>>("kv", "Ledger", "a", "list")).map((e) => e.key)
    for (const k of acked) expect(keys).toContain(k)
    expect(await runJson("kv", "Ledger", "a", "get", "n")).toEqual({ key: "n", found: true, value: 1 })
    expect(await runJson("sql", "Ledger", "a", "PRAGMA quick_check")).toMatchObject({
      rows: [{ quick_check: "ok" }]
    })
    // The recovery log kept every acknowledged commit: restoring to the oldest and back works.
    const history = await runJson<Array<{ bookmark: string }>>("bookmark", "Ledger", "a", "--history")
    expect(history.length).toBeGreaterThanOrEqual(acked.length)
    const undo = (
      await runJson<{ undoBookmark: string }>("restore", "Ledger", "a", "--bookmark", history.at(-1)!.bookmark)
    ).undoBookmark
    expect(await runJson("kv", "Ledger", "a", "list")).toHaveLength(1)
    await runJson("restore", "Ledger", "a", "--bookmark", undo)
    expect((await runJson<Array<{ key: string }>>("kv", "Ledger", "a", "list")).map((e) => e.key)).toEqual(keys)
  })
})
