import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { ObjectStorage } from "../../src/objects/index.js"
import { tempDir } from "../helpers/objects.js"

const script = path.resolve(import.meta.dirname, "../fixtures/objects/crash.mts")
const crash = (dir: string, mode: string) => {
  const r = spawnSync(process.execPath, ["--import", "tsx", script, dir, mode], { encoding: "utf8" })
  expect(r.stderr.replace(/npm warn.*\n/g, "")).toBe("")
  expect(r.status).toBe(0)
}
const contents = async (dir: string) => {
  const s = new ObjectStorage(dir)
  const m = await s.get(["a", "b"])
  s.close()
  return [...m.keys()]
}

describe("write coalescing across a crash", () => {
  it("a process that dies between two un-awaited puts loses both or neither", async () => {
    for (const mode of ["between", "after-both"]) {
      const dir = tempDir()
      crash(dir, mode)
      expect(await contents(dir)).toEqual([])
    }
    const dir = tempDir()
    crash(dir, "synced")
    expect(await contents(dir)).toEqual(["a", "b"])
  })
})
