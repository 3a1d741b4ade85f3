/**
 * `edgectl kv … --remote` against `edgectl serve` (a child process), pointed at it the way wrangler
 * is (CLOUDFLARE_API_BASE_URL): the embedded server answers like the platform, so an unknown
 * namespace is the platform's 404 here, where local mode would create it.
 */
import { spawn, type ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as readline from "node:readline"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, edgectl, json, tempDir, type Result } from "../helpers/cli.js"

interface Ready {
  baseUrl: string
  token: string
  accountId: string
}

let child: ChildProcess
let ready: Ready
let cwd: string

beforeAll(async () => {
  cwd = tempDir()
  child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", path.join(cwd, "served")], {
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

const env = (extra: Record<string, string | undefined> = {}) => ({
  CLOUDFLARE_API_BASE_URL: ready.baseUrl,
  CLOUDFLARE_API_TOKEN: ready.token,
  CLOUDFLARE_ACCOUNT_ID: ready.accountId,
  CLOUDFLARE_API_KEY: undefined,
  CLOUDFLARE_EMAIL: undefined,
  ...extra
})
const kv = (args: ReadonlyArray<string>, extra?: Record<string, string | undefined>): Result =>
  edgectl(["kv", ...args, "--remote"], { cwd, env: env(extra) })
const write = (name: string, content: unknown) => {
  fs.writeFileSync(path.join(cwd, name), JSON.stringify(content))
  return name
}

describe("kv --remote against edgectl serve", () => {
  let id: string
  beforeAll(() => {
    const r = kv(["namespace", "create", "remote-ns"])
    expect(r.status).toBe(0)
    id = /\(id ([0-9a-f]{32})\)/.exec(r.stdout)![1]!
    expect(r.stdout).toContain("on the remote platform.")
  })

  it("namespace list and every key command", () => {
    expect(json<Array<{ id: string; title: string }>>(kv(["namespace", "list"])).find((n) => n.id === id)?.title).toBe(
      "worker-remote-ns"
    )
    expect(kv(["key", "put", "a/b c?", "v", "--namespace-id", id]).status).toBe(1)
    expect(kv(["key", "put", "a/b?c", "v", "--namespace-id", id, "--metadata", '{"m":1}', "--ttl", "120"]).status).toBe(
      0
    )
    expect(kv(["key", "get", "a/b?c", "--namespace-id", id]).stdout).toBe("v")
    expect(kv(["key", "get", "a/b?c", "--namespace-id", id, "--text"]).stdout).toBe("v\n")
    const listed = json<Array<{ name: string; metadata: unknown; expiration: number }>>(
      kv(["key", "list", "--namespace-id", id])
    )
    expect(listed).toMatchObject([{ name: "a/b?c", metadata: { m: 1 } }])
    expect(kv(["key", "get", "nope", "--namespace-id", id])).toMatchObject({ status: 0, stdout: "Value not found\n" })
    expect(kv(["key", "delete", "a/b?c", "--namespace-id", id]).status).toBe(0)
    expect(kv(["key", "list", "--namespace-id", id]).stdout).toBe("[]\n")
  })

  it("bulk put is sent in wrangler's requests of 1,000 entries; bulk delete follows", () => {
    const file = write(
      "remote-bulk.json",
      Array.from({ length: 2500 }, (_, i) => ({ key: `k${String(i).padStart(4, "0")}`, value: `v${i}` }))
    )
    const r = kv(["bulk", "put", file, "--namespace-id", id])
    expect(r).toMatchObject({ status: 0, stdout: `Wrote 2,500 entries to namespace id ${id} in 3 requests.\n` })
    expect(json<Array<unknown>>(kv(["key", "list", "--namespace-id", id]))).toHaveLength(2500)
    expect(json<Array<unknown>>(kv(["key", "list", "--namespace-id", id, "--prefix", "k00"]))).toHaveLength(100)
    const keys = write(
      "remote-keys.json",
      Array.from({ length: 1500 }, (_, i) => `k${String(i).padStart(4, "0")}`)
    )
    expect(json(kv(["bulk", "delete", keys, "--namespace-id", id, "--json"]))).toEqual({
      successful_key_count: 1500,
      unsuccessful_keys: []
    })
    expect(json<Array<unknown>>(kv(["key", "list", "--namespace-id", id]))).toHaveLength(1000)
  })

  it("an invalid bulk file sends nothing", () => {
    const file = write("remote-bad.json", [
      ...Array.from({ length: 1500 }, (_, i) => ({ key: `bad${i}`, value: "v" })),
      { key: "late", value: "v", expiration_ttl: 5 }
    ])
    const r = kv(["bulk", "put", file, "--namespace-id", id])
    expect(r.status).toBe(1)
    expect(r.stderr).toContain(
      'remote-bad.json: 1 invalid entry, nothing was written: entry 1500 (key "late"): expiration_ttl is 5 seconds, the minimum is 60'
    )
    expect(json<Array<unknown>>(kv(["key", "list", "--namespace-id", id, "--prefix", "bad"]))).toEqual([])
  })

  it("an unknown namespace id is the platform's 404 (code 10013), with a hint", () => {
    const r = kv(["key", "put", "k", "v", "--namespace-id", "0".repeat(32)])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(
      `error: kv key put: namespace not found: "${"0".repeat(32)}" [code 10013]\nhint: run \`edgectl kv namespace list --remote\` to see the namespaces of the account\n`
    )
  })

  it("bulk get of an unknown namespace id is refused as key get is (the platform's 404, code 10013)", () => {
    const missing = "0".repeat(32)
    fs.writeFileSync(path.join(cwd, "get-keys.json"), '["a"]')
    for (const args of [
      ["key", "get", "a"],
      ["bulk", "get", "get-keys.json"]
    ]) {
      const r = kv([...args, "--namespace-id", missing])
      expect(r, args.join(" ")).toMatchObject({ status: 1, stdout: "" })
      expect(r.stderr).toBe(
        `error: kv ${args[0]} get: namespace not found: "${missing}" [code 10013]\nhint: run \`edgectl kv namespace list --remote\` to see the namespaces of the account\n`
      )
    }
  })

  it("the account: several visible accounts need CLOUDFLARE_ACCOUNT_ID (or account_id in the config)", () => {
    const r = kv(["namespace", "list"], { CLOUDFLARE_ACCOUNT_ID: undefined })
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(
      /^error: kv namespace list: these credentials see 3 accounts \(Acme Corp \([0-9a-f]{32}\), Globex/
    )
    fs.writeFileSync(path.join(cwd, "wrangler.toml"), `account_id = "${ready.accountId}"\n`)
    try {
      expect(
        json<Array<{ id: string }>>(kv(["namespace", "list"], { CLOUDFLARE_ACCOUNT_ID: undefined })).some(
          (n) => n.id === id
        )
      ).toBe(true)
    } finally {
      fs.rmSync(path.join(cwd, "wrangler.toml"))
    }
  })

  it("--local false means --remote, as in wrangler; --remote with --local is a usage error", () => {
    const r = edgectl(["kv", "key", "list", "--namespace-id", id, "--local", "false"], { cwd, env: env() })
    expect(json<Array<unknown>>(r)).toHaveLength(1000)
    expect(
      edgectl(["kv", "key", "list", "--namespace-id", id, "--local", "--remote"], { cwd, env: env() }).status
    ).toBe(2)
    const noCredentials = edgectl(["kv", "key", "list", "--namespace-id", id, "--remote"], {
      cwd,
      env: { ...env(), CLOUDFLARE_API_TOKEN: undefined }
    })
    expect(noCredentials.status).toBe(1)
    expect(noCredentials.stderr).toContain("--remote needs credentials: set CLOUDFLARE_API_TOKEN")
  })

  it("namespace delete --yes", () => {
    const r = kv(["namespace", "delete", "--namespace-id", id, "--yes"])
    expect(r.stdout).toBe(`Deleted KV namespace "worker-remote-ns" (id ${id}).\n`)
  })
})
