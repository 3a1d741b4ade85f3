/**
 * The firewall rules the WAF migration reads, from the firewall tables (src/store/firewall-repo.ts),
 * flattened to the migration's shape. Until the firewall store is merged, a zone has none.
 */
import type Database from "better-sqlite3"
import type { BypassFirewallRule } from "../domain/waf.js"

export const zoneFirewallRules = (_db: Database.Database, _zoneId: string): Array<BypassFirewallRule> => []
