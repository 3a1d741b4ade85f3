/**
 * Issue 30 item 4, through the built CLI: the messages a script author reads. A JSON file with a
 * byte-order mark is taken by every reader (from a file, a pipe, `-` and a FIFO), an empty value
 * after `=` names its option, options before the command are the command's, and an empty id
 * names its parameter.
 */
import Database from "better-sqlite3"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, root, shell, tempDir } from "../helpers/cli.js"
import { startServe, type Served } from "../helpers/serve.js"

const dir = tempDir("edgectl-messages-")
const local = ["--persist-to", path.join(dir, "state")]
const zone = "acme-api.com"
const bom = "\ufeff"
const lines = (s: string) => s.split("\n").filter((l) => l !== "")

describe("a JSON file with a byte-order mark", () => {
  fs.writeFileSync(path.join(dir, "req.json"), `${bom}{"http.host": "a.example"}\n`)
  fs.writeFileSync(path.join(dir, "waf.json"), `${bom}{}\n`)

  it("rules eval --request takes it from a file, a pipe, - and a FIFO", async () => {
    const expr = 'http.host eq "a.example"'
    const file = await edgectlAsync(["rules", "eval", expr, "--request", "req.json", "--json"], { cwd: dir })
    expect([file.status, file.stderr]).toEqual([0, ""])
    const piped = await shell(`cat req.json | $EDGECTL rules eval '${expr}' --request - --json`, dir)
    expect([piped.status, piped.stderr]).toEqual([0, ""])
    const fifo = await shell(
      `rm -f f.fifo; mkfifo f.fifo; (cat req.json > f.fifo &); $EDGECTL rules eval '${expr}' --request f.fifo --json`,
      dir
    )
    expect([fifo.status, fifo.stderr]).toEqual([0, ""])
  }, 60_000)

  it("firewall test --request and waf replay --config take it", async () => {
    const test = await edgectlAsync(["firewall", "test", "--zone", zone, "--request", "req.json", ...local], {
      cwd: dir
    })
    expect([test.status, test.stderr]).toEqual([0, ""])
    const replay = await shell(
      `$EDGECTL waf replay --zone ${zone} --traffic /dev/null --config <(cat waf.json) ${local.join(" ")} --json`,
      dir
    )
    expect(replay.stderr).not.toContain(bom)
    expect(replay.stderr).not.toContain("not JSON")
  }, 60_000)
})

describe("the command line", () => {
  it("an empty value after = names its option, and is not taken as no value", async () => {
    const ttl = await edgectlAsync(["kv", "key", "put", "k", "v", "--namespace-id", "n1", "--ttl=", ...local])
    expect([ttl.status, lines(ttl.stderr)]).toEqual([2, ['error: --ttl must be a whole number of seconds, got ""']])
    const flag = await edgectlAsync(["zones", "list", "--json=", ...local])
    expect([flag.status, lines(flag.stderr)]).toEqual([
      2,
      ['error: --json: expected true or false (or no value), got ""']
    ])
  }, 60_000)

  it("target options before the command are the command's", async () => {
    const before = await edgectlAsync(["--persist-to", local[1]!, "zones", "list", "--json"])
    const after = await edgectlAsync(["zones", "list", "--json", ...local])
    expect([before.status, before.stderr]).toEqual([0, ""])
    expect(before.stdout).toBe(after.stdout)
    const other = await edgectlAsync(["--persist-to", local[1]!, "rules", "check", "ip.src eq 1.2.3.4"])
    expect([other.status, lines(other.stderr)]).toEqual([
      2,
      ["error: unknown option --persist-to (edgectl rules check takes: --file, --json, --plan, --scheme)"]
    ])
  }, 60_000)

  it("an empty custom rule id names the parameter", async () => {
    const r = await edgectlAsync(["custom-rules", "delete", "", "--zone", zone, "--yes", ...local])
    expect([r.status, lines(r.stderr)]).toEqual([1, ['error: custom-rules delete: rule id: must not be empty, got ""']])
  }, 60_000)
})

describe("a [code N] is the platform's", () => {
  let served: Served
  let html: http.Server
  let htmlUrl = ""
  beforeAll(async () => {
    served = await startServe(path.join(dir, "served"))
    html = http.createServer((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" })
      res.end("<html><body>502 Bad Gateway</body></html>")
    })
    await new Promise<void>((resolve) => html.listen(0, "127.0.0.1", resolve))
    htmlUrl = `http://127.0.0.1:${(html.address() as AddressInfo).port}/client/v4`
  })
  afterAll(() => {
    served.close()
    html.close()
  })

  it("several accounts to choose from carry no code", async () => {
    const r = await edgectlAsync(["kv", "namespace", "list", "--remote"], {
      cwd: dir,
      env: { ...served.remoteEnv(), CLOUDFLARE_ACCOUNT_ID: undefined }
    })
    expect(r.status).toBe(1)
    expect(lines(r.stderr)[0]).toMatch(/^error: .*these credentials see \d+ accounts .*choose one$/)
  }, 60_000)

  it("an HTML 502 carries no code", async () => {
    const r = await edgectlAsync(["zones", "list", "--remote", "--timeout", "5"], {
      cwd: dir,
      env: { ...served.remoteEnv(), CLOUDFLARE_API_BASE_URL: htmlUrl }
    })
    expect(r.status).toBe(1)
    expect(lines(r.stderr)[0]).toMatch(
      /^error: zones list: the platform answered HTTP 502 with a body that is not JSON$/
    )
  }, 60_000)
})

describe("the wrangler project file", () => {
  it("two bindings of the same name are refused, naming both", async () => {
    const cwd = tempDir("edgectl-wrangler-")
    fs.writeFileSync(
      path.join(cwd, "wrangler.json"),
      JSON.stringify({
        name: "w",
        kv_namespaces: [
          { binding: "KV", id: "a" },
          { binding: "KV", id: "b" }
        ]
      })
    )
    const r = await edgectlAsync(["kv", "key", "get", "k", "--binding", "KV", ...local], { cwd })
    expect([r.status, lines(r.stderr)]).toEqual([
      1,
      [
        'error: kv key get: wrangler.json: kv_namespaces[0] and kv_namespaces[1] both have binding "KV"; a binding names one namespace'
      ]
    ])
  }, 60_000)

  it("--env of a JSON file speaks of its env entry, not of a TOML section", async () => {
    const cwd = tempDir("edgectl-wrangler-")
    fs.writeFileSync(path.join(cwd, "wrangler.json"), JSON.stringify({ name: "w", kv_namespaces: [] }))
    const r = await edgectlAsync(["kv", "namespace", "create", "x", "--env", "prod", ...local], { cwd })
    expect([r.status, lines(r.stderr)]).toEqual([
      1,
      [
        'error: kv namespace create: --env prod: wrangler.json has no "env": {"prod": …} entry (it defines no environments)'
      ]
    ])
  }, 60_000)
})

describe("a local platform that cannot start", () => {
  const start = (persistTo: string, env: Record<string, string | undefined> = {}) =>
    edgectlAsync(["zones", "list", "--persist-to", persistTo], { cwd: dir, env })

  it("says why in its hint: a damaged store, a store of a newer edgectl, a bad EDGECTL_PLATFORM_NOW", async () => {
    const damaged = path.join(dir, "damaged")
    fs.mkdirSync(damaged, { mode: 0o700 })
    fs.writeFileSync(path.join(damaged, "platform.sqlite"), "not a database at all\n".repeat(100), { mode: 0o600 })
    const d = await start(damaged)
    expect([d.status, lines(d.stderr).at(-1)]).toEqual([
      1,
      "hint: the state directory's database (platform.sqlite) is damaged: move it aside (a new one is made), or pick another directory with --persist-to DIR"
    ])

    const newer = path.join(dir, "newer")
    expect((await start(newer)).status).toBe(0)
    const db = new Database(path.join(newer, "platform.sqlite"))
    db.pragma("user_version = 9999")
    db.close()
    const n = await start(newer)
    expect([n.status, lines(n.stderr).at(-1)]).toEqual([
      1,
      "hint: run the newer edgectl that wrote this state, or pick another state directory with --persist-to DIR"
    ])

    const clock = await start(path.join(dir, "clock"), { EDGECTL_PLATFORM_NOW: "bogus" })
    expect([clock.status, lines(clock.stderr).at(-1)]).toEqual([
      1,
      "hint: unset EDGECTL_PLATFORM_NOW, or set it to an instant such as 2024-06-01T12:00:00Z"
    ])
  }, 60_000)
})

describe("waf replay --config", () => {
  it("an unknown managed ruleset is the configuration's fault, not the traffic file's", async () => {
    const exported = await edgectlAsync(["waf", "config", "--zone", "acme.com", "--json", ...local], { cwd: dir })
    expect(exported.status, exported.stderr).toBe(0)
    const cfg = JSON.parse(exported.stdout) as { rules: Array<{ action_parameters?: { id?: string } }> }
    const execute = cfg.rules.find((r) => r.action_parameters?.id !== undefined)!
    execute.action_parameters!.id = "nope-ruleset"
    fs.writeFileSync(path.join(dir, "bad-cfg.json"), JSON.stringify(cfg))
    fs.copyFileSync(path.join(root, "fixtures/waf/traffic-sample.jsonl"), path.join(dir, "traffic.jsonl"))
    const r = await edgectlAsync(
      ["waf", "replay", "--zone", "acme.com", "--traffic", "traffic.jsonl", "--config", "bad-cfg.json", ...local],
      { cwd: dir }
    )
    expect([r.status, lines(r.stderr)[0]]).toEqual([
      1,
      "error: waf replay: --config bad-cfg.json: unknown managed ruleset nope-ruleset"
    ])
  }, 60_000)
})
