/**
 * The plan of a zone's migration from firewall rules to custom rules, as data (src/domain/migration.ts):
 * a pure function of the live state (the firewall rules, the custom phase's rules, the zone's plan)
 * that the preview, `--dry-run`, the apply, the resume and the rollback all use. The mapping is
 * ./custom-rules.ts (limits included: the plan's count with the kept custom rules, plan-gated
 * operators, lengths), so what cannot be applied is left out with a note before anything is sent.
 *
 * Steps: one PUT of the custom entry point (the migrated rules, then the custom rules there now,
 * kept as they are: a kept rule's `ref` keeps its id), then, for each firewall rule that has a
 * custom rule and still runs, a PUT with `paused: true` (or, with --delete-old, a DELETE). A
 * firewall rule whose id is a custom rule's `ref` was migrated before: its custom rule is kept,
 * and if it runs again (resumed, or a migration stopped before pausing it) the plan pauses it.
 */
import type { CustomRule, CustomRulesMigration } from "../domain/custom-rule.js"
import { CustomRuleLimits } from "../domain/custom-rule.js"
import type { Rule } from "../domain/firewall.js"
import type { Lockdown, UaRule } from "../domain/legacy-security.js"
import type { MigrationPlan, MigrationStep, PlanNote } from "../domain/migration.js"
import { check } from "../rules/index.js"
import { migrateFirewallRules } from "./custom-rules.js"
import { planGatedMessage, planGatedOperator, planOf } from "./expression.js"
import { asWritten, canonical, sameCustomRules } from "./custom-rule-written.js"
import { isMigratedRef, placeMigrated, placementNotes } from "./lockdown-ua-placement.js"
import { ruleWrite } from "./rule-input.js"

/** What the migration reads and leaves: the replay compares two of these. */
export interface ZoneRulesState {
  readonly firewallRules: ReadonlyArray<Rule>
  /** The custom phase's rules in order (none when the zone has no entry point). */
  readonly customRules: ReadonlyArray<CustomRule>
  /**
   * The zone's Zone Lockdown and UA rules, read when its custom rules hold rules migrated from them
   * (refs `lockdown:`/`ua:`): the copies placed before a migrated `allow` are converted from them.
   */
  readonly lockdowns?: ReadonlyArray<Lockdown>
  readonly uaRules?: ReadonlyArray<UaRule>
}

/** What the live state shows once a step is in effect. */
type FirewallCheck =
  | { readonly customRules: ReadonlyArray<CustomRule> }
  | { readonly rule: string; readonly paused: boolean }
  | { readonly rule: string; readonly absent: true }

export type FirewallMigrationStep = MigrationStep<FirewallCheck>

export interface FirewallMigrationPlan extends MigrationPlan<FirewallMigrationStep, ZoneRulesState> {
  readonly kind: "firewall-custom-rules"
  /** The mapping of the rules migrated now: each firewall rule's fate, in the preview's table. */
  readonly migration: CustomRulesMigration
  /** Firewall rules a custom rule names by `ref`: migrated before. */
  readonly migrated_before: ReadonlyArray<string>
  readonly delete_old: boolean
}

export const FirewallMigrationKind = "firewall-custom-rules"

const ENTRYPOINT = "rulesets/phases/http_request_firewall_custom/entrypoint"

export const inEffect = (step: FirewallMigrationStep, live: ZoneRulesState): boolean => {
  const c = step.check
  if ("customRules" in c) return sameCustomRules(c.customRules, live.customRules)
  const rule = live.firewallRules.find((r) => r.id === c.rule)
  return "absent" in c ? rule === undefined : rule !== undefined && rule.paused === c.paused
}

/** What differs between two states, one line each: custom rules as whole JSON (as written), firewall rules' presence and paused flags. */
export const stateDifferences = (expected: ZoneRulesState, live: ZoneRulesState): ReadonlyArray<string> => {
  const out: Array<string> = []
  const want = expected.customRules.map(asWritten)
  const got = live.customRules.map(asWritten)
  if (want.length !== got.length)
    out.push(`the custom rules entry point has ${got.length} rule(s), the plan has ${want.length}`)
  for (let i = 0; i < Math.min(want.length, got.length); i++) {
    const w = want[i] as Record<string, unknown>
    const g = got[i] as Record<string, unknown>
    const fields = [...new Set([...Object.keys(w), ...Object.keys(g)])].filter(
      (k) => canonical(w[k]) !== canonical(g[k])
    )
    if (fields.length > 0)
      out.push(
        `custom rule #${i + 1} (ref ${String(g.ref ?? "-")}) differs in ${fields.map((k) => `${k}: ${canonical(g[k]) ?? "none"}, the plan has ${canonical(w[k]) ?? "none"}`).join("; ")}`
      )
  }
  // Firewall rules by presence and paused flag: what the migration changes of them. Another edit
  // of a firewall rule meanwhile (its description) is not the migration's to undo or to redo.
  const liveById = new Map(live.firewallRules.map((r) => [r.id, r]))
  for (const r of expected.firewallRules) {
    const l = liveById.get(r.id)
    if (l === undefined) out.push(`firewall rule ${r.id} is gone, the plan keeps it`)
    else if (l.paused !== r.paused)
      out.push(
        `firewall rule ${r.id} is ${l.paused ? "paused" : "active"}, the plan has it ${r.paused ? "paused" : "active"}`
      )
    liveById.delete(r.id)
  }
  for (const id of liveById.keys()) out.push(`firewall rule ${id} is there, the plan has it deleted`)
  return out
}

const entrypointStep = (
  zoneId: string,
  key: string,
  rules: ReadonlyArray<CustomRule>,
  description: string,
  inverse: FirewallMigrationStep["inverse"]
): FirewallMigrationStep => ({
  key,
  method: "PUT",
  path: `/zones/${zoneId}/${ENTRYPOINT}`,
  body: { rules },
  description,
  check: { customRules: rules },
  inverse
})

const ruleStep = (zoneId: string, rule: Rule, paused: boolean, inverse: FirewallMigrationStep["inverse"]) => ({
  key: `${paused ? "pause" : "resume"}:${rule.id}`,
  method: "PUT" as const,
  path: `/zones/${zoneId}/firewall/rules/${rule.id}`,
  body: ruleWrite(rule, { paused }),
  description: `${paused ? "pause" : "resume"} firewall rule ${rule.id}${rule.description !== undefined ? ` (${rule.description})` : ""}`,
  check: { rule: rule.id, paused },
  inverse
})

/** Why the platform would refuse any write of the kept custom rules, or undefined. */
const keptRefusal = (zone: string, plan: string | undefined, kept: ReadonlyArray<CustomRule>): string | undefined => {
  if (plan === undefined) return undefined
  const limit = CustomRuleLimits[plan]
  if (limit !== undefined && kept.length > limit)
    return `zone ${zone} has ${kept.length} custom rules, more than the ${limit} its ${plan} plan allows: the platform refuses any write of its custom rules until some are deleted`
  const p = planOf(plan)
  for (const r of kept) {
    if (r.action === "log" && plan !== "enterprise")
      return `custom rule ${r.ref ?? r.id}: the log action needs the Enterprise plan, this zone is on ${plan}: the platform would refuse the entry point with it`
    if (planGatedOperator(check(r.expression, p !== undefined ? { plan: p } : {}).diagnostics) !== undefined)
      return `custom rule ${r.ref ?? r.id}: ${planGatedMessage(plan)}: the platform would refuse the entry point with it`
  }
  return undefined
}

export interface FirewallPlanInput {
  readonly zone: { readonly id: string; readonly name: string }
  readonly account?: { readonly id: string; readonly name: string } | undefined
  /** The zone's plan (free, pro, business, enterprise): limits and plan-gated operators. */
  readonly plan: string | undefined
  readonly before: ZoneRulesState
  readonly deleteOld: boolean
}

export const planFirewallMigration = (input: FirewallPlanInput): FirewallMigrationPlan => {
  const { zone, before } = input
  const kept = before.customRules
  const refs = new Set(kept.map((r) => r.ref))
  const migratedBefore = before.firewallRules.filter((r) => refs.has(r.id))
  const pending = before.firewallRules.filter((r) => !refs.has(r.id))
  const migration = migrateFirewallRules(pending, {
    ...(input.plan !== undefined ? { plan: input.plan } : {}),
    kept: kept.length
  })
  const migrated = new Set([
    ...migration.entries.filter((e) => e.custom_rule !== null).map((e) => e.firewall_rule),
    ...migratedBefore.map((r) => r.id)
  ])
  const notes: Array<PlanNote> = [...migration.notes]
  // Said before it runs: the rollback cannot bring a deleted rule back with its id.
  if (input.deleteOld)
    notes.push({
      severity: "info",
      code: "delete-old-irreversible",
      message:
        "--delete-old deletes the migrated firewall rules: the platform gives a recreated rule a new id, so this migration cannot be rolled back (--rollback refuses it)"
    })
  const ruleSteps: Array<FirewallMigrationStep> = []
  for (const r of before.firewallRules) {
    if (!migrated.has(r.id)) continue
    if (refs.has(r.id) && !r.paused)
      notes.push({
        severity: "info",
        code: "migrated-still-active",
        rule: r.id,
        message: `rule ${r.id}: migrated before (custom rule ref ${r.id}) but still active, so both run: the migration ${input.deleteOld ? "deletes" : "pauses"} it`
      })
    if (input.deleteOld)
      ruleSteps.push({
        key: `delete:${r.id}`,
        method: "DELETE",
        path: `/zones/${zone.id}/firewall/rules/${r.id}?delete_filter_if_unused=true`,
        description: `delete firewall rule ${r.id}${r.description !== undefined ? ` (${r.description})` : ""} and its filter if no other rule uses it`,
        check: { rule: r.id, absent: true },
        inverse: {
          irreversible: `firewall rule ${r.id} was deleted (--delete-old), and the platform gives a recreated rule a new id, so a migration that deleted rules is not rolled back (the journal keeps each rule with its filter)`
        }
      })
    else if (!r.paused)
      ruleSteps.push(
        ruleStep(zone.id, r, true, ruleStep(zone.id, r, false, { irreversible: "a resume is not undone" }))
      )
  }
  const gone = new Set(ruleSteps.filter((s) => s.method === "DELETE").map((s) => (s.check as { rule: string }).rule))
  const paused = new Set(
    ruleSteps.filter((s) => s.key.startsWith("pause:")).map((s) => (s.check as { rule: string }).rule)
  )
  const firewallAfter = before.firewallRules
    .filter((r) => !gone.has(r.id))
    .map((r) => (paused.has(r.id) ? { ...r, paused: true } : r))
  // Zone Lockdown and UA rules migrated before: a migrated allow skips the rest of the phase, which
  // never exempted a request from them, so they are placed before it too, by the placement the
  // Zone Lockdown migration uses (./lockdown-ua-placement.ts), for what it matches.
  const placement =
    migration.rules.length > 0 && kept.some((r) => isMigratedRef(r.ref))
      ? placeMigrated({
          customRules: [...migration.rules, ...kept],
          lockdowns: before.lockdowns ?? [],
          uaRules: before.uaRules ?? [],
          firewallRules: firewallAfter,
          convertPending: false
        })
      : undefined
  const body = placement?.list(false) ?? [...migration.rules, ...kept.map(asWritten)]
  if (placement !== undefined) notes.push(...placementNotes(firewallAfter, kept, body, placement.gates))
  const copies = body.length - migration.rules.length - kept.length
  const limit = input.plan !== undefined ? CustomRuleLimits[input.plan] : undefined
  const refused =
    keptRefusal(zone.name, input.plan, kept) ??
    (limit !== undefined && body.length > limit
      ? `zone ${zone.name} would need ${body.length} custom rules (${migration.rules.length} migrated, ${kept.length} there now, ${copies} copies of the migrated Zone Lockdown and UA rules placed before the rules that skip the rest), more than the ${limit} its ${input.plan} plan allows: delete some, or upgrade the plan`
      : undefined)
  const steps: Array<FirewallMigrationStep> = []
  if (migration.rules.length > 0) {
    const restore = kept.map(asWritten)
    steps.push(
      entrypointStep(
        zone.id,
        "entrypoint",
        body,
        `PUT the custom rules entry point with ${body.length} rule(s): ${migration.rules.length} migrated${kept.length > 0 ? `, then the ${kept.length} there now, kept` : ""}${copies > 0 ? `, and ${copies} copies of the migrated Zone Lockdown and UA rules before the migrated rules that skip the rest` : ""}`,
        entrypointStep(
          zone.id,
          "restore-entrypoint",
          restore,
          `PUT the custom rules entry point back to the ${restore.length} rule(s) it had before the migration`,
          { irreversible: "a restore is not undone" }
        )
      )
    )
  }
  steps.push(...ruleSteps)
  const expected: ZoneRulesState = {
    ...before,
    firewallRules: firewallAfter,
    customRules: migration.rules.length > 0 ? body : kept
  }
  return {
    kind: "firewall-custom-rules",
    zone,
    ...(input.account !== undefined ? { account: input.account } : {}),
    steps: refused === undefined ? steps : [],
    before,
    expected: refused === undefined ? expected : before,
    notes,
    ...(refused !== undefined ? { refused } : {}),
    migration,
    migrated_before: migratedBefore.map((r) => r.id),
    delete_old: input.deleteOld
  }
}
