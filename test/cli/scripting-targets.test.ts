/**
 * Issue 30 item 5, through the built CLI: `--local false` means the real platform on every
 * command (as on the kv commands, after wrangler), and `--account-id` takes a name as `esc
 * --account` does; an account no one has is not found, not an empty table.
 */
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"
import { startServe, type Served } from "../helpers/serve.js"

const dir = tempDir("edgectl-targets-")
const local = ["--persist-to", path.join(dir, "local")]
const lines = (s: string) => s.split("\n").filter((l) => l !== "")

describe("--local false", () => {
  let served: Served
  beforeAll(async () => {
    served = await startServe(path.join(dir, "served"))
  })
  afterAll(() => served.close())

  it("is --remote on zones list, as on kv namespace list", async () => {
    const env = served.remoteEnv()
    const remote = await edgectlAsync(["accounts", "list", "--remote", "--json"], { cwd: dir, env })
    const notLocal = await edgectlAsync(["accounts", "list", "--local", "false", "--json"], { cwd: dir, env })
    expect([notLocal.status, notLocal.stderr]).toEqual([0, ""])
    expect(notLocal.stdout).toBe(remote.stdout)
    // Without credentials it is refused as --remote is, instead of printing the demo world.
    const bare = await edgectlAsync(["zones", "list", "--local=false"], {
      cwd: dir,
      env: { CLOUDFLARE_API_TOKEN: undefined, CLOUDFLARE_API_KEY: undefined, CLOUDFLARE_EMAIL: undefined }
    })
    expect([bare.status, bare.stdout]).toEqual([1, ""])
    expect(lines(bare.stderr)[0]).toBe(
      "error: zones list: --remote needs credentials: set CLOUDFLARE_API_TOKEN, or CLOUDFLARE_API_KEY and CLOUDFLARE_EMAIL"
    )
    const kv = await edgectlAsync(["kv", "namespace", "list", "--local", "false"], {
      cwd: dir,
      env: { CLOUDFLARE_API_TOKEN: undefined, CLOUDFLARE_API_KEY: undefined, CLOUDFLARE_EMAIL: undefined }
    })
    expect(kv.status).toBe(1)
  }, 60_000)

  it("with --persist-to, or --local with --remote, is a usage error", async () => {
    const withDir = await edgectlAsync(["zones", "list", "--local", "false", ...local], { cwd: dir })
    expect([withDir.status, lines(withDir.stderr)]).toEqual([
      2,
      ["error: --persist-to applies to the local platform, not to --local false (the real platform)"]
    ])
    const both = await edgectlAsync(["dns", "list", "acme-api.com", "--remote", "--local"], { cwd: dir })
    expect([both.status, lines(both.stderr)]).toEqual([2, ["error: --remote and --local cannot be used together"]])
    const plain = await edgectlAsync(["zones", "list", "--local", "--json", ...local], { cwd: dir })
    expect(plain.status).toBe(0)
  }, 60_000)
})

describe("--account-id", () => {
  it("takes an account's name, in any case, as esc --account does", async () => {
    const byName = await edgectlAsync(["zones", "list", "--account-id", "globex", "--json", ...local], { cwd: dir })
    expect([byName.status, byName.stderr]).toEqual([0, ""])
    const zones = JSON.parse(byName.stdout) as Array<{ account: { id: string; name: string } }>
    expect(zones.length).toBeGreaterThan(0)
    expect(new Set(zones.map((z) => z.account.name))).toEqual(new Set(["Globex"]))
    const byId = await edgectlAsync(["zones", "list", "--account-id", zones[0]!.account.id, "--json", ...local], {
      cwd: dir
    })
    expect(byId.stdout).toBe(byName.stdout)
  }, 60_000)

  it("CLOUDFLARE_ACCOUNT_ID set to an empty string is not set: every zone, as without it", async () => {
    const unset = await edgectlAsync(["zones", "list", "--json", ...local], {
      cwd: dir,
      env: { CLOUDFLARE_ACCOUNT_ID: undefined }
    })
    const empty = await edgectlAsync(["zones", "list", "--json", ...local], {
      cwd: dir,
      env: { CLOUDFLARE_ACCOUNT_ID: "" }
    })
    expect([empty.status, empty.stderr]).toEqual([0, ""])
    expect(JSON.parse(empty.stdout)).not.toEqual([])
    expect(empty.stdout).toBe(unset.stdout)
  }, 60_000)

  it("an account no one has is not found, with a hint listing the accounts on the same target", async () => {
    const r = await edgectlAsync(["zones", "list", "--account-id", "Umbrella", ...local], { cwd: dir })
    expect([r.status, r.stdout, lines(r.stderr)]).toEqual([
      1,
      "",
      [
        'error: zones list: no account named "Umbrella" is visible to these credentials',
        `hint: run \`edgectl accounts list --persist-to ${local[1]}\` to see the ids there are`
      ]
    ])
    const id = await edgectlAsync(["zones", "list", "--account-id", "0".repeat(32), ...local], { cwd: dir })
    expect([id.status, id.stdout]).toEqual([1, ""])
    const esc = await edgectlAsync(["esc", "get", "--account", "Umbrella", ...local], { cwd: dir })
    expect(lines(esc.stderr)[1]).toBe(
      `hint: run \`edgectl accounts list --persist-to ${local[1]}\` to see the ids there are`
    )
  }, 60_000)
})
