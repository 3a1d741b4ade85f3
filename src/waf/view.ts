/**
 * A zone's previous WAF objects as the API shows them: the catalog's packages, groups and rules
 * with the zone's own settings (package sensitivity and action, group and rule modes) applied.
 * The store keeps only what a zone changed; everything else is the catalog's default.
 */
import type { ActionMode, GroupMode, RuleMode, Sensitivity, WafGroup, WafPackage, WafRule } from "../domain/waf.js"
import { CATALOG, isOwaspPackage, type Catalog } from "./catalog.js"

export interface ZoneWafSettings {
  readonly packages: ReadonlyMap<
    string,
    { readonly sensitivity?: Sensitivity | undefined; readonly action_mode?: ActionMode | undefined }
  >
  readonly groups: ReadonlyMap<string, GroupMode>
  readonly rules: ReadonlyMap<string, RuleMode>
}

/** The previous OWASP package's defaults (the API's documented defaults). */
const OWASP_DEFAULTS = { sensitivity: "high", action_mode: "challenge" } as const

export const packagesOf = (zoneId: string, s: ZoneWafSettings, catalog: Catalog = CATALOG): Array<WafPackage> =>
  catalog.packages.map((p) => {
    const base = {
      id: p.id,
      name: p.name,
      description: p.description,
      detection_mode: p.detection_mode,
      zone_id: zoneId,
      status: "active"
    }
    if (!isOwaspPackage(p.id)) return base
    const own = s.packages.get(p.id)
    // A zone that never set its sensitivity shows none: the migration's "Default" row.
    return {
      ...base,
      ...(own?.sensitivity ? { sensitivity: own.sensitivity } : {}),
      action_mode: own?.action_mode ?? OWASP_DEFAULTS.action_mode
    }
  })

export const rulesOf = (s: ZoneWafSettings, catalog: Catalog = CATALOG): Array<WafRule> =>
  catalog.rules.map((r) => {
    const anomaly = isOwaspPackage(r.package_id)
    return {
      id: r.id,
      description: r.description,
      priority: r.priority,
      group: r.group,
      package_id: r.package_id,
      mode: s.rules.get(r.id) ?? (anomaly ? "on" : "default"),
      ...(r.default_mode !== undefined ? { default_mode: r.default_mode } : {}),
      allowed_modes: r.allowed_modes as Array<RuleMode>
    }
  })

export const groupsOf = (s: ZoneWafSettings, catalog: Catalog = CATALOG): Array<WafGroup> =>
  catalog.groups.map((g) => {
    const members = catalog.rules.filter((r) => r.group.id === g.id)
    return {
      id: g.id,
      name: g.name,
      description: g.description,
      rules_count: members.length,
      modified_rules_count: members.filter((r) => s.rules.has(r.id)).length,
      package_id: g.package_id,
      mode: s.groups.get(g.id) ?? "on",
      allowed_modes: ["on", "off"]
    }
  })
