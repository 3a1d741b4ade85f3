/**
 * Loose ends of issues 14 and 15, through the built CLI: a state directory that cannot be made
 * fails at once, every choice and numeric option names itself, errors raised before any platform
 * answered carry no platform code, and a tri-state flag given a word it does not take names itself.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, type Result, tempDir } from "../helpers/cli.js"

const lines = (s: string) => s.split("\n").filter((l) => l !== "")

/** The CLI, killed after `ms` (status -1): a command that never returns fails its test instead of hanging it. */
const within = (ms: number, args: ReadonlyArray<string>, cwd: string): Promise<Result> =>
  edgectlAsync(args, { cwd, timeout: ms, killSignal: "SIGKILL" })

describe("a state directory that cannot be made", () => {
  // /proc refuses new entries with ENOENT, on which Node's recursive mkdir loops forever.
  const procfs = fs.existsSync("/proc/self")

  it.runIf(procfs)("fails at once naming the directory and why, exit 1 (zones list, objects sql, serve)", async () => {
    const cwd = tempDir()
    const zones = await within(15_000, ["zones", "list", "--persist-to", "/proc/edgectl/state"], cwd)
    expect(zones.status).toBe(1)
    expect(lines(zones.stderr)).toEqual([
      "error: zones list: the local platform could not start: cannot create /proc/edgectl: /proc does not take new directories",
      "hint: the state directory must be a directory edgectl can write: pick another with --persist-to DIR"
    ])
    expect(zones.stdout).toBe("")
    const objects = await within(
      15_000,
      ["objects", "sql", "--persist-to", "/proc/edgectl", "--create", "Counter", "a", "select 1"],
      cwd
    )
    expect(objects.status).toBe(1)
    expect(lines(objects.stderr)).toEqual([
      "error: objects sql: cannot create /proc/edgectl: /proc does not take new directories"
    ])
    const serve = await within(15_000, ["serve", "--port", "0", "--persist-to", "/proc/edgectl"], cwd)
    expect(serve.status).toBe(1)
    expect(serve.stderr).toContain("cannot create /proc/edgectl: /proc does not take new directories")
  })

  it("a file in the way is named too", async () => {
    const cwd = tempDir()
    fs.writeFileSync(path.join(cwd, "f"), "")
    const r = await within(15_000, ["zones", "list", "--persist-to", path.join(cwd, "f", "state")], cwd)
    expect(r.status).toBe(2)
    expect(lines(r.stderr)).toEqual([
      `error: --persist-to: ${path.join(cwd, "f", "state")}: a part of the path is a file, not a directory`
    ])
  })
})

describe("choice and numeric options name themselves", () => {
  let dir: string
  beforeAll(() => {
    dir = tempDir()
  })
  const run = (args: ReadonlyArray<string>) => edgectlAsync([...args, "--persist-to", dir], { cwd: dir })
  const usage = async (args: ReadonlyArray<string>, line: string) => {
    const r = await run(args)
    expect({ status: r.status, stderr: lines(r.stderr), stdout: r.stdout }).toEqual({
      status: 2,
      stderr: [line],
      stdout: ""
    })
  }
  const actions = "block, challenge, js_challenge, managed_challenge, allow, log, bypass"

  it("firewall --action and --paused", async () => {
    await usage(
      ["firewall", "rules", "list", "--zone", "acme.com", "--action", "nope"],
      `error: --action: expected one of ${actions}, got "nope"`
    )
    await usage(
      ["firewall", "rules", "create", "--zone", "acme.com", "--expression", "true", "--action", "blok"],
      `error: --action: expected one of ${actions}, got "blok"`
    )
    await usage(
      ["firewall", "rules", "update", "--zone", "acme.com", "x", "--action", "x"],
      `error: --action: expected one of ${actions}, got "x"`
    )
    await usage(
      ["firewall", "filters", "update", "--zone", "acme.com", "x", "--paused", "maybe"],
      'error: --paused: expected one of true, false, got "maybe"'
    )
  })

  it("objects --limit, --port and the kv action", async () => {
    await usage(
      ["objects", "kv", "C", "n", "list", "--limit", "-3"],
      'error: --limit: expected an integer from 1 to 1,000,000,000, got "-3"'
    )
    await usage(
      ["objects", "kv", "C", "n", "list", "--limit", "ten"],
      'error: --limit: expected an integer from 1 to 1,000,000,000, got "ten"'
    )
    await usage(
      ["objects", "dev", "mod.mjs", "--port", "99999"],
      'error: --port: expected an integer from 0 to 65535, got "99999"'
    )
    await usage(
      ["objects", "kv", "C", "n", "lst"],
      'error: objects kv: expected one of get, put, list, delete after <Class> <name>, got "lst"'
    )
  })
})

describe("errors raised before any platform answered carry no platform code", () => {
  it("firewall test's request fields and kv bulk files", async () => {
    const dir = tempDir()
    const run = (args: ReadonlyArray<string>) => edgectlAsync([...args, "--persist-to", dir], { cwd: dir })
    fs.writeFileSync(path.join(dir, "req.json"), '{"http.request.uri.path": 5}')
    const request = await run(["firewall", "test", "--zone", "acme.com", "--request", "req.json"])
    expect(request.status).toBe(1)
    expect(lines(request.stderr)).toEqual([
      'error: firewall test: request field http.request.uri.path: expected a string (or {"$base64": "..."}), got number 5'
    ])
    fs.writeFileSync(path.join(dir, "bulk.json"), '{"key": "k", "value": "v"}')
    for (const verb of ["put", "get", "delete"]) {
      const bulk = await run(["kv", "bulk", verb, "bulk.json", "--namespace-id", "n1"])
      expect(bulk.status).toBe(1)
      expect(lines(bulk.stderr)).toEqual([
        `error: kv bulk ${verb}: bulk.json:1:1: expected a JSON array, got an object`
      ])
    }
  })
})

describe("a boolean flag given a word it does not take names itself", () => {
  it("dns list --proxied maybe, --proxied=maybe (once silently true), kv --preview=maybe", async () => {
    const dir = tempDir()
    const run = (args: ReadonlyArray<string>) => edgectlAsync([...args, "--persist-to", dir], { cwd: dir })
    for (const args of [
      ["dns", "list", "acme.com", "--proxied", "maybe"],
      ["dns", "list", "acme.com", "--proxied=maybe"]
    ]) {
      const r = await run(args)
      expect({ status: r.status, stderr: lines(r.stderr), stdout: r.stdout }).toEqual({
        status: 2,
        stderr: ['error: --proxied: expected true or false (or no value), got "maybe"'],
        stdout: ""
      })
    }
    const preview = await run(["kv", "key", "list", "--namespace-id", "n1", "--preview=maybe"])
    expect(preview.status).toBe(2)
    expect(lines(preview.stderr)).toEqual(['error: --preview: expected true or false (or no value), got "maybe"'])
    const unproxied = await run(["dns", "list", "acme.com", "--proxied=off", "--json"])
    expect(unproxied.status).toBe(0)
    expect((JSON.parse(unproxied.stdout) as Array<{ proxied: boolean }>).every((r) => !r.proxied)).toBe(true)
  })
})
