// The legacy-product migrations' plan and replay, in one process (issue 33's "plan and replay of
// 1,000 legacy rules per kind"): a zone of 1,000 Zone Lockdown rules and 1,000 UA rules, and one
// of 1,000 rate limits (previous version), synthetic, ungated by a plan (the platform's per-plan
// quotas stop below 1,000: the engine's work is what is measured). For each kind: the plan (median
// of --runs calls; the first call apart), then the replay of a traffic file through the "before"
// and the planned "after" (JSON lines parsed included): requests per second. The rate limit traffic
// is timed ("at": "+ms"), so the counters run. bench/legacy-replay.bench.mjs bundles this file with
// esbuild and runs it with plain node.
//
//   node <bundle> [--quick]      prints one JSON line
import type { Lockdown, RateLimit, UaRule } from "../src/domain/legacy-security.js"
import { planLockdownUaMigration } from "../src/firewall/lockdown-ua-plan.js"
import { makeLockdownUaReplayer } from "../src/firewall/lockdown-ua-replay.js"
import { planRateLimitMigration } from "../src/firewall/rate-limit-plan.js"
import { makeRateLimitReplayer } from "../src/firewall/rate-limit-replay.js"

const quick = process.argv.includes("--quick")
const RULES = 1000
const REQUESTS = quick ? 5_000 : 20_000
const RUNS = quick ? 3 : 7
const zone = { id: "z".repeat(32), name: "bench.example" }
const hex = (i: number) => i.toString(16).padStart(32, "0")

const lockdowns: Array<Lockdown> = Array.from({ length: RULES }, (_, i) => ({
  id: hex(i + 1),
  created_on: "2024-03-11T09:30:00Z",
  modified_on: "2024-03-11T09:30:00Z",
  paused: false,
  description: `area ${i}`,
  urls: [`bench.example/area${i}/*`],
  configurations: [{ target: "ip_range", value: `10.${(i >> 8) & 255}.${i & 255}.0/24` }],
  priority: i + 1
}))
const uaRules: Array<UaRule> = Array.from({ length: RULES }, (_, i) => ({
  id: hex(10_000 + i),
  paused: false,
  description: `agent ${i}`,
  mode: i % 2 === 0 ? "block" : "managed_challenge",
  configuration: { target: "ua", value: `Agent${i}/1.0` }
}))
const rateLimits: Array<RateLimit> = Array.from({ length: RULES }, (_, i) => ({
  id: hex(20_000 + i),
  disabled: false,
  description: `endpoint ${i}`,
  match: {
    request: { methods: ["POST"], schemes: ["_ALL_"], url: `bench.example/api/e${i}*` },
    response: { origin_traffic: false }
  },
  bypass: [],
  threshold: 5,
  period: 60,
  action: { mode: "ban", timeout: 600 }
}))

const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const timed = <A>(f: () => A): { ms: number; value: A } => {
  const t = performance.now()
  const value = f()
  return { ms: performance.now() - t, value }
}
const round = (x: number) => Math.round(x * 10) / 10

const measurePlan = <P>(plan: () => P) => {
  const first = timed(plan)
  const rest = Array.from({ length: RUNS }, () => timed(plan).ms)
  return { plan: first.value, first: round(first.ms), ms: round(median(rest)) }
}

const replay = (
  make: () => { line(t: string, n: number): void; report(): { requests: number; agreed: number } },
  lines: Array<string>
) => {
  const r = timed(() => {
    const replayer = make()
    lines.forEach((l, i) => replayer.line(l, i + 1))
    return replayer.report()
  })
  return {
    requests: r.value.requests,
    agreed: r.value.agreed,
    ms: round(r.ms),
    requestsPerSecond: Math.round(r.value.requests / (r.ms / 1000))
  }
}

const ldState = { lockdowns, uaRules, customRules: [], firewallRules: [] }
const ld = measurePlan(() => planLockdownUaMigration({ zone, plan: undefined, before: ldState, deleteOld: false }))
const ldTraffic = Array.from({ length: REQUESTS }, (_, i) => {
  const a = (i * 7919) % RULES
  return JSON.stringify({
    "http.host": "bench.example",
    "http.request.uri.path": `/area${a}/page`,
    "ip.src": i % 3 === 0 ? `10.${(a >> 8) & 255}.${a & 255}.9` : "192.0.2.1",
    "http.user_agent": i % 5 === 0 ? `Agent${a}/1.0` : "Mozilla/5.0"
  })
})
const ldReplay = replay(() => makeLockdownUaReplayer(ld.plan.before, ld.plan.expected, ld.plan.notes), ldTraffic)

const rlState = { rateLimits, rules: [] }
const rl = measurePlan(() => planRateLimitMigration({ zone, plan: undefined, before: rlState, deleteOld: false }))
const rlTraffic = Array.from({ length: REQUESTS }, (_, i) =>
  JSON.stringify({
    at: i === 0 ? "2026-11-28T08:00:00Z" : "+50",
    request: {
      "http.host": "bench.example",
      "http.request.uri.path": `/api/e${(i * 31) % RULES}/x`,
      "http.request.method": "POST",
      "ip.src": `192.0.2.${i % 50}`
    }
  })
)
const rlReplay = replay(() => makeRateLimitReplayer(rl.plan.before, rl.plan.expected, rl.plan.notes), rlTraffic)

console.log(
  JSON.stringify({
    rules: RULES,
    lockdownUa: {
      plan: { ms: ld.ms, first: ld.first, customRules: ld.plan.expected.customRules.length },
      replay: ldReplay
    },
    rateLimits: { plan: { ms: rl.ms, first: rl.first, rules: rl.plan.expected.rules.length }, replay: rlReplay }
  })
)
