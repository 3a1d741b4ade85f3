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
import { DEFAULT_PERSIST_TO, idFromName, idFromString, listStored, newUniqueId, ObjectId, objectDir, rememberName } from "./ids.js"
import { AbortedError, Instance } from "./instance.js"
import { DB_FILE } from "./database.js"
import { loadModule, ModuleError, type ObjectClass } from "./module-loader.js"
import { type ControlServer, serveControl } from "./control-server.js"
import type { RestoreResult } from "./control-ops.js"
import { ObjectStorage } from "./storage.js"

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
    if (!(id instanceof ObjectId)) throw new TypeError("get(): expected an id from idFromName(), idFromString() or newUniqueId()")
    const host = this.host
    const className = this.className
    return {
      id,
      name: id.name,
      fetch: (input, init) => {
        const request = input instanceof Request && init === undefined ? input : new Request(typeof input === "string" && !/^[a-z]+:/i.test(input) ? new URL(input, "http://object/") : input, init)
        return host.fetch(className, id, request)
      }
    }
  }
}

export class ObjectHost {
  readonly persistTo: string
  readonly classes: Record<string, ObjectClass>
  private readonly options: HostOptions
  private readonly env: Record<string, unknown>
  private readonly live = new Map<string, Instance>()
  private readonly ids = new Map<string, ObjectId>()
  private readonly timers = new Map<string, NodeJS.Timeout>()
  private readonly running = new Set<string>()
  private closed = false
  private control: ControlServer | undefined

  private constructor(options: HostOptions, classes: Record<string, ObjectClass>) {
    this.options = options
    this.persistTo = path.resolve(options.persistTo ?? DEFAULT_PERSIST_TO)
    this.classes = classes
    this.env = { ...(options.env ?? {}) }
    for (const name of Object.keys(classes)) this.env[name] = new ObjectNamespace(this, name)
  }

  static async start(options: HostOptions): Promise<ObjectHost> {
    const persistTo = path.resolve(options.persistTo ?? DEFAULT_PERSIST_TO)
    const classes = typeof options.module === "string" ? await loadModule(options.module, path.join(persistTo, ".cache")) : options.module
    if (Object.keys(classes).length === 0) throw new ModuleError("no object classes given")
    const host = new ObjectHost(options, classes)
    host.scheduleStoredAlarms()
    if (options.control !== false) host.control = await serveControl(host, typeof options.module === "string" ? options.module : "")
    return host
  }

  // The control channel's socket (undefined with `control: false`).
  get controlSocket(): string | undefined {
    return this.control?.socket
  }

  namespace(className: string): ObjectNamespace {
    if (this.classes[className] === undefined) {
      throw new TypeError(`no object class named ${JSON.stringify(className)} (the module exports: ${Object.keys(this.classes).join(", ")})`)
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
      onAlarm: (t) => this.schedule(className, id, t, 0),
      onEnd: (i) => {
        if (this.live.get(key) === i) this.live.delete(key)
      }
    })
    this.live.set(key, inst)
    return inst
  }

  fetch(className: string, id: ObjectId, request: Request): Promise<Response> {
    let inst: Instance
    try {
      inst = this.instance(className, id)
    } catch (e) {
      return Promise.reject(e)
    }
    return inst.deliver(async () => {
      const f = inst.object.fetch
      if (typeof f !== "function") throw new TypeError(`${className} has no fetch() method`)
      const response = await f.call(inst.object, request)
      if (!(response instanceof Response)) throw new TypeError(`${className}.fetch() must return a Response, got ${typeof response}`)
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
    const timer = setTimeout(() => {
      this.timers.delete(key)
      void this.runAlarm(className, id, time, retryCount)
    }, Math.max(0, time - now))
    this.timers.set(key, timer)
  }

  private async runAlarm(className: string, id: ObjectId, scheduled: number, retryCount: number): Promise<void> {
    if (this.closed) return
    const key = this.key(className, id)
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
  // in-flight events fail with AbortedError, as after ctx.abort()), the restore applied now, and
  // the object started again by its next event. The undo bookmark is the present before it.
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
    current?.end(new AbortedError(`reset to restore its storage to ${target}`))
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
