/**
 * `edgectl esc …` as a child process: every command with --json parsed and asserted, on the
 * embedded platform (its clock set with EDGECTL_PLATFORM_NOW) and with --remote against
 * `edgectl serve`; usage errors exit 2, bad input exits 1; a secret is never printed in full.
 */
import { spawn, type ChildProcess } from "node:child_process"
import * as readline from "node:readline"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bin, edgectl, json, tempDir, type Result } from "../helpers/cli.js"

const June2024 = { EDGECTL_PLATFORM_NOW: "2024-06-01T12:00:00Z" }
const SeededSecret = "acme-esc-preview-7Qx2"

interface Status {
  target: { kind: string; id: string; name: string; account?: { id: string; name: string } }
  state: string
  always: boolean
  secret: { masked: string; length: number } | null
  effect: string
  removal: { date: string; removed: boolean; days: number; now: string; summary: string }
  before?: { always: boolean; secret: unknown }
  cleared?: boolean
}
interface TestResult {
  zone: { name: string }
  cookie: string | null
  escRuns: boolean
  decidedBy: string | null
  applies: Array<string>
  reason: string
  zoneSetting: { state: string }
  accountSetting: { state: string }
  removal: { removed: boolean; days: number }
}

const leaks = (r: Result, secret: string) => r.stdout.includes(secret) || r.stderr.includes(secret)

describe("edgectl esc on the embedded platform", () => {
  let cwd: string
  const esc = (args: ReadonlyArray<string>, o: { input?: string; env?: Record<string, string | undefined> } = {}) =>
    edgectl(["esc", ...args], {
      cwd,
      env: { ...June2024, ...o.env },
      ...(o.input !== undefined ? { input: o.input } : {})
    })
  beforeAll(() => {
    cwd = tempDir()
  })

  it("get --zone: the setting with the secret masked, and the removal on the platform's clock", () => {
    const r = esc(["get", "--zone", "acme.com", "--json"])
    const s = json<Status>(r)
    expect(s.target).toMatchObject({ kind: "zone", name: "acme.com", account: { name: "Acme Corp" } })
    expect(s).toMatchObject({ state: "enabled", always: false, secret: { masked: "ac…x2", length: 21 } })
    expect(s.removal).toMatchObject({ date: "2025-01-01", removed: false, days: 213, now: "2024-06-01T12:00:00.000Z" })
    expect(leaks(r, SeededSecret)).toBe(false)
  })

  it("get prints fields for people, saying the removal is still ahead", () => {
    const r = esc(["get", "--zone", "acme-legacy.com"])
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^scope: +zone acme-legacy\.com \([0-9a-f]{32}\), account Acme Corp$/m)
    expect(r.stdout).toMatch(/^state: +disabled for all requests$/m)
    expect(r.stdout).toMatch(
      /^removal: +still honoured: ESC configuration is removed on 2025-01-01, in 6 months 30 days \(213 days\)/m
    )
  })

  it("get --account by name and by id", () => {
    const byName = json<Status>(esc(["get", "--account", "acme corp", "--json"]))
    expect(byName.target).toMatchObject({ kind: "account", name: "Acme Corp" })
    expect(byName.secret).toBeNull()
    expect(json<Status>(esc(["get", "--account", byName.target.id, "--json"]))).toEqual(byName)
  })

  it("disable --always, then --secret: the state table, secret masked everywhere", () => {
    const always = esc(["disable", "--zone", "acme.net", "--always"])
    expect(always.status).toBe(0)
    expect(always.stdout.split("\n")[0]).toBe("ESC is now off for every request of zone acme.net.")
    const secret = "Net-Secret-0042"
    const r = esc(["disable", "--zone", "acme.net", "--secret", secret, "--json"])
    expect(json<Status>(r)).toMatchObject({
      state: "disabled for all requests",
      always: true,
      secret: { masked: "Ne…42", length: 15 }
    })
    expect(leaks(r, secret)).toBe(false)
    const human = esc(["disable", "--zone", "acme.net", "--secret", secret])
    expect(human.stdout.split("\n")[0]).toBe(
      "Stored the secret Ne…42 (15 characters) for zone acme.net: requests carrying the cookie disable_esc=<secret> skip ESC."
    )
    expect(leaks(human, secret)).toBe(false)
  })

  it("disable --secret-stdin reads the secret from a pipe, on an account", () => {
    const secret = "piped-Secret-9"
    const r = esc(["disable", "--account", "Globex", "--secret-stdin", "--json"], { input: `${secret}\n` })
    expect(json<Status>(r)).toMatchObject({
      target: { kind: "account", name: "Globex" },
      secret: { masked: "pi…-9", length: 14 }
    })
    expect(leaks(r, secret)).toBe(false)
  })

  it("test --zone --cookie: which setting decided, with the cookie masked", () => {
    const r = esc(["test", "--zone", "acme.com", "--cookie", `session=abc; disable_esc=${SeededSecret}`, "--json"])
    const t = json<TestResult>(r)
    expect(t).toMatchObject({
      zone: { name: "acme.com" },
      escRuns: false,
      decidedBy: "zone-secret",
      applies: ["zone-secret"]
    })
    expect(t.cookie).toBe("session=abc; disable_esc=ac…x2")
    expect(leaks(r, SeededSecret)).toBe(false)
    const human = esc(["test", "--zone", "acme.com", "--cookie", `disable_esc=${SeededSecret}`])
    expect(human.stdout.split("\n")[0]).toBe(
      "ESC is OFF for this request to zone acme.com (Cookie: disable_esc=ac…x2)."
    )
    expect(human.stdout).toMatch(
      /^decided by: the zone's secret: the request's disable_esc cookie equals the zone's secret$/m
    )
  })

  it("test: a secret only works in its scope; no cookie means ESC runs", () => {
    const other = json<TestResult>(
      esc(["test", "--zone", "acme.org", "--cookie", `disable_esc=${SeededSecret}`, "--json"])
    )
    expect(other).toMatchObject({ escRuns: true, decidedBy: null })
    expect(other.reason).toMatch(/neither the zone nor its account has a secret/)
    const none = json<TestResult>(esc(["test", "--zone", "acme.com", "--json"]))
    expect(none).toMatchObject({ escRuns: true, cookie: null })
    expect(json<TestResult>(esc(["test", "--zone", "acme.com", "--cookie", " ", "--json"]))).toMatchObject({
      escRuns: true,
      cookie: null
    })
    const globex = json<TestResult>(
      esc(["test", "--zone", "globex.com", "--cookie", "disable_esc=piped-Secret-9", "--json"])
    )
    expect(globex).toMatchObject({ escRuns: false, decidedBy: "account-secret" })
    const human = esc(["test", "--zone", "acme.org"])
    expect(human.stdout.split("\n")[0]).toBe("ESC runs for this request to zone acme.org (no Cookie header).")
  })

  it("enable --only always keeps the secret; enable clears everything; again there is nothing to change", () => {
    const onlyAlways = json<Status>(esc(["enable", "--zone", "acme.net", "--only", "always", "--json"]))
    expect(onlyAlways).toMatchObject({
      state: "enabled",
      always: false,
      secret: { length: 15 },
      cleared: true,
      before: { always: true }
    })
    const all = esc(["enable", "--zone", "acme.net"])
    expect(all.stdout.split("\n")[0]).toBe(
      "Cleared the secret Ne…42 (15 characters) for zone acme.net. ESC runs for every request (nothing set)."
    )
    const again = json<Status>(esc(["enable", "--zone", "acme.net", "--json"]))
    expect(again).toMatchObject({ cleared: false, always: false, secret: null })
    expect(esc(["enable", "--zone", "acme.net"]).stdout.split("\n")[0]).toBe(
      "Nothing to change: zone acme.net had nothing set."
    )
  })

  it("replacements: every use case with product, phase, action and example", () => {
    const list = json<
      Array<{ useCase: string; product: string; phase: string | null; action: string | null; example: unknown }>
    >(esc(["replacements", "--json"]))
    expect(list.length).toBeGreaterThanOrEqual(12)
    expect(list.find((r) => r.useCase === "Rewrite SNI")).toMatchObject({
      product: "Origin Rules",
      phase: "http_request_origin",
      action: "route"
    })
    expect(list.find((r) => r.useCase === "Redirect on the origin's status code")).toMatchObject({
      phase: null,
      example: expect.stringContaining("Response.redirect")
    })
    const human = esc(["replacements"])
    expect(human.stdout.split("\n")[0]).toMatch(/^USE CASE\s+REPLACEMENT\s+PHASE\s+ACTION$/)
    expect(human.stdout).toContain("Example rules (rulesets API, in the phase above):")
    expect(human.stdout).toMatch(
      /^Request phases run in this order: http_request_sanitize, http_request_dynamic_redirect, /m
    )
  })

  it("usage errors exit 2 with one line", () => {
    const cases: Array<[Array<string>, string]> = [
      [["get"], "error: give the zone (--zone Z) or the account (--account A)"],
      [["get", "--zone", "acme.com", "--account", "Globex"], "error: give --zone or --account, not both"],
      [["disable", "--zone", "acme.com"], "error: say how to disable ESC: --always, --secret S or --secret-stdin"],
      [
        ["disable", "--zone", "acme.com", "--always", "--secret", "abcd"],
        "error: give one of --always, --secret and --secret-stdin, not several"
      ],
      [["enable", "--zone", ""], "error: --zone needs a value, got an empty string"]
    ]
    for (const [args, message] of cases) {
      const r = esc(args)
      expect(r.status, args.join(" ")).toBe(2)
      expect(r.stderr.trim(), args.join(" ")).toBe(message)
      expect(r.stdout).toBe("")
    }
    expect(esc(["enable", "--zone", "acme.com", "--only", "both"]).status).toBe(2)
    expect(esc(["test"]).status).toBe(2)
  })

  it("bad input exits 1 with the field, the limit and the size, never the secret", () => {
    const secret = "Z".repeat(101)
    const r = esc(["disable", "--zone", "acme.com", "--secret", secret])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(
      "error: esc disable: secret must be at most 100 characters, got 101 [code 1004]\n" +
        'hint: a secret is 1 to 100 characters: printable ASCII without space, ", comma, ; or \\\n'
    )
    const empty = esc(["disable", "--zone", "acme.com", "--secret-stdin"], { input: "\n" })
    expect(empty.status).toBe(1)
    expect(empty.stderr).toMatch(
      /^error: esc disable: secret must be 1 to 100 characters, got an empty string \[code 1004\]/
    )
    const zone = esc(["get", "--zone", "nope.example"])
    expect(zone.status).toBe(1)
    expect(zone.stderr).toMatch(
      /^error: esc get: no zone named nope\.example is visible to these credentials\nhint: run `edgectl zones list`/
    )
    const account = esc(["get", "--account", "Umbrella Partners"])
    expect(account.stderr).toMatch(/\nhint: run `edgectl accounts list`/)
    const clock = esc(["get", "--zone", "acme.com"], { env: { EDGECTL_PLATFORM_NOW: "yesterday" } })
    expect(clock.status).toBe(1)
    expect(clock.stderr).toMatch(
      /EDGECTL_PLATFORM_NOW must be an ISO 8601 instant such as 2024-06-01T12:00:00Z, got "yesterday"/
    )
  })

  it("on the real calendar ESC is already removed, and status says so while still managing it", () => {
    const s = json<Status>(esc(["get", "--zone", "acme.com", "--json"], { env: { EDGECTL_PLATFORM_NOW: undefined } }))
    expect(s.removal.removed).toBe(true)
    expect(s.removal.summary).toMatch(/^ESC configuration was removed on 2025-01-01, .* ago/)
    const human = esc(["get", "--zone", "acme.com"], { env: { EDGECTL_PLATFORM_NOW: undefined } })
    expect(human.stdout).toMatch(
      /^removal: +REMOVED on 2025-01-01, .* ago \(\d+ days\) on the platform's clock .*: no ESC runs any more; the settings can still be managed and tested$/m
    )
  })

  it("after the removal get and enable say ESC runs for no request (the TUI's sentence), text and --json", () => {
    const after = { env: { EDGECTL_PLATFORM_NOW: "2026-01-01T00:00:00Z" } }
    const removedCwd = tempDir()
    const inRemoved = (args: ReadonlyArray<string>) => edgectl(["esc", ...args], { cwd: removedCwd, env: after.env })
    const secretSentence =
      "ESC is removed: it runs for no request. As set, it would run, except with a disable_esc cookie equal to the secret ac…x2 (21 characters)"
    const get = inRemoved(["get", "--zone", "acme.com"])
    expect(get.status).toBe(0)
    expect(get.stdout).toMatch(new RegExp(`^effect: +${secretSentence.replace(/[.()]/g, "\\$&")}$`, "m"))
    expect(get.stdout).not.toMatch(/(^|: *)ESC runs\b/m)
    expect(json<Status>(inRemoved(["get", "--zone", "acme.com", "--json"])).effect).toBe(secretSentence)
    const nothing = "ESC is removed: it runs for no request. As set, it would run for every request (nothing set)"
    const cleared = inRemoved(["enable", "--zone", "acme.com"])
    expect(cleared.status).toBe(0)
    expect(cleared.stdout.split("\n")[0]).toBe(
      `Cleared the secret ac…x2 (21 characters) for zone acme.com. ${nothing}.`
    )
    expect(cleared.stdout).not.toMatch(/(^|: *)ESC runs\b/m)
    const again = json<Status>(inRemoved(["enable", "--zone", "acme.com", "--json"]))
    expect(again.effect).toBe(nothing)
    // Before the removal the sentence is the one that was true then.
    expect(json<Status>(esc(["get", "--zone", "acme-legacy.com", "--json"])).effect).toBe(
      "ESC is off for every request"
    )
  })
})

describe("edgectl esc --remote against edgectl serve", () => {
  let child: ChildProcess
  let env: Record<string, string | undefined>

  beforeAll(async () => {
    child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", "--persist-to", tempDir()], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...June2024 }
    })
    const lines = readline.createInterface({ input: child.stdout! })
    const ready = await new Promise<{ baseUrl: string; token: string }>((resolve, reject) => {
      lines.once("line", (l) => resolve(JSON.parse(l) as { baseUrl: string; token: string }))
      child.once("exit", (code) => reject(new Error(`serve exited with ${code}`)))
    })
    // The CLI's own process has no clock override: the removal must come from the platform's Date header.
    env = { CLOUDFLARE_API_BASE_URL: ready.baseUrl, CLOUDFLARE_API_TOKEN: ready.token, EDGECTL_PLATFORM_NOW: undefined }
  })
  afterAll(() => {
    child?.kill("SIGTERM")
  })

  const remote = (args: ReadonlyArray<string>, input?: string) =>
    edgectl(["esc", ...args, "--remote"], { env, ...(input !== undefined ? { input } : {}) })

  it("get, disable, test and enable work unchanged over HTTP, on the served platform's clock", () => {
    const before = json<Status>(remote(["get", "--zone", "initech.com", "--json"]))
    expect(before).toMatchObject({ state: "enabled", secret: null })
    expect(before.removal).toMatchObject({ removed: false, days: 213 })
    expect(json<Status>(remote(["disable", "--account", "Initech", "--always", "--json"]))).toMatchObject({
      always: true,
      target: { kind: "account" }
    })
    const t = json<TestResult>(remote(["test", "--zone", "initech.com", "--json"]))
    expect(t).toMatchObject({
      escRuns: false,
      decidedBy: "account-always",
      accountSetting: { state: "disabled for all requests" }
    })
    const r = remote(["disable", "--zone", "initech.com", "--secret-stdin", "--json"], "Remote-Secret-77")
    expect(json<Status>(r).secret).toEqual({ masked: "Re…77", length: 16 })
    expect(leaks(r, "Remote-Secret-77")).toBe(false)
    const both = json<TestResult>(
      remote(["test", "--zone", "initech.com", "--cookie", "disable_esc=Remote-Secret-77", "--json"])
    )
    expect(both.applies).toEqual(["account-always", "zone-secret"])
    expect(json<Status>(remote(["enable", "--account", "Initech", "--json"]))).toMatchObject({
      state: "enabled",
      cleared: true
    })
    expect(
      json<TestResult>(remote(["test", "--zone", "initech.com", "--cookie", "disable_esc=Remote-Secret-77", "--json"]))
    ).toMatchObject({
      escRuns: false,
      decidedBy: "zone-secret"
    })
    expect(json<Status>(remote(["enable", "--zone", "initech.com", "--json"]))).toMatchObject({ secret: null })
  })

  it("an account-scoped token cannot see another account's settings", () => {
    const r = edgectl(["esc", "get", "--zone", "initech.com", "--remote"], {
      env: { ...env, CLOUDFLARE_API_TOKEN: "edgectl-acme-corp-account-token-00000000" }
    })
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/^error: esc get: no zone named initech\.com is visible to these credentials/)
  })
})
