/**
 * A command a hint or a message suggests runs as printed on the failed command's platform: it
 * carries `--persist-to DIR` (or `--remote`). Each suggestion here is taken from the output and run
 * from another directory, where a command without the flag would make a fresh demo state and fail.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { spawn, type ChildProcess } from "node:child_process"
import * as readline from "node:readline"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, edgectlAsync, tempDir, type Result } from "../helpers/cli.js"

const state = tempDir("edgectl-hint-state-")
const local = ["--persist-to", state]
const zone = "acme-api.com"

/** The command after `marker` in `text`: up to a closing backtick, or to the end of the line. */
const suggested = (text: string, marker: string, flag = `--persist-to ${state}`): Array<string> => {
  const at = text.indexOf(marker)
  expect(at, `${marker} in ${text}`).toBeGreaterThanOrEqual(0)
  const rest = text.slice(at + marker.length)
  const command = (rest.startsWith("`") ? rest.slice(1, rest.indexOf("`", 1)) : rest.split("\n")[0]!).trim()
  expect(command.startsWith("edgectl ")).toBe(true)
  expect(command).toContain(flag)
  return command.slice("edgectl ".length).split(" ")
}

/** Runs a suggested command from a directory of its own: exit 0, and no state made there. */
const runsAsPrinted = async (
  args: ReadonlyArray<string>,
  env: Record<string, string | undefined> = {}
): Promise<Result> => {
  const cwd = tempDir("edgectl-hint-cwd-")
  const r = await edgectlAsync(args, { cwd, env })
  expect([args.join(" "), r.status, r.stderr]).toEqual([args.join(" "), 0, expect.not.stringContaining("error:")])
  expect(fs.existsSync(path.join(cwd, ".edgectl"))).toBe(false)
  return r
}

describe("a suggested command carries --persist-to", () => {
  it("custom-rules: an unknown id's hint lists the zone's custom rules", async () => {
    const r = await edgectlAsync(["custom-rules", "delete", "nope", "--zone", zone, ...local])
    expect(r.status).toBe(1)
    await runsAsPrinted(suggested(r.stderr, "hint: see the ids with "))
  }, 60_000)

  it("invites: an unknown invite's hint lists the invites", async () => {
    const r = await edgectlAsync(["invites", "accept", "nope", ...local])
    expect(r.status).toBe(1)
    await runsAsPrinted(suggested(r.stderr, "hint: run "))
  }, 60_000)

  it("firewall: a duplicate filter's hint creates the rule on it", async () => {
    const expression = "ip.src eq 192.0.2.77"
    const f = await edgectlAsync([
      "firewall",
      "filters",
      "create",
      "--zone",
      zone,
      "--expression",
      expression,
      ...local
    ])
    expect(f.status, f.stderr).toBe(0)
    // The message of a created filter suggests using it: the flag is there too.
    suggested(f.stdout, "Use it: ")
    const r = await edgectlAsync([
      "firewall",
      "rules",
      "create",
      "--zone",
      zone,
      "--expression",
      expression,
      "--action",
      "block",
      ...local
    ])
    expect(r.status).toBe(1)
    const created = await runsAsPrinted(suggested(r.stderr, "hint: reuse it: "))
    expect(created.stdout).toContain("block")
  }, 60_000)

  it("objects: a missing object's hint writes one in the same state", async () => {
    const r = await edgectlAsync(["objects", "kv", "Room", "nope", "get", "k", ...local])
    expect(r.status).toBe(1)
    const args = suggested(r.stderr, "; ").map((a) =>
      a === "CLASS" ? "Room" : a === "NAME" ? "r1" : a === "KEY" ? "k" : a === "VALUE" ? "v" : a
    )
    await runsAsPrinted(args)
    const got = await edgectlAsync(["objects", "kv", "Room", "r1", "get", "k", ...local])
    expect([got.status, got.stdout.trim()]).toEqual([0, "v"])
  }, 60_000)

  it("waf: validation mode names the command that finishes it, on the same state", async () => {
    const r = await edgectlAsync(["waf", "migrate", "--zone", zone, "--mode", "validation", "--yes", ...local])
    expect(r.status, r.stderr).toBe(0)
    // Finishing is irreversible and asks for a confirmation: its dry run shows it acts on this state.
    const finish = suggested(r.stdout, "Finish with ")
    const dry = await runsAsPrinted([...finish, "--dry-run"])
    expect(dry.stdout).toContain("Dry run")
  }, 60_000)
})

describe("a suggested command carries --remote (against edgectl serve)", () => {
  let child: ChildProcess
  let env: Record<string, string>
  beforeAll(async () => {
    child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", tempDir()], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    const ready = await new Promise<{ baseUrl: string; token: string }>((resolve) =>
      readline.createInterface({ input: child.stdout! }).once("line", (l) => resolve(JSON.parse(l)))
    )
    env = { CLOUDFLARE_API_BASE_URL: ready.baseUrl, CLOUDFLARE_API_TOKEN: ready.token }
  }, 60_000)
  afterAll(() => {
    child.kill("SIGTERM")
  })

  it("a duplicate filter's hint and an unknown custom rule's hint run on the same platform", async () => {
    const expression = "ip.src eq 192.0.2.78"
    const create = ["firewall", "filters", "create", "--zone", zone, "--expression", expression, "--remote"]
    const first = await edgectlAsync(create, { env })
    expect(first.status, first.stderr).toBe(0)
    const again = await edgectlAsync(create, { env })
    expect(again.status).toBe(1)
    const reuse = suggested(again.stderr, "hint: reuse it: ", "--remote").map((a) => (a === "<action>" ? "log" : a))
    await runsAsPrinted(reuse, env)
    const r = await edgectlAsync(["custom-rules", "delete", "nope", "--zone", zone, "--remote"], { env })
    expect(r.status).toBe(1)
    await runsAsPrinted(suggested(r.stderr, "hint: see the ids with ", "--remote"), env)
  }, 60_000)
})
