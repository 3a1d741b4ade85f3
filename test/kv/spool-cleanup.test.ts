/**
 * A local bulk put of a file larger than the staging memory spools its checked entries (every key
 * and value) to a file in the temp directory. Through the built CLI, with a private TMPDIR: the
 * file is gone however the command ends (SIGINT, SIGTERM, SIGHUP mid-write), and one a process
 * killed with SIGKILL left is removed by the next bulk once nothing has changed it for a minute.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as readline from "node:readline"
import { beforeAll, describe, expect, it } from "vitest"
import { bin, edgectlAsync, tempDir } from "../helpers/cli.js"

const signalStatus: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGKILL: 137, SIGTERM: 143 }

let dir: string
let big: string
beforeAll(() => {
  dir = tempDir("edgectl-spool-")
  big = path.join(dir, "big.json")
  // ~50 MB: over the 16 MiB the platform stages in memory.
  const value = "x".repeat(500)
  fs.writeFileSync(big, JSON.stringify(Array.from({ length: 100_000 }, (_, i) => ({ key: `k${i}`, value }))))
})

/** A private temp directory, and the spool directories in it. */
const privateTmp = () => {
  const tmp = fs.mkdtempSync(path.join(dir, "tmp-"))
  return { tmp, spools: () => fs.readdirSync(tmp).filter((n) => n.startsWith("edgectl-bulk-")) }
}

/**
 * `kv bulk put big.json` locally with TMPDIR=tmp, sent `signal` once its spool file exists; the exit
 * status (128 + n when it was stopped, 0 if it finished first) and stderr.
 */
const interrupted = (tmp: string, state: string, signal: NodeJS.Signals) =>
  new Promise<{ status: number; stderr: string; spooled: Array<string> }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [bin, "kv", "bulk", "put", big, "--namespace-id", "ns1", "--persist-to", state],
      { env: { ...process.env, TMPDIR: tmp, NO_COLOR: "1" }, stdio: ["ignore", "ignore", "pipe"] }
    )
    let stderr = ""
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    let spooled: Array<string> = []
    const poll = setInterval(() => {
      spooled = fs.readdirSync(tmp).filter((n) => n.startsWith("edgectl-bulk-"))
      const file = spooled.map((n) => path.join(tmp, n, "file.json")).find((f) => fs.existsSync(f))
      if (file !== undefined && fs.statSync(file).size > 0) {
        clearInterval(poll)
        child.kill(signal)
      }
    }, 5)
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000)
    child.on("error", reject)
    child.on("close", (code, sig) => {
      clearInterval(poll)
      clearTimeout(killer)
      resolve({ status: code ?? signalStatus[sig ?? ""] ?? -1, stderr, spooled })
    })
  })

describe("a local bulk put's spool file", () => {
  it.each(["SIGINT", "SIGTERM", "SIGHUP"] as const)(
    "%s mid-write: stopped (128 + n), saying so, and no spool file is left",
    async (signal) => {
      const { tmp, spools } = privateTmp()
      const r = await interrupted(tmp, path.join(dir, `state-${signal}`), signal)
      // The signal came while the entries were spooled: the command did not finish first.
      expect(r.spooled).toHaveLength(1)
      expect(r.status).toBe(signalStatus[signal])
      expect(r.stderr).toContain(`error: kv bulk put: stopped by ${signal}`)
      expect(spools()).toEqual([])
    }
  )

  it("is named for its process; left by SIGKILL, it is swept by the next bulk once a minute old, not before", async () => {
    const { tmp, spools } = privateTmp()
    const state = path.join(dir, "state-kill")
    const killed = await interrupted(tmp, state, "SIGKILL")
    expect(killed.status).toBe(137)
    const left = spools()
    expect(left).toHaveLength(1)
    expect(left[0]).toMatch(/^edgectl-bulk-\d+-/)
    // One of a live process (this one) is never swept, however old.
    const live = path.join(tmp, `edgectl-bulk-${process.pid}-live`)
    fs.mkdirSync(live)
    const small = path.join(dir, "small.json")
    fs.writeFileSync(small, JSON.stringify([{ key: "a", value: "b" }]))
    const put = (file: string) =>
      edgectlAsync(["kv", "bulk", "put", file, "--namespace-id", "ns1", "--persist-to", state], {
        cwd: dir,
        env: { TMPDIR: tmp }
      })
    // Not yet a minute old: the process may live in another pid namespace sharing this directory.
    expect((await put(small)).status).toBe(0)
    expect(spools().sort()).toEqual([left[0], path.basename(live)].sort())
    const old = new Date(Date.now() - 120_000)
    for (const d of [path.join(tmp, left[0]!), live]) {
      for (const f of fs.readdirSync(d)) fs.utimesSync(path.join(d, f), old, old)
      fs.utimesSync(d, old, old)
    }
    expect((await put(small)).status).toBe(0)
    expect(spools()).toEqual([path.basename(live)])
  })
})

describe("edgectl serve's spool of a large bulk", () => {
  it("SIGTERM while one is staged: serve stops as it does (exit 0), and removes it", async () => {
    const { tmp, spools } = privateTmp()
    const serve = spawn(
      process.execPath,
      [bin, "serve", "--port", "0", "--json", "--persist-to", path.join(dir, "served")],
      {
        env: { ...process.env, TMPDIR: tmp },
        stdio: ["ignore", "pipe", "pipe"]
      }
    )
    const exited = new Promise<number>((resolve) =>
      serve.on("close", (code, sig) => resolve(code ?? signalStatus[sig ?? ""] ?? -1))
    )
    const ready = await new Promise<{ baseUrl: string; token: string; accountId: string }>((resolve) =>
      readline.createInterface({ input: serve.stdout }).once("line", (l) => resolve(JSON.parse(l)))
    )
    // 10,000 entries (the wire's most) of 5 kB: 50 MB, staged in a file.
    const value = "y".repeat(5000)
    const body = JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ key: `k${i}`, value })))
    const put = fetch(`${ready.baseUrl}/accounts/${ready.accountId}/storage/kv/namespaces/ns1/bulk`, {
      method: "PUT",
      headers: { authorization: `Bearer ${ready.token}`, "content-type": "application/json" },
      body
    }).catch(() => undefined)
    const staged = await new Promise<Array<string>>((resolve) => {
      const poll = setInterval(() => {
        if (spools().length === 0) return
        clearInterval(poll)
        resolve(spools())
      }, 5)
    })
    expect(staged).toHaveLength(1)
    serve.kill("SIGTERM")
    expect(await exited).toBe(0)
    await put
    expect(spools()).toEqual([])
  })
})
