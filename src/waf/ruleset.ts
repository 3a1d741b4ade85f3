/** The entry point ruleset the platform saves for a configuration: ids, versions and refs assigned. */
import type { Ruleset, WafConfig } from "../domain/waf.js"
import { hexId } from "../domain/ids.js"

export const MANAGED_PHASE = "http_request_firewall_managed"

export const buildRuleset = (zoneId: string, previous: Ruleset | null, config: WafConfig, at: string): Ruleset => {
  const version = Number(previous?.version ?? "0") + 1
  return {
    id: previous?.id ?? hexId("ruleset", zoneId, MANAGED_PHASE),
    name: config.name,
    description: config.description ?? "",
    source: "firewall_managed",
    kind: "zone",
    version: String(version),
    rules: config.rules.map((r, i) => ({
      ...r,
      id: r.id !== undefined && r.id !== "" ? r.id : hexId("ruleset-rule", zoneId, version, i),
      version: "1",
      ref: r.ref !== undefined && r.ref !== "" ? r.ref : hexId("ruleset-rule-ref", zoneId, version, i),
      enabled: r.enabled ?? true,
      last_updated: at
    })),
    last_updated: at,
    phase: MANAGED_PHASE
  }
}
