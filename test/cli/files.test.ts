/**
 * Every option that reads a file takes a path, `-` (stdin), /dev/stdin, a FIFO and a process
 * substitution `<(…)`; every option that writes one takes `-` for stdout (src/cli/files.ts). Each
 * way is run through the built CLI from bash, as a script does.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { root, shell, tempDir } from "../helpers/cli.js"

const state = tempDir("edgectl-files-state-")
const cwd = tempDir("edgectl-files-")
const local = `--persist-to "${state}"`
const traffic = path.join(root, "fixtures", "waf", "traffic-sample.jsonl")
/** A FIFO in `cwd`, named `name`. */
const fifo = (name: string) => {
  execFileSync("mkfifo", [path.join(cwd, name)])
  return name
}

beforeAll(() => {
  fs.writeFileSync(path.join(cwd, "ok.rules"), 'http.host eq "a.com"\n')
  fs.mkdirSync(path.join(cwd, "tree", "sub"), { recursive: true })
  fs.mkdirSync(path.join(cwd, "tree", ".git"), { recursive: true })
  fs.writeFileSync(path.join(cwd, "tree", "a.rules"), 'http.host eq "a.com"\n')
  fs.writeFileSync(path.join(cwd, "tree", "sub", "b.rules"), "http.host eqq 1\n")
  fs.writeFileSync(path.join(cwd, "tree", "sub", "notes.txt"), "not checked\n")
  fs.writeFileSync(path.join(cwd, "tree", ".git", "c.json"), "{")
})

/** `waf replay` of the sample: the requests it compared (32 in the sample), from its JSON. */
const replayed = async (line: string) => {
  const r = await shell(line, cwd)
  expect([line, r.status, r.stderr]).toEqual([line, 0, ""])
  return (JSON.parse(r.stdout) as { requests: number }).requests
}

describe("waf replay --traffic", () => {
  const replay = `$EDGECTL waf replay --zone acme-api.com --limit 0 --json ${local} --traffic`
  it("reads -, /dev/stdin, a FIFO and <(…) as it reads the file", async () => {
    expect(await replayed(`${replay} "${traffic}"`)).toBe(32)
    expect(await replayed(`${replay} - < "${traffic}"`)).toBe(32)
    expect(await replayed(`cat "${traffic}" | ${replay} /dev/stdin`)).toBe(32)
    expect(await replayed(`${replay} <(cat "${traffic}")`)).toBe(32)
    const f = fifo("traffic.fifo")
    expect(await replayed(`(sleep 0.3; cat "${traffic}" > ${f}) & ${replay} ${f}; wait`)).toBe(32)
  }, 120_000)

  it("takes its --config from - and <(…)", async () => {
    const cfg = await shell(`$EDGECTL waf config --zone acme-api.com --json ${local} > cfg.json`, cwd)
    expect([cfg.status, cfg.stderr]).toEqual([0, ""])
    expect(await replayed(`${replay} "${traffic}" --config - < cfg.json`)).toBe(32)
    expect(await replayed(`${replay} "${traffic}" --config <(cat cfg.json)`)).toBe(32)
  }, 60_000)

  it("refuses a directory, naming it", async () => {
    const r = await shell(`${replay} .`, cwd)
    expect([r.status, r.stderr]).toEqual([1, "error: --traffic: . is a directory, not a file\n"])
  }, 60_000)
})

describe("waf export -o", () => {
  it("- writes the document to stdout and no file named -", async () => {
    const r = await shell(`$EDGECTL waf export --zone acme-api.com ${local} -o -`, cwd)
    expect([r.status, r.stderr]).toEqual([0, ""])
    expect((JSON.parse(r.stdout) as { format: string }).format).toBe("edgectl.waf-export/v1")
    expect(fs.existsSync(path.join(cwd, "-"))).toBe(false)
  }, 60_000)
})

describe("check", () => {
  const ok = "1 file checked, 0 errors, 0 warnings\n"
  it("reads - , /dev/stdin, a FIFO and <(…) of the kind --kind names", async () => {
    for (const line of [
      `$EDGECTL check --kind rules - < ok.rules`,
      `cat ok.rules | $EDGECTL check --kind rules /dev/stdin`,
      `$EDGECTL check --kind rules <(cat ok.rules)`
    ]) {
      const r = await shell(line, cwd)
      expect([line, r.status, r.stderr]).toEqual([line, 0, ok])
    }
    const f = fifo("check.fifo")
    const r = await shell(`(sleep 0.3; cat ok.rules > ${f}) & $EDGECTL check --kind rules ${f}; wait`, cwd)
    expect([r.status, r.stderr]).toEqual([0, ok])
  }, 120_000)

  it("asks for --kind when stdin's kind cannot be known", async () => {
    const r = await shell(`$EDGECTL check - < ok.rules`, cwd)
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(
      "error: check -: unknown kind of file: expected *.rules, *.json or *.tf (name it with --kind rules|json|tf)\n"
    )
  }, 60_000)

  it("checks the files of known kinds in a directory and its subdirectories", async () => {
    const r = await shell(`$EDGECTL check --format json tree`, cwd)
    expect(r.status).toBe(1)
    const files = (JSON.parse(r.stdout) as { files: Array<{ path: string }> }).files.map((f) => f.path)
    expect(files).toEqual([path.join("tree", "a.rules"), path.join("tree", "sub", "b.rules")])
  }, 60_000)
})

describe("stdin readers wait for a slow writer", () => {
  it("esc disable --secret-stdin, rules check --file -, kv key put --path -", async () => {
    const esc = await shell(
      `(sleep 1; echo s3cret) | $EDGECTL esc disable --zone acme-api.com --secret-stdin ${local}`,
      cwd
    )
    expect([esc.status, esc.stderr]).toEqual([0, ""])
    expect(esc.stdout).toContain("Stored the secret")
    const rules = await shell(`(sleep 1; cat ok.rules) | $EDGECTL rules check --file -`, cwd)
    expect([rules.status, rules.stderr, rules.stdout]).toEqual([0, "", "valid\n"])
    const put = await shell(`(sleep 1; printf hello) | $EDGECTL kv key put k --path - --namespace-id ns ${local}`, cwd)
    expect([put.status, put.stderr]).toEqual([0, ""])
    const get = await shell(`$EDGECTL kv key get k --namespace-id ns ${local}`, cwd)
    expect(get.stdout).toBe("hello")
  }, 120_000)
})
