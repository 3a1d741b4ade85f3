/**
 * CLI end-to-end (the built bin/edgectl.cjs): `kv bulk put|get|delete` read their file once, so a
 * FIFO, standard input (`-`, `/dev/stdin`) and a `<(…)` substitution work like a regular file; and a
 * refused file reports every problem with its exact count. Every run has a short time limit: the
 * old code read a file twice and blocked forever on a FIFO's second open.
 */
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { bin, tempDir, type Result } from "../helpers/cli.js"

const cwd = tempDir("edgectl-bulk-pipes-")
const env = { ...process.env, NO_COLOR: "1", EDGECTL_BIN: bin } as NodeJS.ProcessEnv

/** Runs `cmd args` in `cwd`, killed after 20 s (a read that blocks must fail the test, not hang it). */
const runProcess = (cmd: string, args: ReadonlyArray<string>, input?: string): Promise<Result> =>
  new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, timeout: 20_000, killSignal: "SIGKILL" })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    child.on("error", reject)
    child.on("close", (code, signal) => resolve({ status: code ?? (signal === "SIGKILL" ? -9 : -1), stdout, stderr }))
    if (input !== undefined) child.stdin.end(input)
    else child.stdin.end()
  })

const edgectl = (args: ReadonlyArray<string>, input?: string) => runProcess(process.execPath, [bin, ...args], input)
/** A shell line, with `$EDGECTL` for the CLI: real pipes and process substitutions, as users type them. */
const bash = (script: string) =>
  runProcess("bash", ["-c", script.replaceAll("$EDGECTL", `"${process.execPath}" "$EDGECTL_BIN"`)])

const ns = (id: string) => ["--namespace-id", id]
const write = (name: string, value: unknown) => {
  fs.writeFileSync(path.join(cwd, name), JSON.stringify(value))
  return name
}

/** A FIFO with `text` written into it by another process once the CLI opens it for reading. */
const fifo = (name: string, text: string) => {
  const file = path.join(cwd, name)
  execFileSync("mkfifo", [file])
  const data = path.join(cwd, `${name}.data`)
  fs.writeFileSync(data, text)
  const writer = spawn("sh", ["-c", 'cat "$1" > "$2"', "sh", data, file], { stdio: "ignore", timeout: 20_000 })
  return { file: name, done: new Promise((resolve) => writer.on("close", resolve)) }
}

const entries = (prefix: string) => [
  { key: `${prefix}-a`, value: "one" },
  { key: `${prefix}-b`, value: "two", metadata: { n: 2 } }
]

/** The keys of a namespace. */
const keys = async (id: string) => {
  const r = await edgectl(["kv", "key", "list", ...ns(id)])
  expect(r.status, r.stderr).toBe(0)
  return (JSON.parse(r.stdout) as Array<{ name: string }>).map((k) => k.name)
}

beforeAll(async () => {
  // The first command creates the local platform's store: once, before the timed runs.
  expect((await edgectl(["kv", "key", "list", ...ns("warm-up")])).status).toBe(0)
}, 60_000)

describe("kv bulk: a file is read once, from anything that can be read", () => {
  it("FIFOs: put, get and delete each read a named pipe to its end, once", async () => {
    const put = fifo("put.fifo", JSON.stringify(entries("fifo")))
    const r = await edgectl(["kv", "bulk", "put", put.file, ...ns("pipes-fifo")])
    await put.done
    expect(r.stderr).toBe("")
    expect(r.stdout).toBe("Wrote 2 entries to namespace id pipes-fifo.\n")
    expect(r.status).toBe(0)

    const get = fifo("get.fifo", JSON.stringify(["fifo-a", { name: "fifo-b" }, "fifo-missing"]))
    const g = await edgectl(["kv", "bulk", "get", get.file, ...ns("pipes-fifo")])
    await get.done
    expect(g.stderr).toBe("")
    expect(JSON.parse(g.stdout)).toEqual({
      "fifo-a": { value: "one" },
      "fifo-b": { value: "two" },
      "fifo-missing": { value: null }
    })
    expect(g.status).toBe(0)

    const del = fifo("delete.fifo", JSON.stringify(["fifo-a"]))
    const d = await edgectl(["kv", "bulk", "delete", del.file, ...ns("pipes-fifo")])
    await del.done
    expect(d.stdout).toBe("Deleted 1 key from namespace id pipes-fifo.\n")
    expect(d.status).toBe(0)
    expect(await keys("pipes-fifo")).toEqual(["fifo-b"])
  }, 60_000)

  it("standard input: `-` and /dev/stdin, from a Node pipe and from a shell pipe", async () => {
    const put = await edgectl(["kv", "bulk", "put", "-", ...ns("pipes-stdin")], JSON.stringify(entries("dash")))
    expect(put.stderr).toBe("")
    expect(put.stdout).toBe("Wrote 2 entries to namespace id pipes-stdin.\n")
    const viaDev = await edgectl(
      ["kv", "bulk", "put", "/dev/stdin", ...ns("pipes-stdin")],
      JSON.stringify(entries("dev"))
    )
    expect(viaDev.stderr).toBe("")
    expect(viaDev.status).toBe(0)

    const get = await edgectl(["kv", "bulk", "get", "-", ...ns("pipes-stdin")], JSON.stringify(["dash-a", "dev-b"]))
    expect(get.stderr).toBe("")
    expect(JSON.parse(get.stdout)).toEqual({ "dash-a": { value: "one" }, "dev-b": { value: "two" } })
    const getDev = await edgectl(
      ["kv", "bulk", "get", "/dev/stdin", "--metadata", ...ns("pipes-stdin")],
      JSON.stringify(["dev-b"])
    )
    expect(getDev.stderr).toBe("")
    expect(JSON.parse(getDev.stdout)).toEqual({ "dev-b": { value: "two", metadata: { n: 2 } } })

    write("shell-keys.json", ["dash-a", "dash-b"])
    const shell = await bash(`cat shell-keys.json | $EDGECTL kv bulk get /dev/stdin --namespace-id pipes-stdin`)
    expect(shell.stderr).toBe("")
    expect(JSON.parse(shell.stdout)).toEqual({ "dash-a": { value: "one" }, "dash-b": { value: "two" } })

    const del = await edgectl(["kv", "bulk", "delete", "-", ...ns("pipes-stdin")], JSON.stringify(["dash-a", "dash-b"]))
    expect(del.stdout).toBe("Deleted 2 keys from namespace id pipes-stdin.\n")
    const delDev = await bash(`echo '["dev-a"]' | $EDGECTL kv bulk delete /dev/stdin --namespace-id pipes-stdin`)
    expect(delDev.stdout).toBe("Deleted 1 key from namespace id pipes-stdin.\n")
    expect(await keys("pipes-stdin")).toEqual(["dev-b"])
  }, 60_000)

  it("process substitution <(…): put, get and delete", async () => {
    write("subst.json", entries("subst"))
    const put = await bash(`$EDGECTL kv bulk put <(cat subst.json) --namespace-id pipes-subst`)
    expect(put.stderr).toBe("")
    expect(put.stdout).toBe("Wrote 2 entries to namespace id pipes-subst.\n")
    const get = await bash(`$EDGECTL kv bulk get <(echo '["subst-a","subst-b"]') --namespace-id pipes-subst`)
    expect(get.stderr).toBe("")
    expect(JSON.parse(get.stdout)).toEqual({ "subst-a": { value: "one" }, "subst-b": { value: "two" } })
    const del = await bash(`$EDGECTL kv bulk delete <(echo '[{"name":"subst-b"}]') --namespace-id pipes-subst`)
    expect(del.stdout).toBe("Deleted 1 key from namespace id pipes-subst.\n")
    expect(await keys("pipes-subst")).toEqual(["subst-a"])
  }, 60_000)

  it("a bad file from a pipe writes nothing and places the error in the input", async () => {
    const r = await edgectl(
      ["kv", "bulk", "put", "-", ...ns("pipes-bad")],
      '[{"key": "ok", "value": "1"},\n {"key": "x" "value": ""}]'
    )
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    expect(r.stderr).toMatch(/^error: kv bulk put: <stdin>:2:14: invalid JSON: expected ','/)
    expect(r.stderr.trim().split("\n").length).toBeLessThanOrEqual(2)
    expect(await keys("pipes-bad")).toEqual([])
  }, 30_000)
})

describe("kv bulk: problems are counted exactly", () => {
  const bad = Array.from({ length: 300 }, (_, i) => ({ key: `k${i}`, value: i }))
  // Two problems on one more entry: 301 invalid entries, 302 problems.
  const file = () => write("bad-300.json", [...bad, { key: "", value: 1 }, { key: "fine", value: "ok" }])

  it("text: the exact totals, the first problems, how many more and how to see them all", async () => {
    const r = await edgectl(["kv", "bulk", "put", file(), ...ns("count-text")])
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    const lines = r.stderr.trim().split("\n")
    expect(lines.length).toBeLessThanOrEqual(2)
    expect(lines[0]).toMatch(
      /^error: kv bulk put: bad-300\.json: 301 invalid entries, nothing was written: entry 0 \(key "k0"\): value must be a string, got a number/
    )
    expect(lines[0]).toContain("; and 299 more problems (--json lists every problem)")
    expect(await keys("count-text")).toEqual([])
  }, 30_000)

  it("--json lists every problem on stdout, with the totals", async () => {
    const r = await edgectl(["kv", "bulk", "put", file(), "--json", ...ns("count-json")])
    expect(r.status).toBe(1)
    const out = JSON.parse(r.stdout) as {
      invalid_entries: number
      problem_count: number
      problems: Array<{ index: number; field: string }>
    }
    expect(out.invalid_entries).toBe(301)
    expect(out.problem_count).toBe(302)
    expect(out.problems).toHaveLength(302)
    expect(out.problems.map((p) => p.index)).toEqual([...Array.from({ length: 301 }, (_, i) => i), 300])
    expect(out.problems.slice(-2).map((p) => p.field)).toEqual(["key", "value"])
    expect(r.stderr).toMatch(/^error: kv bulk put: bad-300\.json: 301 invalid entries/)
    expect(await keys("count-json")).toEqual([])
  }, 30_000)

  it("a keys file for delete and get: the same exact counts", async () => {
    const keysFile = write(
      "bad-keys.json",
      Array.from({ length: 150 }, (_, i) => (i % 2 === 0 ? i : `ok${i}`))
    )
    const del = await edgectl(["kv", "bulk", "delete", keysFile, "--json", ...ns("count-keys")])
    expect(del.status).toBe(1)
    const out = JSON.parse(del.stdout) as { invalid_entries: number; problems: Array<unknown> }
    expect(out.invalid_entries).toBe(75)
    expect(out.problems).toHaveLength(75)
    const get = await edgectl(["kv", "bulk", "get", keysFile, ...ns("count-keys")])
    expect(get.status).toBe(1)
    expect(get.stderr).toMatch(
      /^error: kv bulk get: bad-keys\.json: 75 invalid entries, nothing was read: .*; and 72 more problems \(--json lists every problem\)/
    )
  }, 30_000)
})
