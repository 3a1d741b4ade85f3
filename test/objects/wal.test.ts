import Database from "better-sqlite3"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { readWal } from "../../src/objects/wal.js"
import { tempDir } from "../helpers/cli.js"

/** A database in WAL mode that never checkpoints by itself, with `n` committed inserts. */
const withCommits = (n: number) => {
  const file = path.join(tempDir(), "db.sqlite")
  const db = new Database(file)
  db.pragma("journal_mode = WAL")
  db.pragma("wal_autocheckpoint = 0")
  db.exec("CREATE TABLE t (v TEXT)")
  const insert = db.prepare("INSERT INTO t (v) VALUES (?)")
  for (let i = 0; i < n; i++) insert.run(`value ${i}`)
  return { db, wal: `${file}-wal`, insert }
}

describe("reading committed frames from the WAL", () => {
  it("reads every commit, then only the new ones from where it stopped", () => {
    const { db, wal, insert } = withCommits(5)
    const first = readWal(wal, 0, null)!
    expect(first.commits).toHaveLength(6) // CREATE TABLE and five inserts
    insert.run("later")
    const next = readWal(wal, first.offset, first.salt, first.checksum)!
    expect(next.commits).toHaveLength(1)
    expect(next.offset).toBe(fs.statSync(wal).size)
    // Without the checksum (a log written by an older edgectl) it reads from the header and
    // returns only what lies past the offset.
    expect(readWal(wal, first.offset, first.salt, null)!.commits).toHaveLength(1)
    db.close()
  })

  it("stops at a torn frame, as SQLite's recovery does: the commits before it count, it and later ones do not", () => {
    const { db, wal } = withCommits(4)
    const all = readWal(wal, 0, null)!
    expect(all.commits).toHaveLength(5)
    const bytes = fs.readFileSync(wal)
    const frameSize = 24 + all.pageSize
    // One flipped byte in the page of the last frame (the last commit).
    const last = bytes.length - frameSize
    bytes[last + 24 + 100] = bytes[last + 24 + 100]! ^ 0xff
    fs.writeFileSync(wal, bytes)
    const torn = readWal(wal, 0, null)!
    expect(torn.commits).toHaveLength(4)
    expect(torn.offset).toBe(last)
    db.close()
  })

  it("refuses a log whose header checksum is wrong", () => {
    const { db, wal } = withCommits(1)
    const bytes = fs.readFileSync(wal)
    bytes[12] = bytes[12]! ^ 0x01 // the checkpoint sequence, covered by the header's checksum
    fs.writeFileSync(wal, bytes)
    expect(readWal(wal, 0, null)).toBeNull()
    db.close()
  })
})
