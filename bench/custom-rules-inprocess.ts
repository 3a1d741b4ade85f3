// The migration of firewall rules to custom rules, in one process: migrating a zone of 1,000
// firewall rules (target < 100 ms), and replaying traffic through the zone before and after
// (target >= 20,000 requests/s, JSON lines parsed included) for the demo zone, 200 rules (the
// firewall's list-order limit) and the 1,000 rules; and, since the demo traffic matches none of the
// 1,000 rules and each of them has a key for the evaluators' index (src/rules/rule-index.ts), the
// 1,000 rules with a tenth of them keyless, replaying traffic of which most requests match a rule.
// bench/firewall.bench.mjs bundles this file with esbuild and runs it with plain node.
//
// What the profiles said (node --cpu-prof on this bundle, callgrind for instruction counts):
// - Replay, 1,000 rules, before the index: the compiled expressions' closures (`ev` of compile.ts,
//   the replay's `once`) were ~60% of the time: each request ran every rule's expression, since the
//   demo traffic matches none of the 1,000 rules and nothing ends the loop early. Since then the
//   evaluators look rules up by the keys their expressions require (src/rules/rule-index.ts); what
//   is left is the line itself (JSON.parse, derived header fields, validateRequest: ~70%) and the
//   lookups. With keyless rules (the "a tenth keyless" row) each request still runs those 100.
// - Migration, first call (~110 ms against ~14 ms warm): nearly all of it is check() of the 1,000
//   expressions (lexer and parser) before V8 has optimised them; with --no-opt the first call's CPU
//   time halves, so about half is TurboFan compiling the parser (on another thread, so it adds to
//   the wall time only on a busy machine). Lazy tables are small: the first one-rule call is ~14M
//   instructions (~3 ms). Reading operators without the symbol tables took the first call from
//   905M to 811M instructions (a warm call is ~235M).
//
//   node <bundle> RULES.json TRAFFIC.jsonl [--quick]      prints one JSON line
import * as fs from "node:fs"
import type { Rule } from "../src/domain/firewall.js"
import { makeMigrationReplayer } from "../src/firewall/custom-rules-replay.js"
import { migrateFirewallRules } from "../src/firewall/custom-rules.js"

const [rulesFile, trafficFile] = process.argv.slice(2)
const quick = process.argv.includes("--quick")
const demo = JSON.parse(fs.readFileSync(rulesFile!, "utf8")) as Array<Rule>
const lines = fs
  .readFileSync(trafficFile!, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "" && !l.startsWith("#"))

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d
const now = () => Number(process.hrtime.bigint()) / 1e6

const actions = ["block", "challenge", "js_challenge", "managed_challenge", "allow", "log", "bypass"]
const products = ["zoneLockdown", "uaBlock", "bic", "hot", "securityLevel", "rateLimit", "waf"]
const thousand: Array<Rule> = Array.from({ length: 1000 }, (_, i) => ({
  id: `rule${String(i).padStart(4, "0")}`,
  paused: i % 17 === 0,
  description: `rule ${i}`,
  action: actions[i % actions.length]!,
  priority: i % 4 === 0 ? null : (i * 7919) % 500,
  ...(i % actions.length === 6 ? { products: [products[i % products.length]!, "waf"] } : {}),
  filter: {
    id: `filter${i}`,
    paused: false,
    expression: `(http.request.uri.path contains "/area-${i}/" and ip.src in {198.51.${i % 250}.0/24}) or (http.host eq "h${i}.acme-mail.com" and http.user_agent contains "bot-${i}")`
  }
}))

// Rules whose expression has no key for the index (only `contains`): always evaluated.
const someKeyless: Array<Rule> = thousand.map((r, i) =>
  i % 10 === 5
    ? {
        ...r,
        filter: {
          ...r.filter,
          expression: `http.request.uri.path contains "/area-${i}/" and http.user_agent contains "bot-${i}"`
        } as Rule["filter"]
      }
    : r
)
// Requests that match the rules: in a rule's block with its path, on its host with its agent, or neither.
const hitting = Array.from({ length: 997 }, (_, j) => {
  const i = (j * 37) % 1000
  const request =
    j % 3 === 0
      ? { "http.host": "acme-mail.com", "http.request.uri.path": `/area-${i}/x`, "ip.src": `198.51.${i % 250}.7` }
      : j % 3 === 1
        ? { "http.host": `h${i}.acme-mail.com`, "http.request.uri.path": "/", "ip.src": "192.0.2.1" }
        : { "http.host": "acme-mail.com", "http.request.uri.path": `/area-${i}/`, "ip.src": "203.0.113.9" }
  const headers = { "user-agent": [j % 2 === 0 ? `bot-${i}` : "Mozilla/5.0"] }
  return JSON.stringify({ id: `hit${j}`, request: { ...request, "http.request.headers": headers } })
})

const migrate = () => {
  const times: Array<number> = []
  let rules = 0
  for (let r = 0; r < (quick ? 5 : 11); r++) {
    const t0 = now()
    rules += migrateFirewallRules(thousand, { plan: "enterprise" }).rules.length
    times.push(now() - t0)
  }
  if (rules === 0) throw new Error("nothing was migrated")
  return { rules: thousand.length, ms: round(median(times)), first: round(times[0]!) }
}

const replay = (rules: ReadonlyArray<Rule>, n: number, traffic: ReadonlyArray<string> = lines) => {
  const migration = migrateFirewallRules(rules, { plan: "enterprise" })
  // The zone before (its firewall rules, no custom rule) and after (the custom rules written, the
  // firewall rules they replace paused), as `firewall migrate --replay` compares them.
  const migrated = new Set(migration.entries.filter((e) => e.custom_rule !== null).map((e) => e.firewall_rule))
  const before = { firewallRules: rules, customRules: [] }
  const after = {
    firewallRules: rules.map((r) => (migrated.has(r.id) ? { ...r, paused: true } : r)),
    customRules: migration.rules
  }
  const rounds: Array<number> = []
  let disagreements = 0
  for (let r = 0; r < 5; r++) {
    const replayer = makeMigrationReplayer(before, after, { keep: 0 })
    const t0 = now()
    for (let i = 0; i < n; i++) replayer.line(traffic[i % traffic.length]!, i + 1)
    rounds.push(now() - t0)
    const report = replayer.report()
    if (report.requests !== n) throw new Error(`replayed ${report.requests} of ${n} requests`)
    disagreements = report.requests - report.agreed
  }
  const ms = median(rounds)
  return { rules: rules.length, requests: n, requestsPerSecond: Math.round((n / ms) * 1000), disagreements }
}

const result = {
  migrate: migrate(),
  replayDemo: replay(demo, quick ? 20_000 : 100_000),
  replayLimit: replay(thousand.slice(0, 200), quick ? 5_000 : 20_000),
  replayThousand: replay(thousand, quick ? 2_000 : 10_000),
  replayHitting: replay(someKeyless, quick ? 2_000 : 10_000, hitting)
}
process.stdout.write(`${JSON.stringify(result)}\n`)
