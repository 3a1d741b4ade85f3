/**
 * The migration of a zone's firewall rules to custom rules, on the one engine (./migration-engine.ts):
 * the CLI (`edgectl firewall migrate`) and the TUI (tui/screens/custom-rules-migration.tsx) plan,
 * apply, finish and roll back only through these functions, and own no steps. The plan is
 * src/firewall/custom-rules-plan.ts, computed once from the live state; the engine sends exactly
 * its steps and journals them.
 */
import * as Effect from "effect/Effect"
import type { CustomRule } from "../domain/custom-rule.js"
import type { Rule } from "../domain/firewall.js"
import type { MigrationStep } from "../domain/migration.js"
import {
  FirewallMigrationKind,
  inEffect,
  planFirewallMigration,
  stateDifferences,
  type FirewallMigrationPlan,
  type FirewallMigrationStep,
  type ZoneRulesState
} from "../firewall/custom-rules-plan.js"
import { isMigratedRef } from "../firewall/lockdown-ua-placement.js"
import type { RuleWrite } from "../firewall/rule-input.js"
import { allRules, deleteRule, putRule } from "./firewall-service.js"
import { allLockdowns, allUaRules } from "./legacy-service.js"
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
import { shellWord as quote } from "../domain/shell-word.js"

export type { FirewallMigrationPlan, ZoneRulesState }

/** The zone's firewall rules (listing order) and its custom phase's rules (none without an entry point). */
export const readZoneRules = (zoneId: string) =>
  Effect.map(Effect.all([allRules(zoneId), getCustomRules(zoneId)]), ([firewallRules, custom]): ZoneRulesState => ({
    firewallRules,
    // The custom phase holds custom rules only: its actions are the custom rules' ones.
    customRules: (custom?.rules ?? []) as unknown as ReadonlyArray<CustomRule>
  }))

const send = (zoneId: string, step: FirewallMigrationStep) => {
  const c = step.check
  if ("customRules" in c) return putCustomRules(zoneId, { rules: c.customRules as ReadonlyArray<CustomRuleInput> })
  if ("absent" in c) return deleteRule(zoneId, c.rule, { deleteFilterIfUnused: true })
  return putRule(zoneId, step.body as RuleWrite)
}

export const firewallMigrationDriver: MigrationDriver<FirewallMigrationStep, ZoneRulesState> = {
  kind: FirewallMigrationKind,
  read: readZoneRules,
  send,
  inEffect,
  differences: stateDifferences,
  commands: (zone) => ({
    migrate: `edgectl firewall migrate --zone ${quote(zone)}`,
    rollback: `edgectl firewall migrate --zone ${quote(zone)} --rollback`
  })
}

/** A zone as the migration needs it (`Zone` has it): the account keys remote journals, the plan the limits. */
export interface ZoneRef {
  readonly id: string
  readonly name: string
  readonly account: { readonly id: string; readonly name?: string | undefined }
  readonly plan?: { readonly legacy_id?: string | undefined } | undefined
}

const accountOf = (z: ZoneRef) => ({ id: z.account.id, name: z.account.name ?? z.account.id })

/**
 * The zone's rules as the plan reads them: with its Zone Lockdown and UA rules when its custom
 * rules hold rules migrated from them, which the plan places again before a migrated `allow`.
 */
const readPlanState = (zoneId: string) =>
  Effect.flatMap(readZoneRules(zoneId), (rules) =>
    rules.customRules.some((r) => isMigratedRef(r.ref))
      ? Effect.map(Effect.all([allLockdowns(zoneId), allUaRules(zoneId)]), ([lockdowns, uaRules]): ZoneRulesState => ({
          ...rules,
          lockdowns,
          uaRules
        }))
      : Effect.succeed(rules)
  )

/** The plan, computed once from what the zone holds now: what the preview and `--dry-run` show and the apply sends. */
export const planZoneMigration = (zone: ZoneRef, deleteOld: boolean) =>
  Effect.map(readPlanState(zone.id), (before) =>
    planFirewallMigration({
      zone: { id: zone.id, name: zone.name },
      account: accountOf(zone),
      plan: zone.plan?.legacy_id,
      before,
      deleteOld
    })
  )

export type FirewallJournal = Journal<FirewallMigrationStep, ZoneRulesState>

/** The zone's migration journal and where it stands, or undefined when it has none. */
export const zoneMigrationJournal = (zone: ZoneRef) =>
  findJournal<FirewallMigrationStep, ZoneRulesState>(FirewallMigrationKind, zone, accountOf(zone))

/**
 * The state the zone's last migration found before its first write (for the replay of a migration
 * already applied: that "before" against the live rules), or undefined without a journal.
 */
export const journalBefore = (zone: ZoneRef) => Effect.map(zoneMigrationJournal(zone), (j) => j?.journal.plan.before)

/**
 * The platform checks the plan's custom phase entry point without saving it (`dry_run=true`, which
 * the rulesets API takes): what the plan could not predict (another client's rules, a limit of the
 * account) fails here, before anything is written. The pauses re-send rules as they are, paused:
 * the firewall rules API has no dry run, and they need none.
 */
export const checkZoneMigration = (plan: FirewallMigrationPlan) => checkCustomRulesSteps(plan.zone.id, plan.steps)

/**
 * The custom phase's entry point PUTs among a plan's steps, checked by the platform without saving
 * (`dry_run=true`): every migration that writes custom rules checks them so before its first write.
 */
export const checkCustomRulesSteps = (zoneId: string, steps: ReadonlyArray<MigrationStep<unknown>>) =>
  Effect.forEach(
    steps,
    (s) => {
      const c = s.check as { readonly customRules?: ReadonlyArray<CustomRule> }
      return c.customRules !== undefined
        ? Effect.asVoid(putCustomRules(zoneId, { rules: c.customRules as ReadonlyArray<CustomRuleInput> }, true))
        : Effect.void
    },
    { discard: true }
  )

/**
 * Checks the plan with the platform (`checkZoneMigration`), then applies it on the engine;
 * `checked`: the caller has just checked it (the CLI, before it asks), so it is not sent twice.
 */
export const applyZoneMigration = (
  plan: FirewallMigrationPlan,
  progress?: (p: StepProgress) => void,
  options: { readonly checked?: boolean } = {}
) =>
  applyChecked(
    firewallMigrationDriver,
    plan,
    checkZoneMigration(plan),
    { delete_old: plan.delete_old },
    progress,
    options.checked === true
  )

export const resumeZoneMigration = (
  journal: FirewallJournal,
  status: JournalStatus,
  progress?: (p: StepProgress) => void
) => resumeJournal(firewallMigrationDriver, journal, status, progress)

/** Restores the journal's "before"; a zone without a journal has nothing to roll back. */
export const rollbackZoneMigration = (zone: ZoneRef, progress?: (p: StepProgress) => void) =>
  rollbackZone(firewallMigrationDriver, zone, accountOf(zone), "migration", progress)

/** The firewall rules the plan maps now: those not migrated before (its preview's table). */
export const rulesMigratedNow = (plan: FirewallMigrationPlan): ReadonlyArray<Rule> =>
  plan.before.firewallRules.filter((r) => !plan.migrated_before.includes(r.id))
