// requestObject (src/objects/control-client.ts): what a program other than the CLI (the TUI) calls
// to reach an object through its running host, or directly once the host has stopped.
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { requestObject } from "../../src/objects/control-client.js"
import { idFromName } from "../../src/objects/ids.js"
import { startDev, workspace } from "../helpers/objects-live.js"

describe("requestObject", () => {
  it("views, bookmarks and restores a running object through its host (another process), then opens it directly once the host has stopped", async () => {
    const { state } = workspace()
    const dev = await startDev(path.dirname(state), state)
    const id = idFromName("Counter", "a")
    const view = { op: "view", limit: 100, historyLimit: 10 } as const
    try {
      await dev.text("/Counter/a/inc")
      await dev.text("/Counter/a/inc")
      const seen = await requestObject(state, "Counter", id, view)
      expect(seen.entries).toEqual([["n", 2]])
      expect(seen.alarm).toBeNull()
      expect(seen.history.map((h) => h.restore)).toEqual([false, false])
      expect(seen.bytes).toBeGreaterThan(0)
      const bookmark = await requestObject(state, "Counter", id, { op: "bookmark" })
      // The present: the last commit of the history, at a later time.
      expect(bookmark.split("-")[2]).toBe(seen.history[0]!.bookmark.split("-")[2])
      expect(await dev.text("/Counter/a/inc")).toBe("3")
      const restored = await requestObject(state, "Counter", id, { op: "restore", bookmark })
      expect(restored.target).toBe(bookmark)
      expect(await dev.text("/Counter/a/get")).toContain('"n":2')
      await expect(requestObject(state, "Counter", id, { op: "sql", query: "SELECT * FROM _cf_KV" })).rejects.toThrow(
        /access to _cf_KV\.key is prohibited/
      )
    } finally {
      await dev.stop()
    }
    const after = await requestObject(state, "Counter", id, view)
    expect(after.entries).toEqual([["n", 2]])
    expect(after.history[0]!.restore).toBe(true)
  })
})
