/** `edgectl serve`: the embedded platform on a TCP port, for official clients and other tools. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer } from "node:http"
import { BasePath } from "../api/contract-core.js"
import { PlatformLive, storeFile } from "./app.js"
import type { PlatformClock } from "./clock.js"
import { envelopeErrors } from "./errors.js"
import { untracedLayer } from "./platform.js"

export interface ServeOptions {
  readonly host: string
  readonly port: number
  readonly stateDir: string
  /** The platform's clock; by default the real one, or EDGECTL_PLATFORM_NOW's. */
  readonly clock?: PlatformClock
}

export interface Served {
  readonly baseUrl: string
  readonly host: string
  readonly port: number
}

/**
 * Serves until the scope closes; `port: 0` picks a free port. Resolves once the socket listens.
 */
export const serve = (o: ServeOptions) =>
  Effect.gen(function* () {
    const server = createServer()
    const layer = HttpApiBuilder.serve(envelopeErrors).pipe(
      // Each request's fiber runs on the runtime this layer captures while it builds.
      untracedLayer,
      Layer.provide(PlatformLive(storeFile(o.stateDir), undefined, { clock: o.clock })),
      Layer.provide(NodeHttpServer.layer(() => server, { host: o.host, port: o.port }))
    )
    yield* Layer.build(layer)
    const address = server.address()
    const port = typeof address === "object" && address ? address.port : o.port
    const host = o.host.includes(":") ? `[${o.host}]` : o.host
    return { baseUrl: `http://${host}:${port}${BasePath}`, host: o.host, port } satisfies Served
  })
