/**
 * `edgectl scan --zone Z`: a zone's live use of the legacy products the platform still serves or
 * served, one table entry per product (the deprecation it falls under, and how to list what the
 * zone has). Where the platform has ended a product's API (the previous rate limits answer 410),
 * the zone has nothing of it that can still be read.
 */
import * as Effect from "effect/Effect"
import type { ClientEnv } from "../api/client.js"
import type { V4Error } from "../domain/errors.js"
import { isDeletedFilter } from "../domain/firewall.js"
import type { Zone } from "../domain/zone.js"
import { allRules } from "./firewall-service.js"
import { allLockdowns, allRateLimits, allUaRules } from "./legacy-service.js"
import { listOverrides, status, wafZoneOf } from "./waf-migration-service.js"

interface LegacyItem {
  readonly id: string
  readonly description: string
}

export interface LegacyProduct {
  /** The deprecation's id in the scanner's list (src/deprecations/deprecations.json). */
  readonly deprecation: string
  readonly product: string
  /** What the zone has of it; empty when it has none. */
  readonly list: (zone: Zone) => Effect.Effect<ReadonlyArray<LegacyItem>, V4Error, ClientEnv>
}

const oneLine = (s: string, n = 80) => {
  const t = s.replace(/\s+/g, " ").trim()
  return t.length > n ? `${t.slice(0, n - 1)}…` : t
}

const legacyProducts: ReadonlyArray<LegacyProduct> = [
  {
    deprecation: "DEP-FR",
    product: "firewall rules",
    list: (z) =>
      Effect.map(allRules(z.id), (rules) =>
        rules.map((r) => ({
          id: r.id,
          description: `${r.action}${r.paused ? " (paused)" : ""}: ${
            isDeletedFilter(r.filter) ? "(filter deleted)" : oneLine(r.filter.expression)
          }`
        }))
      )
  },
  {
    deprecation: "DEP-RLOLD",
    product: "rate limits (previous version)",
    list: (z) =>
      Effect.map(
        Effect.catchTag(allRateLimits(z.id), "Gone", () => Effect.succeed([])),
        (rules) =>
          rules.map((r) => ({
            id: r.id,
            description: `${r.action.mode}${r.disabled ? " (disabled)" : ""}: ${oneLine(r.match.request.url, 60)}, ${r.threshold} per ${r.period}s`
          }))
      )
  },
  {
    deprecation: "DEP-ZL",
    product: "Zone Lockdown",
    list: (z) =>
      Effect.map(allLockdowns(z.id), (rules) =>
        rules.map((r) => ({
          id: r.id,
          description: `${r.paused ? "(paused) " : ""}${oneLine(r.urls.join(" "), 60)}`
        }))
      )
  },
  {
    deprecation: "DEP-UA",
    product: "User Agent Blocking",
    list: (z) =>
      Effect.map(allUaRules(z.id), (rules) =>
        rules.map((r) => ({
          id: r.id,
          description: `${r.mode}${r.paused ? " (paused)" : ""}: ${oneLine(r.configuration.value, 60)}`
        }))
      )
  },
  {
    deprecation: "DEP-WAFOLD",
    product: "previous WAF",
    // The previous WAF's APIs stop answering once a zone is upgraded: its overrides are read only
    // while it is still on.
    list: (z) =>
      Effect.gen(function* () {
        const wz = wafZoneOf(z)
        const s = yield* status(wz)
        if (s.old_waf_status !== "enabled") return []
        const overrides = yield* listOverrides(wz)
        return [
          { id: "-", description: "the previous WAF is enabled on the zone" },
          ...overrides.map((o) => ({
            id: o.id,
            description: `override${o.paused ? " (paused)" : ""} for ${oneLine(o.urls.join(" "), 60)}${
              o.description ? `: ${oneLine(o.description, 40)}` : ""
            }`
          }))
        ]
      })
  }
]

export interface LegacyUse {
  readonly deprecation: string
  readonly product: string
  readonly items: ReadonlyArray<LegacyItem>
}

/** Every product of the table, in its order, with what the zone has of it. */
export const legacyUseOf = (zone: Zone) =>
  Effect.forEach(legacyProducts, (p) =>
    Effect.map(p.list(zone), (items): LegacyUse => ({ deprecation: p.deprecation, product: p.product, items }))
  )
