// Checkpoints off the write path (issue 35). An object's commits append to two write-ahead logs:
// its database's (which the page log reads, pitr.ts) and the page log's own (pitr.sqlite). Folding
// a log back into its file (a checkpoint: pages copied, an fsync) on the thread that writes made
// the commit that crossed a size pay for every commit before it: an object that had taken 1M
// writes ran its batched puts at 1.6x the CPU of a fresh one, in slow and fast runs. Here a worker
// thread checkpoints both logs PASSIVE (beside the writer, never blocking it) on connections of its
// own. Once a log is wholly checkpointed, the writer's next transaction starts it over from its
// beginning with new salts (SQLite does that itself), which the page log's reader (wal.ts) follows
// as it follows a truncated log.
//
// One thread serves the process's objects, one checkpoint at a time. Its connections are open
// only during a checkpoint, and the writer waits for a running
// one (`settle`) before it closes or truncates its files: the writer's connection stays the last
// one to close, which checkpoints and deletes the log as the page log expects (walReset).
import { createRequire } from "node:module"
import type { Worker } from "node:worker_threads"
import { loadSqliteBinding, sqliteBindingFile } from "./sqlite-binding.js"

const SOURCE = `
const { parentPort, workerData } = require("node:worker_threads")
const Database = require(workerData.sqlite)
const nativeBinding = workerData.binding
const state = new Int32Array(workerData.state)
parentPort.on("message", (files) => {
  for (const file of files) {
    try {
      const db = new Database(file, { fileMustExist: true, nativeBinding })
      try {
        db.pragma("wal_checkpoint(PASSIVE)")
      } finally {
        db.close()
      }
    } catch {
      // A file gone or busy: the next request checkpoints it.
    }
  }
  Atomics.store(state, 0, 0)
  Atomics.notify(state, 0)
})
`

// The longest the writer waits for a running checkpoint before closing its files.
const SETTLE_MS = 30_000
// An object this long without a commit has its logs checkpointed, so that its next write starts
// them over (a log checkpointed while commits keep coming is never wholly checkpointed).
const IDLE_MS = 20

// A checkpoint waits for the next request after an idle object's this many frames at least: an
// object that wrote little never starts the thread.
const IDLE_MIN_FRAMES = 256

/** The process's one checkpointing thread, shared by its objects, started on first use. */
const shared = {
  worker: undefined as Worker | undefined,
  failed: false,
  /** 1 while a checkpoint runs; the worker sets it back to 0 and wakes `settle`. */
  state: new Int32Array(new SharedArrayBuffer(4))
}

const start = (): Worker => {
  const { Worker } = process.getBuiltinModule("node:worker_threads")
  const sqlite = createRequire(import.meta.url).resolve("better-sqlite3")
  // The objects' own SQLite build (sqlite-binding.ts), which opened these files: two copies of
  // SQLite in one process must never share a file (each would drop the other's locks).
  loadSqliteBinding()
  const binding = sqliteBindingFile()
  const worker = new Worker(SOURCE, { eval: true, workerData: { sqlite, binding, state: shared.state.buffer } })
  // A worker that fails leaves the checkpoints to the writers (database.ts's limit without one).
  const fail = () => {
    shared.failed = true
    shared.worker = undefined
    Atomics.store(shared.state, 0, 0)
    Atomics.notify(shared.state, 0)
  }
  worker.once("error", fail)
  worker.once("exit", fail)
  worker.unref()
  return worker
}

/** One object's use of the checkpointing thread. */
export class Checkpointer {
  private stopped = false
  private idleTimer: ReturnType<typeof setTimeout> | undefined

  /** Whether a worker can checkpoint (false once one failed: the writer checkpoints itself). */
  get available(): boolean {
    return !shared.failed
  }

  /** Starts a checkpoint of `files` unless one is running (the next commit asks again); false when no worker can run it. */
  request(files: ReadonlyArray<string>): boolean {
    clearTimeout(this.idleTimer)
    if (shared.failed || this.stopped) return false
    if (Atomics.load(shared.state, 0) === 1) return false
    try {
      shared.worker ??= start()
    } catch {
      shared.failed = true
      return false
    }
    Atomics.store(shared.state, 0, 1)
    shared.worker.postMessage(files)
    return true
  }

  /** After `frames` uncheckpointed frames: a checkpoint once no commit has come for a moment; `started` when it starts. */
  whenIdle(files: ReadonlyArray<string>, frames: number, started: () => void): void {
    if (shared.failed || this.stopped || frames < IDLE_MIN_FRAMES) return
    clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => {
      if (this.request(files)) started()
    }, IDLE_MS)
    this.idleTimer.unref()
  }

  /** Waits for the running checkpoint, if any: before the writer closes or truncates its files. */
  settle(): void {
    if (shared.worker !== undefined) Atomics.wait(shared.state, 0, 1, SETTLE_MS)
  }

  /** No more checkpoints for this object; waits for a running one. */
  stop(): void {
    this.stopped = true
    clearTimeout(this.idleTimer)
    this.settle()
  }
}
