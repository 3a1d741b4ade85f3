/** `edgectl serve` as a child process, and the CLI's --remote mode pointed at it. */
import { spawn, type ChildProcess } from "node:child_process"
import * as readline from "node:readline"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, edgectl, json, tempDir } from "../helpers/cli.js"

interface Ready {
  baseUrl: string
  token: string
  accountId: string
}

describe("edgectl serve", () => {
  let child: ChildProcess
  let ready: Ready
  let stateDir: string

  beforeAll(async () => {
    stateDir = tempDir()
    child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", stateDir], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    const lines = readline.createInterface({ input: child.stdout! })
    ready = await new Promise<Ready>((resolve, reject) => {
      lines.once("line", (l) => resolve(JSON.parse(l) as Ready))
      child.once("exit", (code) => reject(new Error(`serve exited with ${code}`)))
    })
  })

  afterAll(() => {
    child.kill("SIGTERM")
  })

  it("prints one JSON line with its base URL, a local token and an account id once ready", async () => {
    expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/)
    expect(ready.accountId).toMatch(/^[0-9a-f]{32}$/)
    const r = await fetch(`${ready.baseUrl}/zones?account.id=${ready.accountId}&per_page=50`, {
      headers: { authorization: `Bearer ${ready.token}` }
    })
    expect(r.status).toBe(200)
    const body = (await r.json()) as {
      result: Array<{ account: { id: string } }>
      result_info: { total_count: number }
    }
    expect(body.result_info.total_count).toBe(20)
    expect(body.result.every((z) => z.account.id === ready.accountId)).toBe(true)
  })

  it("serves the CLI's --remote mode unchanged", () => {
    const env = { CLOUDFLARE_API_BASE_URL: ready.baseUrl, CLOUDFLARE_API_TOKEN: ready.token }
    const zones = json<Array<{ name: string }>>(edgectl(["zones", "list", "--remote", "--json"], { env }))
    expect(zones).toHaveLength(46)
    const dns = json<Array<unknown>>(edgectl(["dns", "list", "acme.com", "--remote", "--json"], { env }))
    expect(dns).toHaveLength(1250)
  })

  it("--remote with an unknown token fails with the platform's code and a hint", () => {
    const r = edgectl(["zones", "list", "--remote"], {
      env: { CLOUDFLARE_API_BASE_URL: ready.baseUrl, CLOUDFLARE_API_TOKEN: "unknown-token-0000000000000000000000000" }
    })
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/^error: zones list: Invalid access token \[code 9109\]\nhint: /)
  })

  it("--remote with an email and key pair works too", () => {
    const env = {
      CLOUDFLARE_API_BASE_URL: ready.baseUrl,
      CLOUDFLARE_API_TOKEN: undefined,
      CLOUDFLARE_EMAIL: "demo@edgectl.dev",
      CLOUDFLARE_API_KEY: "0d3b5e1f2a4c6e8a0b1c3d5e7f9a1b2c3d4e5"
    }
    const invites = json<Array<{ status: string }>>(edgectl(["invites", "list", "--remote", "--json"], { env }))
    expect(invites).toHaveLength(2)
  })

  it("refuses a port out of range with a usage error", () => {
    const r = edgectl(["serve", "--port", "70000"])
    expect(r.status).toBe(2)
    expect(r.stderr.trim()).toBe('error: --port: expected an integer from 0 to 65535, got "70000"')
  })
})
