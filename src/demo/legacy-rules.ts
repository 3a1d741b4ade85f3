/**
 * The demo world's legacy security rules (Zone Lockdown, User Agent Blocking, rate limiting previous
 * version), so that a migration off them can be rehearsed offline. Between them, the zones cover
 * the cases the migrations must plan for: acme-mail.com (enterprise, whose firewall rules already
 * skip zoneLockdown, uaBlock and rateLimit) has every field of each product; globex-store.com
 * (business) has six rate limits, one over the new quota of five; initech-payroll.com (pro) has
 * three, one over the new quota of two, with a method condition and a period Pro no longer offers.
 * Deterministic ids (from the zone, the product and the rule's name).
 */
import type Database from "better-sqlite3"
import { hexId } from "../domain/ids.js"
import type { LegacyKind, Lockdown, RateLimit, UaRule } from "../domain/legacy-security.js"
import { isoMicros } from "../domain/timestamps.js"
import { seedLegacyRule } from "../store/legacy-repo.js"

type Fields<K extends LegacyKind> = K extends "lockdowns"
  ? Omit<Lockdown, "id" | "created_on" | "modified_on">
  : K extends "ua_rules"
    ? Omit<UaRule, "id">
    : Omit<RateLimit, "id">

interface DemoZone {
  readonly lockdowns?: ReadonlyArray<Fields<"lockdowns">>
  readonly ua_rules?: ReadonlyArray<Fields<"ua_rules">>
  readonly rate_limits?: ReadonlyArray<Fields<"rate_limits">>
}

const rateLimit = (
  description: string,
  url: string,
  more: Partial<Omit<Fields<"rate_limits">, "description">> = {}
): Fields<"rate_limits"> => ({
  disabled: false,
  description,
  match: {
    request: { methods: ["_ALL_"], schemes: ["_ALL_"], url },
    response: { origin_traffic: true }
  },
  bypass: [],
  threshold: 100,
  period: 60,
  action: { mode: "ban", timeout: 60 },
  ...more
})

export const DemoLegacy: Readonly<Record<string, DemoZone>> = {
  "acme-mail.com": {
    lockdowns: [
      {
        description: "webmail admin from the office only",
        urls: ["acme-mail.com/admin/*"],
        configurations: [
          { target: "ip", value: "192.0.2.10" },
          { target: "ip_range", value: "198.51.100.0/24" }
        ],
        paused: false,
        priority: 1
      },
      {
        description: "partner API",
        urls: ["acme-mail.com/api/partner*", "api.acme-mail.com/partner/*"],
        configurations: [
          { target: "ip_range", value: "198.51.100.0/24" },
          { target: "ip_range", value: "2001:db8::/64" }
        ],
        paused: false
      },
      {
        description: "staging (paused)",
        urls: ["staging.acme-mail.com"],
        configurations: [{ target: "ip", value: "203.0.113.7" }],
        paused: true
      }
    ],
    ua_rules: [
      {
        description: "Block Bad Bot web spider",
        mode: "block",
        configuration: { target: "ua", value: "BadBot/1.0.2 (+http://bad.bot)" },
        paused: false
      },
      {
        description: "challenge scripted clients",
        mode: "managed_challenge",
        configuration: { target: "ua", value: "curl/7.88.1" },
        paused: false
      },
      {
        description: "old scanner (paused)",
        mode: "js_challenge",
        configuration: { target: "ua", value: "Scanner/2.1" },
        paused: true
      }
    ],
    rate_limits: [
      rateLimit("Prevent multiple login failures", "*.acme-mail.com/login*", {
        match: {
          request: { methods: ["POST"], schemes: ["HTTP", "HTTPS"], url: "*.acme-mail.com/login*" },
          response: {
            status: [401, 403],
            origin_traffic: false,
            headers: [{ name: "Cf-Cache-Status", op: "ne", value: "HIT" }]
          }
        },
        threshold: 5,
        period: 300,
        action: {
          mode: "ban",
          timeout: 900,
          response: { content_type: "application/json", body: '{"error":"slow down"}' }
        }
      }),
      rateLimit("API sync behind NAT", "acme-mail.com/api/sync*", {
        bypass: [{ name: "url", value: "acme-mail.com/api/sync/health" }],
        correlate: { by: "nat" },
        threshold: 600
      }),
      rateLimit("whole site (log only)", "*", {
        disabled: true,
        threshold: 2000,
        action: { mode: "simulate", timeout: 60 }
      })
    ]
  },
  "globex-store.com": {
    lockdowns: [
      {
        description: "store back office",
        urls: ["globex-store.com/backoffice/*"],
        configurations: [{ target: "ip_range", value: "192.0.2.0/24" }],
        paused: false
      }
    ],
    ua_rules: [
      {
        description: "block a scraper",
        mode: "block",
        configuration: { target: "ua", value: "PriceScraper/3.0" },
        paused: false
      },
      {
        description: "challenge an old app",
        mode: "challenge",
        configuration: { target: "ua", value: "GlobexApp/1.0" },
        paused: false
      }
    ],
    rate_limits: [
      rateLimit("checkout", "globex-store.com/checkout*", { threshold: 20 }),
      rateLimit("search", "globex-store.com/search*", { threshold: 300 }),
      rateLimit("cart API", "globex-store.com/api/cart*", {
        match: {
          request: { methods: ["POST", "PUT"], schemes: ["HTTPS"], url: "globex-store.com/api/cart*" },
          response: { status: [429, 500], origin_traffic: true }
        },
        threshold: 50,
        period: 600,
        action: { mode: "ban", timeout: 86400 }
      }),
      rateLimit("login", "globex-store.com/account/login", {
        threshold: 10,
        action: { mode: "managed_challenge" }
      }),
      rateLimit("images", "img.globex-store.com/*", {
        threshold: 1000,
        period: 10,
        action: { mode: "ban", timeout: 10 }
      }),
      rateLimit("reviews", "globex-store.com/reviews/post", {
        threshold: 5,
        period: 3600,
        action: { mode: "js_challenge" }
      })
    ]
  },
  "initech-payroll.com": {
    rate_limits: [
      rateLimit("payroll login", "initech-payroll.com/login", {
        match: {
          request: { methods: ["POST"], schemes: ["_ALL_"], url: "initech-payroll.com/login" },
          response: { origin_traffic: true }
        },
        threshold: 5,
        period: 60,
        action: { mode: "ban", timeout: 3600 }
      }),
      rateLimit("exports", "initech-payroll.com/export*", { threshold: 10, period: 600 }),
      rateLimit("homepage", "initech-payroll.com", { threshold: 500, period: 10, action: { mode: "ban", timeout: 60 } })
    ]
  }
}

const SeededOn = isoMicros(Date.UTC(2024, 2, 11, 9, 30, 0))

export const seedLegacy = (db: Database.Database) => {
  const zoneOf = db.prepare("SELECT id FROM zones WHERE name = ?")
  for (const [zone, kinds] of Object.entries(DemoLegacy)) {
    const z = zoneOf.get(zone) as { id: string } | undefined
    if (!z) continue
    for (const kind of ["lockdowns", "ua_rules", "rate_limits"] as const) {
      for (const rule of kinds[kind] ?? []) {
        seedLegacyRule(db, z.id, kind, hexId("legacy", kind, zone, rule.description), rule, SeededOn)
      }
    }
  }
}
