import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { AbortedError, DurableObject, ObjectHost } from "../../src/objects/index.js"
import { tempDir } from "../helpers/objects.js"

const module = path.resolve(import.meta.dirname, "../fixtures/objects/counter.ts")
const hosts: Array<ObjectHost> = []
const start = async (persistTo: string, extra: object = {}) => {
  const h = await ObjectHost.start({ module, persistTo, alarmBackoffMs: 5, alarmRetries: 3, ...extra })
  hosts.push(h)
  return h
}
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close()
})
const until = async <T>(f: () => Promise<T>, ok: (t: T) => boolean): Promise<T> => {
  for (let i = 0; i < 500; i++) {
    const v = await f()
    if (ok(v)) return v
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error("condition never met")
}

describe("ObjectHost", () => {
  it("loads a TypeScript module; one instance per id; events serialized by the input gate; state persists", async () => {
    const dir = tempDir()
    let host = await start(dir)
    const ns = host.namespace("Counter")
    const stub = ns.get(ns.idFromName("a"))
    expect(stub.id.toString()).toMatch(/^[0-9a-f]{64}$/)
    expect(ns.idFromName("a").equals(stub.id)).toBe(true)
    const results = await Promise.all(Array.from({ length: 20 }, () => stub.fetch("/inc").then((r) => r.text())))
    expect(results.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    const other = ns.get(ns.newUniqueId())
    expect(await (await other.fetch("/inc")).text()).toBe("1")
    expect(() => ns.idFromString("xyz")).toThrow(/64 lowercase hex digits/)
    expect(() => host.namespace("Nope")).toThrow(/no object class named "Nope"/)
    await host.close()
    hosts.length = 0
    host = await start(dir)
    const again = host.namespace("Counter").get(host.namespace("Counter").idFromString(stub.id.toString()))
    expect(await again.fetch("/get").then((r) => r.json())).toMatchObject({ n: 20 })
  })

  it("ctx.abort() fails the request and the next request (from a new stub) gets a new instance", async () => {
    const host = await start(tempDir())
    const ns = host.namespace("Counter")
    let stub = ns.get(ns.idFromName("b"))
    await stub.fetch("/inc")
    const first = (await stub.fetch("/get").then((r) => r.json())) as { start: number }
    await expect(stub.fetch("/abort")).rejects.toBeInstanceOf(AbortedError)
    // As on the platform, the stub that saw the reset is broken.
    await expect(stub.fetch("/get")).rejects.toThrow("asked to")
    stub = ns.get(stub.id)
    const second = (await stub.fetch("/get").then((r) => r.json())) as { n: number; start: number }
    expect(second.n).toBe(1)
    expect(second.start).toBeGreaterThan(first.start)
  })

  it("a restore chosen by the object applies after ctx.abort(), and its undo bookmark undoes it", async () => {
    const host = await start(tempDir())
    const ns = host.namespace("Counter")
    let stub = ns.get(ns.idFromName("c"))
    await stub.fetch("/inc")
    const b = await stub.fetch("/bookmark").then((r) => r.text())
    for (let i = 0; i < 5; i++) await stub.fetch("/inc")
    const undo = await stub.fetch(`/restore?b=${b}`).then((r) => r.text())
    expect(await stub.fetch("/get").then((r) => r.json())).toMatchObject({ n: 6 })
    await expect(stub.fetch("/abort")).rejects.toThrow("asked to")
    stub = ns.get(stub.id)
    expect(await stub.fetch("/get").then((r) => r.json())).toMatchObject({ n: 1 })
    await stub.fetch(`/restore?b=${undo}`)
    host.restart("Counter", stub.id)
    expect(await stub.fetch("/get").then((r) => r.json())).toMatchObject({ n: 6 })
  })

  it("a failed write resets the object: the client gets an error, the next request a fresh instance", async () => {
    const host = await start(tempDir(), { maxObjectBytes: 64 * 1024 })
    const ns = host.namespace("Counter")
    const stub = ns.get(ns.idFromName("d"))
    await stub.fetch("/inc")
    await expect(stub.fetch("/break")).rejects.toThrow("database or disk is full: SQLITE_FULL")
    expect(
      await ns
        .get(stub.id)
        .fetch("/get")
        .then((r) => r.json())
    ).toMatchObject({ n: 1 })
  })

  it("alarms run the handler, are retried with backoff after a throw, then cleared", async () => {
    const errors: Array<number> = []
    const host = await start(tempDir(), {
      onAlarmError: (_c: string, _i: string, _e: unknown, n: number) => errors.push(n)
    })
    const ns = host.namespace("Counter")
    const stub = ns.get(ns.idFromName("e"))
    await stub.fetch("/alarm?fail=2&in=0")
    const state = await until(
      () => stub.fetch("/alarm-state").then((r) => r.json() as Promise<{ alarm: number | null; log: Array<unknown> }>),
      (s) => s.log.length === 3 && s.alarm === null
    )
    // Each attempt gets the time the alarm was set for.
    const scheduledTime = (state.log[0] as { scheduledTime: number }).scheduledTime
    expect(state.log).toEqual([
      { retryCount: 0, isRetry: false, scheduledTime },
      { retryCount: 1, isRetry: true, scheduledTime },
      { retryCount: 2, isRetry: true, scheduledTime }
    ])
    expect(errors).toEqual([0, 1])
  })

  it("an alarm set beyond setTimeout's longest delay (30 days ahead) waits for its time", async () => {
    const host = await start(tempDir())
    const stub = host.namespace("Counter").get(host.namespace("Counter").idFromName("later"))
    const at30Days = 30 * 24 * 3600 * 1000
    await stub.fetch(`/alarm?in=${at30Days}`)
    await new Promise((r) => setTimeout(r, 200))
    const state = (await (await stub.fetch("/alarm-state")).json()) as { alarm: number | null; log: Array<unknown> }
    expect(state.log).toEqual([])
    expect(state.alarm).toBeGreaterThan(Date.now() + at30Days - 60_000)
  })

  it("a constructor that throws leaves no lock behind: the storage it opened is closed", async () => {
    const dir = tempDir()
    const host = await ObjectHost.start({
      module: path.resolve(import.meta.dirname, "../fixtures/objects/faulty.ts"),
      persistTo: dir
    })
    hosts.push(host)
    const stub = host.namespace("Faulty").get(host.namespace("Faulty").idFromName("x"))
    await expect(stub.fetch("/")).rejects.toThrow(/the constructor failed/)
    const objectDir = path.join(dir, "objects", "Faulty", stub.id.toString())
    expect(fs.existsSync(path.join(objectDir, "db.sqlite"))).toBe(true)
    expect(fs.existsSync(path.join(objectDir, "owner.lock"))).toBe(false)
  })

  it("classes given directly: RPC through host.namespace().getByName(), env from the bindings and vars, the compatibility date", async () => {
    class Greeter extends DurableObject<{ WORD: string }> {
      async hello(name: string) {
        await this.ctx.storage.put("last", name)
        return `${this.env.WORD}, ${name}`
      }
    }
    await expect(
      ObjectHost.start({
        module: { Greeter },
        persistTo: tempDir(),
        durableObjects: [{ binding: "G", className: "Nope" }]
      })
    ).rejects.toThrow('durable object binding G: the module exports no object class "Nope" (it exports: Greeter)')
    const host = await start(tempDir(), {
      module: { Greeter },
      durableObjects: [{ binding: "GREETERS", className: "Greeter" }],
      env: { WORD: "hi" },
      compatibilityDate: "2026-02-24"
    })
    const hello = host.namespace("Greeter").getByName("x").hello as (name: string) => Promise<string>
    expect(await hello("you")).toBe("hi, you")
    expect(Object.keys(host.env).sort()).toEqual(["GREETERS", "WORD"])
    expect(host.compat.enabled.deleteAllDeletesAlarm).toBe(true)
    await expect(start(tempDir(), { compatibilityDate: "2999-01-01" })).rejects.toThrow(
      /^compatibility_date: 2999-01-01 is in the future/
    )
  })

  it("an alarm whose handler always throws is given up after the retries", async () => {
    const host = await start(tempDir())
    const ns = host.namespace("Counter")
    const stub = ns.get(ns.idFromName("f"))
    await stub.fetch("/alarm?fail=100&in=0")
    const state = await until(
      () => stub.fetch("/alarm-state").then((r) => r.json() as Promise<{ alarm: number | null; log: Array<unknown> }>),
      (s) => s.alarm === null && s.log.length > 0
    )
    expect(state.log).toHaveLength(4)
  })
})
