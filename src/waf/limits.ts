/**
 * What stops a zone's migration, and phase 1 eligibility. Phase 2 (`phase_two=1`): every zone is
 * eligible except one with URI-based overrides; beyond that, more than 200 firewall rules to
 * migrate or a firewall rule expression over 4 KB need the platform's support.
 */
import type { CompatibilityReason, PreviousWaf } from "../domain/waf.js"
import { PREVIOUS_OWASP_PACKAGE } from "./catalog.js"
import { pageRuleWafEffect, wafBypassRules } from "./previous.js"

const MAX_FIREWALL_RULES = 200
const MAX_EXPRESSION_BYTES = 4096

const SUPPORT = "contact support to migrate this zone"

const tooManyRulesMessage = (n: number) =>
  `the number of firewall rules to migrate (${n}) exceeds ${MAX_FIREWALL_RULES}: ${SUPPORT}`
const expressionTooLongMessage = (id: string, bytes: number) =>
  `firewall rule ${id} has an expression of ${bytes} bytes, longer than 4 KB (${MAX_EXPRESSION_BYTES} bytes): ${SUPPORT}`
const uriOverrideMessage = (ids: ReadonlyArray<string>) =>
  `the zone has ${ids.length} URI-based WAF override(s) (${ids.join(", ")}): delete them with the Delete a WAF override operation before migrating`

const encoder = new TextEncoder()
const bytes = (s: string) => encoder.encode(s).length

export interface Limits {
  readonly blockers: ReadonlyArray<CompatibilityReason>
  readonly firewallRulesToMigrate: number
}

export const checkLimits = (previous: PreviousWaf): Limits => {
  const blockers: Array<CompatibilityReason> = []
  if (previous.overrides.length > 0) {
    blockers.push({
      code: "uri_override",
      message: uriOverrideMessage(previous.overrides.map((o) => o.id)),
      blocking: true
    })
  }
  const toMigrate = wafBypassRules(previous.firewall_rules).filter((r) => !r.paused)
  if (toMigrate.length > MAX_FIREWALL_RULES) {
    blockers.push({ code: "too_many_rules", message: tooManyRulesMessage(toMigrate.length), blocking: true })
  }
  const long = toMigrate.find((r) => bytes(r.expression) > MAX_EXPRESSION_BYTES)
  if (long !== undefined) {
    blockers.push({
      code: "expression_too_long",
      message: expressionTooLongMessage(long.id, bytes(long.expression)),
      blocking: true
    })
  }
  return { blockers, firewallRulesToMigrate: toMigrate.length }
}

/** Phase 1's extra conditions (without `phase_two=1`): not blocking in phase 2. */
export const phaseOneReasons = (previous: PreviousWaf): ReadonlyArray<CompatibilityReason> => {
  const reasons: Array<CompatibilityReason> = []
  const owasp = previous.packages.find((p) => p.id === PREVIOUS_OWASP_PACKAGE)
  if (previous.waf === "on" && owasp !== undefined && owasp.sensitivity !== "off") {
    reasons.push({
      code: "owasp_enabled",
      message: "phase 1: the OWASP package is enabled (sensitivity is not off)",
      blocking: false
    })
  }
  const bypass = wafBypassRules(previous.firewall_rules)
  if (bypass.length > 0) {
    reasons.push({
      code: "firewall_bypass",
      message: `phase 1: ${bypass.length} firewall rule(s) bypass the WAF`,
      blocking: false
    })
  }
  const pages = previous.page_rules.filter((p) => pageRuleWafEffect(p) !== undefined)
  if (pages.length > 0) {
    reasons.push({
      code: "page_rules",
      message: `phase 1: ${pages.length} page rule(s) disable security or turn the WAF on or off`,
      blocking: false
    })
  }
  return reasons
}
