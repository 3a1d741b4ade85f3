/**
 * `edgectl tui`'s target flags, read as every command reads them (src/cli/run.ts) and refused on a
 * terminal before the screen opens: `--remote` without credentials says which variables to set, in
 * the words of the client's own check (src/api/target.ts `remoteCredentials`), and `--remote
 * --local` is a usage error.
 */
import { afterEach, describe, expect, it } from "vitest"
import { PtyTui } from "../helpers/pty.js"

const noCredentials = { CLOUDFLARE_API_TOKEN: undefined, CLOUDFLARE_API_KEY: undefined, CLOUDFLARE_EMAIL: undefined }

const started: Array<PtyTui> = []
afterEach(async () => {
  for (const t of started.splice(0)) await t.close()
})

/** Runs `edgectl tui ARGS` on a terminal until it exits; its exit code and what it printed. */
const refused = async (args: ReadonlyArray<string>, env: Record<string, string | undefined>) => {
  const tui = await PtyTui.start({ columns: 100, rows: 24, args, env, ready: "" })
  started.push(tui)
  const code = await tui.exit()
  return { code, text: tui.raw.replace(/\r/g, "") }
}

describe("edgectl tui: the target", () => {
  it("refuses --remote without credentials, naming the variables, before the screen opens", async () => {
    const r = await refused(["--remote"], noCredentials)
    expect(r.code).toBe(1)
    expect(r.text).toContain(
      "error: tui: --remote needs credentials: set CLOUDFLARE_API_TOKEN, or CLOUDFLARE_API_KEY and CLOUDFLARE_EMAIL"
    )
  })

  it("takes a key only with its email, as every other command does", async () => {
    const r = await refused(["--remote"], { ...noCredentials, CLOUDFLARE_API_KEY: "k".repeat(37) })
    expect(r.code).toBe(1)
    expect(r.text).toContain("error: tui: --remote needs credentials")
  })

  it("refuses --remote with --local as a usage error", async () => {
    const r = await refused(["--remote", "--local"], noCredentials)
    expect(r.code).toBe(2)
    expect(r.text).toContain("error: --remote and --local cannot be used together")
  })
})
