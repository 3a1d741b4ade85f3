/**
 * The move of a zone's Zone Lockdown and User Agent Blocking rules to custom rules, on the one
 * engine (./migration-engine.ts): the CLI (`edgectl firewall lockdowns migrate`) plans, applies,
 * finishes and rolls back only through these functions. The plan is
 * src/firewall/lockdown-ua-plan.ts, computed once from the live state; the engine sends exactly
 * its steps and journals them.
 */
import * as Effect from "effect/Effect"
import type { CustomRule } from "../domain/custom-rule.js"
import { shellWord as quote } from "../domain/shell-word.js"
import {
  inEffect,
  LockdownUaKind,
  planLockdownUaMigration,
  stateDifferences,
  type LockdownUaPlan,
  type LockdownUaState,
  type LockdownUaStep
} from "../firewall/lockdown-ua-plan.js"
import { checkCustomRulesSteps, type ZoneRef } from "./custom-rules-migration-service.js"
import { allRules } from "./firewall-service.js"
import { allLockdowns, allUaRules, deleteLockdown, deleteUaRule, putLockdown, putUaRule } from "./legacy-service.js"
import {
  applyChecked,
  findJournal,
  resumeJournal,
  rollbackZone,
  type MigrationDriver,
  type StepProgress
} from "./migration-engine.js"
import type { Journal, JournalStatus } from "./migration-journal.js"
import { getCustomRules, putCustomRules, type CustomRuleInput } from "./rulesets-service.js"

export type { LockdownUaPlan, LockdownUaState }

const readLockdownUa = (zoneId: string) =>
  Effect.map(
    Effect.all([allLockdowns(zoneId), allUaRules(zoneId), getCustomRules(zoneId), allRules(zoneId)]),
    ([lockdowns, uaRules, custom, firewallRules]): LockdownUaState => ({
      lockdowns,
      uaRules,
      customRules: (custom?.rules ?? []) as unknown as ReadonlyArray<CustomRule>,
      firewallRules
    })
  )

const send = (zoneId: string, step: LockdownUaStep) => {
  const c = step.check
  if ("customRules" in c) return putCustomRules(zoneId, { rules: c.customRules as ReadonlyArray<CustomRuleInput> })
  if ("absent" in c) return c.product === "lockdowns" ? deleteLockdown(zoneId, c.rule) : deleteUaRule(zoneId, c.rule)
  // A pause or a resume: its body is the rule's PUT (writeBody), a lockdown's with its URLs.
  const body = step.body
  if (body === undefined || "rules" in body) return Effect.die(new Error(`step ${step.key} has no rule body`))
  return "urls" in body ? putLockdown(zoneId, c.rule, body) : putUaRule(zoneId, c.rule, body)
}

export const lockdownUaDriver: MigrationDriver<LockdownUaStep, LockdownUaState> = {
  kind: LockdownUaKind,
  read: readLockdownUa,
  send,
  inEffect,
  differences: stateDifferences,
  commands: (zone) => ({
    migrate: `edgectl firewall lockdowns migrate --zone ${quote(zone)}`,
    rollback: `edgectl firewall lockdowns migrate --zone ${quote(zone)} --rollback`
  })
}

const accountOf = (z: ZoneRef) => ({ id: z.account.id, name: z.account.name ?? z.account.id })

export const planLockdownUa = (zone: ZoneRef, deleteOld: boolean) =>
  Effect.map(readLockdownUa(zone.id), (before) =>
    planLockdownUaMigration({
      zone: { id: zone.id, name: zone.name },
      account: accountOf(zone),
      plan: zone.plan?.legacy_id,
      before,
      deleteOld
    })
  )

export type LockdownUaJournal = Journal<LockdownUaStep, LockdownUaState>

export const lockdownUaJournal = (zone: ZoneRef) =>
  findJournal<LockdownUaStep, LockdownUaState>(LockdownUaKind, zone, accountOf(zone))

/** The platform checks the plan's entry point without saving it (`dry_run=true`) before anything is written. */
export const checkLockdownUa = (plan: LockdownUaPlan) => checkCustomRulesSteps(plan.zone.id, plan.steps)

export const applyLockdownUa = (
  plan: LockdownUaPlan,
  progress?: (p: StepProgress) => void,
  options: { readonly checked?: boolean } = {}
) =>
  applyChecked(
    lockdownUaDriver,
    plan,
    checkLockdownUa(plan),
    { delete_old: plan.delete_old },
    progress,
    options.checked === true
  )

export const resumeLockdownUa = (
  journal: LockdownUaJournal,
  status: JournalStatus,
  progress?: (p: StepProgress) => void
) => resumeJournal(lockdownUaDriver, journal, status, progress)

export const rollbackLockdownUa = (zone: ZoneRef, progress?: (p: StepProgress) => void) =>
  rollbackZone(lockdownUaDriver, zone, accountOf(zone), "Zone Lockdown migration", progress)
