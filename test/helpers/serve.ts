/**
 * `edgectl serve` as a child process over a state directory, and the environment that points the
 * CLI's `--remote` at it (CLOUDFLARE_API_BASE_URL and its token), the way scripts point wrangler.
 */
import { spawn } from "node:child_process"
import * as path from "node:path"
import * as readline from "node:readline"
import { bin } from "./cli.js"

export interface Served {
  readonly baseUrl: string
  readonly token: string
  /** The environment of a `--remote` command talking to this server (no other credentials). */
  readonly remoteEnv: () => Record<string, string | undefined>
  readonly close: () => void
}

/** `args`: more options of `serve` (`--legacy-apis ended`). */
export const startServe = async (stateDir: string, args: ReadonlyArray<string> = []): Promise<Served> => {
  const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", stateDir, ...args], {
    stdio: ["ignore", "pipe", "pipe"]
  })
  const lines = readline.createInterface({ input: child.stdout })
  const ready = await new Promise<{ baseUrl: string; token: string }>((resolve, reject) => {
    lines.once("line", (l) => resolve(JSON.parse(l) as { baseUrl: string; token: string }))
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}`)))
  })
  return {
    ...ready,
    // `--remote` journals go to $XDG_STATE_HOME, keyed by account and zone: the demo world's ids are
    // the same on every served platform, so each one gets its own, beside its state.
    remoteEnv: () => ({
      CLOUDFLARE_API_BASE_URL: ready.baseUrl,
      CLOUDFLARE_API_TOKEN: ready.token,
      CLOUDFLARE_API_KEY: undefined,
      CLOUDFLARE_EMAIL: undefined,
      XDG_STATE_HOME: path.join(stateDir, "xdg-state")
    }),
    close: () => {
      child.kill("SIGTERM")
    }
  }
}
