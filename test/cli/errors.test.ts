/**
 * How failures read, through the built CLI: one `error:` line and at most one `hint:` line, the
 * exit code, no stack unless EDGECTL_DEBUG=1 (then the cause chain and the stack on stderr, or in
 * `serve`'s log, never in an HTTP answer), schema failures named by field, `serve` on a busy port.
 */
import Database from "better-sqlite3"
import { spawn, type ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import * as readline from "node:readline"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, edgectl, edgectlAsync, json, tempDir } from "../helpers/cli.js"

/** stderr as lines, for shape checks: one error line, at most one hint line. */
const lines = (s: string) => s.split("\n").filter((l) => l !== "")

/** A store whose zones table has a damaged page: it opens, and listing zones fails inside SQLite. */
const damagedStore = () => {
  const dir = tempDir()
  json(edgectl(["zones", "list", "--json", "--persist-to", dir]))
  const file = path.join(dir, "platform.sqlite")
  const db = new Database(file)
  const page = db.pragma("page_size", { simple: true }) as number
  const root = (db.prepare("select rootpage from sqlite_master where name = 'zones'").get() as { rootpage: number })
    .rootpage
  db.close()
  const fd = fs.openSync(file, "r+")
  fs.writeSync(fd, Buffer.alloc(page, 0xee), 0, page, (root - 1) * page)
  fs.closeSync(fd)
  return dir
}

describe("an internal error of the local platform", () => {
  let dir: string
  beforeAll(() => {
    dir = damagedStore()
  })

  it("is one error line and a hint naming EDGECTL_DEBUG, without a stack", async () => {
    const r = await edgectlAsync(["zones", "list", "--persist-to", dir])
    expect(r.status).toBe(1)
    expect(lines(r.stderr)).toEqual([
      "error: zones list: internal error of the local platform [code 10001]",
      "hint: run again with EDGECTL_DEBUG=1 for the cause and the stack"
    ])
  })

  it("with EDGECTL_DEBUG=1 prints the cause and its stack, once", async () => {
    const r = await edgectlAsync(["zones", "list", "--persist-to", dir], { env: { EDGECTL_DEBUG: "1" } })
    expect(r.status).toBe(1)
    expect(r.stderr).toContain("SqliteError: database disk image is malformed\n    at ")
    expect(r.stderr.match(/internal error on GET/g)).toHaveLength(1)
    expect(r.stderr).not.toContain("EDGECTL_DEBUG=1 for")
    expect(lines(r.stderr).at(-1)).toBe(
      "error: zones list: internal error of the local platform (its cause and stack are on its stderr) [code 10001]"
    )
  })

  describe("under serve", () => {
    const served: Array<{ child: ChildProcess; log: () => string; baseUrl: string; token: string }> = []
    const start = async (debug: boolean) => {
      const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", dir], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, EDGECTL_DEBUG: debug ? "1" : "0" }
      })
      let log = ""
      child.stderr!.setEncoding("utf8").on("data", (d: string) => (log += d))
      const ready = await new Promise<{ baseUrl: string; token: string }>((resolve, reject) => {
        readline.createInterface({ input: child.stdout! }).once("line", (l) => resolve(JSON.parse(l)))
        child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${log}`)))
      })
      const s = { child, log: () => log, ...ready }
      served.push(s)
      return s
    }
    afterAll(() => {
      for (const s of served) s.child.kill("SIGTERM")
    })

    it("logs the cause and stack with EDGECTL_DEBUG=1, and never puts them in the answer", async () => {
      for (const debug of [false, true]) {
        const s = await start(debug)
        const answer = await fetch(`${s.baseUrl}/zones`, { headers: { authorization: `Bearer ${s.token}` } })
        expect(answer.status).toBe(500)
        const body = await answer.text()
        expect(body).not.toMatch(/SqliteError|malformed|\bat /)
        expect(JSON.parse(body).errors[0].code).toBe(10001)
        if (debug) await expect.poll(s.log).toContain("SqliteError: database disk image is malformed\n    at ")
        else expect(s.log()).not.toContain("SqliteError")
      }
    })
  })
})

describe("schema failures name the field", () => {
  it("an empty id is refused before any request, naming the parameter", async () => {
    const dir = tempDir()
    for (const [args, name] of [
      [["firewall", "rules", "get", "--zone", "acme.com", ""], "firewall rules get: rule id"],
      [["firewall", "filters", "get", "--zone", "acme.com", " "], "firewall filters get: filter id"],
      [["invites", "accept", ""], "invites accept: id"]
    ] as const) {
      const r = await edgectlAsync([...args, "--persist-to", dir])
      expect(r.status).toBe(1)
      expect(lines(r.stderr)).toEqual([`error: ${name}: must not be empty, got ${JSON.stringify(args.at(-1))}`])
    }
  })

  it("a wrongly typed field of waf migrate --config is named by its path, with the expected type and the value", async () => {
    const dir = tempDir()
    const config = json<{ rules: Array<Record<string, unknown>> }>(
      edgectl(["waf", "config", "--zone", "acme.com", "--json", "--persist-to", dir])
    )
    config.rules[0]!.enabled = "yes"
    const file = path.join(dir, "adjusted.json")
    fs.writeFileSync(file, JSON.stringify(config))
    const r = await edgectlAsync([
      "waf",
      "migrate",
      "--zone",
      "acme.com",
      "--mode",
      "validation",
      "--config",
      file,
      "--persist-to",
      dir
    ])
    expect(r.status).toBe(1)
    expect(lines(r.stderr)).toEqual([
      `error: --config: ${file} is not a configuration ({name, rules}): rules[0].enabled: expected boolean, got "yes"`
    ])
  })
})

describe("serve on an address it cannot use", () => {
  it("says the address is in use, with a hint", async () => {
    const blocker = net.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve))
    const port = (blocker.address() as net.AddressInfo).port
    try {
      const r = await edgectlAsync(["serve", "--port", String(port), "--persist-to", tempDir()])
      expect(r.status).toBe(1)
      expect(lines(r.stderr)).toEqual([
        `error: serve: cannot listen on 127.0.0.1:${port}: the address is already in use (another process listens on port ${port})`,
        "hint: pick another port with --port N, or --port 0 for a free one"
      ])
    } finally {
      blocker.close()
    }
  })
})
