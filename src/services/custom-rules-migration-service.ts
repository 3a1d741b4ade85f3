/**
 * The migration of a zone's firewall rules to custom rules as the TUI runs it: read the old rules and
 * the custom phase, map them with the one pure mapping (src/firewall/custom-rules.ts), replay a
 * traffic file through both, and apply: write the custom phase first, then pause the old rules that
 * now have a custom rule, so a failure half way never leaves the zone without either. The CLI
 * (`edgectl firewall migrate`) and the TUI plan through here alike.
 *
 * A firewall rule whose id is already the `ref` of a custom rule was migrated before: it is left
 * out of the mapping and its custom rule is kept as it is. (Mapped again, the rule, paused by the
 * first run, would come out disabled and replace the live custom rule.) Custom rules already on
 * the zone are kept, after the newly migrated ones.
 */
import * as Effect from "effect/Effect"
import type { CustomRulesMigration } from "../domain/custom-rule.js"
import type { Rule } from "../domain/firewall.js"
import type { ZoneRule } from "../domain/ruleset.js"
import { migrateFirewallRules } from "../firewall/custom-rules.js"
import { allRules, setRulePaused } from "./firewall-service.js"
import { getCustomRules, putCustomRules, type CustomRuleInput } from "./rulesets-service.js"

export interface MigrationPreview {
  /** The zone's firewall rules as listed (creation order). */
  readonly firewallRules: ReadonlyArray<Rule>
  /** The mapping of the rules not migrated before. */
  readonly migration: CustomRulesMigration
  /** The zone's custom rules now: an apply keeps them, after the newly migrated ones. */
  readonly existing: ReadonlyArray<ZoneRule>
  /** Firewall rules a custom rule already names by `ref`: migrated before, left as they are. */
  readonly alreadyMigrated: ReadonlyArray<Rule>
}

/** The preview from what the zone holds: its firewall rules and its custom rules. */
export const planMigration = (
  firewallRules: ReadonlyArray<Rule>,
  existing: ReadonlyArray<ZoneRule>,
  plan: string | undefined
): MigrationPreview => {
  const refs = new Set(existing.map((r) => r.ref))
  const pending = firewallRules.filter((r) => !refs.has(r.id))
  return {
    firewallRules,
    migration: migrateFirewallRules(pending, plan === undefined ? {} : { plan }),
    existing,
    alreadyMigrated: firewallRules.filter((r) => refs.has(r.id))
  }
}

export const previewMigration = (zoneId: string, plan: string | undefined) =>
  Effect.all([allRules(zoneId), getCustomRules(zoneId)]).pipe(
    Effect.map(([firewallRules, custom]) => planMigration(firewallRules, custom?.rules ?? [], plan))
  )

/** A custom rule already on the entry point, written back as it is (its `ref` keeps its id). */
export const keptRule = (r: ZoneRule): CustomRuleInput => ({
  action: r.action,
  expression: r.expression,
  ...(r.description !== undefined ? { description: r.description } : {}),
  enabled: r.enabled,
  ref: r.ref,
  ...(r.action_parameters !== undefined ? { action_parameters: r.action_parameters } : {}),
  ...(r.logging !== undefined ? { logging: r.logging } : {})
})

/** What the apply PUTs on the custom phase entry point: the migrated rules, then the ones there now. */
export const entrypointBody = (p: MigrationPreview): { readonly rules: ReadonlyArray<CustomRuleInput> } => ({
  // The mapping writes no block response, the one field whose shapes differ.
  rules: [...(p.migration.rules as ReadonlyArray<CustomRuleInput>), ...p.existing.map(keptRule)]
})

/** The old rules an apply pauses: those that became a custom rule and still run. */
export const rulesToPause = (p: MigrationPreview): ReadonlyArray<Rule> =>
  p.firewallRules.filter(
    (r) => !r.paused && p.migration.entries.some((e) => e.firewall_rule === r.id && e.custom_rule !== null)
  )

/** Writes the custom phase, then pauses the old rules it replaces; answers how many rules were written and how many were paused. */
export const applyMigration = (zoneId: string, p: MigrationPreview) =>
  Effect.gen(function* () {
    yield* putCustomRules(zoneId, entrypointBody(p))
    const pause = rulesToPause(p)
    for (const r of pause) yield* setRulePaused(zoneId, r.id, true)
    return { written: p.migration.rules.length, paused: pause.length }
  })
