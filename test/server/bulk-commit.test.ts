/**
 * A large KV bulk committed by `edgectl serve` (the built bundle) on a connection of its own, in a
 * worker thread (src/store/commit-worker.ts): other clients are answered while it is written, a
 * write that arrives meanwhile waits for it and lands too, and the bulk stays all or nothing (a bad
 * last entry writes nothing; SIGKILL during the commit leaves none or all of it, the store intact).
 *
 * The commit is seen from outside by the store's WAL file: a transaction of 20 MB spills its pages
 * there long before it commits, and a new store's WAL is far smaller.
 */
import Database from "better-sqlite3"
import { spawn, type ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import * as path from "node:path"
import * as readline from "node:readline"
import { afterEach, describe, expect, it } from "vitest"
import { bin, tempDir } from "../helpers/cli.js"

interface Served {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly accountId: string
  readonly token: string
  readonly stateDir: string
}

const running: Array<ChildProcess> = []
afterEach(() => {
  for (const c of running.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL")
})

const serve = (): Promise<Served> => {
  const stateDir = tempDir("edgectl-bulk-commit-")
  const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", stateDir], {
    stdio: ["ignore", "pipe", "pipe"]
  })
  running.push(child)
  let stderr = ""
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once("line", (line) => {
      const s = JSON.parse(line) as { baseUrl: string; accountId: string; token: string }
      resolve({ child, stateDir, baseUrl: s.baseUrl, accountId: s.accountId, token: s.token })
    })
    child.once("exit", (code) => reject(new Error(`edgectl serve exited ${code}: ${stderr}`)))
  })
}

interface Answer {
  readonly status: number
  readonly text: string
  /** performance.now() when the answer had arrived whole. */
  readonly at: number
}

/** One request on its own connection (no keep-alive: each client here is a connection of its own). */
const send = (s: Served, method: string, urlPath: string, body?: Buffer | string, agent?: http.Agent) =>
  new Promise<Answer>((resolve, reject) => {
    const url = new URL(s.baseUrl + urlPath)
    const payload = body === undefined ? undefined : Buffer.from(body)
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        agent: agent ?? false,
        headers: {
          authorization: `Bearer ${s.token}`,
          ...(payload ? { "content-type": "application/json", "content-length": payload.length } : {})
        }
      },
      (res) => {
        const parts: Array<Buffer> = []
        res.on("data", (d: Buffer) => parts.push(d))
        res.on("end", () =>
          resolve({ status: res.statusCode!, text: Buffer.concat(parts).toString(), at: performance.now() })
        )
      }
    )
    req.on("error", reject)
    req.end(payload)
  })

const kvPath = (s: Served) => `/accounts/${s.accountId}/storage/kv/namespaces`
const newNamespace = async (s: Served) =>
  (JSON.parse((await send(s, "POST", kvPath(s), JSON.stringify({ title: "bulk-commit" }))).text) as any).result
    .id as string

/** 2,000 entries of 10,000 bytes: ~20 MB, staged in a temporary file, committed in the worker. */
const Entries = 2000
const bulkBody = (last?: unknown) => {
  const items: Array<unknown> = Array.from({ length: Entries }, (_, i) => ({ key: `k${i}`, value: "v".repeat(10_000) }))
  if (last !== undefined) items[items.length - 1] = last
  return Buffer.from(JSON.stringify(items))
}

const walBytes = (s: Served) => {
  try {
    return fs.statSync(path.join(s.stateDir, "platform.sqlite-wal")).size
  } catch {
    return 0
  }
}

/** Resolves once the WAL has grown by `bytes` (the bulk's transaction is being written). */
const commitUnderway = (s: Served, bytes = 6 << 20) => {
  const start = walBytes(s)
  return new Promise<number>((resolve) => {
    const poll = setInterval(() => {
      if (walBytes(s) - start < bytes) return
      clearInterval(poll)
      resolve(performance.now())
    }, 2)
  })
}

/** GETs of a zone one after another on one keep-alive connection, until `until` settles. */
const getsUntil = async (s: Served, until: Promise<unknown>) => {
  const zone = (JSON.parse((await send(s, "GET", "/zones")).text) as any).result[0].id as string
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  let settled = false
  void until.finally(() => (settled = true))
  const gets: Array<Answer> = []
  while (!settled) gets.push(await send(s, "GET", `/zones/${zone}`, undefined, agent))
  agent.destroy()
  expect(gets.every((g) => g.status === 200)).toBe(true)
  return gets
}

/** The namespace's entries and the integrity check, read from the store file by another connection. */
const stored = (s: Served, namespaceId: string) => {
  // Read-write, as the next `serve` opens it: a store left by a kill is recovered on open.
  const db = new Database(path.join(s.stateDir, "platform.sqlite"))
  try {
    const n = db
      .prepare("SELECT count(*) AS n FROM kv_entries e JOIN kv_namespaces n ON n.seq = e.ns WHERE n.id = ?")
      .get(namespaceId) as { n: number }
    return { entries: n.n, integrity: db.pragma("integrity_check", { simple: true }) }
  } finally {
    db.close()
  }
}

describe("a large bulk committed on a connection of its own", () => {
  it("answers small GETs on other connections while the bulk's transaction is written", async () => {
    const s = await serve()
    const ns = await newNamespace(s)
    const underway = commitUnderway(s)
    const bulk = send(s, "PUT", `${kvPath(s)}/${ns}/bulk`, bulkBody())
    const since = await underway
    const gets = await getsUntil(s, bulk)
    const done = await bulk
    expect(done.status).toBe(200)
    // Answered after the bulk's transaction began and before its answer.
    const during = gets.filter((g) => g.at > since && g.at < done.at)
    expect(during.length).toBeGreaterThanOrEqual(3)
    expect(stored(s, ns)).toEqual({ entries: Entries, integrity: "ok" })
  })

  it("lets a single PUT that arrives during the commit wait for it, answering GETs meanwhile; both land", async () => {
    const s = await serve()
    const ns = await newNamespace(s)
    const underway = commitUnderway(s)
    const bulk = send(s, "PUT", `${kvPath(s)}/${ns}/bulk`, bulkBody())
    await underway
    const single = send(s, "PUT", `${kvPath(s)}/${ns}/values/single`, "one value")
    // The PUT waits on a promise, not in SQLite's busy handler (which would hold the event loop).
    const gets = await getsUntil(s, single)
    const put = await single
    expect(put.status).toBe(200)
    expect(gets.filter((g) => g.at < put.at).length).toBeGreaterThanOrEqual(3)
    expect((await bulk).status).toBe(200)
    expect(stored(s, ns)).toEqual({ entries: Entries + 1, integrity: "ok" })
    const read = await send(s, "GET", `${kvPath(s)}/${ns}/values/single`)
    expect(read.text).toBe("one value")
    const last = await send(s, "GET", `${kvPath(s)}/${ns}/values/k${Entries - 1}`)
    expect(last.text).toBe("v".repeat(10_000))
  })

  it("writes nothing when the last of the large bulk's entries is invalid", async () => {
    const s = await serve()
    const ns = await newNamespace(s)
    const bad = await send(s, "PUT", `${kvPath(s)}/${ns}/bulk`, bulkBody({ key: "", value: "x" }))
    expect(bad.status).toBe(400)
    expect(bad.text).toContain("key")
    expect(stored(s, ns)).toEqual({ entries: 0, integrity: "ok" })
  })

  it("leaves none or all of the bulk, and an intact store, when serve is killed during the commit", async () => {
    const s = await serve()
    const ns = await newNamespace(s)
    const underway = commitUnderway(s)
    send(s, "PUT", `${kvPath(s)}/${ns}/bulk`, bulkBody()).catch(() => undefined)
    await underway
    const exited = new Promise((resolve) => s.child.once("exit", resolve))
    s.child.kill("SIGKILL")
    await exited
    const after = stored(s, ns)
    expect(after.integrity).toBe("ok")
    expect([0, Entries]).toContain(after.entries)
  })
})
