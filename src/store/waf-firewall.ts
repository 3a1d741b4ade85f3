/**
 * The firewall rules the WAF migration reads, from the firewall tables (src/store/firewall-listings.ts),
 * flattened to the migration's shape. A rule whose filter was deleted has no expression: it
 * matches nothing and is left out.
 */
import type Database from "better-sqlite3"
import type { BypassFirewallRule } from "../domain/waf.js"
import { listRules } from "./firewall-listings.js"

export const zoneFirewallRules = (db: Database.Database, zoneId: string): Array<BypassFirewallRule> =>
  listRules(db, zoneId).flatMap((r) =>
    r.filter === null
      ? []
      : [
          {
            id: r.id,
            expression: r.filter.expression,
            action: r.action,
            products: [...(r.products ?? [])],
            priority: r.priority,
            paused: r.paused,
            ...(r.description ? { description: r.description } : {})
          }
        ]
  )
