/**
 * The previous WAF of each zone and its migration, in the local platform's store, through the
 * store's SQL client. The catalog defines packages, groups and rules; a zone stores only its changes
 * (package settings, group and rule modes), its URI-based overrides, its page rules, the `waf`
 * setting and the migration state with the managed-phase entry point. Firewall rules are read from
 * the firewall tables. The demo world seeds through these same functions (demo/waf-zones.ts: a seed
 * may be the client's effect, run inside the creating transaction).
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import type {
  ActionMode,
  BypassFirewallRule,
  GroupMode,
  MigrationState,
  PageRule,
  PreviousWaf,
  RuleMode,
  Ruleset,
  Sensitivity,
  WafOverride
} from "../domain/waf.js"
import { groupsOf, packagesOf, rulesOf, type ZoneWafSettings } from "../waf/view.js"
import { zoneFirewallRules } from "./waf-firewall.js"
import { json } from "./query.js"
import { storeFailure } from "./sql-client.js"
import type { StoreError } from "./store-error.js"

type Row = Record<string, unknown>

const failing = storeFailure("cannot read or write the zone's previous WAF")

export interface ZoneWafRow {
  readonly waf: GroupMode
  readonly wafModifiedOn: string | null
  readonly state: MigrationState
  readonly stateChangedOn: string | null
  readonly entrypoint: Ruleset | null
  readonly entrypointVersion: number
}

const zoneWafOf = (r: Row | undefined): ZoneWafRow => ({
  waf: (r?.waf as GroupMode | undefined) ?? "on",
  wafModifiedOn: (r?.waf_modified_on as string | null | undefined) ?? null,
  state: (r?.migration_state as MigrationState | undefined) ?? "start",
  stateChangedOn: (r?.state_changed_on as string | null | undefined) ?? null,
  entrypoint: json(r?.entrypoint, null),
  entrypointVersion: (r?.entrypoint_version as number | undefined) ?? 0
})

export const getZoneWaf = (sql: SqlClient, zoneId: string): Effect.Effect<ZoneWafRow, StoreError> =>
  sql<Row>`SELECT * FROM waf_zone WHERE zone_id = ${zoneId}`.pipe(
    Effect.map(([r]) => zoneWafOf(r)),
    Effect.mapError(failing)
  )

const ensureZone = (sql: SqlClient, zoneId: string) => sql`INSERT OR IGNORE INTO waf_zone (zone_id) VALUES (${zoneId})`

export const setWafSetting = (
  sql: SqlClient,
  zoneId: string,
  value: GroupMode,
  now: string
): Effect.Effect<void, StoreError> =>
  ensureZone(sql, zoneId).pipe(
    Effect.zipRight(sql`UPDATE waf_zone SET waf = ${value}, waf_modified_on = ${now} WHERE zone_id = ${zoneId}`),
    sql.withTransaction,
    Effect.asVoid,
    Effect.mapError(failing)
  )

/** Saves the entry point and the migration state together (one transaction: never half-migrated). */
export const saveEntrypoint = (
  sql: SqlClient,
  zoneId: string,
  ruleset: Ruleset,
  state: MigrationState,
  now: string
): Effect.Effect<void, StoreError> =>
  Effect.gen(function* () {
    yield* ensureZone(sql, zoneId)
    const [before] = yield* sql<{ state: MigrationState }>`
      SELECT migration_state AS state FROM waf_zone WHERE zone_id = ${zoneId}`
    const changed = before?.state !== state
    yield* sql`UPDATE waf_zone SET entrypoint = ${JSON.stringify(ruleset)}, entrypoint_version = ${Number(ruleset.version)},
                 migration_state = ${state}, state_changed_on = ${changed ? now : sql.literal("state_changed_on")}
               WHERE zone_id = ${zoneId}`
  }).pipe(sql.withTransaction, Effect.mapError(failing))

export const zoneSettings = (sql: SqlClient, zoneId: string): Effect.Effect<ZoneWafSettings, StoreError> =>
  Effect.all([
    sql<{ package_id: string; sensitivity: Sensitivity | null; action_mode: ActionMode | null }>`
      SELECT package_id, sensitivity, action_mode FROM waf_package_settings WHERE zone_id = ${zoneId}`,
    sql<{ group_id: string; mode: GroupMode }>`SELECT group_id, mode FROM waf_group_modes WHERE zone_id = ${zoneId}`,
    sql<{ rule_id: string; mode: RuleMode }>`SELECT rule_id, mode FROM waf_rule_modes WHERE zone_id = ${zoneId}`
  ]).pipe(
    Effect.map(([pk, groups, rules]) => ({
      packages: new Map(
        pk.map((p) => [
          p.package_id,
          { sensitivity: p.sensitivity ?? undefined, action_mode: p.action_mode ?? undefined }
        ])
      ),
      groups: new Map(groups.map((g) => [g.group_id, g.mode])),
      rules: new Map(rules.map((r) => [r.rule_id, r.mode]))
    })),
    Effect.mapError(failing)
  )

export const setPackage = (
  sql: SqlClient,
  zoneId: string,
  packageId: string,
  patch: { sensitivity?: Sensitivity | undefined; action_mode?: ActionMode | undefined }
): Effect.Effect<void, StoreError> =>
  sql`INSERT INTO waf_package_settings (zone_id, package_id, sensitivity, action_mode)
      VALUES (${zoneId}, ${packageId}, ${patch.sensitivity ?? null}, ${patch.action_mode ?? null})
      ON CONFLICT (zone_id, package_id) DO UPDATE SET sensitivity = COALESCE(excluded.sensitivity, sensitivity),
        action_mode = COALESCE(excluded.action_mode, action_mode)`.pipe(Effect.asVoid, Effect.mapError(failing))

/** `on` for a group (and `default`/`on` for a rule) is the catalog's default: no row. */
export const setGroupMode = (
  sql: SqlClient,
  zoneId: string,
  groupId: string,
  mode: GroupMode
): Effect.Effect<void, StoreError> =>
  (mode === "on"
    ? sql`DELETE FROM waf_group_modes WHERE zone_id = ${zoneId} AND group_id = ${groupId}`
    : sql`INSERT INTO waf_group_modes (zone_id, group_id, mode) VALUES (${zoneId}, ${groupId}, ${mode})
          ON CONFLICT (zone_id, group_id) DO UPDATE SET mode = excluded.mode`
  ).pipe(Effect.asVoid, Effect.mapError(failing))

export const setRuleMode = (
  sql: SqlClient,
  zoneId: string,
  ruleId: string,
  mode: RuleMode,
  isDefault: boolean
): Effect.Effect<void, StoreError> =>
  (isDefault
    ? sql`DELETE FROM waf_rule_modes WHERE zone_id = ${zoneId} AND rule_id = ${ruleId}`
    : sql`INSERT INTO waf_rule_modes (zone_id, rule_id, mode) VALUES (${zoneId}, ${ruleId}, ${mode})
          ON CONFLICT (zone_id, rule_id) DO UPDATE SET mode = excluded.mode`
  ).pipe(Effect.asVoid, Effect.mapError(failing))

// URI-based overrides -------------------------------------------------------------------------

const overrideFromRow = (r: Row): WafOverride => ({
  id: r.id as string,
  description: (r.description as string | null) ?? null,
  urls: json(r.urls, []),
  priority: r.priority as number,
  paused: r.paused === 1,
  ...(r.groups_json ? { groups: json(r.groups_json, {}) } : {}),
  ...(r.rules_json ? { rules: json(r.rules_json, {}) } : {}),
  ...(r.rewrite_action ? { rewrite_action: json(r.rewrite_action, {}) } : {})
})

export const listOverrides = (sql: SqlClient, zoneId: string): Effect.Effect<Array<WafOverride>, StoreError> =>
  sql<Row>`SELECT * FROM waf_overrides WHERE zone_id = ${zoneId} ORDER BY priority, seq`.pipe(
    Effect.map((rows) => rows.map(overrideFromRow)),
    Effect.mapError(failing)
  )

export const getOverride = (
  sql: SqlClient,
  zoneId: string,
  id: string
): Effect.Effect<WafOverride | undefined, StoreError> =>
  sql<Row>`SELECT * FROM waf_overrides WHERE zone_id = ${zoneId} AND id = ${id}`.pipe(
    Effect.map(([r]) => (r ? overrideFromRow(r) : undefined)),
    Effect.mapError(failing)
  )

export const putOverride = (
  sql: SqlClient,
  zoneId: string,
  o: WafOverride,
  now: string
): Effect.Effect<WafOverride, StoreError> =>
  sql`INSERT INTO waf_overrides (id, zone_id, description, urls, priority, paused, groups_json, rules_json, rewrite_action, created_on, modified_on)
      VALUES (${o.id}, ${zoneId}, ${o.description}, ${JSON.stringify(o.urls)}, ${o.priority}, ${o.paused ? 1 : 0},
        ${o.groups ? JSON.stringify(o.groups) : null}, ${o.rules ? JSON.stringify(o.rules) : null},
        ${o.rewrite_action ? JSON.stringify(o.rewrite_action) : null}, ${now}, ${now})
      ON CONFLICT (id) DO UPDATE SET description = excluded.description, urls = excluded.urls, priority = excluded.priority,
        paused = excluded.paused, groups_json = excluded.groups_json, rules_json = excluded.rules_json,
        rewrite_action = excluded.rewrite_action, modified_on = excluded.modified_on`.pipe(
    Effect.as(o),
    Effect.mapError(failing)
  )

export const deleteOverride = (sql: SqlClient, zoneId: string, id: string): Effect.Effect<boolean, StoreError> =>
  sql`DELETE FROM waf_overrides WHERE zone_id = ${zoneId} AND id = ${id}`.raw.pipe(
    Effect.map((res) => (res as Database.RunResult).changes > 0),
    Effect.mapError(failing)
  )

// Page rules ----------------------------------------------------------------------------------

export const listPageRules = (sql: SqlClient, zoneId: string): Effect.Effect<Array<PageRule>, StoreError> =>
  sql<Row>`SELECT * FROM page_rules WHERE zone_id = ${zoneId} ORDER BY priority DESC, seq`.pipe(
    Effect.map((rows) =>
      rows.map((r) => ({
        id: r.id as string,
        targets: json(r.targets, []),
        actions: json(r.actions, []),
        priority: r.priority as number,
        status: r.status as PageRule["status"],
        created_on: r.created_on as string,
        modified_on: r.modified_on as string
      }))
    ),
    Effect.mapError(failing)
  )

export const insertPageRule = (
  sql: SqlClient,
  zoneId: string,
  p: PageRule,
  now: string
): Effect.Effect<void, StoreError> =>
  sql`INSERT INTO page_rules (id, zone_id, targets, actions, priority, status, created_on, modified_on)
      VALUES (${p.id}, ${zoneId}, ${JSON.stringify(p.targets)}, ${JSON.stringify(p.actions)}, ${p.priority},
        ${p.status}, ${now}, ${now})`.pipe(Effect.asVoid, Effect.mapError(failing))

// The whole previous WAF ----------------------------------------------------------------------

/**
 * The zone's previous WAF. Its firewall rules are read on the handle (`db`) by the firewall's own
 * repository (waf-firewall.ts), which is not on the client yet.
 */
export const previousWaf = (
  sql: SqlClient,
  db: Database.Database,
  zoneId: string,
  firewallRules?: ReadonlyArray<BypassFirewallRule>
): Effect.Effect<PreviousWaf, StoreError> =>
  Effect.all([
    zoneSettings(sql, zoneId),
    getZoneWaf(sql, zoneId),
    listOverrides(sql, zoneId),
    listPageRules(sql, zoneId)
  ]).pipe(
    Effect.map(([s, zone, overrides, pageRules]) => ({
      waf: zone.waf,
      packages: packagesOf(zoneId, s),
      groups: groupsOf(s),
      rules: rulesOf(s),
      overrides,
      firewall_rules: firewallRules ?? zoneFirewallRules(db, zoneId),
      page_rules: pageRules
    }))
  )
