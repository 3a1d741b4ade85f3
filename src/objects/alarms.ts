// The alarms of a host's objects: one timer per object, the handler run as an event of the object
// (behind its input gate, so it may run while a request awaits a timer or a fetch, as on the
// platform), one handler at a time per object, and retried on failure (ALARM_RETRIES times,
// after ALARM_BACKOFF_MS doubling each time).
//
// While alarm() runs, getAlarm() is null unless the alarm was set since it started; on success
// the alarm is deleted unless it was set or deleted meanwhile; a failure is retried only if it
// was not. The handler receives { retryCount, isRetry, scheduledTime }.
import type { ObjectId } from "./ids.js"
import type { Instance } from "./instance.js"

/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1

export const ALARM_RETRIES = 6
export const ALARM_BACKOFF_MS = 2000

export interface AlarmHost {
  readonly isClosed: boolean
  now(): number
  // The object's instance (started if it is not running); throws when it cannot start.
  instance(className: string, id: ObjectId): Instance
  // Waits for a reload to retire the object's previous instance.
  retired(className: string, id: ObjectId): Promise<void>
  readonly retries: number
  readonly backoffMs: number
  readonly onError: ((className: string, id: string, error: unknown, retryCount: number) => void) | undefined
}

export class Alarms {
  private readonly timers = new Map<string, NodeJS.Timeout>()
  // The handler running for an object (a new alarm due meanwhile waits for it).
  private readonly running = new Map<string, Promise<void>>()

  constructor(private readonly host: AlarmHost) {}

  /** (Re)arms the object's timer for `time` (null: none). */
  schedule(className: string, id: ObjectId, time: number | null, retryCount = 0, scheduled = time): void {
    const key = `${className}/${id.hex}`
    const old = this.timers.get(key)
    if (old !== undefined) clearTimeout(old)
    this.timers.delete(key)
    if (time === null || scheduled === null || this.host.isClosed) return
    const wait = Math.max(0, time - this.host.now())
    const timer = setTimeout(
      () => {
        this.timers.delete(key)
        // Past setTimeout's longest delay Node fires after 1 ms: a later alarm waits in steps.
        if (wait > MAX_TIMER_MS) this.schedule(className, id, time, retryCount, scheduled)
        else void this.run(className, id, scheduled, retryCount)
      },
      Math.min(wait, MAX_TIMER_MS)
    )
    this.timers.set(key, timer)
  }

  private async run(className: string, id: ObjectId, scheduled: number, retryCount: number): Promise<void> {
    const key = `${className}/${id.hex}`
    const before = this.running.get(key)
    if (before !== undefined) await before
    let done!: () => void
    const mine = new Promise<void>((r) => (done = r))
    this.running.set(key, mine)
    try {
      await this.attempt(className, id, scheduled, retryCount)
    } finally {
      if (this.running.get(key) === mine) this.running.delete(key)
      done()
    }
  }

  private async attempt(className: string, id: ObjectId, scheduled: number, retryCount: number): Promise<void> {
    if (this.host.isClosed) return
    await this.host.retired(className, id)
    let inst: Instance
    try {
      inst = this.host.instance(className, id)
    } catch {
      return
    }
    if (inst.storage.readAlarm() === null) return
    // True until the handler says otherwise: a handler that never started is retried.
    let untouched = true
    try {
      await inst.deliver(async () => {
        inst.storage.alarmBegan()
        try {
          const a = inst.object.alarm
          if (typeof a !== "function") throw new TypeError(`${className} has no alarm() method`)
          await a.call(inst.object, { retryCount, isRetry: retryCount > 0, scheduledTime: scheduled })
        } finally {
          untouched = inst.storage.alarmEnded()
        }
      })
      // A handler that set (or deleted) the alarm keeps that; otherwise the alarm is done.
      if (untouched) await this.host.instance(className, id).storage.deleteAlarm()
    } catch (e) {
      this.host.onError?.(className, id.hex, e, retryCount)
      if (this.host.isClosed || !untouched) return
      const current = this.host.instance(className, id)
      if (current.storage.readAlarm() === null) return
      if (retryCount >= this.host.retries) {
        await current.storage.deleteAlarm()
        return
      }
      // The retry keeps the original scheduled time as the alarm's time.
      const delay = this.host.backoffMs * 2 ** retryCount
      this.schedule(className, id, this.host.now() + delay, retryCount + 1, scheduled)
    }
  }

  close(): void {
    for (const t of this.timers.values()) clearTimeout(t)
    this.timers.clear()
  }
}
