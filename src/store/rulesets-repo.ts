/**
 * A zone's rulesets in the local platform's store: the custom phase's entry point (table
 * zone_rulesets, one row per zone and phase) and, read alongside it, the managed phase's entry
 * point, which the WAF migration saves in waf_zone together with the migration state.
 */
import type Database from "better-sqlite3"
import { CustomRulesPhase } from "../domain/custom-rule.js"
import type { ZoneRule, ZoneRuleset } from "../domain/ruleset.js"
import { json, stmt } from "./query.js"
import type { Ruleset } from "../domain/waf.js"

export const getPhaseEntrypoint = (db: Database.Database, zoneId: string, phase: string): ZoneRuleset | null => {
  const r = stmt(db, "SELECT ruleset FROM zone_rulesets WHERE zone_id = ? AND phase = ?").get(zoneId, phase) as
    { ruleset: string } | undefined
  return r ? json<ZoneRuleset | null>(r.ruleset, null) : null
}

export const getCustomEntrypoint = (db: Database.Database, zoneId: string) =>
  getPhaseEntrypoint(db, zoneId, CustomRulesPhase)

/**
 * How many versions of a ruleset the history keeps: the newest ones; older ones are pruned by the
 * write that adds one (the reference gives no number for the platform: the README says why 50).
 */
export const RULESET_VERSIONS_KEPT = 50

/**
 * Saves the ruleset as the phase's entry point and as one more version of it, and prunes the
 * versions beyond the newest RULESET_VERSIONS_KEPT (call within a transaction: the three
 * statements land together or not at all).
 */
export const saveRuleset = (db: Database.Database, zoneId: string, r: ZoneRuleset) => {
  const text = JSON.stringify(r)
  stmt(
    db,
    `INSERT INTO zone_rulesets (zone_id, phase, id, version, ruleset) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (zone_id, phase) DO UPDATE SET version = excluded.version, ruleset = excluded.ruleset`
  ).run(zoneId, r.phase, r.id, Number(r.version), text)
  stmt(db, "INSERT INTO zone_ruleset_versions (zone_id, ruleset_id, version, ruleset) VALUES (?, ?, ?, ?)").run(
    zoneId,
    r.id,
    Number(r.version),
    text
  )
  stmt(db, "DELETE FROM zone_ruleset_versions WHERE zone_id = ? AND ruleset_id = ? AND version <= ?").run(
    zoneId,
    r.id,
    Number(r.version) - RULESET_VERSIONS_KEPT
  )
}

/** Every version of a stored ruleset, newest first (the managed entry point keeps its latest only). */
export const rulesetVersions = (db: Database.Database, zoneId: string, rulesetId: string): Array<ZoneRuleset> => {
  const rows = stmt(
    db,
    "SELECT ruleset FROM zone_ruleset_versions WHERE zone_id = ? AND ruleset_id = ? ORDER BY version DESC"
  ).all(zoneId, rulesetId) as Array<{ ruleset: string }>
  if (rows.length > 0) return rows.map((r) => json<ZoneRuleset>(r.ruleset, null as never))
  const managed = managedEntrypoint(db, zoneId)
  return managed !== null && managed.id === rulesetId ? [managed] : []
}

/** The managed entry point in the rulesets API's shape (its rules always carry what the answer needs). */
const managedEntrypoint = (db: Database.Database, zoneId: string): ZoneRuleset | null => {
  // waf-repo is on the store's client; this repository moves next.
  const r = stmt(db, "SELECT entrypoint FROM waf_zone WHERE zone_id = ?").get(zoneId) as
    { entrypoint: unknown } | undefined
  const m = json<Ruleset | null>(r?.entrypoint, null)
  if (m === null) return null
  return {
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
}

/** Every ruleset of the zone, with its rules, in phase order. */
export const zoneRulesets = (db: Database.Database, zoneId: string): Array<ZoneRuleset> => {
  const rows = stmt(db, "SELECT ruleset FROM zone_rulesets WHERE zone_id = ?").all(zoneId) as Array<{
    ruleset: string
  }>
  const managed = managedEntrypoint(db, zoneId)
  return [
    ...rows.map((r) => json<ZoneRuleset | null>(r.ruleset, null)).filter((r): r is ZoneRuleset => r !== null),
    ...(managed ? [managed] : [])
  ].sort((a, b) => a.phase.localeCompare(b.phase))
}
