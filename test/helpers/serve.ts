/**
 * `edgectl serve` as a child process over a state directory, and the environment that points the
 * CLI's `--remote` at it (CLOUDFLARE_API_BASE_URL and its token), the way scripts point wrangler.
 */
import { spawn } from "node:child_process"
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
    remoteEnv: () => ({
      CLOUDFLARE_API_BASE_URL: ready.baseUrl,
      CLOUDFLARE_API_TOKEN: ready.token,
      CLOUDFLARE_API_KEY: undefined,
      CLOUDFLARE_EMAIL: undefined
    }),
    close: () => {
      child.kill("SIGTERM")
    }
  }
}
