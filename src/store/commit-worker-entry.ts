/**
 * The worker thread of commit-worker.ts: one bulk's entries written in one IMMEDIATE transaction on
 * a connection of its own, then the answer and the end of the thread. Built as dist/commit-worker.cjs.
 */
import Database from "better-sqlite3"
import { parentPort, workerData } from "node:worker_threads"
import { stagedEntries } from "../kv/staging.js"
import { configure, type CommitAnswer, type CommitJob } from "./commit-worker.js"
import { namespaceExists, writeEntries } from "./kv-repo.js"

const commit = ({ file, ns, now, staged }: CommitJob): CommitAnswer => {
  try {
    const db = new Database(file, { fileMustExist: true })
    try {
      configure(db)
      // The namespace was looked up on the server's connection: a delete may have come in between.
      const write = db.transaction(() => {
        if (!namespaceExists(db, ns)) return false
        writeEntries(db, ns, stagedEntries(staged), now)
        return true
      })
      const written = write.immediate()
      return written ? { ok: true } : { ok: false, gone: true }
    } finally {
      db.close()
    }
  } catch (e) {
    return { ok: false, gone: false, message: e instanceof Error ? e.message : String(e) }
  }
}

parentPort?.postMessage(commit(workerData as CommitJob))
