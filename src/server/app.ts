/**
 * The embedded local platform: the whole v4 API built from the contract over a SQLite store, as a web
 * handler (in-process, no socket) or served on a port (`edgectl serve`). Its handlers are every
 * part's of the table in door/parts.ts, which local mode's in-process client builds one at a time,
 * only those a command calls, over the same services (platform.ts).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { V4Api } from "../api/contract.js"
import type * as Db from "../store/db.js"
import { envelopeErrors } from "./errors.js"
import { apiLayer, loadPart, partNames } from "./door/parts.js"
import { platformServices, type PlatformOptions, withHttpSettings } from "./platform.js"

export { storeFile, type PlatformOptions } from "./platform.js"

/** The whole API: every part's handlers (the table's modules, imported when it is built). */
const ApiLive = Layer.unwrapEffect(
  Effect.promise(async () => {
    const parts = await Promise.all(partNames.map(loadPart))
    return apiLayer(
      V4Api(),
      parts.map((p) => p.handlers)
    )
  })
)

/** Everything the whole API needs, over the store at `file` (created and seeded on first use). */
export const PlatformLive = (file: string, seed?: Db.Seed | Db.LazySeed, options: PlatformOptions = {}) =>
  withHttpSettings(ApiLive.pipe(Layer.provideMerge(platformServices(file, seed, options))))

/** An in-process handler: `fetch`-shaped, no socket. */
export const makeWebHandler = (file: string) =>
  HttpApiBuilder.toWebHandler(PlatformLive(file), { middleware: envelopeErrors })
