// The platform's integrity rules over HTTP through `edgectl objects dev` (the built CLI): what the
// caller of an aborted object sees, a rejection nobody handled, deleteAll() with foreign keys.
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { startDev, workspace } from "../helpers/objects-live.js"

const module = path.resolve(import.meta.dirname, "../fixtures/objects/integrity.ts")
// Waits for a report the host prints on its own (stderr may arrive after the HTTP answers).
const until = async (what: string, ok: () => boolean) => {
  for (let i = 0; !ok(); i++) {
    if (i === 600) throw new Error(`never saw ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe("objects dev: integrity", () => {
  it("ctx.abort(reason): 500 with the reason, marked as a reset; the unflushed put is discarded", async () => {
    const { cwd, state } = workspace()
    const dev = await startDev(cwd, state, module)
    try {
      expect(await dev.text("/Integrity/a/increment")).toBe("1")
      expect(await dev.text("/Integrity/a/increment")).toBe("2")
      const broken = await fetch(`${dev.url}/Integrity/a/break`)
      expect([broken.status, broken.headers.get("x-durable-object-reset"), await broken.text()]).toEqual([
        500,
        "true",
        "Integrity/a: test broken\n"
      ])
      expect(await dev.text("/Integrity/a/increment")).toBe("3")
    } finally {
      await dev.stop()
    }
  })

  it("a rejection left unhandled by object code is reported naming the object, and every object keeps running", async () => {
    const { cwd, state } = workspace()
    const dev = await startDev(cwd, state, module)
    try {
      expect(await dev.text("/Integrity/b/increment")).toBe("1")
      expect(await dev.text("/Integrity/a/unhandled")).toBe("answered")
      expect(await dev.text("/Integrity/b/increment")).toBe("2")
      expect(await dev.text("/Integrity/a/increment")).toBe("1")
      await until("the report", () => dev.stderr().includes("unhandled rejection"))
      expect(dev.stderr()).toMatch(
        /^error: objects dev: Integrity a: unhandled rejection: put\(\) called with undefined value \(key "k"\)\. \(the objects keep running\)$/m
      )
      expect(dev.child.exitCode).toBeNull()
    } finally {
      await dev.stop()
    }
  })

  it("deleteAll() with tables linked by foreign keys succeeds and the object starts over", async () => {
    const { cwd, state } = workspace()
    const dev = await startDev(cwd, state, module)
    try {
      expect(await dev.text("/Integrity/a/foreign-keys")).toBe("ok")
      const res = await fetch(`${dev.url}/Integrity/a/delete-all`)
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ tables: [], kv: {}, alarm: null })
      expect(await dev.text("/Integrity/a/increment")).toBe("1")
    } finally {
      await dev.stop()
    }
  })
})
