/**
 * The embedded local platform: the v4 API built from the contract over a SQLite store, as a web
 * handler (in-process, no socket) or served on a port (`edgectl serve`).
 */
import { HttpApiBuilder, HttpMiddleware, HttpServer } from "@effect/platform"
import type Database from "better-sqlite3"
import { Layer } from "effect"
import * as path from "node:path"
import { V4Api } from "../api/contract.js"
import * as Db from "../store/db.js"
import { insertRows } from "../store/seed.js"
import { expandWorld, type WorldDef, type WorldOptions } from "../store/world.js"
import world from "../../fixtures/world.json" with { type: "json" }
import { AuthenticationLive } from "./auth.js"
import { ApiErrorsLive, envelopeErrors } from "./errors.js"
import { AccountsLive, UserLive, ZonesLive } from "./handlers.js"

export const DemoWorld = world as unknown as WorldDef

/** The store file inside a state directory (`.edgectl/state` by default, `--persist-to` overrides). */
export const storeFile = (stateDir: string) => path.join(stateDir, "platform.sqlite")

export const seedDemo = (options?: WorldOptions) => (db: Database.Database) => insertRows(db, expandWorld(DemoWorld, options))

export const ApiLive = HttpApiBuilder.api(V4Api).pipe(
  Layer.provide([ZonesLive, UserLive, AccountsLive]),
  Layer.provide(AuthenticationLive),
  Layer.provide(ApiErrorsLive)
)

/** Everything the API needs, over the store at `file` (created and seeded with the demo world on first use). */
export const PlatformLive = (file: string, seed: (db: Database.Database) => void = seedDemo()) =>
  Layer.mergeAll(ApiLive, HttpServer.layerContext).pipe(
    Layer.provideMerge(Db.layer(file, seed)),
    HttpMiddleware.withTracerDisabledWhen(() => true)
  )

/** An in-process handler: `fetch`-shaped, no socket. */
export const makeWebHandler = (file: string) =>
  HttpApiBuilder.toWebHandler(PlatformLive(file), { middleware: envelopeErrors })
