// `edgectl objects kv|sql|bookmark|restore` against a running `edgectl objects dev`: through the
// host's control channel while it runs, directly on the storage once it has stopped.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { startDev, workspace } from "../helpers/objects-live.js"

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/

describe("objects commands through a running host", () => {
  it("reads: kv get|list, sql and bookmarks between requests, during fetch traffic; the same once the host has stopped", async () => {
    const { state, run, runJson } = workspace()
    const dev = await startDev(path.dirname(state), state)
    try {
      expect(await dev.text("/Counter/a/inc")).toBe("1")
      expect(await dev.text("/Counter/a/inc")).toBe("2")
      expect(await runJson("kv", "Counter", "a", "get", "n")).toEqual({ key: "n", found: true, value: 2 })
      expect((await run("kv", "Counter", "a", "get", "n")).stdout).toBe("2\n")

      // Reads while 30 increments run: each sees the count after some whole number of them.
      const incs = Promise.all(Array.from({ length: 30 }, () => dev.text("/Counter/a/inc")))
      const [answers, got, listed, computed] = await Promise.all([
        incs,
        runJson<{ value: number }>("kv", "Counter", "a", "get", "n"),
        runJson<Array<{ key: string; value: number }>>("kv", "Counter", "a", "list"),
        runJson("sql", "Counter", "a", "SELECT 6 * 7 AS answer")
      ])
      expect(answers.map(Number).sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 3))
      expect(got.value).toBeGreaterThanOrEqual(2)
      expect(got.value).toBeLessThanOrEqual(32)
      expect(listed).toHaveLength(1)
      expect(listed[0]!.key).toBe("n")
      expect(computed).toEqual({ columns: ["answer"], rows: [{ answer: 42 }], rowsRead: 1, rowsWritten: 0 })
      expect(await runJson("kv", "Counter", "a", "list")).toEqual([{ key: "n", value: 32 }])

      // A bookmark taken by the host between two requests sorts with those the object takes itself.
      const own = await dev.text("/Counter/a/bookmark")
      const between = (await runJson<{ bookmark: string }>("bookmark", "Counter", "a")).bookmark
      expect(await dev.text("/Counter/a/inc")).toBe("33")
      const after = await dev.text("/Counter/a/bookmark")
      for (const b of [own, between, after]) expect(b).toMatch(BOOKMARK)
      // Each call gives a later bookmark; own and between name the same commit.
      const commitOf = (b: string) => b.split("-")[2]
      expect([commitOf(between), between > own]).toEqual([commitOf(own), true])
      expect(after > between).toBe(true)
      const history = await runJson<Array<{ bookmark: string }>>("bookmark", "Counter", "a", "--history")
      expect(commitOf(history[0]!.bookmark)).toBe(commitOf(after))
      expect(history.map((h) => commitOf(h.bookmark))).toContain(commitOf(between))
      const humanHistory = await run("bookmark", "Counter", "a", "--history")
      expect(humanHistory.stdout.split("\n")[0]).toMatch(/^BOOKMARK\s+TIME\s+KIND$/)

      // An object of the host's class that it has not started yet: read through the host too.
      expect(await dev.text("/Counter/b/inc")).toBe("1")
      expect(await runJson("kv", "Counter", "b", "get", "n")).toEqual({ key: "n", found: true, value: 1 })
      const missing = await run("kv", "Counter", "nobody", "get", "n")
      expect(missing.status).toBe(1)
      expect(missing.stderr).toMatch(/^error: objects kv get: no object Counter "nobody"/)
      const noKey = await run("kv", "Counter", "a", "get", "nope")
      expect([noKey.status, noKey.stderr]).toEqual([1, 'error: objects kv get: no key "nope"\n'])
      const reserved = await run("sql", "Counter", "a", "SELECT * FROM _cf_KV")
      expect(reserved.status).toBe(1)
      expect(reserved.stderr).toMatch(/^error: objects sql: access to _cf_KV\.key is prohibited/)
      expect(reserved.stderr.trim().split("\n")).toHaveLength(1)
      expect(fs.statSync(path.join(state, ".host")).mode & 0o777).toBe(0o700)
    } finally {
      await dev.stop()
    }
    // Stopped: the same commands open the storage directly and see the same state.
    expect(fs.readdirSync(path.join(state, ".host"))).toEqual([])
    expect(await runJson("kv", "Counter", "a", "get", "n")).toEqual({ key: "n", found: true, value: 33 })
    expect(await runJson("kv", "Counter", "a", "list")).toEqual([{ key: "n", value: 33 }])
    const history = await runJson<Array<{ bookmark: string }>>("bookmark", "Counter", "a", "--history")
    const present = (await runJson<{ bookmark: string }>("bookmark", "Counter", "a")).bookmark
    expect(present.split("-")[2]).toBe(history[0]!.bookmark.split("-")[2])
  })
})
