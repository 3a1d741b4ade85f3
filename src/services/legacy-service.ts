/**
 * The legacy security products of a zone (Zone Lockdown, User Agent Blocking, rate limiting
 * previous version), read whole through the contract: what the CLI lists and what the migrations
 * off them plan from.
 */
import { call } from "../api/client.js"
import { collectPages } from "../api/pages.js"
import { LegacyEndpoints as E } from "../api/contract-legacy.js"
import type { LockdownBody, RateLimitBody, UaRuleBody } from "../domain/legacy-security.js"

const zonePath = (zoneId: string) => ({ zone_id: zoneId })

/** Every Zone Lockdown rule of the zone, in the order they are processed (priority first). */
export const allLockdowns = (zoneId: string) =>
  collectPages((page) => call(E.listLockdowns, { path: zonePath(zoneId), urlParams: { page, per_page: 1000 } }))

/** Every User Agent Blocking rule of the zone. */
export const allUaRules = (zoneId: string) =>
  collectPages((page) => call(E.listUaRules, { path: zonePath(zoneId), urlParams: { page, per_page: 1000 } }))

/** Every rate limit (previous version) of the zone; Gone where the platform has ended the API. */
export const allRateLimits = (zoneId: string) =>
  collectPages((page) => call(E.listRateLimits, { path: zonePath(zoneId), urlParams: { page, per_page: 1000 } }))

/** Replaces a Zone Lockdown rule (a PUT sets every field). */
export const putLockdown = (zoneId: string, id: string, body: LockdownBody) =>
  call(E.updateLockdown, { path: { zone_id: zoneId, lock_downs_id: id }, payload: body })

export const deleteLockdown = (zoneId: string, id: string) =>
  call(E.deleteLockdown, { path: { zone_id: zoneId, lock_downs_id: id } })

/** Replaces a User Agent Blocking rule. */
export const putUaRule = (zoneId: string, id: string, body: UaRuleBody) =>
  call(E.updateUaRule, { path: { zone_id: zoneId, ua_rule_id: id }, payload: body })

export const deleteUaRule = (zoneId: string, id: string) =>
  call(E.deleteUaRule, { path: { zone_id: zoneId, ua_rule_id: id } })

/** Replaces a rate limit (previous version; the API only replaces, there is no PATCH). */
export const putRateLimit = (zoneId: string, id: string, body: RateLimitBody) =>
  call(E.updateRateLimit, { path: { zone_id: zoneId, rate_limit_id: id }, payload: body })

export const deleteRateLimit = (zoneId: string, id: string) =>
  call(E.deleteRateLimit, { path: { zone_id: zoneId, rate_limit_id: id } })
