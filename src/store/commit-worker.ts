/**
 * A large KV bulk's one transaction, committed on a connection of its own in a worker thread.
 *
 * better-sqlite3 is synchronous: a 100 MB bulk written on the server's connection held the event loop
 * for over a second, and every other client waited. The worker opens the same file (WAL: the main
 * connection keeps reading the last committed state meanwhile), reads the staged entries itself
 * (src/kv/staging.ts `handoff`: it never waits on this thread while it holds the write lock) and
 * writes them in one IMMEDIATE transaction: all or nothing, as on the main connection.
 *
 * While it holds the write lock, a write on the main connection would wait in SQLite's busy handler,
 * which blocks the event loop; the `WriteGate` makes the server's writers wait on a promise instead
 * (`idle`), and queues the worker commits behind each other. Other processes writing the same store
 * still meet the lock in their own busy handler, as they meet any writer's.
 */
import type Database from "better-sqlite3"
import * as path from "node:path"
import { BusyTimeoutMs } from "../domain/store-conditions.js"
import type { StagedBytes } from "../kv/staging.js"

/** The settings of every connection to a platform store (db.ts's, and the worker's). */
export const configure = (db: Database.Database): void => {
  // Before the first statement that locks: another process may be creating this store.
  db.pragma(`busy_timeout = ${BusyTimeoutMs}`)
  // A secret cleared (ESC, a KV value, a credential) is overwritten, not left in free space.
  db.pragma("secure_delete = ON")
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = NORMAL")
  db.pragma("foreign_keys = ON")
}

/**
 * `edgectl serve` commits a bulk staged at this size or more in a worker (server/kv-options.ts).
 * Smaller ones are written on the server's connection: with the wire's 10,000 entries at most, they
 * hold the event loop a few tens of ms, less than a worker costs to start (~250 M instructions).
 */
export const WorkerCommitBytes = 4 << 20

/** What a worker commits: entries into namespace `ns` of the store at `file`. */
export interface CommitJob {
  readonly file: string
  readonly ns: number
  readonly now: number
  readonly staged: StagedBytes
}

/** A worker's answer: done, the namespace deleted meanwhile, or the failure of its transaction (rolled back). */
export type CommitAnswer =
  | { readonly ok: true }
  | { readonly ok: false; readonly gone: true }
  | { readonly ok: false; readonly gone: false; readonly message: string }

/** Writers of this process wait on `idle()` while a worker commits; worker commits queue in `hold`. */
export class WriteGate {
  private holders = 0
  private tail: Promise<void> = Promise.resolve()

  /** Undefined when no worker commit is running or queued, else a promise of the moment none is. */
  idle(): Promise<void> | undefined {
    return this.holders === 0 ? undefined : this.tail
  }

  /** Runs `commit` after the commits held before it. */
  async hold<A>(commit: () => Promise<A>): Promise<A> {
    const before = this.tail
    let release!: () => void
    this.tail = new Promise((resolve) => (release = resolve))
    this.holders++
    try {
      await before
      return await commit()
    } finally {
      this.holders--
      release()
    }
  }
}

/**
 * The worker's script: the built dist/commit-worker.cjs beside the bundle; from the sources (tests),
 * this module's sibling through tsx's require hook (a worker's execArgv does not take `--import` on
 * Node 20).
 */
const workerScript = (): { readonly script: string; readonly eval: boolean } => {
  const here = process.getBuiltinModule("node:url").fileURLToPath(import.meta.url)
  if (!here.endsWith(".ts")) return { script: path.join(path.dirname(here), "commit-worker.cjs"), eval: false }
  const tsx = process.getBuiltinModule("node:module").createRequire(here).resolve("tsx/cjs")
  const entry = path.join(path.dirname(here), "commit-worker-entry.ts")
  return { script: `require(${JSON.stringify(tsx)}); require(${JSON.stringify(entry)})`, eval: true }
}

/**
 * Commits `job` in a new worker: true when written, false when the namespace was deleted before the
 * transaction began; rejects with the transaction's failure. Nothing is written unless true.
 */
export const commitInWorker = (job: CommitJob): Promise<boolean> =>
  new Promise((resolve, reject) => {
    const { script, eval: source } = workerScript()
    // Loaded here: most runs (every command but a large bulk) never start a thread.
    const { Worker } = process.getBuiltinModule("node:worker_threads")
    const worker = new Worker(script, { workerData: job, eval: source })
    let answer: CommitAnswer | undefined
    worker.once("message", (m: CommitAnswer) => (answer = m))
    worker.once("error", reject)
    worker.once("exit", (code) => {
      if (answer !== undefined && (answer.ok || answer.gone)) resolve(answer.ok)
      else reject(new Error(answer?.message ?? `the KV commit worker exited with code ${code}`))
    })
  })
