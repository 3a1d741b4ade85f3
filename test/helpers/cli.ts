/** Runs the built CLI (bin/edgectl.cjs) as a child process, the way users and scripts do. */
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export const root = path.resolve(import.meta.dirname, "../..")
export const bin = path.join(root, "bin", "edgectl.cjs")
/** The version package.json gives: what `--version`, the language server and SARIF must report. */
export const packageVersion: string = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version

export interface Result {
  readonly status: number
  readonly stdout: string
  readonly stderr: string
}

export const tempDir = (prefix = "edgectl-cli-") => fs.mkdtempSync(path.join(os.tmpdir(), prefix))

export const edgectl = (
  args: ReadonlyArray<string>,
  opts: { cwd?: string; env?: Record<string, string | undefined>; input?: string } = {}
): Result => {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...opts.env }
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k]
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: opts.cwd ?? tempDir(),
    env: env as NodeJS.ProcessEnv,
    input: opts.input ?? "",
    encoding: "utf8",
    timeout: 60_000
  })
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }
}

/**
 * `edgectl` without blocking the test worker (spawnSync holds its event loop for the whole run,
 * which starves the worker's reports to vitest when a test runs many commands).
 */
export const edgectlAsync = (
  args: ReadonlyArray<string>,
  opts: {
    cwd?: string
    env?: Record<string, string | undefined>
    input?: string
    timeout?: number
    killSignal?: NodeJS.Signals
  } = {}
): Promise<Result> => {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...opts.env }
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k]
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: opts.cwd ?? tempDir(),
      env: env as NodeJS.ProcessEnv,
      timeout: opts.timeout ?? 60_000,
      killSignal: opts.killSignal ?? "SIGTERM"
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    child.on("error", reject)
    child.on("close", (code) => resolve({ status: code ?? -1, stdout, stderr }))
    child.stdin.end(opts.input ?? "")
  })
}

export const json = <A = unknown>(r: Result): A => {
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`)
  return JSON.parse(r.stdout) as A
}

/**
 * A bash line in `cwd`, `$EDGECTL` standing for the built CLI: for pipes, FIFOs, process
 * substitutions (`<(…)`), `/dev/full` and closed descriptors (`>&-`), as a script uses them.
 */
export const shell = (script: string, cwd: string): Promise<Result> =>
  new Promise((resolve, reject) => {
    const line = script.replaceAll("$EDGECTL", `"${process.execPath}" "${bin}"`)
    const env = { ...process.env, NO_COLOR: "1" } as NodeJS.ProcessEnv
    const child = spawn("bash", ["-c", line], { cwd, env, timeout: 60_000, killSignal: "SIGKILL" })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    child.on("error", reject)
    child.on("close", (code) => resolve({ status: code ?? -1, stdout, stderr }))
    child.stdin.end()
  })
