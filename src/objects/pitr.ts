// Point-in-time recovery: a page log fed from the object's write-ahead log (design A of the
// docs/objects.md's PITR section). `base.sqlite` is the database at the start of the retained history;
// `pitr.sqlite` holds every committed page image after it, by commit sequence. A restore writes,
// for each page changed after the bookmark, its image as of the bookmark, so it costs the pages it
// undoes; and it is itself logged as a commit, so it can be undone like any other change.
import type Database from "better-sqlite3"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { Checkpointer } from "./checkpointer.js"
import { openObjectSqlite } from "./sqlite-binding.js"
import { PITR_WINDOW_MS } from "./limits.js"
import { readWal, type WalChecksum } from "./wal.js"

const BASE_FILE = "base.sqlite"
export const LOG_FILE = "pitr.sqlite"

const hex = (n: number, w: number): string => n.toString(16).padStart(w, "0")
const TWO_32 = 2 ** 32

// The platform's bookmark shape: three 8-hex-digit parts and a 32-hex-digit tail
// (`0000007b-0000b26e-00001538-0c3e87bb37b3db5cc52eedb93cd3b96b`). The runtime's public source
// (workerd) only passes bookmarks through to the storage service, which is closed, so what the
// parts mean there is not documented; the docs promise only that string order is time order.
// Ours: commit time in ms (high 32 bits, low 32 bits), commit sequence, and a check of those three
// (the first 16 bytes of their SHA-256), so a mistyped or foreign bookmark is refused, not misread.
const tail = (head: string): string => createHash("sha256").update(head).digest("hex").slice(0, 32)

export const formatBookmark = (time: number, seq: number): string => {
  const head = `${hex(Math.floor(time / TWO_32), 8)}-${hex(time % TWO_32, 8)}-${hex(seq, 8)}`
  return `${head}-${tail(head)}`
}

const BOOKMARK = /^([0-9a-f]{8})-([0-9a-f]{8})-([0-9a-f]{8})-([0-9a-f]{32})$/
// The form state directories written before this one hold (12 hex digits of time, 12 of
// sequence): still accepted, so a bookmark noted from an older edgectl restores.
const OLD_BOOKMARK = /^([0-9a-f]{12})-([0-9a-f]{12})$/

export class BookmarkError extends Error {
  constructor(message: string) {
    super(message)
    this.name = "BookmarkError"
  }
}

export const parseBookmark = (bookmark: unknown): { time: number; seq: number } => {
  const text = typeof bookmark === "string" ? bookmark.toLowerCase() : null
  const old = text === null ? null : OLD_BOOKMARK.exec(text)
  if (old !== null) return { time: parseInt(old[1]!, 16), seq: parseInt(old[2]!, 16) }
  const m = text === null ? null : BOOKMARK.exec(text)
  if (m === null) {
    throw new BookmarkError(
      `not a bookmark: ${JSON.stringify(bookmark)} (expected 8 hex digits, "-", 8, "-", 8, "-", 32, like 0000019a-7c2b1e40-00000003-<32 hex>)`
    )
  }
  if (m[4] !== tail(`${m[1]}-${m[2]}-${m[3]}`)) {
    throw new BookmarkError(
      `not a bookmark: ${JSON.stringify(bookmark)} (its last part does not match the first three)`
    )
  }
  return { time: parseInt(m[1]!, 16) * TWO_32 + parseInt(m[2]!, 16), seq: parseInt(m[3]!, 16) }
}

export interface Commit {
  readonly seq: number
  readonly time: number
  readonly size: number
  readonly restore: boolean
}

export class PageLog {
  private readonly db: Database.Database
  private readonly dir: string
  private readonly now: () => number
  private pageSize: number
  private walOffset: number
  private walSalt: string | null
  private walChecksum: WalChecksum | null
  private last: Commit
  // The time of the last bookmark current() gave (ms).
  private issued = 0
  private readonly insertPage: Database.Statement
  private readonly insertCommit: Database.Statement
  private readonly setMeta: Database.Statement
  /** This log's SQLite file. */
  readonly file: string
  /** Checkpoints of the object's log and this one, in a worker (checkpointer.ts). */
  readonly checkpoints = new Checkpointer()
  /** Frames of the object's log archived since the last checkpoint was asked for (database.ts). */
  framesSinceCheckpoint = 0

  constructor(dir: string, now: () => number) {
    this.dir = dir
    this.now = now
    this.file = path.join(dir, LOG_FILE)
    // The objects' SQLite build, as the object's own database and the checkpointing thread use.
    this.db = openObjectSqlite(this.file)
    this.db.pragma("journal_mode = WAL")
    this.db.pragma("synchronous = NORMAL")
    // The worker checkpoints this log beside the writes; SQLite's own checkpoint on commit is only
    // the fallback, far past the worker's pace (64 MB).
    this.db.pragma("wal_autocheckpoint = 16384")
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS commits (seq INTEGER PRIMARY KEY, time INTEGER NOT NULL, size INTEGER NOT NULL, restore INTEGER NOT NULL DEFAULT 0);
      CREATE TABLE IF NOT EXISTS pages (seq INTEGER NOT NULL, pgno INTEGER NOT NULL, data BLOB NOT NULL);
      CREATE INDEX IF NOT EXISTS pages_by_pgno ON pages (pgno, seq);
      CREATE INDEX IF NOT EXISTS pages_by_seq ON pages (seq);
    `)
    this.insertPage = this.db.prepare("INSERT INTO pages (seq, pgno, data) VALUES (?, ?, ?)")
    this.insertCommit = this.db.prepare("INSERT INTO commits (seq, time, size, restore) VALUES (?, ?, ?, ?)")
    this.setMeta = this.db.prepare("INSERT OR REPLACE INTO meta (k, v) VALUES (?, ?)")
    this.pageSize = Number(this.meta("page_size") ?? 4096)
    this.walOffset = Number(this.meta("wal_offset") ?? 0)
    this.walSalt = (this.meta("wal_salt") as string | undefined) ?? null
    // Logs written before checksums were kept have none: the next read starts at the WAL's header.
    const sum = this.meta("wal_checksum") as string | undefined | null
    this.walChecksum = typeof sum === "string" ? (sum.split(":").map(Number) as unknown as WalChecksum) : null
    this.last = this.lastCommit()
  }

  close(): void {
    this.checkpoints.stop()
    this.db.close()
  }

  private meta(k: string): unknown {
    const row = this.db.prepare("SELECT v FROM meta WHERE k = ?").get(k) as { v: unknown } | undefined
    return row?.v
  }

  private lastCommit(): Commit {
    const row = this.db.prepare("SELECT seq, time, size, restore FROM commits ORDER BY seq DESC LIMIT 1").get() as
      { seq: number; time: number; size: number; restore: number } | undefined
    if (row !== undefined) return { ...row, restore: row.restore === 1 }
    return this.base()
  }

  private base(): Commit {
    return {
      seq: Number(this.meta("base_seq") ?? 0),
      time: Number(this.meta("base_time") ?? 0),
      size: Number(this.meta("base_size") ?? 0),
      restore: false
    }
  }

  get initialized(): boolean {
    return this.meta("base_time") !== undefined
  }

  // The main database, fully checkpointed, becomes the base of the history.
  initialize(mainFile: string, pageSize: number): void {
    fs.copyFileSync(mainFile, path.join(this.dir, BASE_FILE))
    const size = Math.floor(fs.statSync(mainFile).size / pageSize)
    this.pageSize = pageSize
    const time = this.now()
    this.db.transaction(() => {
      this.setMeta.run("page_size", pageSize)
      this.setMeta.run("base_seq", 0)
      this.setMeta.run("base_time", time)
      this.setMeta.run("base_size", size)
    })()
    this.last = { seq: 0, time, size, restore: false }
  }

  // Appends the WAL's commits since the last call. Called after every commit of the object.
  archive(walFile: string): number {
    const read = readWal(walFile, this.walSalt === null ? 0 : this.walOffset, this.walSalt, this.walChecksum)
    if (read === null || read.commits.length === 0) {
      if (read !== null && (read.salt !== this.walSalt || this.walChecksum === null))
        this.rememberWal(read.offset, read.salt, read.checksum)
      return 0
    }
    this.db.transaction(() => {
      for (const commit of read.commits) {
        const seq = this.last.seq + 1
        const time = Math.max(this.now(), this.last.time, this.issued)
        const latest = new Map<number, Buffer>()
        for (const f of commit.frames) latest.set(f.pgno, f.data)
        this.framesSinceCheckpoint += commit.frames.length
        for (const [pgno, data] of latest) this.insertPage.run(seq, pgno, data)
        this.insertCommit.run(seq, time, commit.size, 0)
        this.last = { seq, time, size: commit.size, restore: false }
      }
      this.rememberWal(read.offset, read.salt, read.checksum)
    })()
    return read.commits.length
  }

  private rememberWal(offset: number, salt: string | null, checksum: WalChecksum | null): void {
    this.setMeta.run("wal_offset", offset)
    this.setMeta.run("wal_salt", salt)
    this.setMeta.run("wal_checksum", checksum === null ? null : checksum.join(":"))
    this.walOffset = offset
    this.walSalt = salt
    this.walChecksum = checksum
  }

  // The WAL was checkpointed and truncated (or deleted): the next frames start a new file.
  walReset(): void {
    this.rememberWal(0, null, null)
  }

  // The last commit's own bookmark: the same until the next commit (what edgectl's views compare).
  committed(): string {
    return formatBookmark(this.last.time, this.last.seq)
  }

  // The present as a bookmark: the last commit, at the time of the call. As on the platform,
  // each call gives a later bookmark than the one before (string order is still time order: a
  // commit after it is timed no earlier), and every one restores to that commit.
  current(): string {
    this.issued = Math.max(this.now(), this.last.time, this.issued + 1)
    return formatBookmark(this.issued, this.last.seq)
  }

  forTime(ms: number): string {
    const base = this.base()
    const now = this.now()
    if (!Number.isFinite(ms)) throw new RangeError(`getBookmarkForTime(): not a valid time: ${ms}`)
    if (ms < now - PITR_WINDOW_MS) {
      throw new RangeError(
        `getBookmarkForTime(): ${new Date(ms).toISOString()} is outside the recovery window of 30 days (earliest ${new Date(now - PITR_WINDOW_MS).toISOString()})`
      )
    }
    const row = this.db.prepare("SELECT seq, time FROM commits WHERE time <= ? ORDER BY seq DESC LIMIT 1").get(ms) as
      { seq: number; time: number } | undefined
    if (row !== undefined) return formatBookmark(row.time, row.seq)
    return formatBookmark(base.time, base.seq)
  }

  check(bookmark: string): { time: number; seq: number } {
    const b = parseBookmark(bookmark)
    const base = this.base()
    // A bookmark names a commit at its time, or later (current() times it by the call).
    const committed =
      b.seq === base.seq
        ? base.time
        : (this.db.prepare("SELECT time FROM commits WHERE seq = ?").get(b.seq) as { time: number } | undefined)?.time
    const ok = committed !== undefined && committed <= b.time
    if (!ok) throw new BookmarkError(`unknown bookmark ${bookmark}: no such point in this object's retained history`)
    return b
  }

  commits(limit = 200): Array<Commit & { bookmark: string }> {
    const rows = this.db
      .prepare("SELECT seq, time, size, restore FROM commits ORDER BY seq DESC LIMIT ?")
      .all(limit) as Array<{ seq: number; time: number; size: number; restore: number }>
    return rows.map((r) => ({ ...r, restore: r.restore === 1, bookmark: formatBookmark(r.time, r.seq) }))
  }

  get pending(): string | null {
    return (this.meta("pending_restore") as string | undefined) ?? null
  }
  set pending(bookmark: string | null) {
    this.setMeta.run("pending_restore", bookmark)
  }

  private sizeAt(seq: number): number {
    const base = this.base()
    if (seq === base.seq) return base.size
    return (this.db.prepare("SELECT size FROM commits WHERE seq = ?").get(seq) as { size: number }).size
  }

  private readBase(pgno: number): Buffer {
    const buf = Buffer.alloc(this.pageSize)
    const fd = fs.openSync(path.join(this.dir, BASE_FILE), "r")
    try {
      fs.readSync(fd, buf, 0, this.pageSize, (pgno - 1) * this.pageSize)
    } finally {
      fs.closeSync(fd)
    }
    return buf
  }

  // Rewrites the closed, checkpointed main file to its content at `bookmark`, and logs that as a
  // new commit. Returns the number of pages written.
  restore(mainFile: string, bookmark: string): number {
    const { seq } = this.check(bookmark)
    const size = this.sizeAt(seq)
    const changed = new Set(
      this.db.prepare("SELECT DISTINCT pgno FROM pages WHERE seq > ?").pluck().all(seq) as Array<number>
    )
    // A later commit that shrank the file (a restore) dropped pages that the bookmark still has.
    const smallest = this.db.prepare("SELECT min(size) FROM commits WHERE seq > ?").pluck().get(seq) as number | null
    if (smallest !== null) for (let p = smallest + 1; p <= size; p++) changed.add(p)
    const at = this.db.prepare("SELECT data FROM pages WHERE pgno = ? AND seq <= ? ORDER BY seq DESC LIMIT 1").pluck()
    const images = new Map<number, Buffer>()
    for (const pgno of changed) {
      if (pgno > size) continue
      images.set(pgno, (at.get(pgno, seq) as Buffer | undefined) ?? this.readBase(pgno))
    }
    const fd = fs.openSync(mainFile, "r+")
    try {
      for (const [pgno, data] of images) fs.writeSync(fd, data, 0, data.length, (pgno - 1) * this.pageSize)
      fs.ftruncateSync(fd, size * this.pageSize)
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    const next = this.last.seq + 1
    const time = Math.max(this.now(), this.last.time, this.issued)
    this.db.transaction(() => {
      for (const [pgno, data] of images) this.insertPage.run(next, pgno, data)
      this.insertCommit.run(next, time, size, 1)
      this.setMeta.run("pending_restore", null)
    })()
    this.last = { seq: next, time, size, restore: true }
    return images.size
  }

  // Folds history older than the window into base.sqlite.
  compact(): number {
    const cutoff = this.now() - PITR_WINDOW_MS
    const row = this.db
      .prepare("SELECT seq, time, size FROM commits WHERE time < ? ORDER BY seq DESC LIMIT 1")
      .get(cutoff) as { seq: number; time: number; size: number } | undefined
    if (row === undefined) return 0
    const pgnos = this.db
      .prepare("SELECT DISTINCT pgno FROM pages WHERE seq <= ?")
      .pluck()
      .all(row.seq) as Array<number>
    const at = this.db.prepare("SELECT data FROM pages WHERE pgno = ? AND seq <= ? ORDER BY seq DESC LIMIT 1").pluck()
    const fd = fs.openSync(path.join(this.dir, BASE_FILE), "r+")
    try {
      for (const pgno of pgnos) {
        if (pgno > row.size) continue
        const data = at.get(pgno, row.seq) as Buffer
        fs.writeSync(fd, data, 0, data.length, (pgno - 1) * this.pageSize)
      }
      fs.ftruncateSync(fd, row.size * this.pageSize)
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    this.db.transaction(() => {
      this.db.prepare("DELETE FROM pages WHERE seq <= ?").run(row.seq)
      const n = this.db.prepare("DELETE FROM commits WHERE seq <= ?").run(row.seq).changes
      this.setMeta.run("base_seq", row.seq)
      this.setMeta.run("base_time", row.time)
      this.setMeta.run("base_size", row.size)
      return n
    })()
    if (this.last.seq === row.seq) this.last = { ...this.base() }
    return pgnos.length
  }
}
