/**
 * What the WAF's and the rulesets' handlers need: the visible zone, its plan, the clock, and the
 * previous WAF's finished-migration guard. (The firewall's quota reads the plan in its own query:
 * src/store/firewall-repo.ts `ruleQuota`.)
 */
import * as Effect from "effect/Effect"
import { MigrationFinished, NotFound } from "../domain/errors.js"
import { Db } from "../store/db.js"
import { getZoneWaf } from "../store/waf-repo.js"
import { isoMicros } from "../domain/timestamps.js"
import { finishedMessage } from "../waf/state.js"
import { PlatformClock } from "./clock.js"
import { visibleZone } from "./core-handlers.js"

export const wafZone = (zoneId: string, suffix: string) =>
  Effect.gen(function* () {
    const zone = yield* visibleZone(zoneId, suffix)
    const { db, sql } = yield* Db
    const clock = yield* PlatformClock
    return {
      zone,
      db,
      sql,
      plan: zone.plan?.legacy_id ?? "free",
      now: () => isoMicros(clock.now().getTime()),
      // A store that fails a read is the platform's fault: a defect, answered 500.
      waf: yield* Effect.orDie(getZoneWaf(sql, zone.id))
    }
  })

/** A previous-WAF endpoint: fails once the zone's migration is finished. */
export const previousWafZone = (zoneId: string, suffix: string) =>
  Effect.flatMap(wafZone(zoneId, suffix), (z) =>
    z.waf.state === "finished"
      ? Effect.fail(new MigrationFinished({ message: finishedMessage(z.zone.name) }))
      : Effect.succeed(z)
  )

export const notFound = (what: string, id: string) => new NotFound({ message: `${what} ${id} not found in this zone` })

/** Page arithmetic over an in-memory list (the catalog is small). */
export const pageOf = <A>(items: ReadonlyArray<A>, page = 1, perPage = 50) => ({
  items: items.slice((page - 1) * perPage, page * perPage),
  info: {
    page,
    per_page: perPage,
    count: Math.max(0, Math.min(perPage, items.length - (page - 1) * perPage)),
    total_count: items.length,
    total_pages: Math.ceil(items.length / perPage)
  }
})
