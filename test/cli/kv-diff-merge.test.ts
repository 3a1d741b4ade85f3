/**
 * `kv diff` merges the two namespaces' pages in key order (the platform's: UTF-8 bytes) instead of
 * holding both whole: differences on different pages of each side are all found, and keys whose
 * UTF-16 order is not their byte order (an emoji's surrogates against U+FFFD) still pair up, in
 * one store (one client) and between a local store and `edgectl serve` (two clients open at once).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LocalAccountId } from "../../src/services/kv-service.js"
import { edgectl, tempDir } from "../helpers/cli.js"
import { startServe, type Served } from "../helpers/serve.js"

process.env.CLOUDFLARE_ACCOUNT_ID = LocalAccountId

const nsId = (stdout: string) => /\(id ([0-9a-f]{32})\)/.exec(stdout)![1]!

const base = () => {
  const out: Array<Record<string, unknown>> = []
  for (let i = 0; i < 2500; i++) out.push({ key: `k${String(i).padStart(4, "0")}`, value: `v${i}` })
  out.push({ key: "\u{1F600}-smile", value: "s" }, { key: "\uFFFD-mark", value: "m" })
  return out
}

const changed = () =>
  base()
    .filter((e) => e.key !== "k0500" && e.key !== "\uFFFD-mark")
    .map((e) => (e.key === "k1500" ? { ...e, value: "other" } : e.key === "k2400" ? { ...e, metadata: { m: 1 } } : e))
    .concat([{ key: "k3000", value: "new" }])

const expected = {
  equal: false,
  only_in_first: ["k0500", "\uFFFD-mark"],
  only_in_second: ["k3000"],
  different: [
    { key: "k1500", fields: ["value"] },
    { key: "k2400", fields: ["metadata"] }
  ]
}

describe("kv diff merges pages in key order", () => {
  let served: Served
  let cwd: string
  beforeAll(async () => {
    cwd = tempDir()
    served = await startServe(path.join(cwd, "served"))
    fs.writeFileSync(path.join(cwd, "a.json"), JSON.stringify(base()))
    fs.writeFileSync(path.join(cwd, "b.json"), JSON.stringify(changed()))
  })
  afterAll(() => served.close())

  const local = (args: ReadonlyArray<string>) => edgectl(["kv", ...args, "--persist-to", "state"], { cwd })
  const remote = (args: ReadonlyArray<string>) => edgectl(["kv", ...args, "--remote"], { cwd, env: served.remoteEnv() })
  let made = 0
  const namespace = (run: typeof local, file: string) => {
    const id = nsId(run(["namespace", "create", `merge-${++made}`]).stdout)
    expect(run(["import", file, "--namespace-id", id])).toMatchObject({ status: 0 })
    return id
  }

  it("two namespaces of one store: every difference, on any page, and nothing else", () => {
    const a = namespace(local, "a.json")
    const b = namespace(local, "b.json")
    const r = local(["diff", "--namespace-id", a, "--with-namespace-id", b, "--json"])
    expect(r.status).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject(expected)
    const same = namespace(local, "a.json")
    expect(local(["diff", "--namespace-id", a, "--with-namespace-id", same]).stdout).toContain("are equal (2,502 keys)")
  })

  it("a local store against edgectl serve: both read at once, the same answer", () => {
    const a = namespace(local, "a.json")
    const b = namespace(remote, "b.json")
    const r = edgectl(
      ["kv", "diff", "--namespace-id", a, "--persist-to", "state", "--with-remote", "--with-namespace-id", b, "--json"],
      { cwd, env: served.remoteEnv() }
    )
    expect(r.status).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject(expected)
  })
})
