/**
 * The object's logs are checkpointed in a worker (src/objects/checkpointer.ts) and SQLite then
 * starts them over from their beginning, with new salts, under the page log's reader: every commit
 * is still in the history, and a restore to any bookmark taken across those restarts gives exactly
 * the content of that moment.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { ObjectStorage } from "../../src/objects/index.js"
import { dump, tempDir } from "../helpers/objects.js"

/** The salts of the object's write-ahead log: they change when the log starts over. */
const walSalt = (dir: string): string | undefined => {
  try {
    const fd = fs.openSync(path.join(dir, "db.sqlite-wal"), "r")
    try {
      const head = Buffer.alloc(32)
      if (fs.readSync(fd, head, 0, 32, 0) < 32) return undefined
      return head.subarray(16, 24).toString("hex")
    } finally {
      fs.closeSync(fd)
    }
  } catch {
    return undefined
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe("point-in-time recovery across checkpoints in the worker", () => {
  it("logs started over many times keep every commit: a restore to each bookmark gives its content", async () => {
    const dir = tempDir()
    let s = new ObjectStorage(dir)
    const marks: Array<{ bookmark: string; content: unknown }> = []
    const salts = new Set<string>()
    // Each commit ~60 pages (new keys, 6 kB values of two pages each, a few overwritten), 240
    // commits: ~60 MB of log in all, under the writer's own limit (64 MB) since the log starts over.
    for (let c = 0; c < 240; c++) {
      const entries = Array.from({ length: 24 }, (_, i) => [
        i < 4 ? `hot${i}` : `k${c}-${i}`,
        `${c}:${"v".repeat(6000)}`
      ])
      await s.put(Object.fromEntries(entries))
      if (c % 20 === 19) {
        s.sql.exec(
          c === 19 ? "CREATE TABLE t (c INTEGER, v TEXT)" : "INSERT INTO t VALUES (?, ?)",
          ...(c === 19 ? [] : [c, "x".repeat(3000)])
        )
        if (c % 40 === 39) await s.delete([`k${c - 30}-5`, `k${c - 30}-6`])
        await s.sync()
        marks.push({ bookmark: await s.getCurrentBookmark(), content: await dump(s) })
        // A moment for the worker's checkpoint to finish, so that the next write starts the log over.
        await pause(100)
        await s.put("tick", c)
        await s.sync()
        const salt = walSalt(dir)
        if (salt !== undefined) salts.add(salt)
      }
    }
    const finalContent = await dump(s)
    // The log started over (new salts) while the object stayed open, never past the writer's limit.
    expect(salts.size).toBeGreaterThan(2)
    expect(fs.statSync(path.join(dir, "db.sqlite-wal")).size).toBeLessThan(64 * 1024 * 1024)
    let undo = ""
    for (const i of [0, 5, 11, 3, 8, 10]) {
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
