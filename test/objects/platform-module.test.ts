// Objects written as the platform's documentation writes them, run by `edgectl objects dev`:
// `import { DurableObject, WorkerEntrypoint, env } from "cloudflare:workers"`, classes with RPC
// methods only, a worker (the default export) calling them through stubs, and the project config
// (wrangler.jsonc / wrangler.toml / wrangler.json) giving main, bindings, vars and the
// compatibility date and flags. The input gate: events delivered while a request awaits
// something other than storage; the alarm handler's view of its alarm.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectlAsync } from "../helpers/cli.js"
import { type Dev, startDev, workspace } from "../helpers/objects-live.js"

const project = path.resolve(import.meta.dirname, "../fixtures/objects/platform")
const moduleFile = path.join(project, "index.ts")

const get = async <A = unknown>(dev: Dev, p: string): Promise<A> => {
  const r = await fetch(`${dev.url}${p}`)
  const text = await r.text()
  if (r.status !== 200) throw new Error(`${p}: ${r.status} ${text}`)
  return JSON.parse(text) as A
}

const withDev = async (cwd: string, module: string | null, f: (dev: Dev) => Promise<void>, ...extra: Array<string>) => {
  const { state } = workspace()
  const dev = await startDev(cwd, state, module, ...extra)
  try {
    await f(dev)
  } finally {
    await dev.stop()
  }
}

describe("objects written for the platform (cloudflare:workers, RPC, the project config)", () => {
  it("loads the module named by wrangler.jsonc's main; the worker calls RPC methods through stubs; env has the bindings and vars; ctx.id has its name", async () => {
    await withDev(project, null, async (dev) => {
      expect(await get(dev, "/increment?by=2")).toBe(2)
      expect(await get(dev, "/increment?by=3")).toBe(5)
      // Concurrent calls: `await get(); put()` is atomic behind the input gate.
      const many = await Promise.all(Array.from({ length: 20 }, () => get<number>(dev, "/increment?name=many")))
      expect(many.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
      const me = await get<{ id: string; name: string; greeting: string; imported: string }>(dev, "/whoami")
      expect(me).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{64}$/),
        name: "a",
        greeting: "hello",
        imported: "hello"
      })
      // The CLI reaches the same object by its class and name.
      expect(dev.stderr()).toBe("")
    })
  })

  it("RPC copies arguments and results by structured clone and rethrows errors with their name and message", async () => {
    await withDev(project, moduleFile, async (dev) => {
      expect(await get(dev, "/echo")).toEqual({
        date: true,
        map: true,
        bytes: [1, 2, 3],
        bigint: true,
        copied: true,
        sharedWithin: true,
        label: { kind: "counter" }
      })
      expect(await get(dev, "/errors")).toEqual({
        type: { error: { name: "TypeError", message: "bad input", remote: true } },
        // Only the standard error types keep their name.
        custom: { error: { name: "Error", message: "custom failure", remote: true } },
        missing: {
          error: { name: "TypeError", message: 'The RPC receiver does not implement the method "nope".', remote: true }
        },
        instance: {
          error: {
            name: "DataCloneError",
            message: 'Could not serialize object of type "Point". This type does not support serialization.',
            remote: true
          }
        },
        argument: {
          error: {
            name: "DataCloneError",
            message: 'Could not serialize object of type "URL". This type does not support serialization.',
            remote: false
          }
        }
      })
    })
  })

  it("the input gate delivers an event while a request awaits something other than storage; alarm() sees no alarm unless set since it started, and gets {retryCount, isRetry, scheduledTime}", async () => {
    await withDev(project, null, async (dev) => {
      // The first call awaits a promise that only the second call resolves.
      expect(await get(dev, "/gate")).toEqual({
        first: ["first: waiting", "second", "first: done"],
        second: "released"
      })
      // The request awaits what the alarm handler saw: the alarm fires while it waits.
      const r = await get<{ at: number; seen: unknown; after: unknown }>(dev, "/alarm")
      expect(r.seen).toEqual({
        info: { retryCount: 0, isRetry: false, scheduledTime: r.at },
        during: null,
        afterSet: "number"
      })
      expect(r.after).toBe(null)
    })
  })

  it("ctx.abort() from an RPC method discards its unflushed put; the stub that saw the reset rejects later RPC calls, a new stub works", async () => {
    await withDev(project, null, async (dev) => {
      expect(await get(dev, "/increment?name=abort&by=2")).toBe(2)
      expect(await get(dev, "/abort?name=abort")).toEqual({
        aborted: { error: { name: "Error", message: "test broken", remote: false, reset: true } },
        sameStub: { error: { name: "Error", message: "test broken", remote: false, reset: true } },
        // 2, not 888: the put before abort() was never committed.
        newStub: { ok: 2 }
      })
    })
  })

  it("the input gate stays held while a transaction() is open: an event arriving while its closure awaits a timer waits, and its writes never land in that transaction", async () => {
    await withDev(project, null, async (dev) => {
      expect(await get(dev, "/transaction-gate")).toEqual({
        results: ["rolled back", "written"],
        // The other event ran once the transaction was over...
        log: ["transaction: open", "transaction: rolled back", "other event"],
        // ...so the rollback undid only the transaction's own write.
        kv: { plain: 1, ownTransaction: 1 }
      })
    })
  })

  it("deleteAll() deletes the alarm from compatibility date 2026-02-24 or with delete_all_deletes_alarm, and keeps it before or with delete_all_preserves_alarm", async () => {
    // wrangler.jsonc: 2026-03-01.
    await withDev(project, null, async (dev) => expect(await get(dev, "/wipe")).toEqual({ alarm: null, k: null }))
    const { cwd } = workspace()
    const main = JSON.stringify(moduleFile)
    const bindings = '[[durable_objects.bindings]]\nname = "COUNTERS"\nclass_name = "Counter"\n'
    fs.writeFileSync(
      path.join(cwd, "wrangler.toml"),
      `name = "old"\nmain = ${main}\ncompatibility_date = "2025-06-01"\n${bindings}`
    )
    await withDev(cwd, null, async (dev) => expect(await get(dev, "/wipe")).toEqual({ alarm: "kept", k: null }))
    const config = (date: string, flag: string) =>
      JSON.stringify({
        main: moduleFile,
        compatibility_date: date,
        compatibility_flags: [flag],
        durable_objects: { bindings: [{ name: "COUNTERS", class_name: "Counter" }] }
      })
    fs.writeFileSync(path.join(cwd, "flagged.json"), config("2025-06-01", "delete_all_deletes_alarm"))
    await withDev(
      cwd,
      null,
      async (dev) => expect(await get(dev, "/wipe")).toEqual({ alarm: null, k: null }),
      "--config",
      "flagged.json"
    )
    fs.writeFileSync(path.join(cwd, "preserved.json"), config("2026-03-01", "delete_all_preserves_alarm"))
    await withDev(
      cwd,
      null,
      async (dev) => expect(await get(dev, "/wipe")).toEqual({ alarm: "kept", k: null }),
      "--config",
      "preserved.json"
    )
  })

  it("a JavaScript module loads as it is; a config naming a class the module lacks, another worker's class, or a bad compatibility date is refused in one line", async () => {
    const { cwd, state } = workspace()
    fs.copyFileSync(path.join(project, "plain.mjs"), path.join(cwd, "plain.mjs"))
    const toml = (extra: string) =>
      fs.writeFileSync(
        path.join(cwd, "wrangler.toml"),
        `main = "plain.mjs"\ncompatibility_date = "2026-01-01"\n${extra}[[durable_objects.bindings]]\nname = "PLAIN"\nclass_name = "Plain"\n`
      )
    toml("")
    await withDev(cwd, null, async (dev) => expect(await get(dev, "/?a=40")).toBe(42))
    const refused = async (text: string) => {
      fs.writeFileSync(path.join(cwd, "wrangler.toml"), text)
      const r = await edgectlAsync(["objects", "dev", "--port", "0", "--persist-to", state], { cwd })
      expect(r.status).toBe(1)
      expect(r.stderr.trim().split("\n")).toHaveLength(1)
      return r.stderr
    }
    expect(
      await refused('main = "plain.mjs"\n[[durable_objects.bindings]]\nname = "X"\nclass_name = "Missing"\n')
    ).toBe(
      'error: objects dev: wrangler.toml: durable object binding X: the module exports no object class "Missing" (it exports: Plain)\n'
    )
    expect(
      await refused(
        'main = "plain.mjs"\n[[durable_objects.bindings]]\nname = "X"\nclass_name = "Plain"\nscript_name = "other"\n'
      )
    ).toBe(
      'error: objects dev: wrangler.toml: durable_objects.bindings[0] (X) names script_name "other": objects dev runs only the classes of its own module\n'
    )
    expect(await refused('main = "plain.mjs"\ncompatibility_date = "2026-13-01"\n')).toBe(
      'error: objects dev: wrangler.toml: compatibility_date: expected a date as YYYY-MM-DD, got "2026-13-01"\n'
    )
    expect(
      await refused(
        'main = "plain.mjs"\ncompatibility_flags = ["delete_all_deletes_alarm", "delete_all_preserves_alarm"]\n'
      )
    ).toMatch(
      /^error: objects dev: wrangler\.toml: compatibility_flags: "delete_all_deletes_alarm" and "delete_all_preserves_alarm" contradict each other/
    )
  })
})
