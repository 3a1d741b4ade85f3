/**
 * The demo world's firewall filters and rules, so that `edgectl firewall` and the Firewall tab have
 * something to show on first run. Deterministic ids (from the zone and the rule's name, or the
 * shared filter's name). Every expression is valid for the rules language (test/firewall/store.test.ts
 * checks it). acme-mail.com and initech-payroll.com are the migration to custom rules' demo (issue
 * 21): between them, every case of src/firewall/custom-rules.ts.
 */
import type Database from "better-sqlite3"
import { seedFilter, seedRule } from "../store/firewall-rows.js"
import { hexId } from "../domain/ids.js"
import { isoMicros } from "../domain/timestamps.js"

interface DemoRule {
  readonly name: string
  readonly expression: string
  readonly action: string
  readonly priority?: number
  readonly paused?: boolean
  readonly products?: ReadonlyArray<string>
  readonly filterDescription?: string
  /** Several rules naming the same filter share it (created with the first). */
  readonly filter?: string
  readonly filterPaused?: boolean
  /** The rule points at a filter that was deleted. */
  readonly filterDeleted?: boolean
}

/** Each action, a bypass of each product, priorities and none, paused rule and filter, a shared and a deleted filter. */
const MigrationDemo: ReadonlyArray<DemoRule> = [
  {
    name: "log webmail logins",
    expression: 'http.request.uri.path eq "/login" and http.request.method eq "POST"',
    action: "log",
    priority: 10,
    filter: "webmail login",
    filterDescription: "POST /login"
  },
  {
    name: "challenge webmail logins",
    expression: 'http.request.uri.path eq "/login" and http.request.method eq "POST"',
    action: "managed_challenge",
    priority: 10,
    filter: "webmail login"
  },
  { name: "allow office network", expression: "ip.src in {192.0.2.0/24}", action: "allow", priority: 10 },
  { name: "block admin", expression: 'starts_with(http.request.uri.path, "/admin")', action: "block", priority: 10 },
  {
    name: "monitoring skips security level",
    expression: 'http.user_agent contains "UptimeMonitor"',
    action: "bypass",
    products: ["securityLevel"],
    priority: 1
  },
  {
    name: "partner API skips zone lockdown",
    expression: 'http.request.uri.path eq "/api/partner" and ip.src in {198.51.100.0/24}',
    action: "bypass",
    products: ["zoneLockdown"],
    priority: 2
  },
  {
    name: "legacy mail clients skip UA blocking",
    expression: 'http.user_agent contains "LegacyMailClient"',
    action: "bypass",
    products: ["uaBlock"],
    priority: 3
  },
  {
    name: "sync skips rate limiting",
    expression: 'starts_with(http.request.uri.path, "/api/sync")',
    action: "bypass",
    products: ["rateLimit"],
    priority: 4
  },
  {
    name: "attachment uploads skip the WAF",
    expression: 'http.request.uri.path eq "/upload/attachment" and http.request.method eq "POST"',
    action: "bypass",
    products: ["waf"],
    priority: 4
  },
  {
    name: "autodiscover skips browser integrity check",
    expression: 'starts_with(http.request.uri.path, "/autodiscover/")',
    action: "bypass",
    products: ["bic"]
  },
  {
    name: "shared images skip hotlink protection",
    expression: 'starts_with(http.request.uri.path, "/shared/") and http.request.uri.path contains ".png"',
    action: "bypass",
    products: ["hot", "waf"]
  },
  { name: "challenge old browsers", expression: 'http.user_agent contains "MSIE"', action: "challenge" },
  {
    name: "js challenge archives",
    expression: 'starts_with(http.request.uri.path, "/archive/")',
    action: "js_challenge",
    priority: 20
  },
  { name: "log api calls", expression: 'starts_with(http.request.uri.path, "/api/")', action: "log" },
  { name: "block spam relays", expression: "ip.src in {203.0.113.0/24}", action: "block", paused: true },
  {
    name: "block executables",
    expression: 'http.request.uri.path contains ".exe"',
    action: "block",
    priority: 5,
    filterPaused: true
  },
  {
    name: "block the old host",
    expression: 'http.host eq "old.acme-mail.com"',
    action: "block",
    filterDeleted: true
  }
]

export const DemoFirewall: Readonly<Record<string, ReadonlyArray<DemoRule>>> = {
  "acme.com": [
    {
      name: "allow office logins",
      expression:
        'ip.src in {203.0.113.0/24 2001:db8::/32} and http.request.uri.path in {"/wp-login.php" "/xmlrpc.php"}',
      action: "allow",
      priority: 1,
      filterDescription: "Login from office"
    },
    {
      name: "challenge other logins",
      expression: 'http.request.uri.path in {"/wp-login.php" "/xmlrpc.php"}',
      action: "managed_challenge",
      priority: 2,
      filterDescription: "Login"
    },
    {
      name: "allow uploads without waf",
      expression: 'http.request.uri.path matches "^/upload$"',
      action: "bypass",
      products: ["waf"],
      filterDescription: "/upload"
    },
    {
      name: "block bad bots",
      expression: 'http.user_agent contains "BadBot" or http.user_agent contains "sqlmap"',
      action: "block",
      priority: 10
    },
    {
      name: "log api writes",
      expression: 'starts_with(http.request.uri.path, "/api/") and http.request.method in {"POST" "PUT" "DELETE"}',
      action: "log"
    },
    {
      name: "js challenge sanctioned countries",
      expression: 'ip.src.country in {"KP" "IR"}',
      action: "js_challenge",
      paused: true
    }
  ],
  "globex.com": [
    {
      name: "allow API traffic without challenge",
      expression: 'http.request.uri.path matches "^/api/.*$"',
      action: "allow",
      filterDescription: "/api"
    },
    {
      name: "JS challenge site",
      expression: 'not http.request.uri.path matches "^/api/.*$"',
      action: "js_challenge",
      filterDescription: "not /api"
    }
  ],
  "initech.com": [
    {
      name: "block admin from outside",
      expression: 'http.request.uri.path contains "/admin" and not ip.src in {198.51.100.0/24}',
      action: "block"
    }
  ],
  "acme-mail.com": MigrationDemo,
  "initech-payroll.com": [
    {
      name: "log payroll pages",
      expression: 'starts_with(http.request.uri.path, "/payroll/")',
      action: "log",
      filterDescription: "payroll (log is Enterprise only for custom rules: not migrated)"
    },
    {
      name: "block exports from outside",
      expression: 'http.request.uri.path contains "/export" and not ip.src in {10.0.0.0/8}',
      action: "block",
      priority: 1
    }
  ]
}

const SeededOn = isoMicros(Date.UTC(2024, 5, 3, 14, 0, 0))

export const seedFirewall = (db: Database.Database) => {
  for (const [zone, rules] of Object.entries(DemoFirewall)) {
    const z = db.prepare("SELECT id FROM zones WHERE name = ?").get(zone) as { id: string } | undefined
    if (!z) continue
    const filters = new Map<string, string>()
    for (const r of rules) {
      const key = r.filter ?? r.name
      let filterId = filters.get(key)
      if (filterId === undefined) {
        filterId = hexId("firewall-filter", zone, key)
        filters.set(key, filterId)
        if (!r.filterDeleted)
          seedFilter(
            db,
            z.id,
            filterId,
            {
              expression: r.expression,
              paused: r.filterPaused ?? false,
              description: r.filterDescription ?? null,
              ref: null
            },
            SeededOn
          )
      }
      seedRule(
        db,
        z.id,
        hexId("firewall-rule", zone, r.name),
        {
          filter_id: filterId,
          action: r.action,
          priority: r.priority ?? null,
          paused: r.paused ?? false,
          description: r.name,
          ref: null,
          products: r.products ?? null
        },
        SeededOn
      )
    }
  }
}
