/**
 * `edgectl firewall migrate --replay` as a child process on the embedded platform: the zone now and
 * the zone as the migration leaves it, both whole (a custom rule the migration keeps decides on both
 * sides); after an apply, the journal's "before" against the zone now (a change made since shows),
 * and nothing to compare without the journal (exit 1); a file of no request (empty,
 * or every line bad) is exit 1 with the reason; bad lines are counted with the first reasons; the
 * file is read from `-`, /dev/stdin and a FIFO as from a path.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import type { ZoneRule } from "../../src/domain/ruleset.js"
import { bin, edgectl, edgectlAsync, json, root, tempDir } from "../helpers/cli.js"

const traffic = path.join(root, "fixtures/firewall/custom-rules-traffic.jsonl")
const zone = ["--zone", "acme-mail.com"]

const cli = (cwd: string) => (args: ReadonlyArray<string>, input?: string) =>
  edgectl(args, { cwd, ...(input !== undefined ? { input } : {}) })

interface Report {
  file: string
  compared: string
  requests: number
  agreed: number
  decided: { before: Record<string, number>; after: Record<string, number> }
  disagreements: Array<{ id: string; before: { action: string | null }; after: { action: string | null } }>
}

const addInboxBlock = (run: ReturnType<typeof cli>) =>
  json<{ id: string }>(
    run([
      "custom-rules",
      "add",
      ...zone,
      "--expression",
      'http.request.uri.path eq "/inbox"',
      "--action",
      "block",
      "--description",
      "block the inbox",
      "--json"
    ])
  )

describe("firewall migrate --replay: what is compared", () => {
  it("a custom rule the migration keeps runs on both sides: its block is counted before and after", () => {
    const run = cli(tempDir("edgectl-replay-"))
    addInboxBlock(run)
    const r = run(["firewall", "migrate", ...zone, "--replay", traffic])
    expect([r.status, r.stderr]).toEqual([0, ""])
    expect(r.stdout.split("\n").slice(0, 3)).toEqual([
      `Replay of ${traffic}: the zone now (before) against the zone as the migration leaves it (after)`,
      "29 request(s): 29 decided alike, 0 differently (action 0, skipped 0, logged 0)",
      "decided: before: 3 allow, 5 block, 1 challenge, 1 js_challenge, 2 managed_challenge, 17 none; after: 3 allow, 5 block, 1 challenge, 1 js_challenge, 2 managed_challenge, 17 none"
    ])
    const report = json<Report>(run(["firewall", "migrate", ...zone, "--replay", traffic, "--json"]))
    expect([report.file, report.compared, report.decided.before.block, report.decided.after.block]).toEqual([
      traffic,
      "planned",
      5,
      5
    ])
  })

  it("after an apply: the journal's before against the zone now (a rule changed since shows); without the journal, nothing to compare (exit 1)", () => {
    const dir = tempDir("edgectl-replay-")
    const run = cli(dir)
    expect(run(["firewall", "migrate", ...zone, "--yes"]).status).toBe(0)
    const office = json<Array<ZoneRule>>(run(["custom-rules", "list", ...zone, "--json"])).find(
      (c) => c.description === "allow office network"
    )!
    expect(run(["custom-rules", "update", ...zone, office.id, "--action", "block"]).status).toBe(0)

    const r = run(["firewall", "migrate", ...zone, "--replay", traffic, "--json"])
    expect([r.status, r.stderr]).toEqual([
      1,
      "firewall migrate --replay: 3 request(s) of " + traffic + " decided differently\n"
    ])
    const report = JSON.parse(r.stdout) as Report & {
      disagreements: Array<{ id: string; before: { action: string }; after: { action: string } }>
    }
    expect(report.compared).toBe("journal")
    expect(report.disagreements.map((d) => [d.id, d.before.action, d.after.action])).toEqual([
      ["office-login", "allow", "block"],
      ["office-admin", "allow", "block"],
      ["old-browser-office", "allow", "block"]
    ])

    fs.rmSync(path.join(dir, ".edgectl", "state", "migrations"), { recursive: true })
    const none = run(["firewall", "migrate", ...zone, "--replay", traffic])
    expect([none.status, none.stdout]).toEqual([1, ""])
    expect(none.stderr).toBe(
      `error: firewall migrate --replay: nothing to compare: the zone's firewall rules were migrated and no journal of the migration's "before" is kept\n`
    )
  })
})

describe("firewall migrate --replay: the traffic file", () => {
  const dir = tempDir("edgectl-replay-files-")
  const run = cli(dir)
  const sh = (script: string, input: string) => {
    const r = spawnSync("sh", ["-c", script, "sh", input, process.execPath, bin], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1" },
      encoding: "utf8",
      timeout: 60_000
    })
    return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }
  }
  const file = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text)
    return path.join(dir, name)
  }

  it("a file of no request is exit 1 with the reason: empty, only comments, every line bad", () => {
    for (const [text, why] of [
      ["", "0 lines"],
      ["# nothing\n\n", "2 lines, only blank lines and comments"],
      ['# two bad lines\n{nope\n[1]\n{"http.request.uri.path": 5}\n', "4 lines, 3 not read: line 2: not JSON: "]
    ] as const) {
      const f = file(`t${text.length}.jsonl`, text)
      const r = run(["firewall", "migrate", ...zone, "--replay", f])
      expect([r.status, r.stdout]).toEqual([1, ""])
      expect(r.stderr).toMatch(
        new RegExp(
          `^error: firewall migrate --replay: ${f}: no request to replay \\(${why.replace(/[()[\]]/g, "\\$&")}`
        )
      )
      expect(r.stderr.trim().split("\n")).toHaveLength(1)
    }
  })

  it("bad lines: the count, then the first three with their reason, as warning lines", () => {
    const good = fs.readFileSync(traffic, "utf8")
    const f = file("some-bad.jsonl", `${good}{nope\n[1]\n"x"\n{\n`)
    const r = run(["firewall", "migrate", ...zone, "--replay", f])
    expect(r.status).toBe(0)
    expect(r.stdout).toContain("29 request(s): 29 decided alike")
    const n = good.split("\n").length
    expect(r.stderr.split("\n")).toEqual([
      "warning: 4 lines not read",
      expect.stringMatching(new RegExp(`^warning: line ${n}: not JSON: `)),
      `warning: line ${n + 1}: expected a JSON object (a request, or {id, request})`,
      `warning: line ${n + 2}: expected a JSON object (a request, or {id, request})`,
      ""
    ])
  })

  it("reads - and /dev/stdin as it reads a path, and names them", () => {
    for (const name of ["-", "/dev/stdin"]) {
      // Through a shell's pipe, as a user writes it (a pipe, not the socket a spawn gives).
      const r = sh(`cat "$1" | "$2" "$3" firewall migrate --zone acme-mail.com --replay ${name}`, traffic)
      expect([r.status, r.stderr]).toEqual([0, ""])
      expect(r.stdout.split("\n").slice(0, 2)).toEqual([
        `Replay of ${name}: the zone now (before) against the zone as the migration leaves it (after)`,
        "29 request(s): 29 decided alike, 0 differently (action 0, skipped 0, logged 0)"
      ])
    }
    const empty = run(["firewall", "migrate", ...zone, "--replay", "-"], "")
    expect([empty.status, empty.stderr]).toEqual([
      1,
      "error: firewall migrate --replay: -: no request to replay (0 lines)\n"
    ])
  })

  it("reads a FIFO to its end as its writer writes it", async () => {
    const fifo = path.join(dir, "traffic.fifo")
    execFileSync("mkfifo", [fifo])
    const writer = spawn("sh", ["-c", 'cat "$1" > "$2"', "sh", traffic, fifo], { stdio: "ignore", timeout: 20_000 })
    const written = new Promise((resolve) => writer.on("close", resolve))
    const r = await edgectlAsync(["firewall", "migrate", ...zone, "--replay", fifo], { cwd: dir })
    expect(await written).toBe(0)
    expect([r.status, r.stderr]).toEqual([0, ""])
    expect(r.stdout).toContain(`Replay of ${fifo}: `)
    expect(r.stdout).toContain("29 request(s): 29 decided alike")
  })
})
