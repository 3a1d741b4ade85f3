/** `edgectl serve`: the embedded platform on a TCP port, for official clients and other tools. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer, type Server } from "node:http"
import type { RateLimit } from "../domain/rate-budget.js"
import { BasePath } from "../api/contract-core.js"
import { PlatformLive, storeFile } from "./app.js"
import type { PlatformClock } from "./clock.js"
import type { LegacyApis } from "./legacy-mode.js"
import { envelopeErrors, logInternalErrors } from "./errors.js"
import { untracedLayer } from "./platform.js"
import { rateGate, type Listener } from "./rate-gate.js"
import { fastAnswer, makeFastRoutes, type FastRoute } from "./door/fast-routes.js"
import type { TableRequest } from "./door/route-table.js"

export interface ServeOptions {
  readonly host: string
  readonly port: number
  readonly stateDir: string
  /** The platform's clock; by default the real one, or EDGECTL_PLATFORM_NOW's. */
  readonly clock?: PlatformClock
  /** The ended APIs served as they were, or answered as ended (legacy-mode.ts); else EDGECTL_LEGACY_APIS's. */
  readonly legacy?: LegacyApis
  /** Answer the hottest reads by the served fast routes (door/fast-routes.ts) before the app; true by default (tests turn it off to compare). */
  readonly routeTable?: boolean
  /** `--rate-limit N/SECONDS`: past it, 429 with Retry-After per credential (./rate-gate.ts). */
  readonly rateLimit?: RateLimit | undefined
}

export interface Served {
  readonly baseUrl: string
  readonly host: string
  readonly port: number
}

const behindRoutes =
  (routes: ReadonlyArray<FastRoute>) =>
  (app: Listener): Listener =>
  (req, res) => {
    const answer = fastAnswer(routes, req as TableRequest)
    if (answer === undefined) return app(req, res)
    if (typeof answer === "string") {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) })
      res.end(answer)
      return
    }
    res.writeHead(200, {
      ...answer.headers,
      "content-type": "application/octet-stream",
      "content-length": answer.value.byteLength
    })
    res.end(answer.value)
  }

/**
 * The server's one request listener (the app's, registered by NodeHttpServer while the layer
 * builds) behind `wrap`: the fast routes (a request they answer never starts a fiber), the budget.
 */
const inFront = (server: Server, wrap: (next: Listener) => Listener) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const listeners = server.listeners("request") as Array<Listener>
      if (listeners.length !== 1) throw new Error(`expected the app's one request listener, found ${listeners.length}`)
      const app = listeners[0]!
      const listener = wrap(app)
      server.off("request", app)
      server.on("request", listener)
      return () => {
        server.off("request", listener)
        server.on("request", app)
      }
    }),
    (restore) => Effect.sync(restore)
  )

/**
 * Serves until the scope closes; `port: 0` picks a free port. Resolves once the socket listens.
 */
export const serve = (o: ServeOptions) =>
  Effect.gen(function* () {
    logInternalErrors()
    const server = createServer()
    const layer = HttpApiBuilder.serve(envelopeErrors).pipe(
      // Each request's fiber runs on the runtime this layer captures while it builds.
      untracedLayer,
      Layer.provideMerge(PlatformLive(storeFile(o.stateDir), undefined, { clock: o.clock, legacy: o.legacy })),
      Layer.provide(NodeHttpServer.layer(() => server, { host: o.host, port: o.port }))
    )
    const context = yield* Layer.build(layer)
    if (o.routeTable !== false) {
      const routes = yield* Effect.promise(() => makeFastRoutes(context, (r) => r.served))
      yield* inFront(server, behindRoutes(routes))
    }
    if (o.rateLimit !== undefined) yield* inFront(server, rateGate(o.rateLimit))
    const address = server.address()
    const port = typeof address === "object" && address ? address.port : o.port
    const host = o.host.includes(":") ? `[${o.host}]` : o.host
    return { baseUrl: `http://${host}:${port}${BasePath}`, host: o.host, port } satisfies Served
  })
