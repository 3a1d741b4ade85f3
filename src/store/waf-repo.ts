/**
 * The previous WAF of each zone and its migration, in the local platform's store. The catalog
 * defines packages, groups and rules; a zone stores only its changes (package settings, group and
 * rule modes), its URI-based overrides, its page rules, the `waf` setting and the migration state
 * with the managed-phase entry point. Firewall rules are read from the firewall tables.
 */
import type Database from "better-sqlite3"
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
import { json, stmt } from "./query.js"

export interface ZoneWafRow {
  readonly waf: GroupMode
  readonly wafModifiedOn: string | null
  readonly state: MigrationState
  readonly stateChangedOn: string | null
  readonly entrypoint: Ruleset | null
  readonly entrypointVersion: number
}

export const getZoneWaf = (db: Database.Database, zoneId: string): ZoneWafRow => {
  const r = stmt(db, "SELECT * FROM waf_zone WHERE zone_id = ?").get(zoneId) as Record<string, unknown> | undefined
  return {
    waf: (r?.waf as GroupMode | undefined) ?? "on",
    wafModifiedOn: (r?.waf_modified_on as string | null | undefined) ?? null,
    state: (r?.migration_state as MigrationState | undefined) ?? "start",
    stateChangedOn: (r?.state_changed_on as string | null | undefined) ?? null,
    entrypoint: json(r?.entrypoint, null),
    entrypointVersion: (r?.entrypoint_version as number | undefined) ?? 0
  }
}

const ensureZone = (db: Database.Database, zoneId: string) =>
  stmt(db, "INSERT OR IGNORE INTO waf_zone (zone_id) VALUES (?)").run(zoneId)

export const setWafSetting = (db: Database.Database, zoneId: string, value: GroupMode, now: string) => {
  ensureZone(db, zoneId)
  stmt(db, "UPDATE waf_zone SET waf = ?, waf_modified_on = ? WHERE zone_id = ?").run(value, now, zoneId)
}

/** Saves the entry point and the migration state together (one transaction: never half-migrated). */
export const saveEntrypoint = (
  db: Database.Database,
  zoneId: string,
  ruleset: Ruleset,
  state: MigrationState,
  now: string
) =>
  db.transaction(() => {
    ensureZone(db, zoneId)
    const before = getZoneWaf(db, zoneId).state
    stmt(
      db,
      "UPDATE waf_zone SET entrypoint = ?, entrypoint_version = ?, migration_state = ?, state_changed_on = CASE WHEN ? THEN ? ELSE state_changed_on END WHERE zone_id = ?"
    ).run(JSON.stringify(ruleset), Number(ruleset.version), state, before !== state ? 1 : 0, now, zoneId)
  })()

export const zoneSettings = (db: Database.Database, zoneId: string): ZoneWafSettings => {
  const pk = stmt(db, "SELECT package_id, sensitivity, action_mode FROM waf_package_settings WHERE zone_id = ?").all(
    zoneId
  ) as Array<{
    package_id: string
    sensitivity: Sensitivity | null
    action_mode: ActionMode | null
  }>
  const groups = stmt(db, "SELECT group_id, mode FROM waf_group_modes WHERE zone_id = ?").all(zoneId) as Array<{
    group_id: string
    mode: GroupMode
  }>
  const rules = stmt(db, "SELECT rule_id, mode FROM waf_rule_modes WHERE zone_id = ?").all(zoneId) as Array<{
    rule_id: string
    mode: RuleMode
  }>
  return {
    packages: new Map(
      pk.map((p) => [
        p.package_id,
        { sensitivity: p.sensitivity ?? undefined, action_mode: p.action_mode ?? undefined }
      ])
    ),
    groups: new Map(groups.map((g) => [g.group_id, g.mode])),
    rules: new Map(rules.map((r) => [r.rule_id, r.mode]))
  }
}

export const setPackage = (
  db: Database.Database,
  zoneId: string,
  packageId: string,
  patch: { sensitivity?: Sensitivity | undefined; action_mode?: ActionMode | undefined }
) =>
  stmt(
    db,
    `INSERT INTO waf_package_settings (zone_id, package_id, sensitivity, action_mode) VALUES (?, ?, ?, ?)
     ON CONFLICT (zone_id, package_id) DO UPDATE SET sensitivity = COALESCE(excluded.sensitivity, sensitivity), action_mode = COALESCE(excluded.action_mode, action_mode)`
  ).run(zoneId, packageId, patch.sensitivity ?? null, patch.action_mode ?? null)

/** `on` for a group (and `default`/`on` for a rule) is the catalog's default: no row. */
export const setGroupMode = (db: Database.Database, zoneId: string, groupId: string, mode: GroupMode) =>
  mode === "on"
    ? stmt(db, "DELETE FROM waf_group_modes WHERE zone_id = ? AND group_id = ?").run(zoneId, groupId)
    : stmt(
        db,
        "INSERT INTO waf_group_modes (zone_id, group_id, mode) VALUES (?, ?, ?) ON CONFLICT (zone_id, group_id) DO UPDATE SET mode = excluded.mode"
      ).run(zoneId, groupId, mode)

export const setRuleMode = (
  db: Database.Database,
  zoneId: string,
  ruleId: string,
  mode: RuleMode,
  isDefault: boolean
) =>
  isDefault
    ? stmt(db, "DELETE FROM waf_rule_modes WHERE zone_id = ? AND rule_id = ?").run(zoneId, ruleId)
    : stmt(
        db,
        "INSERT INTO waf_rule_modes (zone_id, rule_id, mode) VALUES (?, ?, ?) ON CONFLICT (zone_id, rule_id) DO UPDATE SET mode = excluded.mode"
      ).run(zoneId, ruleId, mode)

// URI-based overrides -------------------------------------------------------------------------

const overrideFromRow = (r: Record<string, unknown>): WafOverride => ({
  id: r.id as string,
  description: (r.description as string | null) ?? null,
  urls: json(r.urls, []),
  priority: r.priority as number,
  paused: r.paused === 1,
  ...(r.groups_json ? { groups: json(r.groups_json, {}) } : {}),
  ...(r.rules_json ? { rules: json(r.rules_json, {}) } : {}),
  ...(r.rewrite_action ? { rewrite_action: json(r.rewrite_action, {}) } : {})
})

export const listOverrides = (db: Database.Database, zoneId: string): Array<WafOverride> =>
  (
    stmt(db, "SELECT * FROM waf_overrides WHERE zone_id = ? ORDER BY priority, seq").all(zoneId) as Array<
      Record<string, unknown>
    >
  ).map(overrideFromRow)

export const getOverride = (db: Database.Database, zoneId: string, id: string): WafOverride | undefined => {
  const r = stmt(db, "SELECT * FROM waf_overrides WHERE zone_id = ? AND id = ?").get(zoneId, id) as
    Record<string, unknown> | undefined
  return r ? overrideFromRow(r) : undefined
}

export const putOverride = (db: Database.Database, zoneId: string, o: WafOverride, now: string) => {
  stmt(
    db,
    `INSERT INTO waf_overrides (id, zone_id, description, urls, priority, paused, groups_json, rules_json, rewrite_action, created_on, modified_on)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET description = excluded.description, urls = excluded.urls, priority = excluded.priority,
       paused = excluded.paused, groups_json = excluded.groups_json, rules_json = excluded.rules_json,
       rewrite_action = excluded.rewrite_action, modified_on = excluded.modified_on`
  ).run(
    o.id,
    zoneId,
    o.description,
    JSON.stringify(o.urls),
    o.priority,
    o.paused ? 1 : 0,
    o.groups ? JSON.stringify(o.groups) : null,
    o.rules ? JSON.stringify(o.rules) : null,
    o.rewrite_action ? JSON.stringify(o.rewrite_action) : null,
    now,
    now
  )
  return o
}

export const deleteOverride = (db: Database.Database, zoneId: string, id: string) =>
  stmt(db, "DELETE FROM waf_overrides WHERE zone_id = ? AND id = ?").run(zoneId, id).changes > 0

// Page rules ----------------------------------------------------------------------------------

export const listPageRules = (db: Database.Database, zoneId: string): Array<PageRule> =>
  (
    stmt(db, "SELECT * FROM page_rules WHERE zone_id = ? ORDER BY priority DESC, seq").all(zoneId) as Array<
      Record<string, unknown>
    >
  ).map((r) => ({
    id: r.id as string,
    targets: json(r.targets, []),
    actions: json(r.actions, []),
    priority: r.priority as number,
    status: r.status as PageRule["status"],
    created_on: r.created_on as string,
    modified_on: r.modified_on as string
  }))

export const insertPageRule = (db: Database.Database, zoneId: string, p: PageRule, now: string) =>
  stmt(
    db,
    "INSERT INTO page_rules (id, zone_id, targets, actions, priority, status, created_on, modified_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
  ).run(p.id, zoneId, JSON.stringify(p.targets), JSON.stringify(p.actions), p.priority, p.status, now, now)

// The whole previous WAF ----------------------------------------------------------------------

export const previousWaf = (
  db: Database.Database,
  zoneId: string,
  firewallRules?: ReadonlyArray<BypassFirewallRule>
): PreviousWaf => {
  const s = zoneSettings(db, zoneId)
  return {
    waf: getZoneWaf(db, zoneId).waf,
    packages: packagesOf(zoneId, s),
    groups: groupsOf(s),
    rules: rulesOf(s),
    overrides: listOverrides(db, zoneId),
    firewall_rules: firewallRules ?? zoneFirewallRules(db, zoneId),
    page_rules: listPageRules(db, zoneId)
  }
}
