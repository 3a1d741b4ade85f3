/**
 * The demo world's firewall filters and rules, so that `edgectl firewall` and the Firewall tab have
 * something to show on first run. Deterministic ids (from the zone and the rule's name). Every
 * expression is valid for the rules language (test/firewall/store.test.ts checks it).
 */
import type Database from "better-sqlite3"
import { insertFilters, insertRules } from "../store/firewall-repo.js"
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
}

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
  ]
}

const SeededOn = isoMicros(Date.UTC(2024, 5, 3, 14, 0, 0))

export const seedFirewall = (db: Database.Database) => {
  for (const [zone, rules] of Object.entries(DemoFirewall)) {
    const z = db.prepare("SELECT id FROM zones WHERE name = ?").get(zone) as { id: string } | undefined
    if (!z) continue
    for (const r of rules) {
      const [filter] = insertFilters(
        db,
        z.id,
        [
          {
            id: hexId("firewall-filter", zone, r.name),
            expression: r.expression,
            description: r.filterDescription ?? null
          }
        ],
        SeededOn
      )
      insertRules(
        db,
        z.id,
        [
          {
            id: hexId("firewall-rule", zone, r.name),
            filter_id: filter!.id,
            action: r.action,
            priority: r.priority ?? null,
            paused: r.paused ?? false,
            description: r.name,
            products: r.products ?? null
          }
        ],
        SeededOn
      )
    }
  }
}
