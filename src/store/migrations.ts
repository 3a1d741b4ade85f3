/**
 * Schema of the local platform's SQLite store. Each migration runs once, in order, through
 * @effect/sql's Migrator; `PRAGMA user_version` mirrors the latest applied one so that opening an
 * up-to-date store costs one pragma read and no Effect SQL client at all.
 *
 * An area adds one migration (the next number, `NNNN_<area>`) at the end; a released migration is
 * never edited. Its demo data goes in `AreaSeeds` (src/demo/seeds.ts), naming the migration.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import firewallQuotas from "../../fixtures/firewall/quotas.json" with { type: "json" }

const run = (statements: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.forEach(
      statements
        .split(";\n")
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
      (s) => sql.unsafe(s),
      { discard: true }
    )
  )

export const migrations = {
  "0001_platform": run(`
    CREATE TABLE accounts (
      id TEXT PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, plan TEXT NOT NULL,
      created_on TEXT NOT NULL, settings TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, api_key_hash TEXT);
    CREATE TABLE memberships (
      id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), account_id TEXT NOT NULL REFERENCES accounts(id),
      status TEXT NOT NULL, roles TEXT NOT NULL DEFAULT '[]'
    );
    CREATE TABLE tokens (
      id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), name TEXT NOT NULL,
      secret_hash TEXT NOT NULL UNIQUE, status TEXT NOT NULL, user_scope INTEGER NOT NULL, all_accounts INTEGER NOT NULL DEFAULT 0,
      expires_on TEXT, not_before TEXT
    );
    CREATE TABLE token_accounts (token_id TEXT NOT NULL REFERENCES tokens(id), account_id TEXT NOT NULL, PRIMARY KEY (token_id, account_id));
    CREATE TABLE zones (
      id TEXT PRIMARY KEY, name TEXT NOT NULL, account_id TEXT NOT NULL REFERENCES accounts(id),
      status TEXT NOT NULL, paused INTEGER NOT NULL, type TEXT NOT NULL, plan TEXT NOT NULL,
      development_mode INTEGER NOT NULL, name_servers TEXT NOT NULL, original_name_servers TEXT,
      original_registrar TEXT, original_dnshost TEXT, created_on TEXT NOT NULL, modified_on TEXT NOT NULL,
      activated_on TEXT, meta TEXT NOT NULL, owner TEXT NOT NULL
    );
    CREATE UNIQUE INDEX zones_name ON zones(name);
    CREATE INDEX zones_account ON zones(account_id, name);
    CREATE TABLE dns_records (
      seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, zone_id TEXT NOT NULL REFERENCES zones(id),
      type TEXT NOT NULL, name TEXT NOT NULL, content TEXT NOT NULL, proxiable INTEGER NOT NULL,
      proxied INTEGER NOT NULL, ttl INTEGER NOT NULL, priority INTEGER, comment TEXT,
      tags TEXT NOT NULL DEFAULT '[]', created_on TEXT NOT NULL, modified_on TEXT NOT NULL
    );
    CREATE INDEX dns_zone_type_name ON dns_records(zone_id, type, name, content);
    CREATE INDEX dns_zone_name ON dns_records(zone_id, name);
    CREATE TABLE certificate_packs (
      id TEXT PRIMARY KEY, zone_id TEXT NOT NULL REFERENCES zones(id), type TEXT NOT NULL, hosts TEXT NOT NULL,
      status TEXT NOT NULL, primary_certificate TEXT, created_on TEXT NOT NULL, validity_days INTEGER NOT NULL,
      validation_method TEXT NOT NULL, certificate_authority TEXT NOT NULL, cloudflare_branding INTEGER NOT NULL
    );
    CREATE INDEX packs_zone ON certificate_packs(zone_id);
    CREATE TABLE certificates (
      id TEXT PRIMARY KEY, pack_id TEXT NOT NULL REFERENCES certificate_packs(id), zone_id TEXT NOT NULL,
      hosts TEXT NOT NULL, issuer TEXT NOT NULL, signature TEXT NOT NULL, status TEXT NOT NULL,
      bundle_method TEXT NOT NULL, uploaded_on TEXT NOT NULL, modified_on TEXT NOT NULL, expires_on TEXT NOT NULL,
      priority INTEGER
    );
    CREATE INDEX certificates_pack ON certificates(pack_id);
    CREATE TABLE invites (
      id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), invited_member_id TEXT,
      account_id TEXT NOT NULL REFERENCES accounts(id), invited_by TEXT NOT NULL, invited_member_email TEXT NOT NULL,
      invited_on TEXT NOT NULL, expires_on TEXT NOT NULL, roles TEXT NOT NULL, status TEXT NOT NULL
    );
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)
  `),
  // ESC disable settings (area B): a row exists only while something is set; DELETE removes it.
  "0002_esc": run(`
    CREATE TABLE esc_zone (
      zone_id TEXT PRIMARY KEY REFERENCES zones(id) ON DELETE CASCADE,
      always INTEGER NOT NULL DEFAULT 0, secret TEXT,
      CHECK (always = 1 OR secret IS NOT NULL)
    );
    CREATE TABLE esc_account (
      account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
      always INTEGER NOT NULL DEFAULT 0, secret TEXT,
      CHECK (always = 1 OR secret IS NOT NULL)
    )
  `),
  // Key-value store (src/store/kv-repo.ts). Keys are BLOBs so that the index orders them by their UTF-8
  // bytes (the platform's listing order) and a cursor seeks past the last key; the namespace is
  // an integer in the entries so that index stays small. Only expiring entries are in the expiry
  // index: the lazy purge finds them without costing anything to writes that never expire.
  "0003_kv": run(`
    CREATE TABLE kv_namespaces (
      seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, account_id TEXT NOT NULL REFERENCES accounts(id),
      title TEXT NOT NULL, created_on TEXT NOT NULL, implicit INTEGER NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX kv_namespaces_title ON kv_namespaces(account_id, title);
    CREATE TABLE kv_entries (
      ns INTEGER NOT NULL, key BLOB NOT NULL, value BLOB NOT NULL, metadata TEXT, expiration INTEGER
    );
    CREATE UNIQUE INDEX kv_entries_key ON kv_entries(ns, key);
    CREATE INDEX kv_entries_expiring ON kv_entries(expiration) WHERE expiration IS NOT NULL
  `),
  // Firewall filters and rules (area C). A rule names its filter without a foreign key: deleting a
  // filter leaves its rules pointing at a deleted filter, as the platform shows them. A zone's
  // expressions are unique (the duplicate error names the existing filter). The rule quota of a
  // zone comes from its plan (fixtures/firewall/quotas.json).
  "0004_firewall": Effect.zipRight(
    run(`
    CREATE TABLE firewall_filters (
      seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, zone_id TEXT NOT NULL REFERENCES zones(id) ON DELETE CASCADE,
      expression TEXT NOT NULL, paused INTEGER NOT NULL DEFAULT 0, description TEXT, ref TEXT,
      created_on TEXT NOT NULL, modified_on TEXT NOT NULL
    );
    CREATE UNIQUE INDEX firewall_filters_expression ON firewall_filters(zone_id, expression);
    CREATE TABLE firewall_rules (
      seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, zone_id TEXT NOT NULL REFERENCES zones(id) ON DELETE CASCADE,
      filter_id TEXT NOT NULL, action TEXT NOT NULL, priority INTEGER, paused INTEGER NOT NULL DEFAULT 0,
      description TEXT, ref TEXT, products TEXT, created_on TEXT NOT NULL, modified_on TEXT NOT NULL
    );
    CREATE INDEX firewall_rules_zone ON firewall_rules(zone_id, seq);
    CREATE INDEX firewall_rules_filter ON firewall_rules(filter_id);
    CREATE TABLE firewall_quotas (plan TEXT PRIMARY KEY, rules INTEGER NOT NULL)
  `),
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.forEach(
        Object.entries(firewallQuotas.plans),
        ([plan, rules]) => sql`INSERT INTO firewall_quotas (plan, rules) VALUES (${plan}, ${rules})`,
        { discard: true }
      )
    )
  ),
  // The previous WAF and its migration (area D). The catalog (fixtures/waf/catalog.json) defines
  // packages, groups and rules; a zone stores only what it changed. A zone without a waf_zone row
  // has the WAF on and is in migration state `start`. Firewall rules live in the firewall tables.
  "0005_waf": run(`
    CREATE TABLE waf_zone (
      zone_id TEXT PRIMARY KEY REFERENCES zones(id) ON DELETE CASCADE,
      waf TEXT NOT NULL DEFAULT 'on' CHECK (waf IN ('on', 'off')), waf_modified_on TEXT,
      migration_state TEXT NOT NULL DEFAULT 'start' CHECK (migration_state IN ('start', 'validation', 'finished')),
      state_changed_on TEXT, entrypoint TEXT, entrypoint_version INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE waf_package_settings (
      zone_id TEXT NOT NULL REFERENCES zones(id) ON DELETE CASCADE, package_id TEXT NOT NULL,
      sensitivity TEXT, action_mode TEXT, PRIMARY KEY (zone_id, package_id)
    );
    CREATE TABLE waf_group_modes (
      zone_id TEXT NOT NULL REFERENCES zones(id) ON DELETE CASCADE, group_id TEXT NOT NULL, mode TEXT NOT NULL,
      PRIMARY KEY (zone_id, group_id)
    );
    CREATE TABLE waf_rule_modes (
      zone_id TEXT NOT NULL REFERENCES zones(id) ON DELETE CASCADE, rule_id TEXT NOT NULL, mode TEXT NOT NULL,
      PRIMARY KEY (zone_id, rule_id)
    );
    CREATE TABLE waf_overrides (
      seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, zone_id TEXT NOT NULL REFERENCES zones(id) ON DELETE CASCADE,
      description TEXT, urls TEXT NOT NULL, priority INTEGER NOT NULL, paused INTEGER NOT NULL,
      groups_json TEXT, rules_json TEXT, rewrite_action TEXT, created_on TEXT NOT NULL, modified_on TEXT NOT NULL
    );
    CREATE INDEX waf_overrides_zone ON waf_overrides(zone_id, priority);
    CREATE TABLE page_rules (
      seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, zone_id TEXT NOT NULL REFERENCES zones(id) ON DELETE CASCADE,
      targets TEXT NOT NULL, actions TEXT NOT NULL, priority INTEGER NOT NULL, status TEXT NOT NULL,
      created_on TEXT NOT NULL, modified_on TEXT NOT NULL
    );
    CREATE INDEX page_rules_zone ON page_rules(zone_id, priority)
  `),
  // Zone rulesets (issue 21): one row per zone and phase, the entry point of that phase with its
  // rules as the API answers it, and every version it had (the versions endpoints). The managed
  // phase's entry point stays in waf_zone with the migration state it is saved with.
  "0006_rulesets": run(`
    CREATE TABLE zone_rulesets (
      zone_id TEXT NOT NULL REFERENCES zones(id) ON DELETE CASCADE, phase TEXT NOT NULL, id TEXT NOT NULL UNIQUE,
      version INTEGER NOT NULL, ruleset TEXT NOT NULL, PRIMARY KEY (zone_id, phase)
    );
    CREATE TABLE zone_ruleset_versions (
      zone_id TEXT NOT NULL REFERENCES zones(id) ON DELETE CASCADE, ruleset_id TEXT NOT NULL,
      version INTEGER NOT NULL, ruleset TEXT NOT NULL, PRIMARY KEY (ruleset_id, version)
    )
  `),
  // The legacy security products (issue 33): Zone Lockdown, User Agent Blocking and rate limiting
  // (previous version), one row per rule with its wire object; `kind` names the product.
  "0007_legacy_security": run(`
    CREATE TABLE legacy_rules (
      seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, zone_id TEXT NOT NULL REFERENCES zones(id) ON DELETE CASCADE,
      kind TEXT NOT NULL, rule TEXT NOT NULL, created_on TEXT NOT NULL, modified_on TEXT NOT NULL
    );
    CREATE INDEX legacy_rules_zone ON legacy_rules(zone_id, kind, seq)
  `),
  // Keyset pagination (issue 35, src/store/seek.ts): an index for each order a list offers, so
  // that a page seeks to its first row and walks only its own rows. The rowid ends every index,
  // which is the tie-break of the orders by `seq`. `zones_account_type` answers a listing's count
  // from the index alone.
  "0008_listings": run(`
    CREATE INDEX zones_account_type ON zones(account_id, type);
    CREATE INDEX zones_status ON zones(status, name);
    CREATE INDEX zones_plan ON zones(json_extract(plan, '$.id'), name);
    CREATE INDEX dns_zone_type ON dns_records(zone_id, type, name);
    CREATE INDEX dns_zone_content ON dns_records(zone_id, content, name);
    CREATE INDEX dns_zone_ttl ON dns_records(zone_id, ttl, name);
    CREATE INDEX dns_zone_proxied ON dns_records(zone_id, proxied, name);
    CREATE INDEX packs_zone_created ON certificate_packs(zone_id, created_on, id);
    CREATE INDEX firewall_filters_zone ON firewall_filters(zone_id);
    CREATE INDEX kv_namespaces_id ON kv_namespaces(account_id, id)
  `)
} as const

export const LatestVersion = Object.keys(migrations).length
