// The rules language, in one process: check of a ~4,000-character expression, evaluation of one
// compiled expression per request, and a 200-rule firewall decision per request.
// bench/rules.bench.mjs bundles this file with esbuild and runs it with plain node.
//
//   node <bundle> [--quick]      prints one JSON line
import {
  check,
  compile,
  firewall,
  guardRegexBacktracking,
  type FirewallAction,
  type FirewallRule
} from "../src/rules/index.js"

const quick = process.argv.includes("--quick")
const release = guardRegexBacktracking()

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const percentile = (xs: ReadonlyArray<number>, p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d

// A deterministic pseudo-random source, so that every run measures the same work.
let seed = 42
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(rand() * xs.length)]!

// ---------------------------------------------------------------------------------------------
// 1. check() of a ~4,000-character expression (managed-rule style), each variant with its own
//    regexes so that the regex cache does not help.

const clause = (i: number, v: number) => {
  switch (i % 8) {
    case 0:
      return `http.request.uri.path matches r"^/api/v${v}/(users|orders)/[0-9]+$"`
    case 1:
      return `ip.src in {192.0.2.0/24 198.51.100.${v % 250}/32 2001:db8:${(v % 9000).toString(16)}::/48 203.0.113.1..203.0.113.99}`
    case 2:
      return `any(http.request.headers["x-forwarded-host"][*] contains "evil${v}.example")`
    case 3:
      return `lower(http.user_agent) contains "sqlmap/${v}"`
    case 4:
      return `http.request.method in {"POST" "PUT" "PATCH" "DELETE"}`
    case 5:
      return `not ip.src.country in {"US" "CA" "GB" "DE" "FR"}`
    case 6:
      return `cf.bot_management.score lt ${v % 99} and not cf.bot_management.verified_bot`
    default:
      return `http.host wildcard "*.shop${v}.example.com"`
  }
}
const bigExpression = (v: number) => {
  const parts: Array<string> = []
  let i = 0
  let text = ""
  while (text.length < 3900) {
    parts.push(i % 3 === 2 ? `(${clause(i, v + i)} or ${clause(i + 3, v)})` : clause(i, v + i))
    text = parts.join(" and ")
    i++
  }
  return text
}
const variants = Array.from({ length: quick ? 200 : 1000 }, (_, v) => bigExpression(v))
for (const e of variants) {
  const r = check(e)
  if (!r.valid) throw new Error(`bench expression is invalid: ${JSON.stringify(r.diagnostics[0])}`)
}
const checkTimes: Array<number> = []
for (const e of variants) {
  const t0 = process.hrtime.bigint()
  check(e)
  checkTimes.push(Number(process.hrtime.bigint() - t0) / 1e6)
}
const checkResult = {
  characters: Math.round(variants.reduce((n, e) => n + e.length, 0) / variants.length),
  runs: variants.length,
  medianMs: round(median(checkTimes), 3),
  p99Ms: round(percentile(checkTimes, 0.99), 3),
  targetMs: 1
}

// ---------------------------------------------------------------------------------------------
// Requests: varied, realistic values.

const paths = [
  "/",
  "/index.html",
  "/api/v1/users/42",
  "/admin/login",
  "/wp-login.php",
  "/static/app.js",
  "/shop/cart",
  "/search"
]
const agents = [
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0",
  "curl/8.4.0",
  "sqlmap/1.7",
  "Googlebot/2.1"
]
const countries = ["US", "GB", "DE", "FR", "BR", "CN", "IN", "JP"]
const request = (i: number) => ({
  "http.host": pick(["www.example.com", "api.example.com", "shop.example.com"]),
  "http.request.method": pick(["GET", "GET", "GET", "POST", "PUT"]),
  "http.request.uri.path": pick(paths),
  "http.request.uri.query": pick(["", "q=shoes", "id=1%27%20OR%201=1"]),
  "http.user_agent": pick(agents),
  "http.request.headers": { accept: ["text/html"], "x-forwarded-host": [pick(["example.com", "cdn.example.com"])] },
  "http.request.headers.names": ["Accept", "User-Agent", "X-Forwarded-Host"],
  "ip.src": `${Math.floor(rand() * 223) + 1}.${i % 256}.${Math.floor(rand() * 256)}.${Math.floor(rand() * 256)}`,
  "ip.src.country": pick(countries),
  "ip.src.asnum": pick([13335, 15169, 16509, 8075]),
  "cf.bot_management.score": Math.floor(rand() * 99) + 1,
  "cf.bot_management.verified_bot": rand() < 0.1,
  "cf.threat_score": 0,
  ssl: rand() < 0.9
})
const requests = Array.from({ length: 2000 }, (_, i) => request(i))

// ---------------------------------------------------------------------------------------------
// 2. One compiled expression per request (a fresh request object each time: fields converted).

const expression =
  '(http.request.uri.path contains "/admin" and not ip.src in {10.0.0.0/8 192.0.2.0/24}) or (lower(http.user_agent) contains "sqlmap" and http.request.method in {"POST" "PUT"}) or http.host matches r"^api\\." and cf.bot_management.score lt 30'
const compiled = compile(check(expression).checked!)
const evalRound = (n: number) => {
  let matches = 0
  const t0 = process.hrtime.bigint()
  for (let i = 0; i < n; i++) if (compiled(requests[i % requests.length]!)) matches++
  return { ns: Number(process.hrtime.bigint() - t0) / n, matches }
}
for (let i = 0; i < 5; i++) evalRound(20_000)
const evalRounds = Array.from({ length: quick ? 7 : 21 }, () => evalRound(20_000))
const evalNs = median(evalRounds.map((r) => r.ns))
const evalResult = {
  expression,
  nsPerRequest: round(evalNs, 0),
  requestsPerSecond: Math.round(1e9 / evalNs),
  matchedShare: round(evalRounds[0]!.matches / 20_000, 3)
}

// ---------------------------------------------------------------------------------------------
// 3. A 200-rule firewall decision per request. Most rules do not match, so most requests run
//    through all 200 (the costly case); log and bypass rules keep evaluation going.

const ruleExpression = (i: number) => {
  const v = i * 7919
  switch (i % 10) {
    case 0:
      return `http.request.uri.path contains "/private-${v}/"`
    case 1:
      return `ip.src in {${[0, 1, 2, 3].map((k) => `198.${(v + k) % 256}.${k}.0/24`).join(" ")}}`
    case 2:
      return `http.host eq "site${v}.example.net" and http.request.method eq "POST"`
    case 3:
      return `http.request.uri.path matches r"^/legacy/${v}/[a-z]+\\.php$"`
    case 4:
      return `ip.src.country in {"KP" "IR"} and ip.src.asnum eq ${v % 65000}`
    case 5:
      return `lower(http.user_agent) contains "scanner-${v}"`
    case 6:
      return `any(http.request.headers["x-forwarded-host"][*] eq "bad${v}.example")`
    case 7:
      return `http.request.uri.query contains "token=${v}" or http.request.uri.path eq "/x/${v}"`
    case 8:
      return `cf.bot_management.score lt 2 and not cf.bot_management.verified_bot and http.request.uri.path contains "/checkout/${v}"`
    default:
      return `http.host wildcard "*.old-${v}.example.com"`
  }
}
const actions: ReadonlyArray<FirewallAction> = [
  "block",
  "challenge",
  "js_challenge",
  "managed_challenge",
  "allow",
  "log",
  "bypass"
]
const rules: Array<FirewallRule> = Array.from({ length: 200 }, (_, i) => ({
  id: `rule-${i}`,
  priority: rand() < 0.3 ? null : Math.floor(rand() * 1000),
  paused: false,
  action: actions[i % actions.length]!,
  ...(i % actions.length === 6 ? { products: ["waf"] } : {}),
  expression: ruleExpression(i)
}))
// Two rules that do match some traffic, at the end of the order.
rules.push({
  id: "block-sqlmap",
  priority: null,
  paused: false,
  action: "block",
  expression: 'http.user_agent contains "sqlmap"'
})
rules.push({
  id: "log-admin",
  priority: null,
  paused: false,
  action: "log",
  expression: 'starts_with(http.request.uri.path, "/admin")'
})
const fw = firewall(rules)
if (fw.invalid.length > 0) throw new Error(`invalid bench rule: ${JSON.stringify(fw.invalid[0])}`)
for (let i = 0; i < 20_000; i++) fw.decide(requests[i % requests.length]!)
const decisionTimes: Array<number> = []
let blocked = 0
let evaluated = 0
const decisions = quick ? 20_000 : 100_000
for (let i = 0; i < decisions; i++) {
  const req = requests[i % requests.length]!
  const t0 = process.hrtime.bigint()
  const d = fw.decide(req)
  decisionTimes.push(Number(process.hrtime.bigint() - t0) / 1e3)
  if (d.action === "block") blocked++
  evaluated += d.evaluated
}
const firewallResult = {
  rules: fw.order.length,
  decisions,
  medianMicros: round(median(decisionTimes), 2),
  p99Micros: round(percentile(decisionTimes, 0.99), 2),
  decisionsPerSecond: Math.round(1e6 / median(decisionTimes)),
  meanRulesEvaluated: round(evaluated / decisions, 1),
  blockedShare: round(blocked / decisions, 3),
  targetMicros: 20
}

release()
process.stdout.write(`${JSON.stringify({ check: checkResult, evaluate: evalResult, firewall: firewallResult })}\n`)
