// The WAF migration in one process: config generation for a zone with 200 firewall rules that
// bypass the WAF (target < 50 ms) and traffic replay throughput (target >= 20,000 requests/s on
// one core), the whole line path: JSON parse, request check, both WAF versions.
// bench/waf.bench.mjs bundles this file with esbuild and runs it with plain node.
//
//   node <bundle> [--quick]      prints one JSON line
import type { BypassFirewallRule, PreviousWaf } from "../src/domain/waf.js"
import { guardRegexBacktracking } from "../src/rules/index.js"
import { PREVIOUS_OWASP_PACKAGE } from "../src/waf/catalog.js"
import { planMigration } from "../src/waf/mapping.js"
import { makeReplayer } from "../src/waf/replay.js"
import { groupsOf, packagesOf, rulesOf } from "../src/waf/view.js"

const quick = process.argv.includes("--quick")
const release = guardRegexBacktracking()
const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d
let seed = 7
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(rand() * xs.length)]!

const fwExpression = (i: number) => {
  switch (i % 5) {
    case 0:
      return `starts_with(http.request.uri.path, "/hooks/${i}/") and http.request.method eq "POST"`
    case 1:
      return `ip.src in {192.0.${i % 250}.0/24 198.51.100.${i % 250}} and http.host eq "svc${i}.example.com"`
    case 2:
      return `http.request.uri.path matches "^/api/v[0-9]+/partner${i}/" and not http.user_agent contains "curl"`
    case 3:
      return `any(http.request.headers["x-partner-key"][*] eq "k-${i}") or http.request.uri.query contains "token=${i}"`
    default:
      return `http.host wildcard "*.tenant${i}.example.com" and http.request.uri.path.extension in {"json" "xml"}`
  }
}
const firewallRules: Array<BypassFirewallRule> = Array.from({ length: 200 }, (_, i) => ({
  id: `fw${i}`,
  expression: fwExpression(i),
  action: "bypass",
  products: ["waf"],
  priority: i,
  paused: false,
  description: `partner ${i}`
}))
const settings = {
  packages: new Map([[PREVIOUS_OWASP_PACKAGE, { sensitivity: "high" as const, action_mode: "block" as const }]]),
  groups: new Map(),
  rules: new Map<string, any>([
    ["100043A", "disable"],
    ["100000", "simulate"]
  ])
}
const previous: PreviousWaf = {
  waf: "on",
  packages: packagesOf("z", settings),
  groups: groupsOf(settings),
  rules: rulesOf(settings),
  overrides: [],
  firewall_rules: firewallRules,
  page_rules: [
    {
      id: "p1",
      targets: [{ target: "url", constraint: { operator: "matches", value: "bench.example.com/legacy/*" } }],
      actions: [{ id: "waf", value: "off" }],
      priority: 1,
      status: "active"
    }
  ]
}

// 1. Config generation (check of every firewall expression included).
planMigration(previous)
const genRuns = quick ? 15 : 60
const gen: Array<number> = []
for (let i = 0; i < genRuns; i++) {
  const t = performance.now()
  const plan = planMigration(previous)
  gen.push(performance.now() - t)
  if (plan.config.rules.length !== 203) throw new Error(`expected 203 rules, got ${plan.config.rules.length}`)
}

// 2. Replay: a traffic file of mixed benign and attack requests, as JSONL text.
const paths = [
  "/",
  "/search",
  "/products/42",
  "/api/v2/items",
  "/static/app.js",
  "/login",
  "/admin/reports",
  "/hooks/3/x",
  "/wp-config.php",
  "/.git/HEAD",
  "/index.action"
]
const queries = [
  "",
  "q=red+shoes",
  "page=2&sort=price",
  "id=1+union+select+2",
  "text=%3Cscript%3Ealert(1)%3C/script%3E",
  "next=javascript:x",
  "f=../../etc/passwd",
  "redirect:http://evil/"
]
const agents = [
  "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0",
  "curl/8.5.0",
  "okhttp/4.12",
  "${jndi:ldap://x/a}",
  "sqlmap/1.7"
]
const count = quick ? 20_000 : 100_000
const lines = Array.from({ length: count }, (_, i) =>
  JSON.stringify({
    "http.request.method": pick(["GET", "GET", "GET", "POST"]),
    "http.host": pick(["bench.example.com", "svc7.example.com", "www.bench.example.com"]),
    "http.request.uri.path": pick(paths),
    "http.request.uri.query": pick(queries),
    "ip.src": `203.0.113.${i % 250}`,
    "http.request.headers": rand() < 0.1 ? { accept: ["*/*"] } : { "user-agent": [pick(agents)], accept: ["text/html"] }
  })
)
const config = planMigration(previous).config
const rounds = quick ? 3 : 5
const rates: Array<number> = []
let disagreements = 0
for (let r = 0; r < rounds; r++) {
  const replayer = makeReplayer(previous, config)
  const t = performance.now()
  for (let i = 0; i < lines.length; i++) replayer.line(lines[i]!, i + 1)
  const ms = performance.now() - t
  const rep = replayer.report()
  if (rep.requests !== count || rep.problems.length > 0)
    throw new Error(`replay read ${rep.requests} of ${count} (${rep.problems[0]?.message})`)
  disagreements = rep.counts["new-only"] + rep.counts["previous-only"] + rep.counts["different-action"]
  rates.push((count / ms) * 1000)
}
release()
process.stdout.write(
  `${JSON.stringify({
    config: {
      firewallRules: 200,
      generatedRules: 203,
      medianMs: round(median(gen)),
      maxMs: round(Math.max(...gen)),
      targetMs: 50
    },
    replay: {
      requests: count,
      rounds,
      medianPerSecond: Math.round(median(rates)),
      minPerSecond: Math.round(Math.min(...rates)),
      disagreements,
      target: 20_000
    }
  })}\n`
)
