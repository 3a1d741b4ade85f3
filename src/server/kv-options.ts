/** How the embedded platform's KV behaves: as on the wire (`edgectl serve`), or as local mode. */
import * as Context from "effect/Context"
import { BulkMaxEntries } from "../domain/kv-limits.js"
import { WorkerCommitBytes } from "../store/commit-worker.js"

/**
 * How local mode's KV differs from the wire: `edgectl serve` answers like the platform (an unknown
 * namespace id is a 404), while the in-process platform of the CLI and TUI takes any namespace id as
 * wrangler's local storage does (created by its first write, empty until then) and takes a bulk
 * write of any number of entries in one request (one transaction for a whole file).
 */
export interface KvOptions {
  /** Unknown namespace ids are created by a write and read as empty (local mode only). */
  readonly implicitNamespaces: boolean
  /** Entries per bulk request (the platform's 10,000; unbounded in local mode). */
  readonly maxBulkEntries: number
  /**
   * Bulks staged at this size or more are committed in a worker thread, so that a server keeps
   * answering other clients meanwhile; local mode serves one client and saves starting the thread.
   */
  readonly workerCommitBytes: number
}
export const KvOptions = Context.GenericTag<KvOptions>("edgectl/KvOptions")

/** What `edgectl serve` answers: the platform's behaviour. */
export const WireKvOptions: KvOptions = {
  implicitNamespaces: false,
  maxBulkEntries: BulkMaxEntries,
  workerCommitBytes: WorkerCommitBytes
}
/** The in-process platform of local mode. */
export const LocalKvOptions: KvOptions = {
  implicitNamespaces: true,
  maxBulkEntries: Number.POSITIVE_INFINITY,
  workerCommitBytes: Number.POSITIVE_INFINITY
}
