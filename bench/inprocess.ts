// In-process cost of one local client call, inside one process: the default local transport
// (src/server/door/local-transport.ts), and for reference the web-handler transport it replaced
// (`HttpApiBuilder.toWebHandler` + a `FetchHttpClient.Fetch` building web Request/Response).
// bench/platform.bench.mjs bundles this file with esbuild and runs it with plain node (no tsx at run time).
//
//   node <bundle> <state dir> [calls]      prints one JSON line
//   node <bundle> <state dir> <calls> zones|dns   makes exactly <calls> local calls of one kind after
//     a fixed warm-up, and prints nothing: platform.bench.mjs counts its instructions at two counts
//     and divides the difference (what one call costs, without the start-up)
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"
import { call, ClientConfig } from "../src/api/client.js"
import { Endpoints } from "../src/api/contract.js"
import { LocalBase, LocalToken } from "../src/api/target.js"
import { clientLayer } from "../src/cli/environment.js"
import { makeWebHandler, storeFile } from "../src/server/app.js"

const dir = process.argv[2]
if (!dir) throw new Error("usage: inprocess <state dir> [calls]")
const calls = Number(process.argv[3] ?? 2000)
const budgetMs = 15_000

const webHandlerLayer = Layer.merge(
  Layer.succeed(ClientConfig, {
    baseUrl: LocalBase,
    credentials: { kind: "token", token: LocalToken },
    target: "local"
  }),
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const { handler, dispose } = makeWebHandler(storeFile(dir))
      yield* Effect.addFinalizer(() => Effect.promise(dispose))
      const fetchLocal: typeof globalThis.fetch = (input, init) => handler(new Request(input, init))
      return Layer.effect(
        HttpClient.HttpClient,
        Effect.map(HttpClient.HttpClient, HttpClient.withTracerPropagation(false))
      ).pipe(Layer.provide(FetchHttpClient.layer), Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetchLocal)))
    })
  )
)

/** µs per call of `once`: `calls` calls after a warm-up of a tenth; stops early at the time budget. */
const measure = <E, R>(once: Effect.Effect<unknown, E, R>, calls: number) =>
  Effect.gen(function* () {
    for (let i = 0; i < Math.max(50, calls / 10); i++) yield* once
    const t0 = performance.now()
    let n = 0
    while (n < calls && performance.now() - t0 < budgetMs) {
      yield* once
      n++
    }
    return ((performance.now() - t0) * 1000) / n
  })

const suite = (calls: number) =>
  Effect.gen(function* () {
    const page = yield* call(Endpoints.listZones, { urlParams: { name: "acme.com" } })
    const id = page.items[0]!.id
    const zonesGet = yield* measure(call(Endpoints.getZone, { path: { zone_id: id } }), calls)
    const dnsPage = yield* measure(
      call(Endpoints.listDnsRecords, { path: { zone_id: id }, urlParams: { per_page: 100 } }),
      calls / 10
    )
    return { zonesGet, dnsPage }
  })

const run = <E>(layer: Layer.Layer<HttpClient.HttpClient | ClientConfig, E>, n: number) =>
  Effect.runPromise(Effect.scoped(Effect.provide(suite(n), layer)))

const only = process.argv[4]
if (only === "zones" || only === "dns") {
  const once = Effect.gen(function* () {
    const page = yield* call(Endpoints.listZones, { urlParams: { name: "acme.com" } })
    const id = page.items[0]!.id
    const one =
      only === "zones"
        ? call(Endpoints.getZone, { path: { zone_id: id } })
        : call(Endpoints.listDnsRecords, { path: { zone_id: id }, urlParams: { per_page: 100 } })
    for (let i = 0; i < 20 + calls; i++) yield* one
  })
  await Effect.runPromise(Effect.scoped(Effect.provide(once, clientLayer({ remote: false, persistTo: dir }))))
  process.exit(0)
}

// Rounds alternate between the transports (JIT state and GC are shared); the median round counts.
const rounds = 3
const samples = {
  local: [] as Array<{ zonesGet: number; dnsPage: number }>,
  webHandler: [] as Array<{ zonesGet: number; dnsPage: number }>
}
for (let r = 0; r < rounds; r++) {
  samples.local.push(await run(clientLayer({ remote: false, persistTo: dir }), calls))
  samples.webHandler.push(await run(webHandlerLayer, calls))
}
const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
const summary = (xs: Array<{ zonesGet: number; dnsPage: number }>) => ({
  zonesGet: { micros: Math.round(median(xs.map((x) => x.zonesGet))) },
  dnsPage: { micros: Math.round(median(xs.map((x) => x.dnsPage))) }
})
process.stdout.write(
  `${JSON.stringify({ calls, rounds, local: summary(samples.local), webHandler: summary(samples.webHandler) })}\n`
)
