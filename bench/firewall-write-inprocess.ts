// A firewall write inside one process: one `POST /zones/:zone_id/firewall/rules` of 1,000 rules,
// each with its filter inline (the combined call), through the in-process v4 client and the local
// transport into the platform's own path (the body read by src/firewall/body.ts, the expressions
// checked, the duplicate check, the store's writes in one transaction, the rules read back). Per
// round a fresh state dir, created and opened outside the timed part (store creation, demo seed,
// the platform's app and the zone's lookup are not the write path). bench/firewall.bench.mjs
// bundles this file with esbuild and runs it with plain node.
//
// What a profile said (node:inspector around the POST only, rounds 3-12; ~166 ms a round on the
// shared 2-core machine): the store's work was four statements per rule (the duplicate check's
// SELECT by expression, the filter's INSERT, the rule's INSERT, the rule read back with its filter),
// 4,000 in all, each an @effect/sql statement run as its own Effect (span, compile, fiber refs):
// the effect runtime ~72 ms, @effect/sql and src/store/sql-client.ts ~19 ms, GC ~24 ms, against
// ~20 ms in SQLite itself and ~10 ms checking the 1,000 expressions. Now the duplicate check and
// the read-back are one query per 500 rules, and the filters and the rules are inserted several to
// a statement (src/store/firewall-repo.ts insertRows): a round on a quiet machine went 107.7 ->
// 78.7 -> 48.5 ms.
//
//   node <bundle> <work dir> [rounds]      prints one JSON line
import { Effect, ManagedRuntime } from "effect"
import * as path from "node:path"
import { call } from "../src/api/client.js"
import { Endpoints } from "../src/api/contract.js"
import { FirewallEndpoints } from "../src/api/contract-firewall.js"
import { clientLayer } from "../src/cli/environment.js"

const [dir, roundsArg] = process.argv.slice(2)
if (!dir) throw new Error("usage: firewall-write-inprocess <work dir> [rounds]")
const rounds = Number(roundsArg ?? 5)
const RULES = 1000
// An Enterprise zone of the demo world without firewall rules: its quota (1,000) takes them all.
const ZONE = "acme.net"

const actions = ["block", "challenge", "js_challenge", "managed_challenge", "allow", "log", "bypass"]
const products = ["zoneLockdown", "uaBlock", "bic", "hot", "securityLevel", "rateLimit", "waf"]
const body = Array.from({ length: RULES }, (_, i) => ({
  action: actions[i % actions.length]!,
  ...(i % actions.length === 6 ? { products: [products[i % products.length]!, "waf"] } : {}),
  priority: i % 4 === 0 ? null : (i * 7919) % 500,
  paused: i % 17 === 0,
  description: `rule ${i}`,
  filter: {
    expression: `(http.request.uri.path contains "/area-${i}/" and ip.src in {198.51.${i % 250}.0/24}) or (http.host eq "h${i}.acme.net" and http.user_agent contains "bot-${i}")`,
    description: `filter ${i}`
  }
}))

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d

const times: Array<number> = []
for (let r = 0; r < rounds; r++) {
  const runtime = ManagedRuntime.make(clientLayer({ remote: false, persistTo: path.join(dir, `round-${r}`) }))
  const zoneId = await runtime.runPromise(
    Effect.gen(function* () {
      const page = yield* call(Endpoints.listZones, { urlParams: { name: ZONE } })
      const id = page.items[0]!.id
      const existing = yield* call(FirewallEndpoints.listRules, { path: { zone_id: id }, urlParams: {} })
      if (existing.info.total_count !== 0) throw new Error(`${ZONE} has ${existing.info.total_count} rules already`)
      return id
    })
  )
  const t0 = performance.now()
  const written = await runtime.runPromise(
    call(FirewallEndpoints.createRules, { path: { zone_id: zoneId }, payload: body })
  )
  times.push(performance.now() - t0)
  if (written.length !== RULES) throw new Error(`wrote ${written.length} of ${RULES} rules`)
  await runtime.dispose()
}

const ms = median(times)
process.stdout.write(
  `${JSON.stringify({ rules: RULES, rounds, ms: round(ms), first: round(times[0]!), usPerRule: round((ms * 1000) / RULES, 1) })}\n`
)
