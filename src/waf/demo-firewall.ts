/**
 * The demo world's firewall rules that bypass the WAF, seeded into the firewall tables: a webhook
 * bypass, more than 200 rules to migrate on acme.org and an expression over 4 KB on acme.io.
 * (Filled in once the firewall store is available.)
 */
import type Database from "better-sqlite3"

export const seedWafFirewallRules = (_db: Database.Database, _zoneIds: ReadonlyMap<string, string>) => {}
