// ObjectHost: runs a user's object classes locally (`import { ObjectHost } from "edgectl/objects"`).
//
//   const host = await ObjectHost.start({ module: "src/objects.ts", persistTo: ".edgectl/state" })
//   const stub = host.namespace("Counter").getByName("a")
//   const res = await stub.fetch("http://object/increment")   // or an RPC method: await stub.increment()
//
// One instance per id; events delivered through each object's input gate (./gates.ts); alarms
// by ./alarms.ts. `env` holds the configuration's bindings (durableObjects: a namespace per
// binding; without them, one per class under its name) and vars (`env`); the same object is
// `import { env } from "cloudflare:workers"`. The compatibility date and flags switch the dated
// behaviours (./compat.ts).
import { loadSqliteBinding, openObjectSqlite } from "./sqlite-binding.js"
import * as fs from "node:fs"
import * as path from "node:path"
import { ALARM_BACKOFF_MS, ALARM_RETRIES, Alarms } from "./alarms.js"
import { type Compatibility, compatibility } from "./compat.js"
import { DEFAULT_PERSIST_TO, listStored, ObjectId, objectDir, rememberName } from "./ids.js"
import { AbortedError, Instance } from "./instance.js"
import { DB_FILE } from "./database.js"
import { loadModuleFiles, ModuleError, type ObjectClass, type WorkerHandler } from "./module-loader.js"
import { type ControlServer, serveControl } from "./control-server.js"
import type { RestoreResult } from "./control-ops.js"
import { ObjectStorage } from "./storage.js"
import { cloneForRpc, ObjectNamespace, remoteError, rpcMethod, ThrownByMethod } from "./stubs.js"
import { setWorkersEnv } from "./workers-module.js"
import { runWorker } from "./worker.js"

export { ALARM_BACKOFF_MS, ALARM_RETRIES } from "./alarms.js"

export interface DurableObjectBinding {
  // The name in `env` (the configuration's `durable_objects.bindings[].name`).
  readonly binding: string
  readonly className: string
}

export interface HostOptions {
  // A module path (.ts, .mts, .js, .mjs) or the classes themselves.
  readonly module: string | Record<string, ObjectClass>
  readonly persistTo?: string
  // Values in `env` (the configuration's vars).
  readonly env?: Record<string, unknown>
  // Namespaces in `env`; without them, each class is `env.<Class>`.
  readonly durableObjects?: ReadonlyArray<DurableObjectBinding>
  readonly compatibilityDate?: string
  readonly compatibilityFlags?: ReadonlyArray<string>
  readonly alarmRetries?: number
  readonly alarmBackoffMs?: number
  readonly now?: () => number
  // Called with alarm handler failures (they are retried; nothing else reports them).
  readonly onAlarmError?: (className: string, id: string, error: unknown, retryCount: number) => void
  // Serve the control channel in `<persistTo>/.host/` through which `edgectl objects kv|sql|
  // bookmark|restore` reach this host's objects (default true).
  readonly control?: boolean
  // The platform's limit of an object's stored data, in bytes: a write past it fails with
  // SQLITE_FULL ("database or disk is full") and resets the object. Default: no limit.
  readonly maxObjectBytes?: number
}

export class ObjectHost {
  readonly persistTo: string
  readonly compat: Compatibility
  private current: Record<string, ObjectClass>
  private currentWorker: WorkerHandler | undefined
  private inputs: ReadonlyArray<string>
  // Instances finishing their events before a reloaded module's class replaces them (by key).
  private readonly retiring = new Map<string, Promise<void>>()
  // Instances reset by a restore: events still queued on them go to the next instance instead.
  private readonly reset = new WeakSet<Instance>()
  private readonly options: HostOptions
  readonly env: Record<string, unknown>
  private readonly namespaces = new Map<string, ObjectNamespace>()
  private readonly live = new Map<string, Instance>()
  private readonly alarms: Alarms
  private closed = false
  private control: ControlServer | undefined

  private constructor(
    options: HostOptions,
    loaded: { classes: Record<string, ObjectClass>; worker?: WorkerHandler | undefined; inputs: ReadonlyArray<string> }
  ) {
    this.options = options
    this.persistTo = path.resolve(options.persistTo ?? DEFAULT_PERSIST_TO)
    this.compat = compatibility(options.compatibilityDate, options.compatibilityFlags)
    this.current = loaded.classes
    this.currentWorker = loaded.worker
    this.inputs = loaded.inputs
    this.env = { ...(options.env ?? {}) }
    this.bind(loaded.classes)
    const isClosed = () => this.closed
    this.alarms = new Alarms({
      get isClosed() {
        return isClosed()
      },
      now: () => (options.now ?? Date.now)(),
      instance: (c, id) => this.live.get(this.key(c, id)) ?? this.instance(c, id),
      retired: async (c, id) => {
        await this.retiring.get(this.key(c, id))
      },
      retries: options.alarmRetries ?? ALARM_RETRIES,
      backoffMs: options.alarmBackoffMs ?? ALARM_BACKOFF_MS,
      onError: options.onAlarmError
    })
  }

  static async start(options: HostOptions): Promise<ObjectHost> {
    // A missing or stale build of the binding fails here, once, rather than on each object.
    loadSqliteBinding()
    const persistTo = path.resolve(options.persistTo ?? DEFAULT_PERSIST_TO)
    const loaded =
      typeof options.module === "string"
        ? await loadModuleFiles(options.module, path.join(persistTo, ".cache"))
        : { classes: options.module, inputs: [] }
    if (Object.keys(loaded.classes).length === 0) throw new ModuleError("no object classes given")
    const host = new ObjectHost(options, loaded)
    setWorkersEnv(host.env)
    host.scheduleStoredAlarms()
    if (options.control !== false)
      host.control = await serveControl(host, typeof options.module === "string" ? options.module : "")
    return host
  }

  // A namespace per class, and in `env` one per binding (or per class, without bindings).
  private bind(classes: Record<string, ObjectClass>): void {
    for (const name of Object.keys(classes))
      if (!this.namespaces.has(name)) this.namespaces.set(name, new ObjectNamespace(this, name))
    const bindings = this.options.durableObjects
    if (bindings === undefined) {
      for (const name of Object.keys(classes)) this.env[name] = this.namespaces.get(name)
      return
    }
    for (const b of bindings) {
      const ns = this.namespaces.get(b.className)
      if (ns === undefined)
        throw new ModuleError(
          `durable object binding ${b.binding}: the module exports no object class ${JSON.stringify(b.className)} (it exports: ${Object.keys(classes).join(", ")})`
        )
      this.env[b.binding] = ns
    }
  }

  // The control channel's socket (undefined with `control: false`).
  get controlSocket(): string | undefined {
    return this.control?.socket
  }

  get classes(): Record<string, ObjectClass> {
    return this.current
  }

  // The module's default export, when it is a worker.
  get worker(): WorkerHandler | undefined {
    return this.currentWorker
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
    this.bind(loaded.classes)
    this.current = loaded.classes
    this.currentWorker = loaded.worker
    this.inputs = loaded.inputs
    let restarted = 0
    for (const [key, inst] of [...this.live]) {
      if (this.retiring.has(key)) continue
      restarted++
      const done: Promise<void> = inst.whenIdle().then(() => {
        inst.end(new Error("restarted: the module was reloaded"))
        if (this.retiring.get(key) === done) this.retiring.delete(key)
      })
      this.retiring.set(key, done)
    }
    this.control?.refresh(Object.keys(loaded.classes))
    return { classes: Object.keys(loaded.classes), restarted }
  }

  namespace(className: string): ObjectNamespace {
    const ns = this.classes[className] === undefined ? undefined : this.namespaces.get(className)
    if (ns === undefined) {
      throw new TypeError(
        `no object class named ${JSON.stringify(className)} (the module exports: ${Object.keys(this.classes).join(", ")})`
      )
    }
    return ns
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
    const inst = new Instance(dir, withName(dir, id), cls, this.env, {
      ...(this.options.now !== undefined ? { now: this.options.now } : {}),
      label: `${className} ${id.name ?? id.hex}`,
      onAlarm: (t) => this.alarms.schedule(className, id, t),
      onEnd: (i) => {
        if (this.live.get(key) === i) this.live.delete(key)
      },
      ...(this.compat.enabled.deleteAllDeletesAlarm ? { deleteAllDeletesAlarm: true } : {}),
      ...(this.options.maxObjectBytes !== undefined ? { maxDatabaseBytes: this.options.maxObjectBytes } : {})
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

  // An RPC call: the method of the object's class, its result copied for the caller; what it
  // throws is rethrown to the caller as the platform's RPC does (./stubs.ts).
  call(className: string, id: ObjectId, method: string, args: ReadonlyArray<unknown>): Promise<unknown> {
    return this.event(className, id, async (inst) => {
      let result: unknown
      try {
        const f = rpcMethod(inst.object, method)
        result = await f.apply(inst.object, args as Array<unknown>)
        return cloneForRpc(result)
      } catch (e) {
        // A reset (ctx.abort(), a failed write) is the host's error, not the method's.
        throw inst.isEnded ? e : new ThrownByMethod(e)
      }
    }).catch((e: unknown) => {
      throw e instanceof ThrownByMethod ? remoteError(e.error) : e
    })
  }

  // `await stub.name`: the object's property, copied for the caller.
  property(className: string, id: ObjectId, name: string): Promise<unknown> {
    return this.event(className, id, (inst) => {
      try {
        const value = name === "constructor" ? undefined : (inst.object as Record<string, unknown>)[name]
        return cloneForRpc(typeof value === "function" ? undefined : value)
      } catch (e) {
        throw new ThrownByMethod(e)
      }
    }).catch((e: unknown) => {
      throw e instanceof ThrownByMethod ? remoteError(e.error) : e
    })
  }

  // An HTTP request to the module's worker (its default export).
  fetchWorker(request: Request): Promise<Response> {
    const worker = this.currentWorker
    if (worker === undefined) return Promise.reject(new TypeError("the module has no worker (default export)"))
    return runWorker(worker, this.env, request)
  }

  // --- alarms -------------------------------------------------------------------------------

  private scheduleStoredAlarms(): void {
    for (const o of listStored(this.persistTo)) {
      if (this.classes[o.className] === undefined) continue
      const file = path.join(o.dir, DB_FILE)
      if (!fs.existsSync(file)) continue
      let time: number | undefined
      try {
        const db = openObjectSqlite(file, { readonly: true })
        try {
          time = db.prepare("SELECT value FROM _cf_METADATA WHERE key = 1").pluck().get() as number | undefined
        } finally {
          db.close()
        }
      } catch {
        continue
      }
      if (typeof time === "number") this.alarms.schedule(o.className, new ObjectId(o.id, o.name ?? undefined), time)
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
    this.alarms.schedule(className, id, alarm)
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
    this.alarms.close()
    for (const inst of [...this.live.values()]) inst.end(new Error("the object host is shutting down"))
    this.live.clear()
  }
}

// The id as the object sees it (`ctx.id`): with the name it was first reached by, when it was
// reached by a name (an id from idFromString() has none).
const withName = (dir: string, id: ObjectId): ObjectId => {
  if (id.name !== undefined) return id
  try {
    return new ObjectId(id.hex, fs.readFileSync(path.join(dir, "name"), "utf8"))
  } catch {
    return id
  }
}
