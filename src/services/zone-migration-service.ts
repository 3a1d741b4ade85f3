/**
 * `edgectl migrate --zone Z`: everything legacy on a zone in one plan, one apply, one journal, on
 * the one engine (./migration-engine.ts) with the driver of ./zone-migration-parts.ts. The plan
 * chains each part's own plan (src/firewall/custom-rules-plan.ts, lockdown-ua-plan.ts,
 * rate-limit-plan.ts, src/waf/migration-plan.ts) in the order they run, each computed on the state
 * the parts before it leave: so the Zone Lockdown part plans with the custom rules the firewall
 * rules part writes counted against the one custom rules quota, and the two parts' writes of the
 * custom rules entry point become one request (the second's body, the first's inverse). The
 * previous WAF runs last: its step cannot be undone, so a rollback is refused once it is written.
 */
import * as Effect from "effect/Effect"
import { isIrreversible, type MigrationPlan, type MigrationStep, type PlanNote } from "../domain/migration.js"
import type { Zone } from "../domain/zone.js"
import { planFirewallMigration, type FirewallMigrationPlan } from "../firewall/custom-rules-plan.js"
import { planLockdownUaMigration, type LockdownUaPlan } from "../firewall/lockdown-ua-plan.js"
import { planRateLimitMigration, type RateLimitPlan } from "../firewall/rate-limit-plan.js"
import { irreversibleReason, planWafMigration, type WafMigrationPlan } from "../waf/migration-plan.js"
import { dashboardDeploy, type MigrationMode } from "../waf/state.js"
import { checkCustomRulesSteps } from "./custom-rules-migration-service.js"
import { applyChecked, findJournal, resumeJournal, rollbackZone, type StepProgress } from "./migration-engine.js"
import type { Journal, JournalStatus } from "./migration-journal.js"
import { checkRateLimits } from "./rate-limit-migration-service.js"
import { prepare, wafZoneOf } from "./waf-migration-service.js"
import {
  firewallProjection,
  lockdownProjection,
  PartTitles,
  rateLimitProjection,
  readZoneLegacy,
  wafProjection,
  ZoneLegacyKind,
  zoneLegacyDriver,
  type PartName,
  type ZoneLegacyState,
  type ZoneLegacyStep
} from "./zone-migration-parts.js"

export type { PartName, ZoneLegacyState, ZoneLegacyStep }
export { PartTitles }

/** The previous WAF's part: its plan, or why it has nothing to do or cannot run. */
export interface WafPart {
  readonly mode?: MigrationMode | undefined
  readonly plan?: WafMigrationPlan | undefined
  readonly nothing?: string | undefined
  readonly refused?: string | undefined
}

/** Where a part stands on the plan: `nothing` of it on the zone, `done` before, `planned`, or `refused`. */
export interface PartSummary {
  readonly part: PartName
  readonly title: string
  readonly status: "nothing" | "done" | "planned" | "refused"
  /** Its requests in the umbrella's plan. */
  readonly steps: number
  readonly reason?: string | undefined
}

/** The codes of the notes the umbrella adds to its parts' own (which their previews print). */
export const OwnNotes = ["custom-rules-one-write", "waf-last-irreversible"]

export interface ZoneLegacyPlan extends MigrationPlan<ZoneLegacyStep, ZoneLegacyState> {
  readonly kind: typeof ZoneLegacyKind
  readonly parts: {
    readonly "firewall-rules": FirewallMigrationPlan
    readonly "lockdowns-ua": LockdownUaPlan
    readonly "rate-limits": RateLimitPlan
    readonly waf: WafPart
  }
  readonly summary: ReadonlyArray<PartSummary>
  readonly delete_old: boolean
}

export type ZoneRef = Pick<Zone, "id" | "name" | "account" | "plan">

const accountOf = (z: ZoneRef) => ({ id: z.account.id, name: z.account.name ?? z.account.id })

/** A part's step as the umbrella's: the key prefixed by the part, the inverse too. */
const stepOf =
  (part: PartName) =>
  (s: MigrationStep): ZoneLegacyStep => ({
    ...s,
    key: `${part}/${s.key}`,
    part,
    inverse: isIrreversible(s.inverse) ? s.inverse : stepOf(part)(s.inverse)
  })

/** The WAF part on the state the parts before it leave: the request `waf migrate` would send, checked as it checks it. */
const planWaf = (z: ZoneRef, before: ZoneLegacyState, mode: MigrationMode | undefined) =>
  Effect.gen(function* () {
    if (before.waf.migration_state === "finished") return { nothing: "the WAF migration is finished" } satisfies WafPart
    const wz = wafZoneOf(z as Zone)
    const chosen = mode ?? dashboardDeploy(wz.plan, before.waf.migration_state)
    // What the platform refuses (a blocker, a mode the plan lacks) makes the part refused, said on the plan.
    const prepared = yield* Effect.either(prepare(wz, { mode: chosen }))
    if (prepared._tag === "Left") {
      const e = prepared.left
      const refusal = [
        "Incompatible",
        "ValidationModeNotAllowed",
        "MigrationFinished",
        "TooManyRules",
        "ExpressionTooLong",
        "UriOverridePresent",
        "InvalidInput"
      ].includes(e._tag)
      if (!refusal) return yield* Effect.fail(e)
      return { mode: chosen, refused: e.message } satisfies WafPart
    }
    const step = prepared.right
    const plan = planWafMigration({
      zone: { id: z.id, name: z.name },
      before: before.waf,
      mode: chosen,
      body: step.request.body,
      next: step.to
    })
    return { mode: chosen, plan } satisfies WafPart
  })

/** The firewall part's and the lockdown part's writes of the custom rules entry point as one request. */
const oneCustomRulesWrite = (
  steps: ReadonlyArray<ZoneLegacyStep>,
  fw: FirewallMigrationPlan,
  ld: LockdownUaPlan,
  kept: number
): ReadonlyArray<ZoneLegacyStep> => {
  const first = steps.find((s) => s.key === "firewall-rules/entrypoint")
  const second = steps.find((s) => s.key === "lockdowns-ua/entrypoint")
  if (first === undefined || second === undefined) return steps
  const rules = ld.expected.customRules.length
  const merged: ZoneLegacyStep = {
    ...first,
    body: second.body,
    check: second.check,
    description: `PUT the custom rules entry point with ${rules} rule(s): ${fw.migration.rules.length} from firewall rules, ${rules - fw.expected.customRules.length} for Zone Lockdown and User Agent Blocking${kept > 0 ? `, ${kept} there now, kept` : ""}`
  }
  return steps.flatMap((s) => (s === first ? [merged] : s === second ? [] : [s]))
}

const summaryOf = (
  part: PartName,
  steps: ReadonlyArray<ZoneLegacyStep>,
  nothing: string | undefined,
  refused: string | undefined
): PartSummary => {
  const n = steps.filter((s) => s.part === part).length
  const base = { part, title: PartTitles[part], steps: n }
  if (nothing !== undefined) return { ...base, status: "nothing", reason: nothing }
  if (refused !== undefined) return { ...base, status: "refused", reason: refused }
  return n === 0
    ? { ...base, status: "done", reason: "migrated before: nothing left to do" }
    : { ...base, status: "planned" }
}

/** The plan, computed once from what the zone holds now: what the preview and `--dry-run` show and the apply sends. */
export const planZoneLegacy = (z: ZoneRef, deleteOld: boolean, wafMode?: MigrationMode) =>
  Effect.flatMap(readZoneLegacy(z.id), (w0) => planZoneLegacyOn(z, w0, deleteOld, (w3) => planWaf(z, w3, wafMode)))

/**
 * The plan on the state `w0` (the zone now, or a journal's "before"), each part chained on the state
 * the parts before it leave; `waf` plans the previous WAF's part on the state the others leave.
 */
export const planZoneLegacyOn = <E, R>(
  z: ZoneRef,
  w0: ZoneLegacyState,
  deleteOld: boolean,
  wafOf: (w3: ZoneLegacyState) => Effect.Effect<WafPart, E, R>
) =>
  Effect.gen(function* () {
    const common = { zone: { id: z.id, name: z.name }, account: accountOf(z), plan: z.plan?.legacy_id, deleteOld }
    const fw = planFirewallMigration({ ...common, before: firewallProjection.project(w0) })
    const w1 = firewallProjection.merge(w0, fw.expected)
    // Planned on the custom rules the firewall part leaves: one quota for both parts' rules.
    const ld = planLockdownUaMigration({ ...common, before: lockdownProjection.project(w1) })
    const w2 = lockdownProjection.merge(w1, ld.expected)
    const rl = planRateLimitMigration({ ...common, before: rateLimitProjection.project(w2) })
    const w3 = rateLimitProjection.merge(w2, rl.expected)
    const waf = yield* wafOf(w3)
    const w4 = waf.plan !== undefined ? wafProjection.merge(w3, waf.plan.expected) : w3
    const steps = oneCustomRulesWrite(
      [
        ...fw.steps.map(stepOf("firewall-rules")),
        ...ld.steps.map(stepOf("lockdowns-ua")),
        ...rl.steps.map(stepOf("rate-limits")),
        ...(waf.plan?.steps ?? []).map(stepOf("waf"))
      ],
      fw,
      ld,
      w0.customRules.length
    )
    const summary = [
      summaryOf("firewall-rules", steps, w0.firewallRules.length === 0 ? "no firewall rules" : undefined, fw.refused),
      summaryOf(
        "lockdowns-ua",
        steps,
        w0.lockdowns.length + w0.uaRules.length === 0 ? "no Zone Lockdown or User Agent Blocking rules" : undefined,
        // Its "there now" counts what the firewall rules part writes before it: say so.
        ld.refused !== undefined && fw.expected.customRules.length > w0.customRules.length
          ? `${ld.refused} (counted with the ${fw.expected.customRules.length - w0.customRules.length} custom rule(s) the firewall rules part writes first: one quota for both)`
          : ld.refused
      ),
      summaryOf(
        "rate-limits",
        steps,
        w0.rateLimits.length === 0 ? "no rate limits (previous version)" : undefined,
        rl.refused
      ),
      summaryOf("waf", steps, waf.nothing, waf.refused)
    ]
    const refusals = summary.filter((s) => s.status === "refused").map((s) => `${s.title}: ${s.reason}`)
    const refused = refusals.length > 0 ? refusals.join("; ") : undefined
    // The umbrella's own notes (`OwnNotes`): what chaining the parts does, and what cannot be undone.
    const shared: ReadonlyArray<PlanNote> = [
      ...(fw.steps.length > 0 && ld.steps.some((s) => s.key === "entrypoint")
        ? [
            {
              severity: "info" as const,
              code: "custom-rules-one-write",
              message: `the Zone Lockdown and UA part is planned with the ${fw.expected.customRules.length} custom rule(s) the firewall rules part leaves (one quota for both), and both parts' custom rules are written in one request`
            }
          ]
        : []),
      ...(waf.plan !== undefined && waf.mode !== undefined
        ? [
            {
              severity: "info" as const,
              code: "waf-last-irreversible",
              message: `The previous WAF part runs last and cannot be undone: ${irreversibleReason(waf.mode)}. Until it runs, --rollback undoes the other parts; once it has run, --rollback is refused.`
            }
          ]
        : [])
    ]
    const plan: ZoneLegacyPlan = {
      kind: ZoneLegacyKind,
      zone: common.zone,
      account: common.account,
      steps: refused === undefined ? steps : [],
      before: w0,
      expected: refused === undefined ? w4 : w0,
      notes: [...shared, ...fw.notes, ...ld.notes, ...rl.notes, ...(waf.plan?.notes ?? [])],
      ...(refused !== undefined ? { refused } : {}),
      parts: { "firewall-rules": fw, "lockdowns-ua": ld, "rate-limits": rl, waf },
      summary,
      delete_old: deleteOld
    }
    return plan
  })

export type ZoneLegacyJournal = Journal<ZoneLegacyStep, ZoneLegacyState>

export const zoneLegacyJournal = (z: ZoneRef) =>
  findJournal<ZoneLegacyStep, ZoneLegacyState>(ZoneLegacyKind, z, accountOf(z))

/**
 * The platform checks the plan before anything is written, as each part's command checks its own:
 * the custom rules and rate limiting entry points without saving (`dry_run=true`); the WAF request
 * was checked when it was planned.
 */
export const checkZoneLegacy = (plan: ZoneLegacyPlan) =>
  Effect.zipRight(
    checkCustomRulesSteps(plan.zone.id, plan.steps),
    checkRateLimits({ ...plan.parts["rate-limits"], steps: plan.parts["rate-limits"].steps })
  )

export const applyZoneLegacy = (
  plan: ZoneLegacyPlan,
  progress?: (p: StepProgress) => void,
  options: { readonly checked?: boolean } = {}
) =>
  applyChecked(
    zoneLegacyDriver,
    plan,
    checkZoneLegacy(plan),
    { delete_old: plan.delete_old, waf_mode: plan.parts.waf.mode ?? null },
    progress,
    options.checked === true
  )

export const resumeZoneLegacy = (
  journal: ZoneLegacyJournal,
  status: JournalStatus,
  progress?: (p: StepProgress) => void
) => resumeJournal(zoneLegacyDriver, journal, status, progress)

/** Restores the journal's "before"; refused, saying why, once the previous WAF's step may be written. */
export const rollbackZoneLegacy = (z: ZoneRef, progress?: (p: StepProgress) => void) =>
  rollbackZone(zoneLegacyDriver, z, accountOf(z), "zone migration", progress)
