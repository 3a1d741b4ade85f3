// Opening an object's database: the page log first (a restore left pending by
// onNextSessionRestoreBookmark is applied here, before the object sees its storage), then the
// SQLite file in WAL mode with checkpoints left to us, so the page log sees every committed page.
import type Database from "better-sqlite3"
import * as fs from "node:fs"
import * as path from "node:path"
import { privateDatabase, privateDir, privateFilesIn } from "../private-files.js"
import { LOG_FILE, PageLog } from "./pitr.js"
import { openObjectSqlite } from "./sqlite-binding.js"

export const DB_FILE = "db.sqlite"
// The worker checkpoints the object's log and the page log's after this many frames (~8 MB of
// pages): often enough to keep the logs small, seldom enough that a page written by many commits
// is copied once (checkpointer.ts).
const CHECKPOINT_FRAMES = 2048
// The writer checkpoints (and truncates the log) itself past this: at 16 MB without a worker, and
// at 64 MB with one that fell behind.
const WAL_CHECKPOINT_BYTES = 16 * 1024 * 1024
const WAL_HARD_LIMIT_BYTES = 64 * 1024 * 1024

const connect = (file: string): Database.Database => {
  privateDatabase(file)
  const db = openObjectSqlite(file)
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = NORMAL")
  db.pragma("wal_autocheckpoint = 0")
  // A log started over after the worker's checkpoint is cut back to this size.
  db.pragma(`journal_size_limit = ${WAL_CHECKPOINT_BYTES}`)
  return db
}

export interface Opened {
  readonly db: Database.Database
  readonly log: PageLog
  readonly file: string
  readonly restoredPages: number | null
}

const truncate = (db: Database.Database, log: PageLog): void => {
  log.checkpoints.settle()
  db.pragma("wal_checkpoint(TRUNCATE)")
  log.walReset()
}

export const openObjectDatabase = (dir: string, now: () => number): Opened => {
  const file = path.join(dir, DB_FILE)
  // A new object's directory may come from a plain mkdir (the host's): made private without a word.
  const created = !fs.existsSync(file)
  privateDir(dir, created)
  // The page log and its base copy hold every past version of the object's data.
  privateDatabase(path.join(dir, LOG_FILE))
  const log = new PageLog(dir, now)
  let db = connect(file)
  if (!log.initialized) {
    // Nothing but page 1 (WAL mode wrote it): the internal tables come with their first use.
    truncate(db, log)
    log.initialize(file, db.pragma("page_size", { simple: true }) as number)
  } else {
    // Commits that reached the WAL but not the log (a crash between the two).
    log.archive(`${file}-wal`)
  }
  let restoredPages: number | null = null
  const pending = log.pending
  if (pending !== null) {
    truncate(db, log)
    db.close()
    for (const extra of ["-wal", "-shm"]) fs.rmSync(file + extra, { force: true })
    restoredPages = log.restore(file, pending)
    db = connect(file)
  } else {
    truncate(db, log)
  }
  log.compact()
  privateFilesIn(dir, created)
  return { db, log, file, restoredPages }
}

// After a commit: log its pages, have the logs checkpointed beside the writes, and restart the
// WAL here only when it has grown past the limit.
export const afterCommit = (db: Database.Database, log: PageLog, file: string): void => {
  log.archive(`${file}-wal`)
  const files = [file, log.file]
  if (log.framesSinceCheckpoint >= CHECKPOINT_FRAMES && log.checkpoints.request(files)) log.framesSinceCheckpoint = 0
  else log.checkpoints.whenIdle(files, log.framesSinceCheckpoint, () => (log.framesSinceCheckpoint = 0))
  const limit = log.checkpoints.available ? WAL_HARD_LIMIT_BYTES : WAL_CHECKPOINT_BYTES
  let size: number
  try {
    size = fs.statSync(`${file}-wal`).size
  } catch {
    return
  }
  if (size > limit) truncate(db, log)
}

const USER_OBJECTS = `SELECT type, name, sql FROM sqlite_master
  WHERE type IN ('table', 'view') AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`

/**
 * deleteAll(): the platform deletes the object's database and starts a new one. Here the file and
 * its recovery log stay (the deletion is a commit that a restore can undo): every user table,
 * view, index and trigger is dropped with foreign keys off (tables linked by foreign keys drop in
 * any order), the key-value and metadata tables too
 * (`refill` writes back what stays, in the same commit), and the file vacuumed to the size of a new
 * database. No transaction may be open (foreign_keys cannot change inside one).
 */
export const deleteDatabase = (db: Database.Database, refill: () => void): void => {
  const foreignKeys = db.pragma("foreign_keys", { simple: true }) as number
  db.pragma("foreign_keys = OFF")
  try {
    db.transaction(() => {
      const objects = db.prepare(USER_OBJECTS).all() as Array<{ type: string; name: string; sql: string | null }>
      // Views first (they name tables), then virtual tables (which drop their shadow tables).
      const rank = (o: { type: string; sql: string | null }) =>
        o.type === "view" ? 0 : /^\s*CREATE\s+VIRTUAL/i.test(o.sql ?? "") ? 1 : 2
      objects.sort((a, b) => rank(a) - rank(b))
      for (const o of objects)
        db.exec(`DROP ${o.type === "view" ? "VIEW" : "TABLE"} IF EXISTS "${o.name.replaceAll('"', '""')}"`)
      db.exec("DROP TABLE IF EXISTS _cf_KV; DROP TABLE IF EXISTS _cf_METADATA")
      refill()
    })()
    db.exec("VACUUM")
  } finally {
    db.pragma(`foreign_keys = ${foreignKeys === 0 ? "OFF" : "ON"}`)
  }
}
