/**
 * The harness of the migration fault tests: an embedded platform behind a fault proxy
 * (./fault-proxy.ts), a home of its own per case (its `$XDG_STATE_HOME` keeps the `--remote`
 * journals), and the CLI run with `--remote` through the proxy (or straight to the platform, for
 * the reads that check), as a process to await or to signal. Closed after each test.
 */
import { spawn } from "node:child_process"
import * as path from "node:path"
import { afterEach } from "vitest"
import { bin, edgectlAsync, tempDir } from "./cli.js"
import { startFaultProxy, type Fault, type FaultProxy } from "./fault-proxy.js"
import { startPlatform, World, type Platform } from "./platform.js"

export interface FaultCtx {
  readonly platform: Platform
  readonly proxy: FaultProxy
  readonly home: string
}

/** Registers the cleanup; call once at the top of a test file. */
export const remoteFaults = (prefix: string) => {
  const open: Array<FaultCtx> = []
  /** Closes every case's proxy and platform (after each test, or early in a `beforeAll`). */
  const closeAll = async () => {
    for (const c of open.splice(0)) {
      await c.proxy.close()
      await c.platform.close()
    }
  }
  afterEach(closeAll)

  const setup = async (at?: number, fault?: Fault): Promise<FaultCtx> => {
    const platform = await startPlatform()
    const proxy = await startFaultProxy(platform.baseUrl, {
      ...(at !== undefined ? { at } : {}),
      ...(fault ? { fault } : {})
    })
    const ctx = { platform, proxy, home: tempDir(prefix) }
    open.push(ctx)
    return ctx
  }

  const env = (c: FaultCtx, direct: boolean) => ({
    CLOUDFLARE_API_BASE_URL: direct ? c.platform.baseUrl : c.proxy.baseUrl,
    CLOUDFLARE_API_TOKEN: World.allToken,
    CLOUDFLARE_API_KEY: undefined,
    CLOUDFLARE_EMAIL: undefined,
    XDG_STATE_HOME: path.join(c.home, "state"),
    HOME: c.home
  })

  /** The CLI through the proxy (`direct`: to the platform itself, for the reads that check). */
  const cli = (c: FaultCtx, args: ReadonlyArray<string>, direct = false) =>
    edgectlAsync([...args, "--remote"], { cwd: c.home, env: env(c, direct) })

  /** The CLI as a child process, to signal it during a stalled request. */
  const spawnCli = (c: FaultCtx, args: ReadonlyArray<string>) => {
    const e: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...env(c, false) }
    for (const k of Object.keys(e)) if (e[k] === undefined) delete e[k]
    const child = spawn(process.execPath, [bin, ...args, "--remote"], { cwd: c.home, env: e as NodeJS.ProcessEnv })
    let stderr = ""
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    child.stdout.resume()
    const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
      child.on("close", (code) => resolve({ code, stderr }))
    )
    return { child, exited }
  }

  /** The directory of the `--remote` journals of a case. */
  const journals = (c: FaultCtx) => path.join(c.home, "state", "edgectl", "migrations")

  return { setup, cli, spawnCli, journals, closeAll }
}
