/**
 * The embedded local platform: the whole v4 API built from the contract over a SQLite store, as a web
 * handler (in-process, no socket) or served on a port (`edgectl serve`). Local mode's in-process
 * client builds only the parts a command calls (parts.ts) over the same services (platform.ts).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Layer from "effect/Layer"
import { V4Api } from "../api/contract.js"
import type * as Db from "../store/db.js"
import { AuthenticationLive } from "./auth.js"
import { ApiErrorsLive, envelopeErrors } from "./errors.js"
import { AccountsLive, UserLive, ZonesLive } from "./core-handlers.js"
import { EscLive } from "./esc-handlers.js"
import { FirewallLive } from "./firewall-handlers.js"
import { KvLive } from "./kv-handlers.js"
import { LegacyLive } from "./legacy-handlers.js"
import { RulesetsLive } from "./rulesets-handlers.js"
import { platformServices, type PlatformOptions, withHttpSettings } from "./platform.js"
import { WafLive } from "./waf-handlers.js"

export { storeFile, type PlatformOptions } from "./platform.js"

const ApiLive = HttpApiBuilder.api(V4Api()).pipe(
  Layer.provide([ZonesLive, UserLive, AccountsLive, EscLive, KvLive, FirewallLive, WafLive, RulesetsLive, LegacyLive]),
  Layer.provide(AuthenticationLive),
  Layer.provide(ApiErrorsLive())
)

/** Everything the whole API needs, over the store at `file` (created and seeded on first use). */
export const PlatformLive = (file: string, seed?: Db.Seed | Db.LazySeed, options: PlatformOptions = {}) =>
  withHttpSettings(ApiLive.pipe(Layer.provideMerge(platformServices(file, seed, options))))

/** An in-process handler: `fetch`-shaped, no socket. */
export const makeWebHandler = (file: string) =>
  HttpApiBuilder.toWebHandler(PlatformLive(file), { middleware: envelopeErrors })
