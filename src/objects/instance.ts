// One live object: its storage, its instance of the user's class, and its input gate. Events
// (requests, alarms) are delivered in arrival order as the input gate lets them in (./gates.ts),
// and none while blockConcurrencyWhile() runs; a response leaves only after the output gate (the
// writes made before it are committed). A failed write or ctx.abort() ends the instance: the
// next event starts a new one over the same storage (and applies a restore left pending).
import { InputGate } from "./gates.js"
import type { ObjectId } from "./ids.js"
import type { ObjectClass, ObjectInstance } from "./module-loader.js"
import { ObjectStorage } from "./storage.js"

export class AbortedError extends Error {
  constructor(reason: unknown) {
    super(
      `the object was aborted${reason === undefined ? "" : `: ${reason instanceof Error ? reason.message : String(reason)}`}`
    )
    this.name = "AbortedError"
  }
}

export interface InstanceHooks {
  readonly onAlarm: (time: number | null) => void
  readonly onEnd: (instance: Instance) => void
  readonly now?: () => number
  readonly deleteAllDeletesAlarm?: boolean
}

export interface ObjectState {
  readonly id: ObjectId
  readonly storage: ObjectStorage
  blockConcurrencyWhile<T>(callback: () => Promise<T> | T): Promise<T>
  abort(reason?: unknown): never
  waitUntil(promise: Promise<unknown>): void
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
      ...(hooks.deleteAllDeletesAlarm === true ? { deleteAllDeletesAlarm: true } : {})
    })
    this.state = {
      id,
      storage: this.storage,
      blockConcurrencyWhile: <T>(callback: () => Promise<T> | T): Promise<T> => {
        const release = this.gate.lock()
        const run = Promise.resolve().then(callback)
        run.then(release, release)
        return run
      },
      abort: (reason?: unknown): never => {
        const e = new AbortedError(reason)
        this.end(e)
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

  end(reason: Error): void {
    if (this.ended !== null) return
    this.ended = reason
    try {
      this.storage.close()
    } catch {
      // A broken database may refuse to close cleanly; the next instance reopens it.
    }
    this.hooks.onEnd(this)
  }

  // Runs an event behind the input gate; its result is released after the output gate.
  deliver<T>(event: () => Promise<T> | T): Promise<T> {
    return this.gate.admit(async () => {
      if (this.ended !== null) throw this.ended
      const result = await event()
      if (this.ended !== null) throw this.ended
      await this.storage.outputGate()
      return result
    })
  }

  // Resolves once the events delivered or waiting have settled.
  whenIdle(): Promise<void> {
    return this.gate.whenIdle()
  }
}
