/**
 * The demo world's firewall rules that bypass the WAF, seeded into the firewall tables through
 * firewall-repo: a webhook bypass on globex.com (acme.com has the firewall demo's /upload bypass), more than 200 rules to migrate on
 * acme.org and an expression over 4 KB on acme-cdn.net (both need the platform's support to migrate).
 */
import type Database from "better-sqlite3"
import { insertFilters, insertRules } from "../store/firewall-repo.js"
import { hexId } from "../domain/ids.js"
import { isoMicros } from "../domain/timestamps.js"

const AT = isoMicros(Date.UTC(2024, 0, 20, 12, 0, 0))

interface Bypass {
  readonly name: string
  readonly expression: string
  readonly priority?: number
}

const bigIpSet = `ip.src in {${Array.from({ length: 400 }, (_, i) => `198.18.${i >> 8}.${i & 255}`).join(" ")}}`

const DEMO_BYPASS: Readonly<Record<string, ReadonlyArray<Bypass>>> = {
  "globex.com": [
    {
      name: "payment webhooks skip the WAF",
      expression: 'starts_with(http.request.uri.path, "/webhooks/") and http.request.method eq "POST"'
    }
  ],
  "acme.org": Array.from({ length: 205 }, (_, i) => ({
    name: `partner ${i + 1} API`,
    expression: `http.host eq "partner${i + 1}.acme.org" and starts_with(http.request.uri.path, "/api/")`,
    priority: i + 1
  })),
  "acme-cdn.net": [
    {
      name: "scanner allow-list (over 4 KB)",
      expression: `${bigIpSet} and not http.request.uri.path contains "/admin"`
    }
  ]
}

export const seedWafFirewallRules = (db: Database.Database, zoneIds: ReadonlyMap<string, string>) => {
  for (const [zone, rules] of Object.entries(DEMO_BYPASS)) {
    const zoneId = zoneIds.get(zone)
    if (zoneId === undefined) continue
    const filters = insertFilters(
      db,
      zoneId,
      rules.map((r) => ({
        id: hexId("waf-bypass-filter", zone, r.name),
        expression: r.expression,
        description: r.name
      })),
      AT
    )
    insertRules(
      db,
      zoneId,
      rules.map((r, i) => ({
        id: hexId("waf-bypass-rule", zone, r.name),
        filter_id: filters[i]!.id,
        action: "bypass",
        products: ["waf"],
        priority: r.priority ?? null,
        description: r.name
      })),
      AT
    )
  }
}
