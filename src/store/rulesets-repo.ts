/**
 * A zone's rulesets in the local platform's store, through the store's SQL client: the custom
 * phase's entry point (table zone_rulesets, one row per zone and phase) and, read alongside it, the
 * managed phase's entry point, which the WAF migration saves in waf_zone together with the
 * migration state.
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { CustomRulesPhase } from "../domain/custom-rule.js"
import type { ZoneRule, ZoneRuleset } from "../domain/ruleset.js"
import { json } from "./query.js"
import { storeFailure } from "./sql-client.js"
import type { StoreError } from "./store-error.js"
import { getZoneWaf } from "./waf-repo.js"

const failing = storeFailure("cannot read or write the zone's rulesets")

export const getPhaseEntrypoint = (
  sql: SqlClient,
  zoneId: string,
  phase: string
): Effect.Effect<ZoneRuleset | null, StoreError> =>
  sql<{ ruleset: string }>`SELECT ruleset FROM zone_rulesets WHERE zone_id = ${zoneId} AND phase = ${phase}`.pipe(
    Effect.map(([r]) => (r ? json<ZoneRuleset | null>(r.ruleset, null) : null)),
    Effect.mapError(failing)
  )

export const getCustomEntrypoint = (sql: SqlClient, zoneId: string) => getPhaseEntrypoint(sql, zoneId, CustomRulesPhase)

/**
 * How many versions of a ruleset the history keeps: the newest ones; older ones are pruned by the
 * write that adds one (the reference gives no number for the platform: docs/differences.md says why 50).
 */
export const RULESET_VERSIONS_KEPT = 50

/**
 * Saves the ruleset as the phase's entry point and as one more version of it, and prunes the
 * versions beyond the newest RULESET_VERSIONS_KEPT, in one transaction (within the caller's, when
 * it runs in one: the three statements land together or not at all).
 */
export const saveRuleset = (sql: SqlClient, zoneId: string, r: ZoneRuleset): Effect.Effect<void, StoreError> => {
  const text = JSON.stringify(r)
  const version = Number(r.version)
  return Effect.all(
    [
      sql`INSERT INTO zone_rulesets (zone_id, phase, id, version, ruleset) VALUES (${zoneId}, ${r.phase}, ${r.id}, ${version}, ${text})
          ON CONFLICT (zone_id, phase) DO UPDATE SET version = excluded.version, ruleset = excluded.ruleset`,
      sql`INSERT INTO zone_ruleset_versions (zone_id, ruleset_id, version, ruleset) VALUES (${zoneId}, ${r.id}, ${version}, ${text})`,
      sql`DELETE FROM zone_ruleset_versions
          WHERE zone_id = ${zoneId} AND ruleset_id = ${r.id} AND version <= ${version - RULESET_VERSIONS_KEPT}`
    ],
    { discard: true }
  ).pipe(sql.withTransaction, Effect.mapError(failing))
}

/** Every version of a stored ruleset, newest first (the managed entry point keeps its latest only). */
export const rulesetVersions = (
  sql: SqlClient,
  zoneId: string,
  rulesetId: string
): Effect.Effect<Array<ZoneRuleset>, StoreError> =>
  sql<{ ruleset: string }>`SELECT ruleset FROM zone_ruleset_versions
                           WHERE zone_id = ${zoneId} AND ruleset_id = ${rulesetId} ORDER BY version DESC`.pipe(
    Effect.mapError(failing),
    Effect.flatMap((rows) =>
      rows.length > 0
        ? Effect.succeed(rows.map((r) => json<ZoneRuleset>(r.ruleset, null as never)))
        : Effect.map(managedEntrypoint(sql, zoneId), (managed) =>
            managed !== null && managed.id === rulesetId ? [managed] : []
          )
    )
  )

/** The managed entry point in the rulesets API's shape (its rules always carry what the answer needs). */
const managedEntrypoint = (sql: SqlClient, zoneId: string): Effect.Effect<ZoneRuleset | null, StoreError> =>
  Effect.map(getZoneWaf(sql, zoneId), ({ entrypoint: m }) =>
    m === null
      ? null
      : {
          ...m,
          rules: m.rules.map((r): ZoneRule => ({
            ...r,
            id: r.id ?? "",
            version: r.version ?? "1",
            enabled: r.enabled ?? true,
            ref: r.ref ?? r.id ?? "",
            last_updated: r.last_updated ?? m.last_updated
          }))
        }
  )

/** Every ruleset of the zone, with its rules, in phase order. */
export const zoneRulesets = (sql: SqlClient, zoneId: string): Effect.Effect<Array<ZoneRuleset>, StoreError> =>
  Effect.all([
    sql<{ ruleset: string }>`SELECT ruleset FROM zone_rulesets WHERE zone_id = ${zoneId}`.pipe(
      Effect.mapError(failing)
    ),
    managedEntrypoint(sql, zoneId)
  ]).pipe(
    Effect.map(([rows, managed]) =>
      [
        ...rows.map((r) => json<ZoneRuleset | null>(r.ruleset, null)).filter((r): r is ZoneRuleset => r !== null),
        ...(managed ? [managed] : [])
      ].sort((a, b) => a.phase.localeCompare(b.phase))
    )
  )
