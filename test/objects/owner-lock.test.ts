import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { acquireOwner, LOCK_FILE, ObjectBusyError } from "../../src/objects/owner-lock.js"
import { ObjectStorage } from "../../src/objects/storage.js"
import { tempDir } from "../helpers/cli.js"

const lockOf = (dir: string) => path.join(dir, LOCK_FILE)

describe("one process at a time owns an object's storage", () => {
  it("counts the holds of this process and removes the lock with the last release", () => {
    const dir = tempDir()
    const first = acquireOwner(dir)
    const second = acquireOwner(dir)
    expect(JSON.parse(fs.readFileSync(lockOf(dir), "utf8"))).toMatchObject({ pid: process.pid })
    first()
    first()
    expect(fs.existsSync(lockOf(dir))).toBe(true)
    second()
    expect(fs.existsSync(lockOf(dir))).toBe(false)
  })

  it("refuses while another live process holds it, naming the process; takes over a lock whose process is gone", async () => {
    const dir = tempDir()
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" })
    try {
      fs.writeFileSync(lockOf(dir), JSON.stringify({ pid: other.pid, command: "edgectl objects dev counter.ts" }))
      expect(() => new ObjectStorage(dir)).toThrow(ObjectBusyError)
      expect(() => acquireOwner(dir)).toThrow(
        `is open in another process: pid ${other.pid} (edgectl objects dev counter.ts)`
      )
    } finally {
      const exited = new Promise((r) => other.once("exit", r))
      other.kill()
      await exited
    }
    // Its process is gone: the storage opens, and closing it removes the lock.
    const storage = new ObjectStorage(dir)
    await storage.put("k", "v")
    expect(JSON.parse(fs.readFileSync(lockOf(dir), "utf8"))).toMatchObject({ pid: process.pid })
    storage.close()
    expect(fs.existsSync(lockOf(dir))).toBe(false)
  })
})
