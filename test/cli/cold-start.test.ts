/**
 * What a cold local command loads: Node's built-in modules it never uses stay unloaded (each costs
 * instructions at every start, bench/platform.bench.mjs). node:http is for `edgectl serve`,
 * node:crypto for what makes ids and secrets, perf_hooks for nothing a command reads, Node's streams
 * (and node:net for a pipe) for a TUI, a prompt or a server, node:readline for a traffic file. A preload
 * (`--require`, through NODE_OPTIONS) writes the modules Node loaded when the process exits, and
 * whether an Error's stack was formatted (V8 then computes the line ends of the whole 2 MB script:
 * ~25 M instructions, build/patches/effect.mjs).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"

const loadedBy = async (args: ReadonlyArray<string>, state: string) => {
  const dir = tempDir("edgectl-cold-")
  const preload = path.join(dir, "preload.cjs")
  const out = path.join(dir, "loaded.txt")
  fs.writeFileSync(
    preload,
    `let stacks = 0\n` +
      `Error.prepareStackTrace = (e, frames) => (stacks++, [String(e), ...frames.map((f) => "    at " + f)].join("\\n"))\n` +
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, [...process.moduleLoadList, stacks > 0 ? ${JSON.stringify(StackRead)} : ""].join("\\n")))\n`
  )
  const r = await edgectlAsync([...args, "--persist-to", state], {
    env: { NODE_OPTIONS: `--require ${preload}`, XDG_CACHE_HOME: dir }
  })
  expect(r.stderr).toBe("")
  expect(r.status).toBe(0)
  return { stdout: r.stdout, loaded: fs.readFileSync(out, "utf8").split("\n") }
}

const StackRead = "an Error's stack formatted"
const Unused = [
  "NativeModule http",
  "NativeModule crypto",
  "NativeModule perf_hooks",
  // Node's streams (and for a pipe node:net): built on the first touch of process.stdout, which a
  // command printing through src/cli/stdio.ts never makes.
  "NativeModule stream",
  "NativeModule net",
  "NativeModule readline",
  // node:module evaluates Node's ESM loader: the script's createRequire is the launcher's require.
  "NativeModule module",
  "NativeModule string_decoder"
]

describe("a cold local command", () => {
  it("loads neither node:http, node:crypto, perf_hooks, streams, readline nor node:module, nor formats a stack: zones list, firewall rules list, kv key get", async () => {
    const state = tempDir("edgectl-cold-state-")
    // The first use creates and seeds the store (which may use anything); the runs after it are cold starts.
    await edgectlAsync(["kv", "key", "put", "k", "v", "--namespace-id", "ns", "--persist-to", state])
    const zones = await loadedBy(["zones", "list", "--json"], state)
    expect(JSON.parse(zones.stdout).length).toBeGreaterThan(0)
    const rules = await loadedBy(["firewall", "rules", "list", "--zone", "acme.com", "--json"], state)
    expect(Array.isArray(JSON.parse(rules.stdout))).toBe(true)
    const key = await loadedBy(["kv", "key", "get", "k", "--namespace-id", "ns"], state)
    expect(key.stdout).toBe("v")
    for (const run of [zones, rules, key]) expect(run.loaded.filter((m) => Unused.includes(m))).toEqual([])
    // Nor formats an Error's stack (effect's probe of function names at its start, patched out).
    for (const run of [zones, rules, key]) expect(run.loaded).not.toContain(StackRead)
  }, 60_000)
})
