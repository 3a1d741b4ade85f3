/**
 * `edgectl kv bulk put|get|delete` as processes: a bulk file that is not JSON says so and where
 * (file or standard input), and `bulk get` on a namespace id that local mode has never seen
 * answers as `key get` does there (wrangler's local storage: an unknown id reads as empty).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"

const lines = (s: string) => s.split("\n").filter((l) => l !== "")

describe("a bulk file that is not JSON", () => {
  it("says it is not JSON, with the file, line and column, for put, get and delete; nothing is written", async () => {
    const dir = tempDir()
    const run = (args: ReadonlyArray<string>, input = "") =>
      edgectlAsync([...args, "--namespace-id", "n1", "--persist-to", dir], { cwd: dir, input })
    fs.writeFileSync(path.join(dir, "notjson.json"), "notjson\n")
    for (const verb of ["put", "get", "delete"]) {
      const r = await run(["kv", "bulk", verb, "notjson.json", ...(verb === "delete" ? ["--yes"] : [])])
      expect({ status: r.status, stderr: lines(r.stderr), stdout: r.stdout }, verb).toEqual({
        status: 1,
        stderr: [
          `error: kv bulk ${verb}: notjson.json:1:1: not JSON: "notjson" is not a JSON value; expected a JSON array`
        ],
        stdout: ""
      })
    }
    const piped = await run(["kv", "bulk", "put", "-"], '\n  <?xml version="1.0"?>')
    expect(lines(piped.stderr)).toEqual([
      `error: kv bulk put: <stdin>:2:3: not JSON: "<?xml" is not a JSON value; expected a JSON array`
    ])
    // A JSON value that is not an array is still named for what it is.
    const nul = await run(["kv", "bulk", "put", "-"], "null")
    expect(lines(nul.stderr)).toEqual(["error: kv bulk put: <stdin>:1:1: expected a JSON array, got null"])
    const listed = await edgectlAsync(["kv", "key", "list", "--namespace-id", "n1", "--persist-to", dir], { cwd: dir })
    expect(listed.stdout).toBe("[]\n")
  })
})

describe("kv bulk get on a namespace id local mode has not seen", () => {
  it("answers as kv key get does there: every key missing, exit 0 (wrangler's local storage)", async () => {
    const dir = tempDir()
    const run = (args: ReadonlyArray<string>, input = "") =>
      edgectlAsync([...args, "--namespace-id", "never-written", "--persist-to", dir], { cwd: dir, input })
    const one = await run(["kv", "key", "get", "a"])
    expect(one).toMatchObject({ status: 0, stdout: "Value not found\n", stderr: "" })
    const bulk = await run(["kv", "bulk", "get", "-"], '["a", {"name": "b"}]')
    expect(bulk.status).toBe(0)
    expect(JSON.parse(bulk.stdout)).toEqual({ a: { value: null }, b: { value: null } })
  })
})
