// One live object: its storage, its instance of the user's class, and its input gate. Events
// (requests, alarms) are delivered in arrival order as the input gate lets them in (./gates.ts),
// and none while blockConcurrencyWhile() runs; a response leaves only after the output gate (the
// writes made before it are committed). A failed write or ctx.abort() ends the instance: the
// next event starts a new one over the same storage (and applies a restore left pending).
import { InputGate } from "./gates.js"
import type { ObjectId } from "./ids.js"
import type { ObjectClass, ObjectInstance } from "./module-loader.js"
import type { ObjectState } from "./object-state.js"
import { ObjectStorage } from "./storage.js"
import { storageApi } from "./storage-api.js"

// What ctx.abort(reason) throws, and what the caller of the aborted event gets: as on the
// platform, an Error whose message is the reason (a string) and with `durableObjectReset`.
export class AbortedError extends Error {
  readonly durableObjectReset = true
  constructor(reason: unknown) {
    super(reason === undefined ? "Application called abort() to reset Durable Object." : String(reason))
    this.name = "Error"
  }
}

// Marks an error that reached the caller of an event of an object that was reset meanwhile, as
// the platform marks it (so that a stub knows it is broken).
const markReset = (e: unknown): void => {
  if (typeof e !== "object" || e === null || (e as { durableObjectReset?: unknown }).durableObjectReset === true) return
  try {
    Object.defineProperty(e, "durableObjectReset", { value: true, configurable: true, writable: true })
  } catch {
    // A frozen error stays as it is.
  }
}

export interface InstanceHooks {
  readonly onAlarm: (time: number | null) => void
  readonly onEnd: (instance: Instance) => void
  readonly now?: () => number
  // Names the object in reports (for example of a rejection nobody handled).
  readonly label?: string
  readonly deleteAllDeletesAlarm?: boolean
  readonly maxDatabaseBytes?: number
}

export class Instance {
  readonly storage: ObjectStorage
  readonly object: ObjectInstance
  readonly state: ObjectState
  private readonly gate = new InputGate()
  private ended: Error | null = null
  private readonly hooks: InstanceHooks

  constructor(dir: string, id: ObjectId, cls: ObjectClass, env: unknown, hooks: InstanceHooks) {
    this.hooks = hooks
    this.storage = new ObjectStorage(dir, {
      ...(hooks.now !== undefined ? { now: hooks.now } : {}),
      onAlarm: hooks.onAlarm,
      onBroken: (e) => this.end(e),
      holdInputGate: () => this.gate.lock(),
      ...(hooks.label !== undefined ? { label: hooks.label } : {}),
      ...(hooks.deleteAllDeletesAlarm === true ? { deleteAllDeletesAlarm: true } : {}),
      ...(hooks.maxDatabaseBytes !== undefined ? { maxDatabaseBytes: hooks.maxDatabaseBytes } : {})
    })
    this.state = {
      id,
      storage: storageApi(this.storage),
      blockConcurrencyWhile: <T>(callback: () => Promise<T> | T): Promise<T> => {
        const release = this.gate.lock()
        const run = Promise.resolve().then(callback)
        run.then(release, release)
        return run
      },
      abort: (reason?: unknown): never => {
        const e = new AbortedError(reason)
        this.end(e, true)
        throw e
      },
      waitUntil(promise: Promise<unknown>): void {
        promise.catch(() => undefined)
      }
    }
    try {
      this.object = new cls(this.state, env as never) as ObjectInstance
    } catch (e) {
      // No instance is made, so nothing else would close the storage (and release its lock).
      this.storage.close()
      throw e
    }
  }

  get isEnded(): boolean {
    return this.ended !== null
  }

  // Ends the instance; with `discard` (ctx.abort()) its writes not yet committed are rolled back.
  end(reason: Error, discard = false): void {
    if (this.ended !== null) return
    this.ended = reason
    markReset(reason)
    try {
      this.storage.close(discard ? reason : undefined)
    } catch {
      // A broken database may refuse to close cleanly; the next instance reopens it.
    }
    this.hooks.onEnd(this)
  }

  // Runs an event behind the input gate; its result is released after the output gate.
  deliver<T>(event: () => Promise<T> | T): Promise<T> {
    return this.gate.admit(async () => {
      if (this.ended !== null) throw this.ended
      try {
        const result = await event()
        if (this.ended !== null) throw this.ended
        await this.storage.outputGate()
        return result
      } catch (e) {
        if (this.ended !== null) markReset(e)
        throw e
      }
    })
  }

  // Resolves once the events delivered or waiting have settled.
  whenIdle(): Promise<void> {
    return this.gate.whenIdle()
  }
}
