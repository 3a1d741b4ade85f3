/** Runs the built CLI (bin/edgectl.mjs) as a child process, the way users and scripts do. */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export const root = path.resolve(import.meta.dirname, "..")
export const bin = path.join(root, "bin", "edgectl.mjs")

export interface Result {
  readonly status: number
  readonly stdout: string
  readonly stderr: string
}

export const tempDir = (prefix = "edgectl-cli-") => fs.mkdtempSync(path.join(os.tmpdir(), prefix))

export const edgectl = (args: ReadonlyArray<string>, opts: { cwd?: string; env?: Record<string, string | undefined>; input?: string } = {}): Result => {
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

export const json = <A = unknown>(r: Result): A => {
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`)
  return JSON.parse(r.stdout) as A
}
