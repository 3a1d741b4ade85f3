import { describe, expect, it } from "vitest"
import { BookmarkError, ObjectStorage, PITR_WINDOW_MS } from "../../src/objects/index.js"
import { dump, tempDir, turn } from "../helpers/objects.js"

// A small deterministic generator, so that a failure can be replayed from its seed.
const rng = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x80000000
}

// The commit a bookmark names (each getCurrentBookmark() call gives a later bookmark of it).
const commitOf = (bookmark: string): string => bookmark.split("-")[2]!

describe("point-in-time recovery", () => {
  it("bookmarks sort in time order; restore happens at the next start and can be undone", async () => {
    const dir = tempDir()
    let s = new ObjectStorage(dir)
    await s.put("a", 1)
    const b1 = await s.getCurrentBookmark()
    s.sql.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
    await s.put("a", 2)
    const b2 = await s.getCurrentBookmark()
    expect(b1 < b2).toBe(true)
    expect(b1).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/)
    const before = await dump(s)
    const undo = await s.onNextSessionRestoreBookmark(b1)
    // The undo bookmark names the present commit, as b2 does, and is taken later.
    expect([commitOf(undo), undo > b2]).toEqual([commitOf(b2), true])
    // Still the present until the object restarts.
    expect(await s.get("a")).toBe(2)
    s.close()
    s = new ObjectStorage(dir)
    expect(await s.get("a")).toBe(1)
    expect(s.sql.exec("SELECT name FROM sqlite_master WHERE name = 't'").toArray()).toEqual([])
    await s.onNextSessionRestoreBookmark(undo)
    s.close()
    s = new ObjectStorage(dir)
    expect(await dump(s)).toEqual(before)
    s.close()
  })

  it("refuses malformed and unknown bookmarks, and times outside the 30-day window", async () => {
    let now = Date.UTC(2026, 0, 1)
    const dir = tempDir()
    const s = new ObjectStorage(dir, { now: () => now })
    await expect(s.onNextSessionRestoreBookmark("nope")).rejects.toBeInstanceOf(BookmarkError)
    await expect(s.onNextSessionRestoreBookmark("000000000000-0000000000ff")).rejects.toThrow(/unknown bookmark/)
    await expect(s.getBookmarkForTime(now - PITR_WINDOW_MS - 1)).rejects.toThrow(
      /outside the recovery window of 30 days/
    )
    await expect(s.getBookmarkForTime(Number.NaN)).rejects.toThrow(/not a valid time/)
    s.close()
    expect(now).toBeGreaterThan(0)
    now += 1
  })

  it("bookmarks have the platform's shape; a changed one is refused; an older edgectl's 12hex-12hex form still restores", async () => {
    let now = Date.UTC(2026, 0, 1)
    const dir = tempDir()
    let s = new ObjectStorage(dir, { now: () => now })
    await s.put("v", 1)
    await s.sync()
    const one = await s.getBookmarkForTime(now)
    expect(one).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/)
    // The time in its first two parts, the commit in the third.
    const [hi, lo, seq] = one.split("-")
    expect(parseInt(hi!, 16) * 2 ** 32 + parseInt(lo!, 16)).toBeLessThanOrEqual(now)
    now += 1000
    await s.put("v", 2)
    await s.sync()
    const current = await s.getCurrentBookmark()
    expect(current > one).toBe(true)
    // One digit of the check part changed: not a bookmark, rather than some other commit.
    const typo = one.slice(0, -1) + (one.endsWith("0") ? "1" : "0")
    await expect(s.onNextSessionRestoreBookmark(typo)).rejects.toThrow(/does not match the first three/)
    await expect(s.onNextSessionRestoreBookmark("0000007b-0000b26e-00001538")).rejects.toThrow(
      /expected 8 hex digits, "-", 8, "-", 8, "-", 32/
    )
    // The form written before: 12 hex digits of time, 12 of commit sequence.
    const older = `${Math.floor(parseInt(hi!, 16) * 2 ** 32 + parseInt(lo!, 16))
      .toString(16)
      .padStart(12, "0")}-${seq!.padStart(12, "0")}`
    await s.onNextSessionRestoreBookmark(older)
    s.close()
    s = new ObjectStorage(dir, { now: () => now })
    expect(await s.get("v")).toBe(1)
    s.close()
  })

  it("getBookmarkForTime finds the last commit at or before the time (number or Date)", async () => {
    let now = Date.UTC(2026, 0, 1)
    const dir = tempDir()
    let s = new ObjectStorage(dir, { now: () => now })
    const times: Array<number> = []
    for (let i = 0; i < 5; i++) {
      now += 1000
      await s.put("v", i)
      await s.sync()
      times.push(now)
    }
    const b = await s.getBookmarkForTime(new Date(times[2]! + 500))
    expect(b).toBe(await s.getBookmarkForTime(times[2]!))
    await s.onNextSessionRestoreBookmark(b)
    s.close()
    s = new ObjectStorage(dir, { now: () => now })
    expect(await s.get("v")).toBe(2)
    s.close()
  })

  it("compacts history older than 30 days into the base, keeping the content", async () => {
    let now = Date.UTC(2026, 0, 1)
    const dir = tempDir()
    let s = new ObjectStorage(dir, { now: () => now })
    for (let i = 0; i < 10; i++) {
      await s.put(`k${i}`, i)
      await s.sync()
      now += 1000
    }
    const old = await s.getCurrentBookmark()
    const content = await dump(s)
    s.close()
    now += PITR_WINDOW_MS + 10_000
    s = new ObjectStorage(dir, { now: () => now })
    expect(s.history()).toEqual([])
    expect(await dump(s)).toEqual(content)
    const undo = await s.onNextSessionRestoreBookmark(old)
    expect([commitOf(undo), undo > old]).toEqual([commitOf(old), true])
    await s.put("new", 1)
    const cur = await s.getCurrentBookmark()
    expect(cur > old).toBe(true)
    s.close()
  })

  it("1,000 random key-value and SQL operations: a restore to each bookmark gives exactly the content at that moment", async () => {
    const random = rng(20261123)
    const pick = <T>(xs: ReadonlyArray<T>): T => xs[Math.floor(random() * xs.length)]!
    const dir = tempDir()
    let s = new ObjectStorage(dir)
    const marks: Array<{ bookmark: string; content: unknown }> = []
    const tables = new Set<string>()
    const key = () => `k${Math.floor(random() * 200)}`
    for (let op = 0; op < 1000; op++) {
      const r = random()
      const table = tables.size > 0 ? pick([...tables]) : undefined
      if (r < 0.3) await s.put(key(), { n: op, s: "x".repeat(Math.floor(random() * 3000)) })
      else if (r < 0.38) void s.put(Object.fromEntries(Array.from({ length: 20 }, () => [key(), op])))
      else if (r < 0.45) await s.delete(key())
      else if (r < 0.48) await s.delete([key(), key(), key()])
      else if (r < 0.52 || table === undefined) {
        const name = `t${Math.floor(random() * 6)}`
        if (!tables.has(name)) {
          s.sql.exec(`CREATE TABLE ${name} (id INTEGER PRIMARY KEY, v TEXT, extra)`)
          tables.add(name)
        }
      } else if (r < 0.75) s.sql.exec(`INSERT INTO ${table} (v) VALUES (?)`, "y".repeat(Math.floor(random() * 2000)))
      else if (r < 0.82) s.sql.exec(`UPDATE ${table} SET v = ? WHERE id % 3 = ?`, `u${op}`, op % 3)
      else if (r < 0.88) s.sql.exec(`DELETE FROM ${table} WHERE id % 5 = ?`, op % 5)
      else if (r < 0.9) {
        s.sql.exec(`DROP TABLE ${table}`)
        tables.delete(table)
      } else if (r < 0.92) s.sql.exec(`CREATE INDEX IF NOT EXISTS ${table}_v ON ${table} (v)`)
      else if (r < 0.94) await s.setAlarm(Date.now() + 3_600_000 + op)
      else if (r < 0.95) await s.deleteAlarm()
      else if (r < 0.955) {
        await s.deleteAll()
        tables.clear()
      } else await turn()
      if (op % 40 === 39) marks.push({ bookmark: await s.getCurrentBookmark(), content: await dump(s) })
    }
    const finalContent = await dump(s)
    const order = marks.map((_, i) => i).sort(() => random() - 0.5)
    let undo = ""
    for (const i of order) {
      const u = await s.onNextSessionRestoreBookmark(marks[i]!.bookmark)
      if (undo === "") undo = u
      s.close()
      s = new ObjectStorage(dir)
      expect(s.sql.exec("PRAGMA quick_check").raw().toArray(), `restore to mark ${i}`).toEqual([["ok"]])
      expect(await dump(s), `restore to mark ${i}`).toEqual(marks[i]!.content)
    }
    await s.onNextSessionRestoreBookmark(undo)
    s.close()
    s = new ObjectStorage(dir)
    expect(await dump(s)).toEqual(finalContent)
    s.close()
  })
})
