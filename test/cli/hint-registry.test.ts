/**
 * Every command the CLI can suggest, collected from the code: each `edgectl <command>` written in
 * a message of src (the TUI and the language server have their own tests) is a site of the
 * registry below, and the registry is exactly those sites, so a new suggestion cannot be added
 * without saying how it keeps its target. A site that suggests a command line is run: the
 * scenario makes the CLI print it on a state directory given with --persist-to, and the printed
 * command is run as printed from another directory (where a command without the flag would make
 * a fresh demo state and fail). Templates (`'...'`, `<action>`) are checked for the flag only.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { edgectlAsync, root, tempDir, type Result } from "../helpers/cli.js"

const Commands = new Set(["zones", "dns", "certs", "accounts", "invites", "rules", "kv", "esc", "firewall"])
for (const c of ["custom-rules", "waf", "objects", "check", "migrate", "lsp", "serve", "tui"]) Commands.add(c)

/** `file: edgectl <two words>` for every suggestion written in src outside comments. */
const scanSites = (): Set<string> => {
  const walk = (d: string): Array<string> =>
    fs
      .readdirSync(d, { withFileTypes: true })
      .flatMap((e) =>
        e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith(".ts") ? [path.join(d, e.name)] : []
      )
  const sites = new Set<string>()
  for (const file of walk(path.join(root, "src"))) {
    const rel = path.relative(root, file)
    if (rel.startsWith("src/tui/") || rel.startsWith("src/lsp/")) continue
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      if (/^\s*(\*|\/\/|\/\*\*)/.test(line)) continue
      for (const m of line.matchAll(/edgectl ((?:[a-z][a-z-]*)(?: [a-z][a-z-]*)?)/g))
        if (Commands.has(m[1]!.split(" ")[0]!)) sites.add(`${rel}: edgectl ${m[1]}`)
    }
  }
  return sites
}

type How =
  /** Run by a scenario of this file (or of hint-targets.test.ts: `elsewhere`). */
  | { readonly run: ReadonlyArray<string> }
  /** A command that acts on no platform: the same on every target. */
  | { readonly free: string }
  /** Names a command, not a command line to run (a pointer in prose, a pattern). */
  | { readonly pointer: string }
  /** Carries the target but no scenario here makes the CLI print it yet. */
  | { readonly notRun: string }

const registry: Record<string, How> = {
  "src/cli/commands/custom-rules/run.ts: edgectl custom-rules list": { run: ["custom-rules unknown id"] },
  "src/cli/commands/custom-rules/run.ts: edgectl zones list": { run: ["custom-rules unknown zone"] },
  "src/cli/commands/custom-rules/run.ts: edgectl custom-rules add": { run: ["custom-rules none"] },
  "src/cli/commands/custom-rules/run.ts: edgectl firewall migrate": { run: ["custom-rules none"] },
  "src/cli/commands/firewall/filters-run.ts: edgectl firewall filters": { run: ["firewall filters none"] },
  "src/cli/commands/firewall/filters-run.ts: edgectl firewall rules": { run: ["firewall filter created"] },
  "src/cli/commands/firewall/hints.ts: edgectl firewall rules": { run: ["firewall duplicate filter"] },
  "src/cli/commands/firewall/hints.ts: edgectl firewall filters": {
    notRun: "a quota refusal that left its filter (hint-targets.test.ts runs the quota hints on a full zone)"
  },
  "src/cli/commands/firewall/hints.ts: edgectl custom-rules list": {
    notRun: "the custom rules' quota during a migration (hint-targets.test.ts)"
  },
  "src/cli/commands/firewall/hints.ts: edgectl rules check": { free: "checks an expression offline" },
  "src/cli/commands/firewall/index.ts: edgectl rules check": { free: "a command's description" },
  "src/cli/commands/firewall/rules-run.ts: edgectl firewall rules": { run: ["firewall rules none"] },
  "src/cli/commands/firewall/rules-run.ts: edgectl firewall filters": { run: ["firewall rule deleted"] },
  "src/cli/commands/invites.ts: edgectl invites list": { run: ["invites unknown"] },
  "src/cli/commands/kv/common.ts: edgectl kv namespace": { run: ["kv namespace unknown", "kv namespace taken"] },
  "src/cli/commands/objects/live.ts: edgectl objects": { pointer: "a pattern of the commands a host runs" },
  "src/cli/commands/objects/missing.ts: edgectl objects list": {
    notRun: "more missing objects than a message shows (objects tests)"
  },
  "src/cli/commands/objects/missing.ts: edgectl objects kv": { run: ["objects none"] },
  "src/cli/commands/objects/run.ts: edgectl objects restore": { run: ["objects undo"] },
  "src/cli/commands/rules.ts: edgectl rules": { free: "the rules language's help" },
  "src/cli/commands/serve.ts: edgectl zones list": { free: "prints its own --remote and the environment it needs" },
  "src/cli/commands/waf/migrate.ts: edgectl waf migrate": { run: ["waf migrate validation"] },
  "src/cli/commands/waf/run.ts: edgectl waf overrides": { run: ["waf override unknown"] },
  "src/cli/commands/waf/run.ts: edgectl waf preview": { notRun: "a zone over the platform's limits" },
  "src/cli/commands/waf/run.ts: edgectl waf status": { run: ["waf migrate finished"] },
  "src/cli/commands/waf/run.ts: edgectl waf check": { notRun: "an incompatible zone" },
  "src/cli/hints.ts: edgectl firewall rules": { run: ["firewall rule unknown"] },
  "src/cli/hints.ts: edgectl firewall filters": { run: ["firewall filter unknown"] },
  "src/cli/hints.ts: edgectl waf overrides": { notRun: "an override path not found (waf run.ts answers first)" },
  "src/cli/hints.ts: edgectl invites list": { notRun: "invites.ts gives its own hint first" },
  "src/cli/hints.ts: edgectl kv namespace": { notRun: "kv/common.ts gives its own hint first" },
  "src/cli/hints.ts: edgectl accounts list": { run: ["account unknown"] },
  "src/cli/hints.ts: edgectl kv key": { notRun: "a KV write that got no answer (test/cli/kv-remote.test.ts)" },
  "src/cli/hints.ts: edgectl custom-rules list": { notRun: "a custom rules write that got no answer" },
  "src/cli/hints.ts: edgectl zones list": { run: ["zone unknown"] },
  "src/esc/removal.ts: edgectl esc replacements": { free: "prints the replacements, the same on every target" },
  "src/objects/owner-lock.ts: edgectl objects dev": { pointer: "names the host process" },
  "src/rules/parse-state.ts: edgectl rules check": { free: "checks an expression offline" },
  "src/server/errors.ts: edgectl serve": { pointer: "the prefix of serve's log line names the process" },
  "src/server/firewall-checks.ts: edgectl firewall filters": { pointer: "the platform's answer names the command" },
  "src/cli/commands/dns-writes.ts: edgectl dns list": {
    notRun: "a DNS record id the zone does not have (test/cli/dns-writes.test.ts)"
  },
  "src/cli/commands/dns-writes.ts: edgectl dns delete": {
    notRun: "a delete off a terminal without --yes (test/cli/dns-writes.test.ts)"
  },
  "src/cli/commands/kv/compare-run.ts: edgectl kv clear": {
    notRun: "a clear off a terminal without --yes (test/cli/kv-lifecycle.test.ts)"
  },
  "src/cli/commands/kv/lifecycle-run.ts: edgectl kv export": {
    notRun: "a stopped or missing remote export (test/cli/kv-lifecycle-remote.test.ts resumes one)"
  },
  "src/cli/commands/kv/lifecycle-run.ts: edgectl kv import": {
    notRun: "a remote import stopped half way (test/cli/kv-lifecycle-remote.test.ts resumes one)"
  },
  "src/server/upstream.ts: edgectl serve": { pointer: "names the proxy in its 502 answer, not a command line" },
  "src/services/lockdown-ua-migration-service.ts: edgectl firewall lockdowns": {
    notRun: "a stopped Zone Lockdown migration (test/legacy/lockdown-migrate.test.ts checks its hint with --remote)"
  },
  "src/services/rate-limit-migration-service.ts: edgectl firewall rate-limits": {
    notRun: "a stopped rate limit migration (test/legacy/rate-limit-migrate.test.ts checks its hint with --remote)"
  },
  "src/services/zone-migration-parts.ts: edgectl migrate": {
    notRun: "a stopped migrate --zone (test/migrations/zone-migrate.test.ts checks its hint with --remote)"
  },
  "src/services/zone-migration-replay.ts: edgectl waf replay": {
    pointer: "the umbrella's replay report names the WAF's own replay command"
  },
  "src/services/custom-rules-migration-service.ts: edgectl firewall migrate": {
    notRun: "printed when a migration stops (the fault tests of test/migrations run them)"
  },
  "src/services/waf-migration-run.ts: edgectl waf migrate": {
    notRun: "printed when a migration stops (the fault tests of test/migrations run them)"
  },
  "src/waf/mapping.ts: edgectl waf overrides": { pointer: "the preview's reason names the command to use" }
}

describe("the registry of suggested commands", () => {
  it("is every suggestion written in src", () => {
    expect([...scanSites()].sort()).toEqual(Object.keys(registry).sort())
  })
})

const state = tempDir("edgectl-hint-registry-")
const local = ["--persist-to", state]
const flag = `--persist-to ${state}`
const zone = "acme-api.com"

/** Every `edgectl …` command in `text`: up to a backtick, `;`, `)` or the end of the line. */
const printed = (text: string): Array<string> => [...text.matchAll(/edgectl [^`;)\n]+/g)].map((m) => m[0].trim())

/** Runs a printed command from a directory of its own: exit 0, no state made there. */
const runsAsPrinted = async (command: string) => {
  const cwd = tempDir("edgectl-hint-registry-cwd-")
  const args = command.slice("edgectl ".length).split(" ")
  let r = await edgectlAsync(args, { cwd })
  // A command that changes something asks first; off a terminal it refuses, having found its
  // object on the target: confirmed, it runs.
  if (r.status === 1 && r.stderr.includes("without a confirmation")) r = await edgectlAsync([...args, "--yes"], { cwd })
  expect([command, r.status, r.stderr]).toEqual([command, 0, expect.not.stringContaining("error:")])
  expect(fs.existsSync(path.join(cwd, ".edgectl"))).toBe(false)
}

/**
 * Each scenario: the commands to run before (their stdout goes to `args` when it is a function),
 * the command that prints the suggestion, and its exit.
 */
const scenarios: Record<
  string,
  {
    readonly before?: ReadonlyArray<ReadonlyArray<string>>
    readonly args: ReadonlyArray<string> | ((before: ReadonlyArray<string>) => ReadonlyArray<string>)
    readonly exit: number
  }
> = {
  "custom-rules unknown id": { args: ["custom-rules", "delete", "nope", "--zone", zone], exit: 1 },
  "custom-rules unknown zone": { args: ["custom-rules", "list", "--zone", "nope.example"], exit: 1 },
  "custom-rules none": { args: ["custom-rules", "list", "--zone", zone], exit: 0 },
  "firewall filters none": { args: ["firewall", "filters", "list", "--zone", "acme-assets.net"], exit: 0 },
  "firewall filter created": {
    args: ["firewall", "filters", "create", "--zone", "acme-assets.net", "--expression", "ip.src eq 192.0.2.10"],
    exit: 0
  },
  "firewall duplicate filter": {
    before: [["firewall", "filters", "create", "--zone", "globex.io", "--expression", "ip.src eq 192.0.2.11"]],
    args: [
      "firewall",
      "rules",
      "create",
      "--zone",
      "globex.io",
      "--expression",
      "ip.src eq 192.0.2.11",
      "--action",
      "block"
    ],
    exit: 1
  },
  "firewall rules none": { args: ["firewall", "rules", "list", "--zone", zone], exit: 0 },
  "firewall rule deleted": {
    before: [
      [
        "firewall",
        "rules",
        "create",
        "--zone",
        "globex.io",
        "--expression",
        "ip.src eq 192.0.2.12",
        "--action",
        "block"
      ]
    ],
    args: ([created]) => [
      "firewall",
      "rules",
      "delete",
      /and rule (\w+)/.exec(created!)![1]!,
      "--zone",
      "globex.io",
      "--yes"
    ],
    exit: 0
  },
  "firewall rule unknown": { args: ["firewall", "rules", "get", "nope", "--zone", zone], exit: 1 },
  "firewall filter unknown": { args: ["firewall", "filters", "get", "nope", "--zone", zone], exit: 1 },
  "invites unknown": { args: ["invites", "accept", "nope"], exit: 1 },
  "kv namespace unknown": {
    args: ["kv", "namespace", "delete", "--namespace-id", "0".repeat(32), "--yes"],
    exit: 1
  },
  "kv namespace taken": {
    before: [["kv", "namespace", "create", "taken"]],
    args: ["kv", "namespace", "create", "taken"],
    exit: 1
  },
  "objects none": { args: ["objects", "kv", "Counter", "nope", "get", "k"], exit: 1 },
  "objects undo": {
    before: [
      ["objects", "kv", "Counter", "c1", "put", "k", "v"],
      ["objects", "bookmark", "Counter", "c1"]
    ],
    args: ([, bookmark]) => ["objects", "restore", "Counter", "c1", "--bookmark", bookmark!.trim()],
    exit: 0
  },
  "waf override unknown": { args: ["waf", "overrides", "delete", "nope", "--zone", "acme.com", "--yes"], exit: 1 },
  "waf migrate validation": { args: ["waf", "migrate", "--zone", zone, "--mode", "validation", "--yes"], exit: 0 },
  "waf migrate finished": {
    before: [["waf", "migrate", "--zone", "globex.net", "--mode", "pending", "--yes"]],
    args: ["waf", "migrate", "--zone", "globex.net", "--mode", "pending", "--yes"],
    exit: 1
  },
  "account unknown": { args: ["zones", "list", "--account-id", "Umbrella"], exit: 1 },
  "zone unknown": { args: ["zones", "get", "nope.example"], exit: 1 }
}

describe("every suggested command runs as printed on the target of the command that printed it", () => {
  it("every scenario the registry names is here", () => {
    const named = Object.values(registry).flatMap((h) => ("run" in h ? h.run : []))
    expect([...new Set(named)].sort()).toEqual(Object.keys(scenarios).sort())
  })

  for (const [name, s] of Object.entries(scenarios))
    it(
      name,
      async () => {
        const outs: Array<string> = []
        for (const b of s.before ?? []) {
          const r = await edgectlAsync([...b, ...local], { cwd: state })
          expect([b.join(" "), r.status]).toEqual([b.join(" "), 0])
          outs.push(r.stdout)
        }
        const args = typeof s.args === "function" ? s.args(outs) : s.args
        const r: Result = await edgectlAsync([...args, ...local], { cwd: state })
        expect([r.status, r.stderr]).toEqual([s.exit, expect.anything()])
        const commands = printed(`${r.stdout}\n${r.stderr}`)
        expect(commands, `${r.stdout}${r.stderr}`).not.toEqual([])
        for (const command of commands) {
          expect(command, `${r.stdout}${r.stderr}`).toContain(flag)
          if (!/'\.\.\.'|<\w+>|\bCLASS\b/.test(command)) await runsAsPrinted(command)
        }
      },
      120_000
    )
})
