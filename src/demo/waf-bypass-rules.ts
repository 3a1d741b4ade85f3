/**
 * The demo world's firewall rules that bypass the WAF, seeded into the firewall tables through
 * the store's seed writes (firewall-rows.ts): a webhook bypass on globex.com (acme.com has the firewall demo's /upload bypass), more than 200 rules to migrate on
 * acme.org and an expression over 4 KB on acme-cdn.net (both need the platform's support to migrate).
 */
import type Database from "better-sqlite3"
import { seedFilter, seedRule } from "../store/firewall-rows.js"
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
    const filterId = (r: Bypass) => hexId("waf-bypass-filter", zone, r.name)
    for (const r of rules)
      seedFilter(
        db,
        zoneId,
        filterId(r),
        { expression: r.expression, paused: false, description: r.name, ref: null },
        AT
      )
    for (const r of rules)
      seedRule(
        db,
        zoneId,
        hexId("waf-bypass-rule", zone, r.name),
        {
          filter_id: filterId(r),
          action: "bypass",
          priority: r.priority ?? null,
          paused: false,
          description: r.name,
          ref: null,
          products: ["waf"]
        },
        AT
      )
  }
}
