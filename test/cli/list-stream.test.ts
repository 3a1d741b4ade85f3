/**
 * `zones list --json` and `dns list --json` print their pages as they arrive (src/cli/output.ts,
 * `jsonArrayPrinter`) and, in-process, read a page's items without decoding them again
 * (src/api/client.ts, `callPage`). What they print must stay byte for byte what the whole array
 * printed at once was: checked against `--remote` through `edgectl serve` (every item decoded by its
 * schema) on the same store, at page boundaries (a list of exactly two pages, one more zone on a
 * third page, an empty list), and where the output cannot be written.
 */
import Database from "better-sqlite3"
import { spawn } from "node:child_process"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, edgectlAsync, tempDir, type Result } from "../helpers/cli.js"
import { startServe, type Served } from "../helpers/serve.js"

const state = tempDir("edgectl-list-stream-")
const local = ["--persist-to", state]
let served: Served
let db: Database.Database

/** The accounts the local credentials see (`accounts list --json`). */
let accountIds: Array<string> = []

/** The zones the local credentials see, as `zones list` orders them (by name), straight from the file. */
const visibleNames = (): Array<string> =>
  db
    .prepare(
      `SELECT name FROM zones WHERE type <> 'internal' AND account_id IN (${accountIds.map(() => "?").join(", ")}) ORDER BY name`
    )
    .pluck()
    .all(...accountIds) as Array<string>

/** A copy of acme.com under another name: a zone like the demo's, written by another connection. */
const addZone = (name: string) =>
  db
    .prepare(
      `INSERT INTO zones (id, name, account_id, status, paused, type, plan, development_mode, name_servers,
        original_name_servers, original_registrar, original_dnshost, created_on, modified_on, activated_on, meta, owner)
      SELECT lower(hex(randomblob(16))), ?, account_id, status, paused, type, plan, development_mode, name_servers,
        original_name_servers, original_registrar, original_dnshost, created_on, modified_on, activated_on, meta, owner
      FROM zones WHERE name = 'acme.com'`
    )
    .run(name)

/** The command's output in-process and through `serve` with --remote: both, after checking they exited 0. */
const bothWays = async (args: ReadonlyArray<string>) => {
  const env = { CLOUDFLARE_ACCOUNT_ID: undefined }
  const [inProcess, remote] = await Promise.all([
    edgectlAsync([...args, ...local], { env }),
    edgectlAsync([...args, "--remote"], { env: { ...env, ...served.remoteEnv() } })
  ])
  expect([inProcess.status, inProcess.stderr]).toEqual([0, ""])
  expect([remote.status, remote.stderr]).toEqual([0, ""])
  return { inProcess: inProcess.stdout, remote: remote.stdout }
}

/** A shell line, `$EDGECTL` the CLI. */
const bash = (script: string): Promise<Result> =>
  new Promise((resolve, reject) => {
    const line = script.replaceAll("$EDGECTL", `"${process.execPath}" "${bin}"`)
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" }
    delete env.CLOUDFLARE_ACCOUNT_ID
    const child = spawn("bash", ["-c", line], { env, timeout: 30_000, killSignal: "SIGKILL" })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    child.on("error", reject)
    child.on("close", (code) => resolve({ status: code ?? -1, stdout, stderr }))
  })

beforeAll(async () => {
  // The first command creates and seeds the store.
  const seeded = await edgectlAsync(["accounts", "list", "--json", ...local])
  expect(seeded.status, seeded.stderr).toBe(0)
  accountIds = (JSON.parse(seeded.stdout) as Array<{ id: string }>).map((a) => a.id)
  db = new Database(path.join(state, "platform.sqlite"))
  db.pragma("busy_timeout = 5000")
  // Exactly two pages of 50: the last zone of the list ends the second page.
  const more = 100 - visibleNames().length
  expect(more).toBeGreaterThan(0)
  db.transaction(() => {
    for (let i = 0; i < more; i++) addZone(`stream-${String(i).padStart(3, "0")}.example`)
  })()
  expect(visibleNames()).toHaveLength(100)
  served = await startServe(state)
}, 60_000)

afterAll(() => {
  served?.close()
  db?.close()
})

describe("zones list --json, printed page by page", () => {
  it("at exactly two full pages, one zone more (a third page of one) and none: the whole array's bytes, in-process as through serve", async () => {
    const two = await bothWays(["zones", "list", "--json"])
    expect(two.inProcess).toBe(two.remote)
    const zones = JSON.parse(two.inProcess) as Array<{ name: string }>
    expect(zones.map((z) => z.name)).toEqual(visibleNames())
    // What printing the whole array at once prints.
    expect(two.inProcess).toBe(`${JSON.stringify(zones, null, 2)}\n`)

    addZone("zzzz-last.example")
    const three = await bothWays(["zones", "list", "--json"])
    expect(three.inProcess).toBe(three.remote)
    const all = JSON.parse(three.inProcess) as Array<{ name: string }>
    expect(all.map((z) => z.name)).toEqual(visibleNames())
    expect(all).toHaveLength(101)
    expect(three.inProcess).toBe(`${JSON.stringify(all, null, 2)}\n`)

    const none = await bothWays(["zones", "list", "--name", "no-such-zone.example", "--json"])
    expect(none).toEqual({ inProcess: "[]\n", remote: "[]\n" })
  }, 60_000)

  it("dns list --json over three pages of 500: the same bytes in-process and through serve", async () => {
    const dns = await bothWays(["dns", "list", "acme.com", "--json"])
    expect(dns.inProcess).toBe(dns.remote)
    const records = JSON.parse(dns.inProcess) as Array<unknown>
    expect(records.length).toBeGreaterThan(1000)
    expect(dns.inProcess).toBe(`${JSON.stringify(records, null, 2)}\n`)
  }, 60_000)

  it("to a full disk fails with one line and exit 1; a reader that leaves early is no failure", async () => {
    const full = await bash(`$EDGECTL zones list --json --persist-to "${state}" > /dev/full`)
    expect([full.status, full.stderr]).toEqual([1, "error: cannot write the output: no space left on device\n"])
    const head = await bash(
      `$EDGECTL zones list --json --persist-to "${state}" | head -c 100 >/dev/null; echo "status \${PIPESTATUS[0]}" >&2`
    )
    expect(head.stderr).toBe("status 0\n")
  }, 60_000)
})
