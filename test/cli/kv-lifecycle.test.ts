/**
 * `kv export|import|clear|copy|diff` in local mode, through the built CLI over a state directory:
 * an export is input of `import` and `bulk put` (byte for byte, binary values in base64, metadata
 * and expirations), an import checks its whole file first, diff and clear say what they find.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { hexId } from "../../src/domain/ids.js"
import { bin, edgectl, json, tempDir } from "../helpers/cli.js"

let cwd: string
const kv = (args: ReadonlyArray<string>, input?: string) =>
  edgectl(["kv", ...args, "--persist-to", "state"], { cwd, ...(input !== undefined ? { input } : {}) })
const create = (name: string) => /\(id ([0-9a-f]{32})\)/.exec(kv(["namespace", "create", name]).stdout)![1]!
const expiration = Math.floor(Date.now() / 1000) + 3600
const entries = [
  { key: "bin", value: Buffer.from([0, 1, 2, 0xff, 0xfe]).toString("base64"), base64: true },
  { key: "meta", value: "x", expiration, metadata: { owner: "me", n: [1, 2] } },
  { key: "text/é", value: "héllo\nworld" }
]

describe("kv lifecycle (local)", () => {
  let source: string
  beforeAll(() => {
    cwd = tempDir()
    source = create("source")
    fs.writeFileSync(path.join(cwd, "in.json"), JSON.stringify(entries))
    expect(kv(["bulk", "put", "in.json", "--namespace-id", source]).status).toBe(0)
  })

  it("round trip: export, import into a new namespace, diff equal, export again the same bytes", () => {
    const exported = kv(["export", "--namespace-id", source])
    expect(exported.status).toBe(0)
    expect(JSON.parse(exported.stdout)).toEqual([
      { key: "bin", value: "AAEC//4=", base64: true },
      { key: "meta", value: "x", expiration, metadata: { owner: "me", n: [1, 2] } },
      { key: "text/é", value: "héllo\nworld" }
    ])
    fs.writeFileSync(path.join(cwd, "out.json"), exported.stdout)
    const copy = create("copy")
    expect(kv(["import", "out.json", "--namespace-id", copy])).toMatchObject({
      status: 0,
      stdout: `Imported 3 entries into namespace id ${copy}.\n`
    })
    expect(kv(["diff", "--namespace-id", source, "--with-namespace-id", copy]).status).toBe(0)
    expect(kv(["export", "--namespace-id", copy]).stdout).toBe(exported.stdout)
    // The bytes of the binary value are the ones written.
    const raw = spawnSync(
      process.execPath,
      [bin, "kv", "key", "get", "bin", "--namespace-id", copy, "--persist-to", "state"],
      {
        cwd
      }
    )
    expect(raw.stdout).toEqual(Buffer.from([0, 1, 2, 0xff, 0xfe]))
    // And the export is input of `kv bulk put` too.
    const third = create("third")
    expect(kv(["bulk", "put", "out.json", "--namespace-id", third]).status).toBe(0)
    expect(kv(["export", "--namespace-id", third]).stdout).toBe(exported.stdout)
  })

  it("JSON Lines: to a file with --output, and back in through a pipe", () => {
    expect(kv(["export", "--namespace-id", source, "--output", "out.jsonl"])).toMatchObject({
      status: 0,
      stdout: `Exported 3 keys of namespace id ${source} to out.jsonl.\n`
    })
    const lines = fs.readFileSync(path.join(cwd, "out.jsonl"), "utf8")
    expect(lines.split("\n")).toHaveLength(4)
    const target = create("from-lines")
    expect(kv(["import", "-", "--namespace-id", target], lines).status).toBe(0)
    expect(kv(["diff", "--namespace-id", source, "--with-namespace-id", target]).status).toBe(0)
  })

  it("import checks the whole file first: every bad entry named, nothing written", () => {
    const target = create("refused")
    const bad = [
      { key: "ok", value: "v" },
      { key: "", value: "v" },
      { key: "k", value: 3 }
    ].map((e) => JSON.stringify(e))
    fs.writeFileSync(path.join(cwd, "bad.jsonl"), bad.join("\n") + "\n")
    const r = kv(["import", "bad.jsonl", "--namespace-id", target, "--json"])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/^error: kv import: bad\.jsonl: /)
    expect(r.stderr).toContain("nothing was written")
    const report = JSON.parse(r.stdout) as { invalid_entries: number; problems: Array<{ index: number }> }
    expect(report.invalid_entries).toBe(2)
    expect(report.problems.map((p) => p.index)).toEqual([1, 2])
    expect(kv(["key", "list", "--namespace-id", target]).stdout).toBe("[]\n")
    fs.writeFileSync(path.join(cwd, "broken.jsonl"), '{"key":"a","value":"b"}\n{nope\n')
    expect(kv(["import", "broken.jsonl", "--namespace-id", target]).stderr).toMatch(
      /^error: kv import: broken\.jsonl:2: not a JSON value/
    )
  })

  it("diff names what differs (--json) and exits 1", () => {
    const other = create("other")
    expect(kv(["copy", "--namespace-id", source, "--to-namespace-id", other, "--dry-run"]).stdout).toMatch(
      /^Would copy 3 keys from namespace id [0-9a-f]{32} \(local \(state\)\) to namespace id [0-9a-f]{32} \(local \(state\)\)\.\n$/
    )
    expect(kv(["key", "list", "--namespace-id", other]).stdout).toBe("[]\n")
    expect(kv(["copy", "--namespace-id", source, "--to-namespace-id", other]).status).toBe(0)
    expect(kv(["key", "put", "meta", "x", "--namespace-id", other, "--metadata", '{"owner":"you"}']).status).toBe(0)
    expect(kv(["key", "delete", "bin", "--namespace-id", other]).status).toBe(0)
    expect(kv(["key", "put", "new", "v", "--namespace-id", other]).status).toBe(0)
    const r = kv(["diff", "--namespace-id", source, "--with-namespace-id", other, "--json"])
    expect(r.status).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject({
      equal: false,
      only_in_first: ["bin"],
      only_in_second: ["new"],
      different: [{ key: "meta", fields: ["metadata", "expiration"] }]
    })
    expect(r.stderr).toBe(
      "error: kv diff: the namespaces differ: 1 only in the first, 1 only in the second, 1 different\n"
    )
  })

  it("clear asks (refused off a terminal without --yes), then deletes every key", () => {
    const doomed = create("doomed")
    expect(kv(["copy", "--namespace-id", source, "--to-namespace-id", doomed]).status).toBe(0)
    const refused = kv(["clear", "--namespace-id", doomed])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain(`--namespace-id ${doomed} --persist-to state --yes`)
    expect(json<Array<unknown>>(kv(["key", "list", "--namespace-id", doomed]))).toHaveLength(3)
    expect(kv(["clear", "--namespace-id", doomed, "--yes"]).stdout).toBe(`Deleted 3 keys of namespace id ${doomed}.\n`)
    expect(kv(["key", "list", "--namespace-id", doomed]).stdout).toBe("[]\n")
  })

  it("account to account: copy from Globex's namespace into one of Acme Corp, then diff them", () => {
    const globex = { CLOUDFLARE_ACCOUNT_ID: hexId("account", "Globex") }
    const inGlobex = (args: ReadonlyArray<string>) =>
      edgectl(["kv", ...args, "--persist-to", "state"], { cwd, env: globex })
    const translations = json<Array<{ id: string; title: string }>>(inGlobex(["namespace", "list"])).find(
      (n) => n.title === "globex-translations"
    )!.id
    const acme = hexId("account", "Acme Corp")
    const target = create("translations")
    const copied = inGlobex([
      "copy",
      "--namespace-id",
      translations,
      "--to-namespace-id",
      target,
      "--to-account-id",
      acme
    ])
    expect(copied.stdout).toBe(
      `Copied 4 keys from namespace id ${translations} (local (state)) to namespace id ${target} in account ${acme} (local (state)).\n`
    )
    expect(
      inGlobex(["diff", "--namespace-id", translations, "--with-namespace-id", target, "--with-account-id", acme])
        .status
    ).toBe(0)
    expect(json<Array<{ name: string }>>(kv(["key", "list", "--namespace-id", target])).map((k) => k.name)).toEqual([
      "de/hello",
      "en/hello",
      "fr/hello",
      "ja/hello"
    ])
  })

  it("usage: copy onto itself, a bad --format", () => {
    expect(kv(["copy", "--namespace-id", source]).status).toBe(2)
    expect(kv(["export", "--namespace-id", source, "--format", "csv"]).status).toBe(2)
  })
})
