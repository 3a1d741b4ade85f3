// The options of `ctx.storage` calls, its configuration by the host, and small shared pieces.

export interface GetOptions {
  readonly allowConcurrency?: boolean
  readonly noCache?: boolean
}
export interface PutOptions {
  readonly allowUnconfirmed?: boolean
  readonly noCache?: boolean
}

export interface StorageConfig {
  readonly now?: () => number
  // The alarm time changed (ms, or null when deleted); the host reschedules its timer.
  readonly onAlarm?: (time: number | null) => void
  // A write failed: the object must be reset.
  readonly onBroken?: (error: Error) => void
  // deleteAll() deletes the alarm too (compatibility date 2026-02-24 or delete_all_deletes_alarm).
  readonly deleteAllDeletesAlarm?: boolean
}

export interface Deferred {
  readonly promise: Promise<void>
  resolve: () => void
  reject: (e: Error) => void
}
export const deferred = (): Deferred => {
  let resolve!: () => void
  let reject!: (e: Error) => void
  const promise = new Promise<void>((res, rej) => {
    resolve = res
    reject = rej
  })
  promise.catch(() => undefined)
  return { promise, resolve, reject }
}

export class BrokenStorageError extends Error {
  constructor(cause: Error) {
    super(`the object's storage was reset after a failed write: ${cause.message}`, { cause })
    this.name = "BrokenStorageError"
  }
}
