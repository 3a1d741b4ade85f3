/**
 * Several processes on one state directory at once: the first use of a new directory (commands and
 * `serve` creating and seeding the store together) and first writes to the same new KV namespace.
 */
import { spawn } from "node:child_process"
import { describe, expect, it } from "vitest"
import { bin, edgectl, edgectlAsync, json, tempDir, type Result } from "../helpers/cli.js"

/** `edgectl serve` until it prints its ready line (then stopped), as a Result. */
const serveOnce = (dir: string): Promise<Result> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", dir], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d
      if (stdout.includes("\n")) child.kill("SIGTERM")
    })
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    child.on("error", reject)
    child.on("close", () => resolve({ status: stdout.includes('"baseUrl"') ? 0 : 1, stdout, stderr }))
  })

describe("first use of a state directory by several processes at once", () => {
  it("creates and seeds the store once; every command and serve succeed (4 rounds)", async () => {
    for (let round = 0; round < 4; round++) {
      const dir = tempDir()
      const opts = { cwd: dir }
      const [zones, namespaces, esc, served] = await Promise.all([
        edgectlAsync(["zones", "list", "--json", "--persist-to", dir], opts),
        edgectlAsync(["kv", "namespace", "list", "--persist-to", dir], opts),
        edgectlAsync(["esc", "get", "--zone", "acme.com", "--json", "--persist-to", dir], opts),
        serveOnce(dir)
      ])
      for (const r of [zones, namespaces, esc, served]) expect(r.stderr).toBe("")
      expect(json<Array<unknown>>(zones!)).toHaveLength(46)
      expect(namespaces!.status).toBe(0)
      expect(esc!.status).toBe(0)
      expect(served!.status).toBe(0)
      // Seeded once: the demo world, not twice over.
      expect(json<Array<unknown>>(edgectl(["zones", "list", "--json", "--persist-to", dir], opts))).toHaveLength(46)
    }
  })
})

describe("first writes to the same new KV namespace from several processes", () => {
  it("creates the namespace once and keeps every write (6 rounds of 4 puts)", async () => {
    const dir = tempDir()
    const opts = { cwd: dir }
    expect(edgectl(["zones", "list", "--persist-to", dir], opts).status).toBe(0)
    for (let round = 0; round < 6; round++) {
      const ns = `new-namespace-${round}`
      const puts = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          edgectlAsync(["kv", "key", "put", `key-${i}`, `value-${i}`, "--namespace-id", ns, "--persist-to", dir], opts)
        )
      )
      // Every put's status and stderr at once: a failure shows them all.
      expect(puts.map((p) => ({ status: p.status, stderr: p.stderr }))).toEqual(
        [0, 1, 2, 3].map(() => ({ status: 0, stderr: "" }))
      )
      const keys = json<Array<{ name: string }>>(
        edgectl(["kv", "key", "list", "--namespace-id", ns, "--persist-to", dir], opts)
      )
      expect(keys.map((k) => k.name)).toEqual(["key-0", "key-1", "key-2", "key-3"])
    }
    const titles = json<Array<{ id: string; title: string }>>(
      edgectl(["kv", "namespace", "list", "--persist-to", dir], opts)
    )
    expect(
      titles
        .filter((n) => n.id.startsWith("new-namespace-"))
        .map((n) => n.title)
        .sort()
    ).toEqual([0, 1, 2, 3, 4, 5].map((r) => `new-namespace-${r}`))
  })
})
