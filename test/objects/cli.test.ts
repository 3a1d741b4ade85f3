import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as readline from "node:readline"
import { describe, expect, it } from "vitest"
import { bin, edgectl, json, tempDir } from "../helpers/cli.js"

const module = path.resolve(import.meta.dirname, "../fixtures/objects/counter.ts")

describe("edgectl objects (built CLI)", () => {
  it("kv put/get/list/delete, sql, list, bookmark and restore with --json; the default state dir is .edgectl/state", () => {
    const cwd = tempDir()
    const run = (...a: Array<string>) => edgectl(["objects", ...a], { cwd })
    expect(json(run("kv", "Counter", "a", "put", "k", '{"x":[1,2]}', "--value-json", "--json"))).toEqual({
      key: "k",
      written: true
    })
    expect(json(run("kv", "Counter", "a", "get", "k", "--json"))).toEqual({
      key: "k",
      found: true,
      value: { x: [1, 2] }
    })
    expect(run("kv", "Counter", "a", "get", "k").stdout).toBe('{"x":[1,2]}\n')
    expect(json(run("kv", "Counter", "a", "put", "s", "text", "--json"))).toEqual({ key: "s", written: true })
    expect(json(run("kv", "Counter", "a", "list", "--json"))).toEqual([
      { key: "k", value: { x: [1, 2] } },
      { key: "s", value: "text" }
    ])
    const created = json<{ rowsWritten: number }>(
      run(
        "sql",
        "Counter",
        "a",
        "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t (v) VALUES ('x'), ('y')",
        "--json"
      )
    )
    expect(created.rowsWritten).toBe(2)
    const before = json<{ bookmark: string }>(run("bookmark", "Counter", "a", "--json")).bookmark
    expect(before).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/)
    expect(json(run("kv", "Counter", "a", "delete", "k", "--json"))).toEqual({ key: "k", deleted: true })
    run("sql", "Counter", "a", "DROP TABLE t")
    const listed = json<Array<{ className: string; name: string; id: string }>>(run("list", "--json"))
    expect(listed).toMatchObject([{ className: "Counter", name: "a" }])
    expect(fs.existsSync(path.join(cwd, ".edgectl", "state", "objects", "Counter", listed[0]!.id, "db.sqlite"))).toBe(
      true
    )
    const restored = json<{ restoredTo: string; undoBookmark: string }>(
      run("restore", "Counter", "a", "--bookmark", before, "--json")
    )
    expect(restored.restoredTo).toBe(before)
    expect(json(run("sql", "Counter", listed[0]!.id, "SELECT v FROM t ORDER BY id", "--json"))).toMatchObject({
      columns: ["v"],
      rows: [{ v: "x" }, { v: "y" }],
      rowsRead: 2,
      rowsWritten: 0
    })
    expect(json(run("kv", "Counter", "a", "get", "k", "--json"))).toMatchObject({ found: true })
    json(run("restore", "Counter", "a", "--bookmark", restored.undoBookmark, "--json"))
    expect(json(run("kv", "Counter", "a", "get", "k", "--json"))).toMatchObject({ found: false })
  })

  it("bad input: one line on stderr naming the problem, exit 1 (or 2 for usage)", () => {
    const cwd = tempDir()
    const run = (...a: Array<string>) => edgectl(["objects", ...a], { cwd })
    // A key-value write creates _cf_KV, which object SQL may then not read.
    expect(run("kv", "Counter", "a", "put", "k", "v").status).toBe(0)
    const reserved = run("sql", "Counter", "a", "SELECT * FROM _cf_KV")
    expect(reserved.status).toBe(1)
    expect(reserved.stderr).toMatch(/^error: objects sql: access to _cf_KV\.key is prohibited/)
    expect(run("sql", "Counter", "a", "BEGIN").stderr).toMatch(/storage.transaction\(\)/)
    const big = run("kv", "Counter", "a", "put", "x".repeat(2049), "v")
    expect(big.status).toBe(1)
    expect(big.stderr).toMatch(/key size in UTF-8 bytes \(limit 2048\): 2049 exceeds/)
    expect(run("restore", "Counter", "a").status).toBe(2)
    expect(run("restore", "Counter", "a", "--at", "not a time").stderr).toMatch(/--at: not a time/)
    const badTime = run("bookmark", "Counter", "a", "--at", "yesterday")
    expect(badTime.status).toBe(2)
    expect(badTime.stderr).toMatch(/^error: objects bookmark: --at: not a time: "yesterday"/)
    const missing = run("kv", "Counter", "nobody", "get", "k")
    expect(missing.status).toBe(1)
    expect(missing.stderr).toMatch(/no object Counter "nobody"/)
    expect(run("kv", "Counter", "a", "get").status).toBe(2)
    expect(run("restore", "Counter", "a", "--bookmark", "bogus").stderr).toMatch(/error: objects restore/)
  })

  it("dev serves /<Class>/<name>/... to the object's fetch, state under --persist-to", async () => {
    const cwd = tempDir()
    const state = path.join(cwd, "st")
    const child = spawn(
      process.execPath,
      [bin, "objects", "dev", module, "--port", "0", "--json", "--persist-to", state],
      {
        cwd,
        env: { ...process.env, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"]
      }
    )
    try {
      const line = await new Promise<string>((resolve, reject) => {
        readline.createInterface({ input: child.stdout! }).once("line", resolve)
        child.once("exit", (c) => reject(new Error(`dev exited ${c}`)))
      })
      const { url, classes } = JSON.parse(line) as { url: string; classes: Array<string> }
      expect(classes).toEqual(["Counter"])
      expect(await (await fetch(`${url}/Counter/a/inc`)).text()).toBe("1")
      expect(await (await fetch(`${url}/Counter/a/inc`)).text()).toBe("2")
      expect((await fetch(`${url}/Nope/a/inc`)).status).toBe(404)
      const aborted = await fetch(`${url}/Counter/a/abort`)
      expect([aborted.status, await aborted.text()]).toEqual([500, "Counter/a: asked to\n"])
      expect(await (await fetch(`${url}/Counter/a/get`)).json()).toMatchObject({ n: 2 })
      // The running host owns the object: the CLI's write goes through it (test/objects/live.test.ts).
      const through = edgectl(
        ["objects", "kv", "Counter", "a", "put", "n", "99", "--value-json", "--persist-to", state],
        { cwd }
      )
      expect([through.status, through.stderr]).toEqual([0, 'wrote "n"\n'])
      expect(await (await fetch(`${url}/Counter/a/get`)).json()).toMatchObject({ n: 99 })
    } finally {
      const exited = new Promise((r) => child.once("exit", r))
      child.kill("SIGINT")
      await exited
    }
    const r = edgectl(["objects", "kv", "Counter", "a", "get", "n", "--json", "--persist-to", state], { cwd })
    expect(json(r)).toEqual({ key: "n", found: true, value: 99 })
  })
})
