/** CLI inputs nested thousands of levels deep are refused as bad input, not as an internal RangeError. */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectl, tempDir } from "../helpers/cli.js"

describe("deeply nested CLI inputs", () => {
  const state = tempDir()
  const env = { EDGECTL_STATE_DIR: state }

  it("kv key put --metadata names the nesting limit", () => {
    const list = edgectl(["kv", "namespace", "list", "--json"], { env })
    const ns = (/"id":\s*"([0-9a-f]{32})"/.exec(list.stdout) ?? [])[1]!
    const r = edgectl(
      ["kv", "key", "put", "k", "v", "--namespace-id", ns, "--metadata", `{"a":`.repeat(6000) + "1" + "}".repeat(6000)],
      { env }
    )
    expect(r.status).toBe(1)
    expect(r.stderr).toContain("metadata is nested more than 100 levels deep, the limit is 100")
    expect(r.stderr).not.toContain("internal")
  })

  it("waf migrate --config names the nesting limit", () => {
    const file = path.join(tempDir(), "deep.json")
    fs.writeFileSync(file, `{"name":"x","rules":${"[".repeat(6000)}${"]".repeat(6000)}}`)
    const r = edgectl(["waf", "migrate", "--zone", "acme-api.com", "--config", file, "--dry-run"], { env })
    expect(r.status).toBe(1)
    expect(r.stderr.trim()).toBe(
      `error: --config: ${file} is nested more than 100 levels deep (arrays and objects), the limit is 100`
    )
  })

  it("check reports a file nested too deep at the bracket that passes the limit", () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, "deep.json"), `${"[".repeat(6000)}${"]".repeat(6000)}\n`)
    const r = edgectl(["check", "deep.json", "--json"], { cwd: dir })
    expect(r.status).toBe(1)
    expect(r.stderr).not.toContain("internal")
    expect(r.stdout).toContain("nested more than 100 levels deep")
    expect(r.stdout).toMatch(/"line":\s*1/)
  })
})
