/**
 * `edgectl kv key get` of keys the client percent-encodes in the path (colons, slashes, `%`,
 * unicode, 512 bytes): the value comes back byte for byte on the local platform, where such a read
 * is answered by the in-process route (src/server/door/kv-value-route.ts) rather than the app.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { edgectl, json, tempDir } from "../helpers/cli.js"

let cwd: string
const kv = (...args: ReadonlyArray<string>) => edgectl(["kv", ...args], { cwd })

beforeAll(() => {
  cwd = tempDir()
})

describe("kv key get of a key that needs percent-encoding", () => {
  it("prints a demo flag namespaced with a colon", () => {
    const namespaces = json<Array<{ id: string; title: string }>>(kv("namespace", "list"))
    const flags = namespaces.find((n) => n.title === "acme-feature-flags")
    expect(flags).toBeDefined()
    expect(kv("key", "get", "flag:beta-search", "--namespace-id", flags!.id)).toEqual({
      status: 0,
      stdout: '{"enabled":true,"rollout":100}',
      stderr: ""
    })
  })

  it("prints what was put under colons, slashes, `%`, unicode and a 512-byte key", () => {
    const keys = ["user:42:session", "a/b/../c", "100%25off", "€:😀", "é".repeat(256)]
    for (const [i, key] of keys.entries()) {
      expect(kv("key", "put", key, `value ${i}`, "--namespace-id", "cli-encoded").status).toBe(0)
      expect(kv("key", "get", key, "--namespace-id", "cli-encoded")).toEqual({
        status: 0,
        stdout: `value ${i}`,
        stderr: ""
      })
    }
    expect(kv("key", "get", "user:43:session", "--namespace-id", "cli-encoded").stdout).toBe("Value not found\n")
  })
})
