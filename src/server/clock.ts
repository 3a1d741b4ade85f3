/**
 * The local platform's clock. The real one by default; `EDGECTL_PLATFORM_NOW=<ISO 8601 instant>`
 * freezes it (a testing aid, read only by the local platform: in-process and `edgectl serve`), and
 * tests may hand `PlatformLive` a clock of their own. Answers that depend on time carry it in their
 * `Date` header, so a client reads the platform's clock, not its own.
 */
import * as Context from "effect/Context"
import { platformNowFromEnv } from "../domain/platform-now.js"

export interface PlatformClock {
  readonly now: () => Date
}
export const PlatformClock = Context.GenericTag<PlatformClock>("edgectl/PlatformClock")

const systemClock: PlatformClock = { now: () => new Date() }

export const fixedClock = (at: Date): PlatformClock => ({ now: () => new Date(at.getTime()) })

/** The clock `EDGECTL_PLATFORM_NOW` asks for; a value that is not an instant is an error at start. */
export const clockFromEnv = (env: Readonly<Record<string, string | undefined>> = process.env): PlatformClock => {
  const at = platformNowFromEnv(env)
  return at === undefined ? systemClock : fixedClock(at)
}
