/**
 * The platform's API budget, end to end with real processes: `edgectl serve --rate-limit N/SECONDS`
 * answers 429 past it as the platform does; a remote `kv bulk put` keeps within the budget
 * (EDGECTL_RATE_LIMIT) and fails nothing; `edgectl serve --upstream URL` forwards a whole bulk put
 * of a client that keeps no budget of its own, queueing it within the budget. A recording proxy in
 * front of the platform sees what arrives: counts per window and statuses, never durations.
 */
import { spawn, type ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as path from "node:path"
import * as readline from "node:readline"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, edgectl, edgectlAsync, tempDir } from "../helpers/cli.js"

const Token = "edgectl-local-token-all-accounts-0000000"
const children: Array<ChildProcess> = []
const servers: Array<http.Server> = []
afterAll(() => {
  for (const c of children) c.kill("SIGTERM")
  for (const s of servers) {
    s.closeAllConnections()
    s.close()
  }
})

/** `edgectl serve … --json` as a child process: the first line it prints. */
const serve = async (args: ReadonlyArray<string>) => {
  const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", ...args], {
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.push(child)
  const lines = readline.createInterface({ input: child.stdout! })
  return new Promise<{ baseUrl: string; accountId?: string }>((resolve, reject) => {
    lines.once("line", (l) => resolve(JSON.parse(l) as { baseUrl: string; accountId?: string }))
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}`)))
  })
}

interface Seen {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly authorization: string | undefined
  /** When it arrived, ms since the proxy started: requests are counted per window of these. */
  readonly at: number
}

/** A proxy that forwards everything to `base`'s origin and records each request with its answer's status. */
const recording = async (base: string) => {
  const up = new URL(base)
  const seen: Array<Seen> = []
  const started = Date.now()
  const server = http.createServer((req, res) => {
    const at = Date.now() - started
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = Buffer.concat(chunks)
      const out = http.request(
        {
          host: up.hostname,
          port: up.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: up.host, "content-length": String(body.length) }
        },
        (answer) => {
          seen.push({
            method: req.method ?? "GET",
            path: req.url ?? "",
            status: answer.statusCode ?? 0,
            authorization: req.headers.authorization,
            at
          })
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        }
      )
      out.end(body)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`, seen }
}

/** The most requests that arrived in any window of `seconds` (counted from each arrival). */
const mostPerWindow = (seen: ReadonlyArray<Seen>, seconds: number) => {
  const at = seen.map((s) => s.at).sort((a, b) => a - b)
  return Math.max(0, ...at.map((t) => at.filter((u) => u >= t && u < t + seconds * 1000).length))
}

/** A state directory with a namespace, made before any server runs on it: it counts against no budget. */
const platformState = () => {
  const dir = path.join(tempDir(), "state")
  const created = edgectl(["kv", "namespace", "create", "budget", "--persist-to", dir], { cwd })
  expect(created.status).toBe(0)
  return { dir, namespaceId: /\(id ([0-9a-f]{32})\)/.exec(created.stdout)![1]! }
}

let cwd: string
beforeAll(() => {
  cwd = tempDir()
  // 3,000 entries: three requests of the remote bulk put's 1,000.
  const entries = Array.from({ length: 3000 }, (_, i) => ({ key: `k${i}`, value: `v${i}` }))
  fs.writeFileSync(path.join(cwd, "entries.json"), JSON.stringify(entries))
})

const remoteEnv = (baseUrl: string, accountId: string, extra: Record<string, string> = {}) => ({
  CLOUDFLARE_API_BASE_URL: baseUrl,
  CLOUDFLARE_API_TOKEN: Token,
  CLOUDFLARE_ACCOUNT_ID: accountId,
  CLOUDFLARE_API_KEY: undefined,
  CLOUDFLARE_EMAIL: undefined,
  ...extra
})

describe("edgectl serve --rate-limit", () => {
  it("past the budget: 429, Retry-After in whole seconds, the platform's envelope; counted per credential", async () => {
    const served = await serve(["--persist-to", tempDir(), "--rate-limit", "2/30"])
    const get = (token: string) =>
      fetch(`${served.baseUrl}/user/tokens/verify`, { headers: { authorization: `Bearer ${token}` } })
    const statuses = [(await get(Token)).status, (await get(Token)).status]
    const refused = await get(Token)
    // Another credential has a budget of its own: refused for its token (403), not for the budget.
    const other = await get("another-token-0000000000000000000000000")
    expect({ statuses, refused: refused.status, other: other.status }).toEqual({
      statuses: [200, 200],
      refused: 429,
      other: 403
    })
    const retryAfter = Number(refused.headers.get("retry-after"))
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 30).toBe(true)
    expect(await refused.json()).toEqual({
      success: false,
      errors: [
        {
          code: 10013,
          message: `More than 2 requests per 30 seconds reached. Please wait ${retryAfter} s and consider throttling your request speed`
        }
      ],
      messages: [],
      result: null
    })
  })

  it("a remote kv bulk put within the same budget: every request answered 2xx, at most N per window, every key written", async () => {
    const { dir, namespaceId } = platformState()
    const served = await serve(["--persist-to", dir, "--rate-limit", "2/2"])
    const proxy = await recording(served.baseUrl)
    const r = await edgectlAsync(["kv", "bulk", "put", "entries.json", "--namespace-id", namespaceId, "--remote"], {
      cwd,
      env: remoteEnv(proxy.baseUrl, served.accountId!, { EDGECTL_RATE_LIMIT: "2/2" })
    })
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 0,
      stdout: `Wrote 3,000 entries to namespace id ${namespaceId} in 3 requests.\n`,
      stderr: ""
    })
    expect(proxy.seen.map((s) => s.status)).toEqual([200, 200, 200])
    expect(mostPerWindow(proxy.seen, 2)).toBeLessThanOrEqual(2)
  })

  it("EDGECTL_RATE_LIMIT and --rate-limit that are not N/SECONDS: the variable or option, and the value", () => {
    const env = remoteEnv("http://127.0.0.1:9/client/v4", "0".repeat(32), { EDGECTL_RATE_LIMIT: "1200 per 300" })
    expect(edgectl(["zones", "list", "--remote"], { cwd, env }).stderr).toContain(
      'EDGECTL_RATE_LIMIT: expected REQUESTS/SECONDS (e.g. 1200/300), got "1200 per 300"'
    )
    const r = edgectl(["zones", "list", "--remote", "--rate-limit", "0/10"], { cwd, env })
    expect({ status: r.status, stderr: r.stderr }).toMatchObject({ status: 2 })
    expect(r.stderr).toContain("--rate-limit: requests must be from 1 to 1000000, got 0")
  })
})

describe("edgectl serve --upstream", () => {
  it("forwards a whole kv bulk put of a client with no budget, queued within the budget, credentials untouched", async () => {
    const { dir, namespaceId } = platformState()
    const platform = await serve(["--persist-to", dir, "--rate-limit", "2/2"])
    const recorder = await recording(platform.baseUrl)
    const proxy = await serve(["--upstream", recorder.baseUrl, "--rate-limit", "2/2"])
    const r = await edgectlAsync(["kv", "bulk", "put", "entries.json", "--namespace-id", namespaceId, "--remote"], {
      cwd,
      // The client's own budget would keep it within the platform's by itself: set far above it.
      env: remoteEnv(proxy.baseUrl, platform.accountId!, { EDGECTL_RATE_LIMIT: "1000/1" })
    })
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 0,
      stdout: `Wrote 3,000 entries to namespace id ${namespaceId} in 3 requests.\n`,
      stderr: ""
    })
    expect(recorder.seen.map((s) => [s.method, s.status, s.authorization])).toEqual([
      ["PUT", 200, `Bearer ${Token}`],
      ["PUT", 200, `Bearer ${Token}`],
      ["PUT", 200, `Bearer ${Token}`]
    ])
    expect(recorder.seen[0]!.path).toBe(
      `/client/v4/accounts/${platform.accountId}/storage/kv/namespaces/${namespaceId}/bulk`
    )
    expect(mostPerWindow(recorder.seen, 2)).toBeLessThanOrEqual(2)
  })

  it("a budget set above the platform's: the platform's 429 is waited out (Retry-After) and the request sent again, the client sees none", async () => {
    const { dir, namespaceId } = platformState()
    const platform = await serve(["--persist-to", dir, "--rate-limit", "2/5"])
    const recorder = await recording(platform.baseUrl)
    const proxy = await serve(["--upstream", recorder.baseUrl, "--rate-limit", "100/1"])
    const r = await edgectlAsync(["kv", "bulk", "put", "entries.json", "--namespace-id", namespaceId, "--remote"], {
      cwd,
      env: remoteEnv(proxy.baseUrl, platform.accountId!, { EDGECTL_RATE_LIMIT: "1000/1" })
    })
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 0,
      stdout: `Wrote 3,000 entries to namespace id ${namespaceId} in 3 requests.\n`,
      stderr: ""
    })
    expect(recorder.seen.map((s) => s.status)).toEqual([200, 200, 429, 200])
  })

  it("an upstream it cannot reach: 502 with the envelope, naming the origin, and the next request is forwarded too", async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const proxy = await serve(["--upstream", `http://127.0.0.1:${port}/client/v4`])
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${proxy.baseUrl}/zones`, { headers: { authorization: `Bearer ${Token}` } })
      const body = (await r.json()) as { success: boolean; errors: Array<{ code: number; message: string }> }
      expect({ status: r.status, success: body.success, code: body.errors[0]!.code }).toEqual({
        status: 502,
        success: false,
        code: 10001
      })
      expect(body.errors[0]!.message).toContain(`edgectl serve --upstream: cannot reach http://127.0.0.1:${port}:`)
    }
  })

  it("usage: a URL that is not http(s), --persist-to with it, a budget that is not N/SECONDS (exit 2)", () => {
    const run = (args: ReadonlyArray<string>) => {
      const r = edgectl(["serve", ...args], { cwd })
      return { status: r.status, stderr: r.stderr.trim() }
    }
    expect(run(["--upstream", "ftp://example.com/client/v4"])).toEqual({
      status: 2,
      stderr: 'error: --upstream: expected an http(s) URL, got "ftp://example.com/client/v4"'
    })
    expect(run(["--upstream", "http://127.0.0.1:9/client/v4", "--persist-to", "d"])).toEqual({
      status: 2,
      stderr: "error: --persist-to applies to the local platform, not to --upstream"
    })
    expect(run(["--rate-limit", "5"])).toEqual({
      status: 2,
      stderr: 'error: --rate-limit: expected REQUESTS/SECONDS (e.g. 1200/300), got "5"'
    })
  })
})
