/**
 * Issue 15's polish, through the built CLI: KV validation errors with their hint, a huge --ttl
 * naming the real limit, a usable binding name for an accented title, empty names quoted, an
 * invalid `$base64` said so, `check`'s one summary line, and ESC tests worded after the removal.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { edgectlAsync, tempDir } from "../helpers/cli.js"

const lines = (s: string) => s.split("\n").filter((l) => l !== "")

describe("polish", () => {
  let dir: string
  beforeAll(() => {
    dir = tempDir()
  })
  const run = (args: ReadonlyArray<string>, env?: Record<string, string>) =>
    edgectlAsync([...args, "--persist-to", dir], { cwd: dir, ...(env ? { env } : {}) })

  it("a KV validation error has its hint line", async () => {
    const key = await run(["kv", "key", "put", "a b", "v", "--namespace-id", "n1"])
    expect(key.status).toBe(1)
    expect(lines(key.stderr)).toEqual([
      "error: kv key put: key has whitespace (U+0020) at character 2; keys are printable characters without whitespace [code 10022]",
      'hint: a key is 1 to 512 bytes of printable characters without whitespace, not "." or ".."; encode other characters (e.g. %20 for a space)'
    ])
    const metadata = await run(["kv", "key", "put", "k", "v", "--metadata", "[1]", "--namespace-id", "n1"])
    expect(lines(metadata.stderr)).toHaveLength(2)
    expect(lines(metadata.stderr)[1]).toMatch(/^hint: metadata is a JSON object of at most 1,024 bytes/)
  })

  it("a huge --ttl names the real limit", async () => {
    const r = await run(["kv", "key", "put", "k", "v", "--ttl", "99999999999999999", "--namespace-id", "n1"])
    expect(r.status).toBe(1)
    const [error, hint, ...rest] = lines(r.stderr)
    expect(error).toMatch(
      /^error: kv key put: expiration_ttl 100000000000000000 ends after the year 9999: the maximum is \d{12} seconds from now \[code 1004\]$/
    )
    expect(hint).toMatch(/^hint: --ttl is seconds from now/)
    expect(rest).toEqual([])
  })

  it("kv namespace create with an accented title suggests a binding of its letters", async () => {
    const r = await run(["kv", "namespace", "create", "ünï"])
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('binding = "uni"')
  })

  it("an empty zone name is refused before any request, naming the argument", async () => {
    const r = await run(["zones", "get", ""])
    expect(r.status).toBe(2)
    expect(lines(r.stderr)[0]).toBe("error: <zone> needs a zone id or name, got an empty string")
  })

  it('{"$base64": "!!"} in a request says the base64 is invalid', async () => {
    const request = path.join(dir, "request.json")
    fs.writeFileSync(request, JSON.stringify({ "http.host": { $base64: "!!" } }))
    const r = await edgectlAsync(["rules", "eval", 'http.host eq "a"', "--request", request])
    expect(r.status).toBe(1)
    expect(lines(r.stderr)[0]).toBe(
      'error: rules eval: request field http.host: the "$base64" value is not valid base64: "!!"'
    )
  })

  it("check prints one summary line, counting the files it could not read", async () => {
    const good = path.join(dir, "good.rules")
    fs.writeFileSync(good, 'http.host eq "a"\n')
    const missing = path.join(dir, "missing.rules")
    const both = await edgectlAsync(["check", good, missing])
    expect(both.status).toBe(1)
    expect(lines(both.stderr)).toEqual([
      `error: check ${missing}: cannot read it: no such file`,
      "error: check: 1 file checked, 0 errors, 0 warnings, 1 file not checked"
    ])
    const only = await edgectlAsync(["check", missing])
    expect(only.status).toBe(1)
    expect(lines(only.stderr)).toEqual([`error: check ${missing}: cannot read it: no such file`])
  })

  it("esc test after the removal says what ESC would do, not that it runs", async () => {
    const after = await run(["esc", "test", "--zone", "acme.org"], { EDGECTL_PLATFORM_NOW: "2026-01-01T00:00:00Z" })
    expect(after.status).toBe(0)
    expect(lines(after.stdout)[0]).toBe(
      "ESC would run (if it still existed) for this request to zone acme.org (no Cookie header)."
    )
    expect(after.stdout).not.toMatch(/(^|: *)ESC runs\b/m)
    const before = await run(["esc", "test", "--zone", "acme.org"], { EDGECTL_PLATFORM_NOW: "2024-06-01T00:00:00Z" })
    expect(lines(before.stdout)[0]).toBe("ESC runs for this request to zone acme.org (no Cookie header).")
  })
})
