/**
 * `kv export|import|copy|diff --remote` against a platform over HTTP: the round trip through
 * `edgectl serve` (local to remote and back, diff equal), and interrupted remote work through the
 * fault proxy (a refused request, a signal during a stalled one) resumed to the same end state.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LocalAccountId } from "../../src/services/kv-service.js"
import { edgectl, edgectlAsync, tempDir } from "../helpers/cli.js"
import { startFaultProxy } from "../helpers/fault-proxy.js"
import { startPlatform, World } from "../helpers/platform.js"
import { remoteFaults } from "../helpers/remote-faults.js"
import { startServe, type Served } from "../helpers/serve.js"

// The demo world's tokens see three accounts: every command names the one it works in.
process.env.CLOUDFLARE_ACCOUNT_ID = LocalAccountId

const nsId = (stdout: string) => /\(id ([0-9a-f]{32})\)/.exec(stdout)![1]!
const expiration = Math.floor(Date.now() / 1000) + 3600

/** Entries as `kv export` writes them (keys in order, one a line), so an export can be compared byte for byte. */
const exportText = (n: number) => {
  const lines: Array<string> = []
  for (let i = 0; i < n; i++) lines.push(JSON.stringify({ key: `k${String(i).padStart(6, "0")}`, value: `v${i}` }))
  return `[\n${lines.join(",\n")}\n]\n`
}

describe("kv lifecycle against edgectl serve", () => {
  let served: Served
  let cwd: string
  beforeAll(async () => {
    cwd = tempDir()
    served = await startServe(path.join(cwd, "served"))
  })
  afterAll(() => served.close())

  const local = (args: ReadonlyArray<string>) => edgectl(["kv", ...args, "--persist-to", "state"], { cwd })
  const remote = (args: ReadonlyArray<string>) => edgectl(["kv", ...args, "--remote"], { cwd, env: served.remoteEnv() })

  it("round trip: local to remote (copy), diff local against remote, remote export into a new remote namespace", () => {
    const source = nsId(local(["namespace", "create", "trip"]).stdout)
    const entries = [
      { key: "bin", value: Buffer.from([0xff, 0, 0x80]).toString("base64"), base64: true },
      { key: "meta", value: "x", expiration, metadata: { a: [1, { b: null }] } },
      { key: "z", value: "zed" }
    ]
    fs.writeFileSync(path.join(cwd, "in.json"), JSON.stringify(entries))
    expect(local(["import", "in.json", "--namespace-id", source]).status).toBe(0)
    const target = nsId(remote(["namespace", "create", "trip"]).stdout)
    const copied = edgectl(
      ["kv", "copy", "--namespace-id", source, "--persist-to", "state", "--to-remote", "--to-namespace-id", target],
      { cwd, env: served.remoteEnv() }
    )
    expect(copied.stdout).toBe(
      `Copied 3 keys from namespace id ${source} (local (state)) to namespace id ${target} (remote).\n`
    )
    const diff = edgectl(
      ["kv", "diff", "--namespace-id", source, "--persist-to", "state", "--with-remote", "--with-namespace-id", target],
      { cwd, env: served.remoteEnv() }
    )
    expect(diff).toMatchObject({ status: 0 })
    const exported = remote(["export", "--namespace-id", target, "--output", "remote.json"])
    expect(exported.stdout).toBe(`Exported 3 keys of namespace id ${target} to remote.json.\n`)
    const second = nsId(remote(["namespace", "create", "trip-2"]).stdout)
    expect(remote(["import", "remote.json", "--namespace-id", second]).status).toBe(0)
    expect(remote(["diff", "--namespace-id", target, "--with-namespace-id", second]).status).toBe(0)
    expect(remote(["export", "--namespace-id", second]).stdout).toBe(
      fs.readFileSync(path.join(cwd, "remote.json"), "utf8")
    )
    expect(local(["export", "--namespace-id", source]).stdout).toBe(
      fs.readFileSync(path.join(cwd, "remote.json"), "utf8")
    )
  })
})

describe("interrupted remote import, resumed from its journal", () => {
  const { setup, cli, spawnCli } = remoteFaults("edgectl-kvlife-")
  const count = 25_000

  const prepare = async (at: number, fault: Parameters<typeof setup>[1]) => {
    const c = await setup()
    const created = await cli(c, ["kv", "namespace", "create", "big"], true)
    const id = nsId(created.stdout)
    fs.writeFileSync(path.join(c.home, "big.json"), exportText(count))
    c.proxy.arm(at, fault)
    return { c, id }
  }
  const bulkWrites = (c: Awaited<ReturnType<typeof setup>>) =>
    c.proxy.seen.filter((s) => s.method === "PUT" && s.path.endsWith("/bulk")).length
  const journalFiles = (home: string) => {
    const dir = path.join(home, "state", "edgectl", "kv")
    return fs.existsSync(dir) ? fs.readdirSync(dir) : []
  }

  it("a refused 2nd request: exit 1; the re-run sends only the two requests left, to the same end state", async () => {
    const { c, id } = await prepare(2, { kind: "status", status: 403, code: 10000, message: "Authentication error" })
    const first = await cli(c, ["kv", "import", "big.json", "--namespace-id", id])
    expect(first.status).toBe(1)
    expect(first.stderr).toContain("after 10000 of 25000 entries were written in 1 requests")
    expect(journalFiles(c.home)).toHaveLength(1)
    expect(bulkWrites(c)).toBe(2)
    c.proxy.arm(undefined)
    const again = await cli(c, ["kv", "import", "big.json", "--namespace-id", id])
    expect(again.status).toBe(0)
    expect(again.stderr).toBe("Resumed: 1 request of an earlier run was written already and not sent again.\n")
    expect(again.stdout).toBe(`Imported 25,000 entries into namespace id ${id} in 3 requests.\n`)
    expect(bulkWrites(c)).toBe(4)
    expect(journalFiles(c.home)).toEqual([])
    const exported = await cli(c, ["kv", "export", "--namespace-id", id], true)
    expect(exported.stdout).toBe(exportText(count))
  }, 120_000)

  it("SIGINT during a stalled 2nd request: exit 130 naming what was written; the re-run finishes it", async () => {
    const { c, id } = await prepare(2, { kind: "stall" })
    const run = spawnCli(c, ["kv", "import", "big.json", "--namespace-id", id])
    await c.proxy.stalled()
    run.child.kill("SIGINT")
    const stopped = await run.exited
    expect(stopped.code).toBe(130)
    expect(stopped.stderr).toMatch(
      /^error: kv import: stopped by SIGINT after 1 request \(10,000 entries written; the journal keeps them\)\nhint: run `edgectl kv import big\.json --namespace-id [0-9a-f]{32} --remote` again to write only what is missing\n$/
    )
    c.proxy.arm(undefined)
    const again = await cli(c, ["kv", "import", "big.json", "--namespace-id", id])
    expect(again.status).toBe(0)
    expect(again.stderr).toContain("Resumed: 1 request")
    expect((await cli(c, ["kv", "export", "--namespace-id", id], true)).stdout).toBe(exportText(count))
  }, 120_000)
})

describe("interrupted remote export, resumed with --resume", () => {
  it("a refused read midway: the file is cut back to the checkpoint and finished, the same bytes as a whole export", async () => {
    const platform = await startPlatform()
    const proxy = await startFaultProxy(platform.baseUrl, { methods: ["POST"] })
    const home = tempDir("edgectl-kvlife-export-")
    try {
      const env = (direct: boolean) => ({
        CLOUDFLARE_API_BASE_URL: direct ? platform.baseUrl : proxy.baseUrl,
        CLOUDFLARE_API_TOKEN: World.allToken,
        CLOUDFLARE_API_KEY: undefined,
        CLOUDFLARE_EMAIL: undefined,
        XDG_STATE_HOME: path.join(home, "state"),
        HOME: home
      })
      const cli = (args: ReadonlyArray<string>, direct = false) =>
        edgectlAsync(["kv", ...args, "--remote"], { cwd: home, env: env(direct) })
      const id = nsId((await cli(["namespace", "create", "exported"], true)).stdout)
      fs.writeFileSync(path.join(home, "in.json"), exportText(2500))
      expect((await cli(["import", "in.json", "--namespace-id", id], true)).status).toBe(0)
      // The 15th bulk get (100 keys each): past the first page of 1,000 keys, within the second.
      proxy.arm(15, { kind: "status", status: 403, code: 10000, message: "Authentication error" })
      const first = await cli(["export", "--namespace-id", id, "--output", "out.json"])
      expect(first.status).toBe(1)
      expect(first.stderr).toContain(
        `hint: 1,000 keys were written before it stopped; run \`edgectl kv export --output out.json --namespace-id ${id} --remote --resume\` to go on from there`
      )
      proxy.arm(undefined)
      const resumed = await cli(["export", "--namespace-id", id, "--output", "out.json", "--resume"])
      expect(resumed.stdout).toBe(`Exported 2,500 keys of namespace id ${id} to out.json.\n`)
      expect(fs.readFileSync(path.join(home, "out.json"), "utf8")).toBe(exportText(2500))
      // The checkpoint is gone once the export is whole: nothing is left to resume.
      const nothing = await cli(["export", "--namespace-id", id, "--output", "out.json", "--resume"])
      expect(nothing.status).toBe(1)
      expect(nothing.stderr).toContain("no stopped export")
    } finally {
      await proxy.close()
      await platform.close()
    }
  }, 120_000)
})
