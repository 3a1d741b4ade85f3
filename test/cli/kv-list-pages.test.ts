/**
 * `kv key list` and `kv namespace list` read every page: the key list follows the cursor past the
 * platform's 1,000 keys per page (src/api/client.ts `collectCursor`), each key once, in order.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"

describe("kv key list", () => {
  it("follows the cursor over 2,500 keys: every key once, in the platform's order", async () => {
    const state = tempDir("edgectl-kv-pages-")
    const keys = Array.from({ length: 2500 }, (_, i) => `key-${String(i).padStart(4, "0")}`)
    const file = path.join(state, "bulk.json")
    fs.writeFileSync(file, JSON.stringify(keys.map((key) => ({ key, value: "v" }))))
    const put = await edgectlAsync(["kv", "bulk", "put", file, "--namespace-id", "pages", "--persist-to", state])
    expect(put.status, put.stderr).toBe(0)
    const list = await edgectlAsync(["kv", "key", "list", "--namespace-id", "pages", "--persist-to", state])
    expect(list.status, list.stderr).toBe(0)
    expect((JSON.parse(list.stdout) as Array<{ name: string }>).map((k) => k.name)).toEqual(keys)
    const prefixed = await edgectlAsync([
      "kv",
      "key",
      "list",
      "--prefix",
      "key-1",
      "--namespace-id",
      "pages",
      "--persist-to",
      state
    ])
    expect(prefixed.status, prefixed.stderr).toBe(0)
    expect((JSON.parse(prefixed.stdout) as Array<{ name: string }>).map((k) => k.name)).toEqual(
      keys.filter((k) => k.startsWith("key-1"))
    )
  }, 60_000)
})
