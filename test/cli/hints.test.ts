/**
 * The `hint:` line fits the target (local or --remote, with the flags that reach it) and the object
 * that was not found; local failures carry no platform code. Through the built CLI.
 */
import { spawn, type ChildProcess } from "node:child_process"
import * as readline from "node:readline"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, edgectlAsync, tempDir } from "../helpers/cli.js"

const lines = (s: string) => s.split("\n").filter((l) => l !== "")
const Acme = "5695e8989c1e97cc561b69214d99843a"
const NoSuchId = "0123456789abcdef0123456789abcdef"

describe("hints on the local platform", () => {
  let dir: string
  beforeAll(() => {
    dir = tempDir()
  })
  const run = (...args: Array<string>) => edgectlAsync([...args, "--persist-to", dir])

  it("an unknown rule, filter or override id points at the zone's rules, filters or overrides", async () => {
    const rule = await run("firewall", "rules", "get", "--zone", "acme.com", NoSuchId)
    expect(rule.status).toBe(1)
    expect(lines(rule.stderr)).toEqual([
      `error: firewall rules get: Could not route to /zones/${Acme}/firewall/rules/${NoSuchId}, perhaps your object identifier is invalid? [code 7003]`,
      `hint: run \`edgectl firewall rules list --zone ${Acme} --persist-to ${dir}\` to see the ids there are`
    ])
    const filter = await run("firewall", "filters", "delete", "--zone", "acme.com", NoSuchId, "--yes")
    expect(filter.status).toBe(1)
    expect(lines(filter.stderr)[1]).toBe(
      `hint: run \`edgectl firewall filters list --zone ${Acme} --persist-to ${dir}\` to see the ids there are`
    )
    const override = await run("waf", "overrides", "delete", "--zone", "acme.com", NoSuchId, "--yes")
    expect(override.status).toBe(1)
    expect(lines(override.stderr)).toEqual([
      `error: waf overrides delete: override ${NoSuchId} not found in this zone [code 7003]`,
      `hint: run \`edgectl waf overrides list --zone acme.com --persist-to ${dir}\` to see the ids there are`
    ])
  })

  it("an unknown zone points at the local platform's zones", async () => {
    const r = await run("zones", "get", "nosuch.example")
    expect(r.status).toBe(1)
    expect(lines(r.stderr)[1]).toBe(
      `hint: run \`edgectl zones list --persist-to ${dir}\` to see the zones of the local platform`
    )
  })

  it("an invalid invite id never points at CLOUDFLARE_API_BASE_URL locally", async () => {
    for (const id of ["", "..", "a/b"]) {
      const r = await run("invites", "accept", id)
      expect(r.status).toBe(1)
      expect(lines(r.stderr).length).toBeLessThanOrEqual(2)
      expect(r.stderr).not.toMatch(/CLOUDFLARE_|network/)
    }
    const dots = await run("invites", "accept", "..")
    expect(lines(dots.stderr)).toEqual(['error: invites accept: id: ".." is not an id'])
  })

  it("a state directory that cannot be created gets a --persist-to hint, no network hint and no code", async () => {
    // /sys refuses new directories to every user, root included (chmod does not stop root).
    const r = await edgectlAsync(["zones", "list", "--persist-to", "/sys/edgectl-state"])
    expect(r.status).toBe(1)
    const [error, hint, ...rest] = lines(r.stderr)
    expect(error).toMatch(
      /^error: zones list: the local platform could not start: cannot create \/sys\/edgectl-state: .*(EPERM|EACCES|EROFS)/
    )
    expect(error).not.toContain("[code")
    expect(hint).toBe(
      "hint: the state directory must be a directory edgectl can write: pick another with --persist-to DIR"
    )
    expect(rest).toEqual([])
  })

  it("--remote without credentials names the variables, with no code (no platform answered)", async () => {
    const r = await edgectlAsync(["zones", "list", "--remote"], {
      env: { CLOUDFLARE_API_TOKEN: undefined, CLOUDFLARE_API_KEY: undefined, CLOUDFLARE_EMAIL: undefined }
    })
    expect(r.status).toBe(1)
    expect(lines(r.stderr)).toEqual([
      "error: zones list: --remote needs credentials: set CLOUDFLARE_API_TOKEN, or CLOUDFLARE_API_KEY and CLOUDFLARE_EMAIL"
    ])
  })
})

describe("hints with --remote (against edgectl serve)", () => {
  let child: ChildProcess
  let baseUrl: string
  let token: string
  beforeAll(async () => {
    child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", tempDir()], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    const ready = await new Promise<{ baseUrl: string; token: string }>((resolve) =>
      readline.createInterface({ input: child.stdout! }).once("line", (l) => resolve(JSON.parse(l)))
    )
    baseUrl = ready.baseUrl
    token = ready.token
  })
  afterAll(() => {
    child.kill("SIGTERM")
  })

  it("a rejected key pair names CLOUDFLARE_API_KEY and CLOUDFLARE_EMAIL, not the token", async () => {
    const r = await edgectlAsync(["zones", "list", "--remote"], {
      env: {
        CLOUDFLARE_API_BASE_URL: baseUrl,
        CLOUDFLARE_API_TOKEN: undefined,
        CLOUDFLARE_API_KEY: "not-a-known-key",
        CLOUDFLARE_EMAIL: "nobody@example.com"
      }
    })
    expect(r.status).toBe(1)
    expect(lines(r.stderr)).toEqual([
      "error: zones list: Unknown X-Auth-Key or X-Auth-Email [code 9103]",
      "hint: the platform does not know this key pair: check CLOUDFLARE_API_KEY and CLOUDFLARE_EMAIL"
    ])
  })

  it("a rejected token names CLOUDFLARE_API_TOKEN", async () => {
    const r = await edgectlAsync(["zones", "list", "--remote"], {
      env: { CLOUDFLARE_API_BASE_URL: baseUrl, CLOUDFLARE_API_TOKEN: "unknown-token-0000000000000000000000000" }
    })
    expect(lines(r.stderr)[1]).toBe("hint: the platform does not know this token: check CLOUDFLARE_API_TOKEN")
  })

  it("suggested commands carry --remote", async () => {
    const env = { CLOUDFLARE_API_BASE_URL: baseUrl, CLOUDFLARE_API_TOKEN: token }
    const rule = await edgectlAsync(["firewall", "rules", "get", "--zone", "acme.com", NoSuchId, "--remote"], { env })
    expect(lines(rule.stderr)[1]).toBe(
      `hint: run \`edgectl firewall rules list --zone ${Acme} --remote\` to see the ids there are`
    )
    const zone = await edgectlAsync(["zones", "get", "nosuch.example", "--remote"], { env })
    expect(lines(zone.stderr)[1]).toBe("hint: run `edgectl zones list --remote` to see what these credentials can see")
  })
})
