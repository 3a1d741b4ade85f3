// ObjectHost: runs a user's object classes locally (`import { ObjectHost } from "edgectl/objects"`).
//
//   const host = await ObjectHost.start({ module: "src/objects.ts", persistTo: ".edgectl/state" })
//   const stub = host.namespace("Counter").get(host.namespace("Counter").idFromName("a"))
//   const res = await stub.fetch("http://object/increment")
//
// One instance per id; alarms delivered to alarm() and retried on failure (ALARM_RETRIES times,
// after ALARM_BACKOFF_MS doubling each time), as the platform does.
import Database from "better-sqlite3"
import * as fs from "node:fs"
import * as path from "node:path"
import {
  DEFAULT_PERSIST_TO,
  idFromName,
  idFromString,
  listStored,
  newUniqueId,
  ObjectId,
  objectDir,
  rememberName
} from "./ids.js"
import { AbortedError, Instance } from "./instance.js"
import { DB_FILE } from "./database.js"
import { loadModuleFiles, ModuleError, type ObjectClass } from "./module-loader.js"
import { type ControlServer, serveControl } from "./control-server.js"
import type { RestoreResult } from "./control-ops.js"
import { ObjectStorage } from "./storage.js"

/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1

export const ALARM_RETRIES = 6
export const ALARM_BACKOFF_MS = 2000

export interface HostOptions {
  // A module path (.ts, .mts, .js, .mjs) or the classes themselves.
  readonly module: string | Record<string, ObjectClass>
  readonly persistTo?: string
  readonly env?: Record<string, unknown>
  readonly alarmRetries?: number
  readonly alarmBackoffMs?: number
  readonly now?: () => number
  // Called with alarm handler failures (they are retried; nothing else reports them).
  readonly onAlarmError?: (className: string, id: string, error: unknown, retryCount: number) => void
  // Serve the control channel in `<persistTo>/.host/` through which `edgectl objects kv|sql|
  // bookmark|restore` reach this host's objects (default true).
  readonly control?: boolean
}

export interface ObjectStub {
  readonly id: ObjectId
  readonly name: string | undefined
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>
}

export class ObjectNamespace {
  constructor(
    private readonly host: ObjectHost,
    readonly className: string
  ) {}
  idFromName(name: string): ObjectId {
    return idFromName(this.className, name)
  }
  idFromString(hex: string): ObjectId {
    return idFromString(hex)
  }
  newUniqueId(): ObjectId {
    return newUniqueId()
  }
  get(id: ObjectId): ObjectStub {
    if (!(id instanceof ObjectId))
      throw new TypeError("get(): expected an id from idFromName(), idFromString() or newUniqueId()")
    const host = this.host
    const className = this.className
    // As on the platform, a stub whose object was reset (ctx.abort(), a failed write, a commit
    // that left constraints violated) fails every later call with that error: take a new stub.
    let reset: unknown
    const remember = (e: unknown): never => {
      if ((e as { durableObjectReset?: unknown } | null)?.durableObjectReset === true) reset ??= e
      throw e
    }
    return {
      id,
      name: id.name,
      fetch: (input, init) => {
        if (reset !== undefined) return Promise.reject(reset as Error)
        const request =
          input instanceof Request && init === undefined
            ? input
            : new Request(
                typeof input === "string" && !/^[a-z]+:/i.test(input) ? new URL(input, "http://object/") : input,
                init
              )
        return host.fetch(className, id, request).catch(remember)
      }
    }
  }
}

export class ObjectHost {
  readonly persistTo: string
  private current: Record<string, ObjectClass>
  private inputs: ReadonlyArray<string>
  // Instances finishing their events before a reloaded module's class replaces them (by key).
  private readonly retiring = new Map<string, Promise<void>>()
  // Instances reset by a restore: events still queued on them go to the next instance instead.
  private readonly reset = new WeakSet<Instance>()
  private readonly options: HostOptions
  private readonly env: Record<string, unknown>
  private readonly live = new Map<string, Instance>()
  private readonly ids = new Map<string, ObjectId>()
  private readonly timers = new Map<string, NodeJS.Timeout>()
  private readonly running = new Set<string>()
  private closed = false
  private control: ControlServer | undefined

  private constructor(options: HostOptions, classes: Record<string, ObjectClass>, inputs: ReadonlyArray<string>) {
    this.options = options
    this.persistTo = path.resolve(options.persistTo ?? DEFAULT_PERSIST_TO)
    this.current = classes
    this.inputs = inputs
    this.env = { ...(options.env ?? {}) }
    for (const name of Object.keys(classes)) this.env[name] = new ObjectNamespace(this, name)
  }

  static async start(options: HostOptions): Promise<ObjectHost> {
    const persistTo = path.resolve(options.persistTo ?? DEFAULT_PERSIST_TO)
    const loaded =
      typeof options.module === "string"
        ? await loadModuleFiles(options.module, path.join(persistTo, ".cache"))
        : { classes: options.module, inputs: [] }
    if (Object.keys(loaded.classes).length === 0) throw new ModuleError("no object classes given")
    const host = new ObjectHost(options, loaded.classes, loaded.inputs)
    host.scheduleStoredAlarms()
    if (options.control !== false)
      host.control = await serveControl(host, typeof options.module === "string" ? options.module : "")
    return host
  }

  // The control channel's socket (undefined with `control: false`).
  get controlSocket(): string | undefined {
    return this.control?.socket
  }

  get classes(): Record<string, ObjectClass> {
    return this.current
  }

  // The module's file and the local files it imports (what a reload reads again).
  get moduleFiles(): ReadonlyArray<string> {
    return this.inputs
  }

  /**
   * Loads the module again, as the platform's dev tools do on save. If it fails to load, this
   * throws and the previous version keeps running. Otherwise every running object is restarted
   * with its storage: it finishes the events it has, and the next one starts an instance of the
   * new class (events arriving meanwhile wait for that, none fails).
   */
  async reload(): Promise<{ classes: Array<string>; restarted: number }> {
    if (typeof this.options.module !== "string")
      throw new ModuleError("the host was given classes, not a module file: nothing to reload")
    const loaded = await loadModuleFiles(this.options.module, path.join(this.persistTo, ".cache"))
    if (this.closed) throw new Error("the object host is closed")
    this.current = loaded.classes
    this.inputs = loaded.inputs
    for (const name of Object.keys(loaded.classes))
      if (!(this.env[name] instanceof ObjectNamespace)) this.env[name] = new ObjectNamespace(this, name)
    let restarted = 0
    for (const [key, inst] of [...this.live]) {
      if (this.retiring.has(key)) continue
      restarted++
      const done: Promise<void> = inst
        .deliver(() => undefined)
        .catch(() => undefined)
        .then(() => {
          inst.end(new Error("restarted: the module was reloaded"))
          if (this.retiring.get(key) === done) this.retiring.delete(key)
        })
      this.retiring.set(key, done)
    }
    this.control?.refresh(Object.keys(loaded.classes))
    return { classes: Object.keys(loaded.classes), restarted }
  }

  namespace(className: string): ObjectNamespace {
    if (this.classes[className] === undefined) {
      throw new TypeError(
        `no object class named ${JSON.stringify(className)} (the module exports: ${Object.keys(this.classes).join(", ")})`
      )
    }
    return this.env[className] as ObjectNamespace
  }

  private key(className: string, id: ObjectId): string {
    return `${className}/${id.hex}`
  }

  instance(className: string, id: ObjectId): Instance {
    if (this.closed) throw new Error("the object host is closed")
    const key = this.key(className, id)
    const existing = this.live.get(key)
    if (existing !== undefined && !existing.isEnded) return existing
    const cls = this.classes[className]
    if (cls === undefined) throw new TypeError(`no object class named ${JSON.stringify(className)}`)
    const dir = objectDir(this.persistTo, className, id)
    fs.mkdirSync(dir, { recursive: true })
    rememberName(dir, id)
    this.ids.set(key, id)
    const inst = new Instance(dir, id, cls, this.env, {
      ...(this.options.now !== undefined ? { now: this.options.now } : {}),
      label: `${className} ${id.name ?? id.hex}`,
      onAlarm: (t) => this.schedule(className, id, t, 0),
      onEnd: (i) => {
        if (this.live.get(key) === i) this.live.delete(key)
      }
    })
    this.live.set(key, inst)
    return inst
  }

  // Runs `f` as one event of the object: behind its input gate, released after its output gate.
  event<T>(className: string, id: ObjectId, f: (inst: Instance) => Promise<T> | T): Promise<T> {
    const retiring = this.retiring.get(this.key(className, id))
    if (retiring !== undefined) return retiring.then(() => this.event(className, id, f))
    let inst: Instance
    try {
      inst = this.instance(className, id)
    } catch (e) {
      return Promise.reject(e)
    }
    let started = false
    return inst
      .deliver(() => {
        started = true
        return f(inst)
      })
      .catch((e: unknown) => {
        if (!started && this.reset.has(inst) && !this.closed) return this.event(className, id, f)
        throw e
      })
  }

  fetch(className: string, id: ObjectId, request: Request): Promise<Response> {
    return this.event(className, id, async (inst) => {
      const f = inst.object.fetch
      if (typeof f !== "function") throw new TypeError(`${className} has no fetch() method`)
      const response = await f.call(inst.object, request)
      if (!(response instanceof Response))
        throw new TypeError(`${className}.fetch() must return a Response, got ${typeof response}`)
      return response
    })
  }

  // --- alarms -------------------------------------------------------------------------------

  private schedule(className: string, id: ObjectId, time: number | null, retryCount: number): void {
    const key = this.key(className, id)
    const old = this.timers.get(key)
    if (old !== undefined) clearTimeout(old)
    this.timers.delete(key)
    if (time === null || this.closed) return
    const now = (this.options.now ?? Date.now)()
    const wait = Math.max(0, time - now)
    const timer = setTimeout(
      () => {
        this.timers.delete(key)
        // Past setTimeout's longest delay Node fires after 1 ms: a later alarm waits in steps.
        if (wait > MAX_TIMER_MS) this.schedule(className, id, time, retryCount)
        else void this.runAlarm(className, id, time, retryCount)
      },
      Math.min(wait, MAX_TIMER_MS)
    )
    this.timers.set(key, timer)
  }

  private async runAlarm(className: string, id: ObjectId, scheduled: number, retryCount: number): Promise<void> {
    if (this.closed) return
    const key = this.key(className, id)
    await this.retiring.get(key)
    let inst: Instance
    try {
      inst = this.instance(className, id)
    } catch {
      return
    }
    if (inst.storage.readAlarm() === null) return
    this.running.add(key)
    try {
      await inst.deliver(async () => {
        const a = inst.object.alarm
        if (typeof a !== "function") throw new TypeError(`${className} has no alarm() method`)
        await a.call(inst.object, { retryCount, isRetry: retryCount > 0 })
      })
      this.running.delete(key)
      const current = this.live.get(key) ?? this.instance(className, id)
      // A handler that set a new alarm keeps it; otherwise the alarm is done.
      if (current.storage.readAlarm() === scheduled) await current.storage.deleteAlarm()
    } catch (e) {
      this.running.delete(key)
      this.options.onAlarmError?.(className, id.hex, e, retryCount)
      if (this.closed) return
      const current = this.live.get(key) ?? this.instance(className, id)
      const stillSet = current.storage.readAlarm()
      if (stillSet === null || stillSet !== scheduled) return
      const retries = this.options.alarmRetries ?? ALARM_RETRIES
      if (retryCount >= retries) {
        await current.storage.deleteAlarm()
        return
      }
      const delay = (this.options.alarmBackoffMs ?? ALARM_BACKOFF_MS) * 2 ** retryCount
      this.schedule(className, id, (this.options.now ?? Date.now)() + delay, retryCount + 1)
      // The retry keeps the original scheduled time as the alarm's time.
      const timer = this.timers.get(key)
      if (timer !== undefined) {
        clearTimeout(timer)
        this.timers.set(
          key,
          setTimeout(() => {
            this.timers.delete(key)
            void this.runAlarm(className, id, scheduled, retryCount + 1)
          }, delay)
        )
      }
    }
  }

  private scheduleStoredAlarms(): void {
    for (const o of listStored(this.persistTo)) {
      if (this.classes[o.className] === undefined) continue
      const file = path.join(o.dir, DB_FILE)
      if (!fs.existsSync(file)) continue
      let time: number | undefined
      try {
        const db = new Database(file, { readonly: true })
        try {
          time = db.prepare("SELECT value FROM _cf_METADATA WHERE key = 1").pluck().get() as number | undefined
        } finally {
          db.close()
        }
      } catch {
        continue
      }
      if (typeof time === "number") this.schedule(o.className, new ObjectId(o.id, o.name ?? undefined), time, 0)
    }
  }

  // --- lifecycle ----------------------------------------------------------------------------

  // Ends one object's instance (as ctx.abort() does): a pending restore applies at its next event.
  restart(className: string, id: ObjectId): void {
    this.live.get(this.key(className, id))?.end(new Error("restarted by the host"))
  }

  // The platform's restore of a running object: the restore is marked, the object reset (its
  // event in flight fails with AbortedError, as after ctx.abort()), the restore applied now, and
  // the object started again by its next event (the events queued behind the one in flight
  // included). The undo bookmark is the present before it.
  async restore(className: string, id: ObjectId, to: { bookmark?: string; at?: number }): Promise<RestoreResult> {
    if (this.closed) throw new Error("the object host is closed")
    const dir = objectDir(this.persistTo, className, id)
    const now = this.options.now !== undefined ? { now: this.options.now } : {}
    const running = this.live.get(this.key(className, id))
    const current = running !== undefined && !running.isEnded ? running : undefined
    let target: string
    let undo: string
    const storage = current?.storage ?? new ObjectStorage(dir, now)
    try {
      target = to.bookmark ?? (await storage.getBookmarkForTime(to.at ?? Number.NaN))
      undo = await storage.onNextSessionRestoreBookmark(target)
    } finally {
      if (current === undefined) storage.close()
    }
    if (current !== undefined) {
      this.reset.add(current)
      current.end(new AbortedError(`reset to restore its storage to ${target}`))
    }
    const reopened = new ObjectStorage(dir, now)
    const pages = reopened.restoredPages
    const alarm = reopened.readAlarm()
    reopened.close()
    this.schedule(className, id, alarm, 0)
    return { target, undo, pages }
  }

  liveObjects(): Array<{ className: string; id: string }> {
    return [...this.live.keys()].map((k) => {
      const [className, id] = k.split("/") as [string, string]
      return { className, id }
    })
  }

  async close(): Promise<void> {
    this.closed = true
    this.control?.close()
    for (const t of this.timers.values()) clearTimeout(t)
    this.timers.clear()
    for (const inst of [...this.live.values()]) inst.end(new Error("the object host is shutting down"))
    this.live.clear()
  }
}
