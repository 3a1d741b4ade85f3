/**
 * Issue 27 item 6, through the built CLI: a remote bulk put or delete stopped by a signal says what
 * was written and how to finish (exit 130/143/129); a platform that takes a request and never
 * answers is given up on after the answer time limit (EDGECTL_TIMEOUT, --timeout), a write then
 * reported as sent and maybe applied, a read tried again; a local bulk's spool file (every key and
 * value) never outlives the command, whatever ends it, and one a killed process left is swept.
 */
import { spawn, type ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import * as net from "node:net"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, tempDir, type Result } from "../helpers/cli.js"

const lines = (s: string) => s.split("\n").filter((l) => l !== "")

/** The CLI as a child we can signal; `done` resolves with its exit status (128 + n when a signal ended it). */
const start = (args: ReadonlyArray<string>, env: Record<string, string | undefined>, cwd: string) => {
  const all: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...env }
  for (const k of Object.keys(all)) if (all[k] === undefined) delete all[k]
  const child: ChildProcess = spawn(process.execPath, [bin, ...args], { cwd, env: all as NodeJS.ProcessEnv })
  let stdout = ""
  let stderr = ""
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d))
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d))
  child.stdin!.end()
  const killer = setTimeout(() => child.kill("SIGKILL"), 60_000)
  const done = new Promise<Result>((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(killer)
      const byNumber = { SIGHUP: 129, SIGINT: 130, SIGKILL: 137, SIGTERM: 143 } as Record<string, number>
      resolve({ status: code ?? byNumber[signal ?? ""] ?? -1, stdout, stderr })
    })
  )
  return { child, done }
}

/** --remote at `base`, with a token and an account id (so no account is looked up). */
const remoteEnv = (base: string) => ({
  CLOUDFLARE_API_BASE_URL: base,
  CLOUDFLARE_API_TOKEN: "token-of-the-test",
  CLOUDFLARE_ACCOUNT_ID: "acc",
  CLOUDFLARE_API_KEY: undefined,
  CLOUDFLARE_EMAIL: undefined,
  EDGECTL_TIMEOUT: undefined
})

/**
 * A platform that answers the first `answered` requests with a bulk success and takes the others
 * without ever answering. `arrived(n)`: the n-th request has come in whole.
 */
const holdingPlatform = async (answered: number) => {
  const requests: Array<string> = []
  const waiting: Array<{ n: number; resolve: () => void }> = []
  const held: Array<http.ServerResponse> = []
  const server = http.createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      requests.push(`${req.method} ${req.url}`)
      for (const w of waiting.filter((w) => requests.length >= w.n)) w.resolve()
      if (requests.length > answered) return void held.push(res)
      res.setHeader("content-type", "application/json")
      res.end(
        JSON.stringify({
          success: true,
          errors: [],
          messages: [],
          result: { successful_key_count: 1000, unsuccessful_keys: [] }
        })
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as { port: number }).port
  return {
    requests,
    env: remoteEnv(`http://127.0.0.1:${port}/client/v4`),
    arrived: (n: number) =>
      new Promise<void>((resolve) => (requests.length >= n ? resolve() : waiting.push({ n, resolve }))),
    close: () => {
      for (const res of held) res.destroy()
      server.closeAllConnections()
      server.close()
    }
  }
}

let cwd: string
beforeAll(() => {
  cwd = tempDir()
  const entries = Array.from({ length: 10_000 }, (_, i) => ({ key: `k${i}`, value: "v" }))
  fs.writeFileSync(path.join(cwd, "ten.json"), JSON.stringify(entries))
  fs.writeFileSync(path.join(cwd, "keys.json"), JSON.stringify(entries.map((e) => e.key)))
})

describe("a remote bulk stopped by a signal", () => {
  const platforms: Array<{ close: () => void }> = []
  afterAll(() => platforms.forEach((p) => p.close()))

  it("kv bulk put, SIGINT while the 10th of 10 requests waits: what was written, and the command that finishes (exit 130)", async () => {
    const platform = await holdingPlatform(9)
    platforms.push(platform)
    const run = start(["kv", "bulk", "put", "ten.json", "--namespace-id", "ns1", "--remote"], platform.env, cwd)
    await platform.arrived(10)
    run.child.kill("SIGINT")
    const r = await run.done
    expect({ status: r.status, stderr: lines(r.stderr), stdout: r.stdout }).toEqual({
      status: 130,
      stderr: [
        "error: kv bulk put: stopped by SIGINT after 9 of 10 requests (9,000 of 10,000 keys written; the 10th request was sent and may have been applied)",
        "hint: run `edgectl kv bulk put ten.json --namespace-id ns1 --remote` to finish: running it again is safe"
      ],
      stdout: ""
    })
    expect(platform.requests).toHaveLength(10)
  })

  it("kv bulk delete, SIGTERM while the 4th request waits (exit 143)", async () => {
    const platform = await holdingPlatform(3)
    platforms.push(platform)
    const run = start(
      ["kv", "bulk", "delete", "keys.json", "--namespace-id", "ns1", "--remote", "--yes"],
      platform.env,
      cwd
    )
    await platform.arrived(4)
    run.child.kill("SIGTERM")
    const r = await run.done
    expect({ status: r.status, stderr: lines(r.stderr) }).toEqual({
      status: 143,
      stderr: [
        "error: kv bulk delete: stopped by SIGTERM after 3 of 10 requests (3,000 of 10,000 keys deleted; the 4th request was sent and may have been applied)",
        "hint: run `edgectl kv bulk delete keys.json --namespace-id ns1 --yes --remote` to finish: running it again is safe"
      ]
    })
  })
})

describe("a platform that takes a request and never answers", () => {
  const platforms: Array<{ close: () => void }> = []
  afterAll(() => platforms.forEach((p) => p.close()))

  it("a bulk write: sent, no answer in EDGECTL_TIMEOUT seconds, may have been applied; the hint names the listing that checks (exit 1)", async () => {
    const platform = await holdingPlatform(9)
    platforms.push(platform)
    const r = await start(
      ["kv", "bulk", "put", "ten.json", "--namespace-id", "ns1", "--remote"],
      { ...platform.env, EDGECTL_TIMEOUT: "1" },
      cwd
    ).done
    expect({ status: r.status, stderr: lines(r.stderr) }).toEqual({
      status: 1,
      stderr: [
        "error: kv bulk put: PUT /accounts/acc/storage/kv/namespaces/ns1/bulk: sent, no answer in 1 s: it may have been applied (request 10, with 1000 entries, after 9000 of 10000 entries were written in 9 requests; running the same command again is safe)",
        "hint: run `edgectl kv key list --namespace-id ns1 --remote` to see whether it was applied before running it again"
      ]
    })
    // A write that may have been applied is not sent again.
    expect(platform.requests).toHaveLength(10)
  })

  it("a single write with --timeout: the same, the option winning over EDGECTL_TIMEOUT", async () => {
    const platform = await holdingPlatform(0)
    platforms.push(platform)
    const r = await start(
      ["kv", "key", "put", "k", "v", "--namespace-id", "ns1", "--remote", "--timeout", "1"],
      { ...platform.env, EDGECTL_TIMEOUT: "3000" },
      cwd
    ).done
    expect({ status: r.status, stderr: lines(r.stderr) }).toEqual({
      status: 1,
      stderr: [
        "error: kv key put: PUT /accounts/acc/storage/kv/namespaces/ns1/values/k: sent, no answer in 1 s: it may have been applied",
        "hint: run `edgectl kv key list --namespace-id ns1 --remote` to see whether it was applied before running it again"
      ]
    })
    expect(platform.requests).toEqual(["PUT /client/v4/accounts/acc/storage/kv/namespaces/ns1/values/k"])
  })

  it("a read is tried again as the retry policy says (4 times), then fails saying no answer came", async () => {
    const platform = await holdingPlatform(0)
    platforms.push(platform)
    const r = await start(
      ["kv", "key", "get", "k", "--namespace-id", "ns1", "--remote"],
      { ...platform.env, EDGECTL_TIMEOUT: "1" },
      cwd
    ).done
    expect({ status: r.status, stderr: lines(r.stderr) }).toEqual({
      status: 1,
      stderr: [
        "error: kv key get: GET /accounts/acc/storage/kv/namespaces/ns1/values/k: no answer in 1 s",
        "hint: the platform did not answer in time: try again, or give it longer with --timeout SECONDS"
      ]
    })
    expect(platform.requests).toHaveLength(4)
  })

  it("a TLS handshake that never ends: no connection, nothing sent (not 'may have been applied')", async () => {
    // Takes the connection and never says a word: the client's TLS hello waits forever.
    const sockets: Array<net.Socket> = []
    const silent = net.createServer((s) => void sockets.push(s))
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
    platforms.push({
      close: () => {
        sockets.forEach((s) => s.destroy())
        silent.close()
      }
    })
    const base = `https://127.0.0.1:${(silent.address() as net.AddressInfo).port}/client/v4`
    const r = await start(
      ["kv", "key", "put", "k", "v", "--namespace-id", "ns1", "--remote", "--timeout", "1"],
      remoteEnv(base),
      cwd
    ).done
    expect({ status: r.status, stderr: lines(r.stderr) }).toEqual({
      status: 1,
      stderr: [
        `error: kv key put: cannot reach ${base}: no connection in 1 s`,
        "hint: check the network and CLOUDFLARE_API_BASE_URL"
      ]
    })
    expect(sockets).toHaveLength(1)
  })

  it("a timeout that is not seconds from 1 to 3600: --timeout is a usage error, EDGECTL_TIMEOUT a failure naming it", async () => {
    const platform = await holdingPlatform(0)
    platforms.push(platform)
    const option = await start(["kv", "namespace", "list", "--remote", "--timeout", "0"], platform.env, cwd).done
    expect({ status: option.status, stderr: lines(option.stderr) }).toEqual({
      status: 2,
      stderr: ['error: --timeout: expected seconds from 1 to 3600, got "0"']
    })
    const env = await start(["kv", "namespace", "list", "--remote"], { ...platform.env, EDGECTL_TIMEOUT: "soon" }, cwd)
      .done
    expect({ status: env.status, stderr: lines(env.stderr)[0] }).toEqual({
      status: 1,
      stderr: 'error: kv namespace list: EDGECTL_TIMEOUT: expected seconds from 1 to 3600, got "soon"'
    })
    expect(platform.requests).toEqual([])
  })
})
