/**
 * A platform that answers 429 with Retry-After: the remote client waits as long as it said and
 * sends the request again (it was not applied), with a countdown on a terminal (one stderr line,
 * erased when the request goes), and nothing off a terminal or with --json.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { PtyTui } from "../helpers/pty.js"

const servers: Array<http.Server> = []
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections()
    s.close()
  }
})

/**
 * Answers its first `times` requests 429 (Retry-After: 2, or 1 after the first, the platform's
 * envelope), then an empty zone list.
 */
const limitedOnce = async (times = 1) => {
  const seen: Array<number> = []
  const server = http.createServer((req, res) => {
    req.resume()
    const first = seen.length < times
    seen.push(first ? 429 : 200)
    res.writeHead(first ? 429 : 200, {
      "content-type": "application/json",
      ...(first ? { "retry-after": seen.length === 1 ? "2" : "1" } : {})
    })
    res.end(
      JSON.stringify(
        first
          ? {
              success: false,
              errors: [{ code: 10013, message: "More than 1200 requests per 300 seconds reached" }],
              messages: [],
              result: null
            }
          : {
              success: true,
              errors: [],
              messages: [],
              result: [],
              result_info: { page: 1, per_page: 20, count: 0, total_count: 0, total_pages: 0 }
            }
      )
    )
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`
  return {
    seen,
    env: {
      CLOUDFLARE_API_BASE_URL: baseUrl,
      CLOUDFLARE_API_TOKEN: "t".repeat(40),
      CLOUDFLARE_API_KEY: undefined,
      CLOUDFLARE_EMAIL: undefined
    }
  }
}

const Countdown = /waiting \d s for the platform's API budget…/

describe("a 429 with Retry-After on --remote", () => {
  it("on a terminal: a countdown line while it waits, erased, then the answer (exit 0)", async () => {
    const platform = await limitedOnce()
    const tty = await PtyTui.start({
      columns: 100,
      rows: 10,
      command: ["zones", "list", "--remote"],
      args: [],
      cwd: tempDir(),
      env: platform.env,
      ready: "waiting"
    })
    expect(await tty.exit(20_000)).toBe(0)
    expect(tty.raw).toMatch(Countdown)
    // The line is erased before the answer is printed: the screen keeps no countdown.
    expect(tty.screen()).not.toMatch(Countdown)
    expect(platform.seen).toEqual([429, 200])
  })

  it("off a terminal, and with --json on one: no countdown, the same answer", async () => {
    const piped = await limitedOnce()
    const r = await edgectlAsync(["zones", "list", "--remote"], { cwd: tempDir(), env: piped.env })
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" })
    expect(piped.seen).toEqual([429, 200])

    const json = await limitedOnce()
    const tty = await PtyTui.start({
      columns: 100,
      rows: 10,
      command: ["zones", "list", "--remote", "--json"],
      args: [],
      cwd: tempDir(),
      env: json.env,
      ready: "[]"
    })
    expect(await tty.exit(20_000)).toBe(0)
    expect(tty.raw).not.toMatch(Countdown)
    expect(json.seen).toEqual([429, 200])
  })

  it("429 after every retry: the error, and a hint on the budget that other clients share (exit 1)", async () => {
    const platform = await limitedOnce(10)
    const r = await edgectlAsync(["zones", "list", "--remote"], { cwd: tempDir(), env: platform.env })
    expect({ status: r.status, stderr: r.stderr.split("\n") }).toEqual({
      status: 1,
      stderr: [
        "error: zones list: More than 1200 requests per 300 seconds reached [code 10013]",
        "hint: other clients use this token's API budget too: try again later, or give edgectl a smaller share with --rate-limit N/SECONDS",
        ""
      ]
    })
    // The first request and three retries, each after the Retry-After it got.
    expect(platform.seen).toEqual([429, 429, 429, 429])
  })
})
