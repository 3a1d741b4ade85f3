/**
 * Secrets at rest: state directories 700 and state files 600 (the platform's SQLite with its WAL and
 * SHM, objects' files), older state tightened with one notice, and a cleared secret gone from the
 * database file (secure_delete).
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as readline from "node:readline"
import { describe, expect, it } from "vitest"
import { bin, edgectl, edgectlAsync, json, tempDir } from "../helpers/cli.js"

const mode = (file: string) => fs.statSync(file).mode & 0o777

describe("state files", () => {
  it("creates state directories 700 and the store, its WAL and SHM 600", async () => {
    const root = tempDir()
    const state = path.join(root, "new", "state")
    const put = edgectl(["kv", "key", "put", "k", "a value", "--namespace-id", "ns", "--persist-to", state], {
      cwd: root
    })
    expect(put.stderr).toBe("")
    expect(put.status).toBe(0)
    expect(mode(path.join(root, "new"))).toBe(0o700)
    expect(mode(state)).toBe(0o700)
    expect(mode(path.join(state, "platform.sqlite"))).toBe(0o600)
    // The WAL and SHM exist while a process has the store open: `serve` keeps it open.
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", state], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    try {
      const ready = JSON.parse(
        await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once("line", resolve))
      ) as {
        baseUrl: string
        token: string
      }
      const zones = await fetch(`${ready.baseUrl}/zones?per_page=5`, {
        headers: { authorization: `Bearer ${ready.token}` }
      })
      expect(zones.status).toBe(200)
      for (const extra of ["-wal", "-shm"]) expect(mode(path.join(state, `platform.sqlite${extra}`))).toBe(0o600)
    } finally {
      child.kill("SIGTERM")
    }
  })

  it("creates an object's directory 700 and its files (database, page log, base, name) 600", () => {
    const root = tempDir()
    const put = edgectl(["objects", "kv", "Counter", "a", "put", "k", "v", "--persist-to", path.join(root, "state")], {
      cwd: root
    })
    expect(put.status).toBe(0)
    expect(put.stderr).toBe('wrote "k"\n')
    const classDir = path.join(root, "state", "objects", "Counter")
    const [objectDir] = fs.readdirSync(classDir).map((d) => path.join(classDir, d))
    expect(mode(objectDir!)).toBe(0o700)
    const files = fs.readdirSync(objectDir!)
    expect(files).toEqual(expect.arrayContaining(["db.sqlite", "pitr.sqlite", "base.sqlite", "name"]))
    for (const f of files) expect([f, mode(path.join(objectDir!, f))]).toEqual([f, 0o600])
  })

  it("tightens state an older edgectl left readable, saying so once", async () => {
    const state = tempDir()
    expect(edgectl(["zones", "list", "--persist-to", state]).status).toBe(0)
    const file = path.join(state, "platform.sqlite")
    fs.chmodSync(state, 0o755)
    fs.chmodSync(file, 0o644)
    const first = await edgectlAsync(["zones", "list", "--json", "--persist-to", state])
    expect(first.status).toBe(0)
    expect(json<Array<unknown>>(first)).toHaveLength(46)
    expect(first.stderr).toBe(
      `notice: ${state} was readable by other users (mode 755); edgectl's state holds secrets: made it 700 (state directories are 700, state files 600)\n`
    )
    expect(mode(state)).toBe(0o700)
    expect(mode(file)).toBe(0o600)
    const again = await edgectlAsync(["zones", "list", "--json", "--persist-to", state])
    expect(again.stderr).toBe("")
  })

  it("leaves no trace of a secret cleared by `esc enable` in the database file", () => {
    const state = tempDir()
    const secret = "edgectl-at-rest-secret-7f3a9c2e41"
    const disable = edgectl(["esc", "disable", "--zone", "acme.com", "--secret", secret, "--persist-to", state])
    expect(disable.status).toBe(0)
    const stored = fs.readFileSync(path.join(state, "platform.sqlite"))
    expect(stored.includes(secret)).toBe(true)
    const enable = edgectl(["esc", "enable", "--zone", "acme.com", "--persist-to", state])
    expect(enable.status).toBe(0)
    expect(enable.stdout).toMatch(/^Cleared the secret/)
    for (const f of fs.readdirSync(state))
      expect([f, fs.readFileSync(path.join(state, f)).includes(secret)]).toEqual([f, false])
  })

  it("leaves no trace of a cleared secret in the write-ahead log while `serve` keeps the store open", async () => {
    const state = tempDir()
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", state], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    try {
      const ready = JSON.parse(
        await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once("line", resolve))
      ) as {
        baseUrl: string
        token: string
      }
      const headers = { authorization: `Bearer ${ready.token}`, "content-type": "application/json" }
      const zones = (await (await fetch(`${ready.baseUrl}/zones?name=acme.com`, { headers })).json()) as {
        result: Array<{ id: string }>
      }
      const url = `${ready.baseUrl}/zones/${zones.result[0]!.id}/disable_esc`
      const secret = "edgectl-wal-secret-3c1d9e77a0"
      expect(
        (await fetch(url, { method: "POST", headers, body: JSON.stringify({ with_secret: secret }) })).status
      ).toBe(200)
      expect((await fetch(url, { method: "DELETE", headers })).status).toBe(200)
      for (const f of fs.readdirSync(state).filter((f) => f.startsWith("platform.sqlite"))) {
        expect([f, fs.readFileSync(path.join(state, f)).includes(secret)]).toEqual([f, false])
      }
    } finally {
      child.kill("SIGTERM")
    }
  })
})
