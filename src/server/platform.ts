/**
 * What every part of the embedded platform's API runs on: the store (created and seeded with the demo
 * world on first use), the platform's clock, local mode's KV behaviour, and the settings of its HTTP
 * layer. `edgectl serve` builds the whole API over these (app.ts); local mode builds them once and
 * then only the parts of the API a command calls (door/parts.ts).
 */
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as path from "node:path"
import * as Db from "../store/db.js"
import type { StoreError } from "../store/store-error.js"
import { clockFromEnv, PlatformClock } from "./clock.js"
import { KvOptions, WireKvOptions } from "./kv-options.js"
import { LegacyApis, legacyApisFromEnv } from "./legacy-mode.js"

/**
 * `clock` is the platform's clock (else the one EDGECTL_PLATFORM_NOW asks for); `kv` is the wire
 * behaviour by default, local mode's in-process client passes its own.
 */
export interface PlatformOptions {
  readonly clock?: PlatformClock | undefined
  readonly kv?: KvOptions | undefined
  /** Ended APIs served or answered as ended (else what EDGECTL_LEGACY_APIS asks for). */
  readonly legacy?: LegacyApis | undefined
}

/** The store file inside a state directory (`.edgectl/state` by default, `--persist-to` overrides). */
export const storeFile = (stateDir: string) => path.join(stateDir, "platform.sqlite")

/** The demo world, loaded only when a store is created or upgraded. */
const demoSeed: Db.LazySeed = { load: () => import("../demo/seeds.js").then((m) => m.seedDemo()) }

/** What `storeServices` gives: the store, local mode's or the wire's KV behaviour, the clock. */
export type StoreServices = Db.Db | KvOptions | PlatformClock | LegacyApis

/**
 * The store and the settings the handlers read, built in the caller's scope (the store closes with
 * it) as one effect: effect's Layer.mergeAll builds and releases its layers on fibers of their own,
 * which cost a cold command ~30 M instructions for four services that need no concurrency.
 */
export const storeServices = (
  file: string,
  seed: Db.Seed | Db.LazySeed = demoSeed,
  options: PlatformOptions = {}
): Effect.Effect<Context.Context<StoreServices>, StoreError, Scope.Scope> =>
  Effect.map(Db.acquire(file, seed), (db) =>
    Context.make(Db.Db, db).pipe(
      Context.add(KvOptions, options.kv ?? WireKvOptions),
      Context.add(PlatformClock, options.clock ?? clockFromEnv()),
      Context.add(LegacyApis, options.legacy ?? legacyApisFromEnv())
    )
  )

/** The services the API's handlers use, over the store at `file`. */
export const platformServices = (file: string, seed: Db.Seed | Db.LazySeed = demoSeed, options: PlatformOptions = {}) =>
  Layer.merge(HttpServer.layerContext, Layer.scopedContext(storeServices(file, seed, options)))

/** The platform's HTTP settings around a layer that builds (part of) the API. */
export const withHttpSettings = <A, E, R>(layer: Layer.Layer<A, E, R>) =>
  layer.pipe(
    // A KV key is up to 512 bytes, 1,536 characters once percent-encoded in the path; the router
    // refuses longer path parameters (its default is 100), which would answer "no route".
    Layer.provideMerge(HttpRouter.setRouterConfig({ maxParamLength: 2048 }))
  )

/**
 * The platform's requests are not traced: nothing collects its spans, and the tracer that every
 * served app gets (HttpApp.toHandled) parses the URL, redacts the headers and records a span with a
 * dozen attributes per request. Its setting is a fiber ref read by each request's fiber, so it is set
 * where those fibers get their runtime: around `HttpApiBuilder.serve` (serve.ts) and around the
 * local transport's `Layer.toRuntime` (door/local-transport.ts). Around a layer of the API it would end
 * with that layer's build.
 */
export const untracedLayer = <A, E, R>(layer: Layer.Layer<A, E, R>) =>
  HttpMiddleware.withTracerDisabledWhen(layer, () => true)
/** As `untracedLayer`, around an effect (one that captures a runtime for requests). */
export const untracedEffect = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  HttpMiddleware.withTracerDisabledWhenEffect(effect, () => true)
