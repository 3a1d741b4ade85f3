/**
 * The demo world's previous WAF: zones in every state the migration cares about (each OWASP
 * sensitivity and action, disabled groups and rules, a URI-based override, WAF page rules, the
 * zone switch off, a zone under validation and a finished one) on the pro, business and enterprise
 * plans. Firewall rules that bypass the WAF are seeded into the firewall tables (waf-bypass-rules.ts).
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import type { ActionMode, PageRule, RuleMode, Sensitivity } from "../domain/waf.js"
import {
  getZoneWaf,
  insertPageRule,
  previousWaf,
  putOverride,
  saveEntrypoint,
  setGroupMode,
  setPackage,
  setRuleMode,
  setWafSetting
} from "../store/waf-repo.js"
import { hexId } from "../domain/ids.js"
import { isoMicros } from "../domain/timestamps.js"
import { CATALOG, PREVIOUS_OWASP_PACKAGE } from "../waf/catalog.js"
import { seedWafFirewallRules } from "./waf-bypass-rules.js"
import { planMigration } from "../waf/mapping.js"
import { buildRuleset } from "../waf/ruleset.js"

const AT = isoMicros(Date.UTC(2024, 0, 20, 12, 0, 0))
const groupId = (name: string) => CATALOG.groups.find((g) => g.name === name)!.id

interface DemoZone {
  readonly owasp?: { readonly sensitivity?: Sensitivity; readonly action_mode?: ActionMode }
  readonly groups?: Readonly<Record<string, "on" | "off">>
  readonly rules?: Readonly<Record<string, RuleMode>>
  readonly waf?: "on" | "off"
  readonly pages?: ReadonlyArray<{
    readonly url: string
    readonly action: PageRule["actions"][number]
    readonly priority?: number
  }>
  readonly overrides?: ReadonlyArray<{
    readonly urls: ReadonlyArray<string>
    readonly rules?: Record<string, string>
    readonly groups?: Record<string, string>
    readonly description: string
  }>
  readonly state?: "validation" | "finished"
}

const DEMO_WAF: Readonly<Record<string, DemoZone>> = {
  "acme.com": {
    owasp: { sensitivity: "high", action_mode: "block" },
    groups: { [groupId("Cloudflare Drupal")]: "off" },
    rules: { "100043A": "disable", "100000": "simulate", "100030": "challenge" },
    pages: [{ url: "acme.com/legacy/*", action: { id: "waf", value: "off" } }]
  },
  "acme.net": {
    owasp: { sensitivity: "medium", action_mode: "block" },
    overrides: [
      { urls: ["acme.net/api/*"], rules: { "100015": "disable" }, description: "API clients send no User-Agent" }
    ]
  },
  "acme.org": { owasp: { sensitivity: "low", action_mode: "block" } },
  "acme-cdn.net": { owasp: { sensitivity: "high", action_mode: "challenge" } },
  "acme-shop.com": { owasp: { sensitivity: "medium", action_mode: "simulate" }, rules: { WP0011: "block" } },
  "acme-api.com": { owasp: { sensitivity: "off" } },
  "acme-media.com": { owasp: { sensitivity: "low", action_mode: "challenge" }, state: "validation" },
  "acme-labs.org": { owasp: { sensitivity: "high", action_mode: "block" }, state: "finished" },
  "globex.com": {
    owasp: { sensitivity: "low", action_mode: "challenge" },
    groups: { [groupId("OWASP Bad Robots")]: "off" },
    rules: { "950001": "off", D0003: "disable" },
    pages: [{ url: "*globex.com/admin/*", action: { id: "disable_security" }, priority: 2 }]
  },
  "globex.net": { waf: "off", pages: [{ url: "globex.net/login*", action: { id: "waf", value: "on" } }] },
  "globex.org": {
    owasp: { sensitivity: "high", action_mode: "simulate" },
    pages: [{ url: "globex.org/status", action: { id: "waf", value: "off" } }]
  },
  "initech.com": { owasp: { sensitivity: "high", action_mode: "simulate" } },
  "initech-tps.com": {
    owasp: { sensitivity: "low", action_mode: "block" },
    groups: { [groupId("Cloudflare WordPress")]: "off" }
  },
  "initech.org": {
    owasp: { sensitivity: "medium", action_mode: "challenge" },
    overrides: [
      { urls: ["initech.org/upload*"], groups: { [groupId("Cloudflare PHP")]: "off" }, description: "uploads" }
    ]
  }
}

/** The firewall's part on the handle (firewall-repo is not on the client), the WAF's through the client. */
export const seedWaf = (db: Database.Database, sql: SqlClient) => {
  const zoneIds = new Map(
    (db.prepare("SELECT id, name FROM zones").all() as Array<{ id: string; name: string }>).map((z) => [z.name, z.id])
  )
  seedWafFirewallRules(db, zoneIds)
  return Effect.forEach(
    Object.entries(DEMO_WAF),
    ([name, d]) =>
      Effect.gen(function* () {
        const zoneId = zoneIds.get(name)
        if (zoneId === undefined) return
        if (d.owasp) yield* setPackage(sql, zoneId, PREVIOUS_OWASP_PACKAGE, d.owasp)
        for (const [g, mode] of Object.entries(d.groups ?? {})) yield* setGroupMode(sql, zoneId, g, mode)
        for (const [r, mode] of Object.entries(d.rules ?? {})) yield* setRuleMode(sql, zoneId, r, mode, false)
        if (d.waf) yield* setWafSetting(sql, zoneId, d.waf, AT)
        for (const [i, p] of (d.pages ?? []).entries()) {
          yield* insertPageRule(
            sql,
            zoneId,
            {
              id: hexId("page-rule", name, i),
              targets: [{ target: "url", constraint: { operator: "matches", value: p.url } }],
              actions: [p.action],
              priority: p.priority ?? 1,
              status: "active"
            },
            AT
          )
        }
        for (const [i, o] of (d.overrides ?? []).entries()) {
          yield* putOverride(
            sql,
            zoneId,
            {
              id: hexId("waf-override", name, i),
              description: o.description,
              urls: o.urls,
              priority: 1,
              paused: false,
              ...(o.rules ? { rules: o.rules } : {}),
              ...(o.groups ? { groups: o.groups } : {})
            },
            AT
          )
        }
        if (d.state) {
          const config = planMigration(yield* previousWaf(sql, db, zoneId)).config
          const { entrypoint } = yield* getZoneWaf(sql, zoneId)
          yield* saveEntrypoint(sql, zoneId, buildRuleset(zoneId, entrypoint, config, AT), d.state, AT)
        }
      }),
    { discard: true }
  )
}
