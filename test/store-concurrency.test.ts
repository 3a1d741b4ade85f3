/**
 * Several processes on one state directory at once: the first use of a new directory (commands and
 * `serve` creating and seeding the store together) and first writes to the same new KV namespace.
 */
import { spawn } from "node:child_process"
import { describe, expect, it } from "vitest"
import { bin, edgectl, edgectlAsync, json, tempDir, type Result } from "./helpers-cli.js"

/** `edgectl serve` until it prints its ready line (then stopped), as a Result. */
const serveOnce = (dir: string): Promise<Result> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", dir], { stdio: ["ignore", "pipe", "pipe"] })
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
