/**
 * The move of a zone's rate limits (previous version) to rate limiting rules, on the one engine
 * (./migration-engine.ts): the CLI (`edgectl firewall rate-limits migrate`) plans, applies, finishes
 * and rolls back only through these functions. The plan is src/firewall/rate-limit-plan.ts,
 * computed once from the live state; the engine sends exactly its steps and journals them.
 */
import * as Effect from "effect/Effect"
import { shellWord as quote } from "../domain/shell-word.js"
import {
  inEffect,
  planRateLimitMigration,
  RateLimitKind,
  stateDifferences,
  type RateLimitingRule,
  type RateLimitPlan,
  type RateLimitState,
  type RateLimitStep
} from "../firewall/rate-limit-plan.js"
import type { ZoneRef } from "./custom-rules-migration-service.js"
import { allRateLimits, deleteRateLimit, putRateLimit } from "./legacy-service.js"
import {
  applyChecked,
  findJournal,
  resumeJournal,
  rollbackZone,
  type MigrationDriver,
  type StepProgress
} from "./migration-engine.js"
import type { Journal, JournalStatus } from "./migration-journal.js"

import { getRateLimitRules, putRateLimitRules } from "./rulesets-service.js"

export type { RateLimitPlan }

const readRateLimits = (zoneId: string) =>
  Effect.map(
    Effect.all([allRateLimits(zoneId), getRateLimitRules(zoneId)]),
    ([rateLimits, entrypoint]): RateLimitState => ({
      rateLimits,
      rules: (entrypoint?.rules ?? []) as unknown as ReadonlyArray<RateLimitingRule>
    })
  )

const send = (zoneId: string, step: RateLimitStep) => {
  const c = step.check
  if ("rules" in c) return putRateLimitRules(zoneId, { rules: c.rules })
  if ("absent" in c) return deleteRateLimit(zoneId, c.rule)
  // An enable or a disable: its body is the rate limit's PUT (writeBody).
  const body = step.body
  if (body === undefined || "rules" in body) return Effect.die(new Error(`step ${step.key} has no rate limit body`))
  return putRateLimit(zoneId, c.rule, body)
}

export const rateLimitDriver: MigrationDriver<RateLimitStep, RateLimitState> = {
  kind: RateLimitKind,
  read: readRateLimits,
  send,
  inEffect,
  differences: stateDifferences,
  commands: (zone) => ({
    migrate: `edgectl firewall rate-limits migrate --zone ${quote(zone)}`,
    rollback: `edgectl firewall rate-limits migrate --zone ${quote(zone)} --rollback`
  })
}

const accountOf = (z: ZoneRef) => ({ id: z.account.id, name: z.account.name ?? z.account.id })

export const planRateLimits = (zone: ZoneRef, deleteOld: boolean) =>
  Effect.map(readRateLimits(zone.id), (before) =>
    planRateLimitMigration({
      zone: { id: zone.id, name: zone.name },
      account: accountOf(zone),
      plan: zone.plan?.legacy_id,
      before,
      deleteOld
    })
  )

export type RateLimitJournal = Journal<RateLimitStep, RateLimitState>

export const rateLimitJournal = (zone: ZoneRef) =>
  findJournal<RateLimitStep, RateLimitState>(RateLimitKind, zone, accountOf(zone))

/** The platform checks the plan's entry point without saving it (`dry_run=true`) before anything is written. */
export const checkRateLimits = (plan: RateLimitPlan) =>
  Effect.forEach(
    plan.steps,
    (s) =>
      "rules" in s.check ? Effect.asVoid(putRateLimitRules(plan.zone.id, { rules: s.check.rules }, true)) : Effect.void,
    { discard: true }
  )

export const applyRateLimits = (
  plan: RateLimitPlan,
  progress?: (p: StepProgress) => void,
  options: { readonly checked?: boolean } = {}
) =>
  applyChecked(
    rateLimitDriver,
    plan,
    checkRateLimits(plan),
    { delete_old: plan.delete_old },
    progress,
    options.checked === true
  )

export const resumeRateLimits = (
  journal: RateLimitJournal,
  status: JournalStatus,
  progress?: (p: StepProgress) => void
) => resumeJournal(rateLimitDriver, journal, status, progress)

export const rollbackRateLimits = (zone: ZoneRef, progress?: (p: StepProgress) => void) =>
  rollbackZone(rateLimitDriver, zone, accountOf(zone), "rate limit migration", progress)
