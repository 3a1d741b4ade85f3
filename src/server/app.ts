/**
 * The embedded local platform: the v4 API built from the contract over a SQLite store, as a web
 * handler (in-process, no socket) or served on a port (`edgectl serve`).
 */
import { HttpApiBuilder, HttpMiddleware, HttpRouter, HttpServer } from "@effect/platform"
import { Layer } from "effect"
import * as path from "node:path"
import { V4Api } from "../api/contract.js"
import * as Db from "../store/db.js"
import { seedDemo } from "../store/demo.js"
import { AuthenticationLive } from "./auth.js"
import { ApiErrorsLive, envelopeErrors } from "./errors.js"
import { AccountsLive, UserLive, ZonesLive } from "./handlers.js"
import { clockFromEnv, PlatformClock } from "./clock.js"
import { EscLive } from "./esc.js"
import { FirewallLive } from "./firewall.js"
import { KvLive, KvOptions, WireKvOptions } from "./kv.js"
import { WafLive } from "./waf.js"

/** The store file inside a state directory (`.edgectl/state` by default, `--persist-to` overrides). */
export const storeFile = (stateDir: string) => path.join(stateDir, "platform.sqlite")

export const ApiLive = HttpApiBuilder.api(V4Api).pipe(
  Layer.provide([ZonesLive, UserLive, AccountsLive, EscLive, KvLive, FirewallLive, WafLive]),
  Layer.provide(AuthenticationLive),
  Layer.provide(ApiErrorsLive)
)

/**
 * Everything the API needs, over the store at `file` (created and seeded with the demo world on
 * first use). `clock` is the platform's clock (else the one EDGECTL_PLATFORM_NOW asks for); `kv` is
 * the wire behaviour by default, local mode's in-process client passes its own.
 */
export interface PlatformOptions {
  readonly clock?: PlatformClock | undefined
  readonly kv?: KvOptions | undefined
}

export const PlatformLive = (file: string, seed: Db.Seed = seedDemo(), options: PlatformOptions = {}) =>
  Layer.mergeAll(ApiLive, HttpServer.layerContext).pipe(
    Layer.provideMerge(Layer.merge(Db.layer(file, seed), Layer.succeed(KvOptions, options.kv ?? WireKvOptions))),
    Layer.provideMerge(Layer.sync(PlatformClock, () => options.clock ?? clockFromEnv())),
    HttpMiddleware.withTracerDisabledWhen(() => true),
    // A KV key is up to 512 bytes, 1,536 characters once percent-encoded in the path; the router
    // refuses longer path parameters (its default is 100), which would answer "no route".
    Layer.provideMerge(HttpRouter.setRouterConfig({ maxParamLength: 2048 }))
  )

/** An in-process handler: `fetch`-shaped, no socket. */
export const makeWebHandler = (file: string) =>
  HttpApiBuilder.toWebHandler(PlatformLive(file), { middleware: envelopeErrors })
