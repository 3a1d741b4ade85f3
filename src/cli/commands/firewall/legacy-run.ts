/**
 * What `edgectl firewall lockdowns|ua-rules|rate-limits list` do (loaded when one of them runs):
 * the zone's rules of the platform's legacy security products, as a table or `--json` (the API's
 * objects).
 */
import * as Effect from "effect/Effect"
import type { Lockdown, RateLimit, UaRule } from "../../../domain/legacy-security.js"
import * as Legacy from "../../../services/legacy-service.js"
import { clip, printJson, printLine, printTable } from "../../output.js"
import { runFw, withZone } from "./common.js"
import type { Parsed } from "./options.js"

const none = (what: string, zone: string) => printLine(`No ${what} on zone ${zone}.`)

export const lockdownsList = (o: Parsed<"legacyList">) =>
  Effect.gen(function* () {
    const rules = yield* runFw("firewall lockdowns list", o, { zone: o.zone }, withZone(o.zone, Legacy.allLockdowns))
    if (o.json) return printJson(rules)
    if (rules.length === 0) return none("Zone Lockdown rules", o.zone)
    printTable(
      ["ID", "PRIORITY", "PAUSED", "URLS", "ALLOWED", "DESCRIPTION"],
      rules.map((r: Lockdown) => [
        r.id,
        r.priority === undefined ? "-" : String(r.priority),
        r.paused ? "yes" : "no",
        clip(r.urls.join(" "), 40),
        clip(r.configurations.map((c) => c.value).join(" "), 40),
        clip(r.description, 40)
      ])
    )
  })

export const uaRulesList = (o: Parsed<"legacyList">) =>
  Effect.gen(function* () {
    const rules = yield* runFw("firewall ua-rules list", o, { zone: o.zone }, withZone(o.zone, Legacy.allUaRules))
    if (o.json) return printJson(rules)
    if (rules.length === 0) return none("User Agent Blocking rules", o.zone)
    printTable(
      ["ID", "MODE", "PAUSED", "USER AGENT", "DESCRIPTION"],
      rules.map((r: UaRule) => [
        r.id,
        r.mode,
        r.paused ? "yes" : "no",
        clip(r.configuration.value, 50),
        clip(r.description, 40)
      ])
    )
  })

const methods = (r: RateLimit) => r.match.request.methods.join(",")

export const rateLimitsList = (o: Parsed<"legacyList">) =>
  Effect.gen(function* () {
    const rules = yield* runFw("firewall rate-limits list", o, { zone: o.zone }, withZone(o.zone, Legacy.allRateLimits))
    if (o.json) return printJson(rules)
    if (rules.length === 0) return none("rate limits (previous version)", o.zone)
    printTable(
      ["ID", "DISABLED", "URL", "METHODS", "THRESHOLD", "PERIOD", "ACTION", "DESCRIPTION"],
      rules.map((r: RateLimit) => [
        r.id,
        r.disabled ? "yes" : "no",
        clip(r.match.request.url, 40),
        methods(r),
        String(r.threshold),
        `${r.period}s`,
        r.action.timeout === undefined ? r.action.mode : `${r.action.mode} ${r.action.timeout}s`,
        clip(r.description, 30)
      ])
    )
  })
