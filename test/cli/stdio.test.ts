/**
 * What a command prints reaches its reader whole, in order, wherever stdout goes: a pipe, a file, a
 * FIFO read slowly, a pipe another program left non-blocking, a reader that stops early, a terminal.
 * Commands write to the descriptors themselves until Node's stream objects exist (src/cli/stdio.ts),
 * so each way is checked through the built CLI, as shells and scripts use it.
 */
import { execFileSync, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { bin, edgectlAsync, tempDir, type Result } from "../helpers/cli.js"
import { PtyTui } from "../helpers/pty.js"

const state = tempDir("edgectl-stdio-state-")
const cwd = tempDir("edgectl-stdio-")
const env = { ...process.env, NO_COLOR: "1" } as NodeJS.ProcessEnv
const stateArgs = ["--persist-to", state]
/** A value of 4 MiB, bigger than any pipe's buffer, that the reader must get byte for byte. */
const big = Buffer.alloc(4 << 20, "0123456789abcdef")
const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex")

/** A shell line, `$EDGECTL` the CLI; killed after 30 s (a write that blocks forever fails the test). */
const bash = (script: string): Promise<Result & { readonly out: Buffer }> =>
  new Promise((resolve, reject) => {
    const line = script.replaceAll("$EDGECTL", `"${process.execPath}" "${bin}"`)
    const child = spawn("bash", ["-c", line], { cwd, env, timeout: 30_000, killSignal: "SIGKILL" })
    const out: Array<Buffer> = []
    let stderr = ""
    child.stdout.on("data", (d: Buffer) => out.push(d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    child.on("error", reject)
    child.on("close", (code) => {
      const all = Buffer.concat(out)
      resolve({ status: code ?? -1, stdout: all.toString("utf8"), stderr, out: all })
    })
    child.stdin.end()
  })

const getBig = `$EDGECTL kv key get big --namespace-id ns --persist-to "${state}"`

beforeAll(async () => {
  fs.writeFileSync(path.join(cwd, "big.txt"), big)
  const put = await edgectlAsync([
    "kv",
    "key",
    "put",
    "big",
    "--path",
    path.join(cwd, "big.txt"),
    "--namespace-id",
    "ns",
    ...stateArgs
  ])
  expect(put.status, put.stderr).toBe(0)
}, 60_000)

describe("stdout", () => {
  it("is the same text through a pipe, a file and a FIFO", async () => {
    const piped = await edgectlAsync(["zones", "list", "--json", ...stateArgs])
    expect(piped.status, piped.stderr).toBe(0)
    expect(JSON.parse(piped.stdout).length).toBeGreaterThan(0)
    const file = path.join(cwd, "zones.json")
    const toFile = await bash(`$EDGECTL zones list --json --persist-to "${state}" > "${file}"`)
    expect(toFile.status, toFile.stderr).toBe(0)
    expect(fs.readFileSync(file, "utf8")).toBe(piped.stdout)
    const fifo = path.join(cwd, "zones.fifo")
    execFileSync("mkfifo", [fifo])
    const viaFifo = await bash(`cat "${fifo}" & $EDGECTL zones list --json --persist-to "${state}" > "${fifo}"; wait`)
    expect(viaFifo.status, viaFifo.stderr).toBe(0)
    expect(viaFifo.stdout).toBe(piped.stdout)
  }, 60_000)

  it("gives a 4 MiB value whole to a reader that starts late, through a pipe and a FIFO", async () => {
    const late = await bash(`${getBig} | (sleep 0.5; cat)`)
    expect(late.status, late.stderr).toBe(0)
    expect(late.out.length).toBe(big.length)
    expect(sha(late.out)).toBe(sha(big))
    const fifo = path.join(cwd, "big.fifo")
    execFileSync("mkfifo", [fifo])
    const viaFifo = await bash(`(sleep 0.5; cat "${fifo}") & ${getBig} > "${fifo}"; wait`)
    expect(viaFifo.status, viaFifo.stderr).toBe(0)
    expect(sha(viaFifo.out)).toBe(sha(big))
  }, 60_000)

  it("gives a 4 MiB value whole through a pipe another program made non-blocking (EAGAIN)", async () => {
    // python3 is on every machine that builds better-sqlite3 (node-gyp); it sets O_NONBLOCK on the
    // pipe and then becomes edgectl, whose writes then meet EAGAIN once the pipe is full.
    const nonBlocking =
      "import fcntl, os, sys; fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_NONBLOCK); os.execv(sys.argv[1], sys.argv[1:])"
    const r = await bash(
      `python3 -c '${nonBlocking}' "${process.execPath}" "${bin}" kv key get big --namespace-id ns --persist-to "${state}" | (sleep 0.5; cat)`
    )
    expect(r.stderr).toBe("")
    expect(r.status).toBe(0)
    expect(sha(r.out)).toBe(sha(big))
  }, 60_000)

  it("ends quietly when the reader stops early (EPIPE): exit 0, nothing on stderr", async () => {
    const r = await bash(`${getBig} | head -c 10; echo "status \${PIPESTATUS[0]}" >&2`)
    expect(r.stdout).toBe(big.subarray(0, 10).toString("utf8"))
    expect(r.stderr).toBe("status 0\n")
  }, 60_000)
})

describe("a table", () => {
  it("has a bold header on a terminal and none through a pipe", async () => {
    const piped = await edgectlAsync(["zones", "list", ...stateArgs], { env: { NO_COLOR: undefined } })
    expect(piped.status, piped.stderr).toBe(0)
    expect(piped.stdout.startsWith("ID ")).toBe(true)
    expect(piped.stdout).not.toContain("\u001b[")
    const tty = await PtyTui.start({
      // Tall enough for the whole list: the check waits for the first zone on the screen.
      columns: 120,
      rows: 60,
      command: ["zones", "list"],
      args: stateArgs,
      env: { NO_COLOR: undefined },
      ready: "acme-api.com"
    })
    expect(tty.raw).toContain("\u001b[1mID ")
    await tty.close()
  }, 60_000)
})

describe("output that cannot be written", () => {
  const local = `--persist-to "${state}"`
  const lines = [
    `zones list ${local}`,
    `zones list --json ${local}`,
    `dns list acme-api.com ${local}`,
    `esc replacements`,
    `check --format sarif a.rules`
  ].map((l) => `$EDGECTL ${l}`)

  beforeAll(() => fs.writeFileSync(path.join(cwd, "a.rules"), 'http.host eq "a.com"\n'))

  it("to a full disk (/dev/full) fails the command: exit 1, one line naming why", async () => {
    for (const line of lines) {
      const r = await bash(`${line} > /dev/full`)
      expect([line, r.status, r.stderr]).toEqual([line, 1, "error: cannot write the output: no space left on device\n"])
    }
  }, 120_000)

  it("to a closed stdout (>&-) fails the command: exit 1, one line naming why", async () => {
    for (const line of lines) {
      const r = await bash(`${line} >&-`)
      expect([line, r.status, r.stderr]).toEqual([
        line,
        1,
        "error: cannot write the output: standard output is closed\n"
      ])
    }
  }, 120_000)

  it("to /dev/null is no failure, nor is a reader that leaves (| head -1)", async () => {
    for (const line of lines) {
      const devNull = await bash(`${line} > /dev/null`)
      expect([line, devNull.status, devNull.stderr]).toEqual([line, 0, ""])
      const head = await bash(`${line} | head -1 >/dev/null; echo "status \${PIPESTATUS[0]}" >&2`)
      expect([line, head.stderr]).toEqual([line, "status 0\n"])
    }
  }, 120_000)
})
