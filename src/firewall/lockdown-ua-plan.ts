/**
 * The plan of a zone's move from Zone Lockdown and User Agent Blocking to WAF custom rules, as data
 * (src/domain/migration.ts): a pure function of the live state that the preview, `--dry-run`, the
 * apply, the resume and the rollback all use. The mapping is the reference's (lockdown-ua-migration.md
 * §5-7, every rule of it derived: the platform documents none), in one ordered list placed after
 * the zone's custom rules (which act before both products), and again before each of them that
 * skips the rest of the phase, for the requests it matches (./lockdown-ua-placement.ts: such a
 * skip did not exempt a request from either product, so the migrated rules must not come after it):
 *
 * - each lockdown, in the order they are processed (priority first, lowest first), becomes two
 *   rules: `allow` (its URLs and an allowed IP: skip the rest of the phase, which is how an allowed
 *   IP skips the UA rules and how a higher-priority lockdown wins on overlapping URLs) and `block`
 *   (its URLs and any other IP);
 * - each UA rule becomes `http.user_agent eq "<value>"` with its mode as the action; when the
 *   plan's quota would be exceeded, UA rules of the same mode and state are merged into one
 *   `in {...}` rule (said in the notes), and a plan that still does not fit is refused whole;
 * - what exempted requests from a product (a custom skip rule or an active firewall bypass rule
 *   naming `zoneLockdown` or `uaBlock`) is appended as `and not (<its expression>)`.
 *
 * Each new rule's `ref` names its source (`lockdown:<id>:allow`, `ua:<id>[,<id>…]`, with
 * `@<the skip's ref>` when placed before one), so a re-run keeps what was migrated before. Then each source rule still running is paused (reversible) or,
 * with --delete-old, deleted.
 */
import type { CustomRule } from "../domain/custom-rule.js"
import { CustomRuleLimits } from "../domain/custom-rule.js"
import type { Rule } from "../domain/firewall.js"
import type { Lockdown, LockdownBody, UaRule, UaRuleBody } from "../domain/legacy-security.js"
import type { MigrationPlan, MigrationStep, PlanNote } from "../domain/migration.js"
import { asWritten, sameCustomRules } from "./custom-rule-written.js"
import { isMigratedRef, markerOf, placeMigrated, placementNotes, sourcesOf } from "./lockdown-ua-placement.js"

export interface LockdownUaState {
  readonly lockdowns: ReadonlyArray<Lockdown>
  readonly uaRules: ReadonlyArray<UaRule>
  /** The custom phase's rules in order (none without an entry point). */
  readonly customRules: ReadonlyArray<CustomRule>
  /** The zone's firewall rules: an active bypass of zoneLockdown or uaBlock is an exemption. Read, never changed. */
  readonly firewallRules: ReadonlyArray<Rule>
}

type LockdownUaCheck =
  | { readonly customRules: ReadonlyArray<CustomRule> }
  | { readonly product: "lockdowns" | "ua_rules"; readonly rule: string; readonly paused: boolean }
  | { readonly product: "lockdowns" | "ua_rules"; readonly rule: string; readonly absent: true }

/** A step's body: the custom rules' entry point, or a lockdown's or a UA rule's PUT (`writeBody`). */
type LockdownUaBody = { readonly rules: ReadonlyArray<CustomRule> } | LockdownBody | UaRuleBody

export type LockdownUaStep = MigrationStep<LockdownUaCheck> & { readonly body?: LockdownUaBody }

export interface LockdownUaPlan extends MigrationPlan<LockdownUaStep, LockdownUaState> {
  readonly kind: "lockdown-ua-custom-rules"
  /** Each source rule and the refs of the custom rules that replace it. */
  readonly mapping: ReadonlyArray<{
    readonly product: "lockdowns" | "ua_rules"
    readonly rule: string
    readonly refs: ReadonlyArray<string>
  }>
  readonly delete_old: boolean
}

export const LockdownUaKind = "lockdown-ua-custom-rules"

const ENTRYPOINT = "rulesets/phases/http_request_firewall_custom/entrypoint"

const isOurs = isMigratedRef

export interface LockdownUaPlanInput {
  readonly zone: { readonly id: string; readonly name: string }
  readonly account?: { readonly id: string; readonly name: string } | undefined
  readonly plan: string | undefined
  readonly before: LockdownUaState
  readonly deleteOld: boolean
}

export const planLockdownUaMigration = (input: LockdownUaPlanInput): LockdownUaPlan => {
  const { zone, before } = input
  const notes: Array<PlanNote> = []
  const placement = placeMigrated({ ...before, convertPending: true })
  const { user, gates, migrated, ordered, pendingUa, away } = placement
  const assemble = placement.list
  const limit = input.plan === undefined ? undefined : (CustomRuleLimits[input.plan] ?? CustomRuleLimits.free!)
  let body = assemble(false)
  if (limit !== undefined && body.length > limit && pendingUa.length > 1) {
    body = assemble(true)
    notes.push({
      severity: "changed",
      code: "ua-merged",
      message: `${pendingUa.length} User Agent Blocking rules merged into ${placement.mergedUa} custom rule(s), one per mode and state, to fit the ${input.plan} plan's ${limit} custom rules (derived; each keeps its exact User-Agent)`
    })
  }
  const placedBefore = body.filter((r) => isOurs(r.ref) && markerOf(r.ref!) !== undefined).length
  const refused =
    limit !== undefined && body.length > limit
      ? `zone ${zone.name} would need ${body.length} custom rules (${user.length} there now, ${body.length - user.length} for Zone Lockdown and User Agent Blocking${placedBefore > 0 ? `, ${placedBefore} of them placed before the rules that skip the rest` : ""}), more than the ${limit} its ${input.plan} plan allows: delete some, or upgrade the plan`
      : undefined

  // Each source rule and the refs of its rules, every place in list order.
  const refsOf = new Map<string, Array<string>>()
  for (const r of body)
    if (isOurs(r.ref)) for (const id of sourcesOf(r.ref!)) refsOf.set(id, [...(refsOf.get(id) ?? []), r.ref!])
  const mapping: Array<LockdownUaPlan["mapping"][number]> = [
    ...ordered.map((l) => ({ product: "lockdowns" as const, rule: l.id, refs: refsOf.get(l.id) ?? [] })),
    ...[...refsOf.entries()]
      .filter(([id]) => !before.lockdowns.some((l) => l.id === id))
      .map(([rule, refs]) => ({ product: "ua_rules" as const, rule, refs }))
  ]

  for (const l of ordered)
    if (!migrated.has(l.id) && l.urls.some((u) => !u.replace(/^https?:\/\//i, "").includes("/")))
      notes.push({
        severity: "changed",
        code: "lockdown-url-without-path",
        rule: l.id,
        message: `lockdown ${l.id}: a URL without a path (${l.urls.join(", ")}) is taken to cover every path of its host (derived: not documented)`
      })
  const equalPriorities = before.lockdowns.filter(
    (l, i, all) => l.priority !== undefined && all.findIndex((o) => o.priority === l.priority) !== i
  )
  if (equalPriorities.length > 0)
    notes.push({
      severity: "info",
      code: "lockdown-equal-priority",
      message: `lockdowns ${equalPriorities.map((l) => l.id).join(", ")} share a priority with another: the platform's order between them is not documented, the API's order is kept`
    })
  notes.push(...placementNotes(before.firewallRules, before.customRules, body, gates))
  const exempting = away("zoneLockdown", undefined).length + away("uaBlock", undefined).length
  if (exempting > 0)
    notes.push({
      severity: "info",
      code: "exemptions-kept",
      message: `${exempting} rule(s) that exempted requests from Zone Lockdown or User Agent Blocking are kept as "and not (...)" in the migrated rules`
    })
  if (body.some((r) => r.ref?.startsWith("lockdown:") === true))
    notes.push({
      severity: "changed",
      code: "block-page",
      message: "a request a lockdown refused got error 1106; the custom rule's block answers the WAF block page (403)"
    })

  const steps: Array<LockdownUaStep> = []
  const current = before.customRules.map(asWritten)
  if (!sameCustomRules(body, current)) {
    steps.push({
      key: "entrypoint",
      method: "PUT",
      path: `/zones/${zone.id}/${ENTRYPOINT}`,
      body: { rules: body },
      description: `PUT the custom rules entry point with ${body.length} rule(s): the ${user.length} there now and ${body.length - user.length} for Zone Lockdown and User Agent Blocking${placedBefore > 0 ? ` (${placedBefore} of them before the ${gates.length} rule(s) that skip the rest)` : ""}`,
      check: { customRules: body },
      inverse: {
        key: "restore-entrypoint",
        method: "PUT",
        path: `/zones/${zone.id}/${ENTRYPOINT}`,
        body: { rules: current },
        description: `PUT the custom rules entry point back to the ${current.length} rule(s) it had`,
        check: { customRules: current },
        inverse: { irreversible: "a restore is not undone" }
      }
    })
  }
  const sources: Array<readonly ["lockdowns", Lockdown] | readonly ["ua_rules", UaRule]> = [
    ...before.lockdowns.map((l) => ["lockdowns", l] as const),
    ...before.uaRules.map((u) => ["ua_rules", u] as const)
  ]
  const expectedLockdowns: Array<Lockdown> = []
  const expectedUa: Array<UaRule> = []
  for (const [product, r] of sources) {
    const path = `/zones/${zone.id}/firewall/${product}/${r.id}`
    const what = `${product === "lockdowns" ? "Zone Lockdown" : "User Agent Blocking"} rule ${r.id}`
    if (input.deleteOld) {
      steps.push({
        key: `delete:${r.id}`,
        method: "DELETE",
        path,
        description: `delete ${what}`,
        check: { product, rule: r.id, absent: true },
        inverse: { irreversible: `${what} was deleted (--delete-old): the platform gives a recreated rule a new id` }
      })
      continue
    }
    const pause = (paused: boolean): LockdownUaStep => ({
      key: `${paused ? "pause" : "resume"}:${r.id}`,
      method: "PUT",
      path,
      body: writeBody(product, r, paused),
      description: `${paused ? "pause" : "resume"} ${what}`,
      check: { product, rule: r.id, paused },
      inverse: paused ? pause(false) : { irreversible: "a resume is not undone" }
    })
    if (!r.paused) steps.push(pause(true))
    if (product === "lockdowns") expectedLockdowns.push({ ...(r as Lockdown), paused: true })
    else expectedUa.push({ ...(r as UaRule), paused: true })
  }
  if (input.deleteOld)
    notes.push({
      severity: "info",
      code: "delete-old-irreversible",
      message: "--delete-old deletes the Zone Lockdown and UA rules: this migration cannot be rolled back"
    })
  const expected: LockdownUaState = {
    lockdowns: expectedLockdowns,
    uaRules: expectedUa,
    customRules: body,
    firewallRules: before.firewallRules
  }
  return {
    kind: LockdownUaKind,
    zone,
    ...(input.account !== undefined ? { account: input.account } : {}),
    steps: refused === undefined ? steps : [],
    before,
    expected: refused === undefined ? expected : before,
    notes,
    ...(refused !== undefined ? { refused } : {}),
    mapping,
    delete_old: input.deleteOld
  }
}

/** A source rule's PUT body, as it is but for `paused` (the APIs replace every field a PUT may set). */
const writeBody = (
  product: "lockdowns" | "ua_rules",
  r: Lockdown | UaRule,
  paused: boolean
): LockdownBody | UaRuleBody => {
  if (product === "ua_rules") {
    const u = r as UaRule
    return { mode: u.mode, configuration: u.configuration, description: u.description, paused }
  }
  const l = r as Lockdown
  return {
    urls: l.urls,
    configurations: l.configurations,
    description: l.description,
    paused,
    ...(l.priority !== undefined ? { priority: l.priority } : {})
  }
}

export const inEffect = (step: LockdownUaStep, live: LockdownUaState): boolean => {
  const c = step.check
  if ("customRules" in c) return sameCustomRules(live.customRules, c.customRules)
  const list: ReadonlyArray<{ id: string; paused: boolean }> = c.product === "lockdowns" ? live.lockdowns : live.uaRules
  const rule = list.find((r) => r.id === c.rule)
  return "absent" in c ? rule === undefined : rule !== undefined && rule.paused === c.paused
}

export const stateDifferences = (expected: LockdownUaState, live: LockdownUaState): ReadonlyArray<string> => {
  const out: Array<string> = []
  if (!sameCustomRules(expected.customRules, live.customRules))
    out.push(
      `the custom rules entry point differs from the plan's (${live.customRules.length} rule(s), the plan has ${expected.customRules.length})`
    )
  for (const [product, exp, lv] of [
    ["Zone Lockdown", expected.lockdowns, live.lockdowns],
    ["User Agent Blocking", expected.uaRules, live.uaRules]
  ] as const) {
    const byId = new Map<string, { paused: boolean }>(lv.map((r) => [r.id, r]))
    for (const r of exp) {
      const l = byId.get(r.id)
      if (l === undefined) out.push(`${product} rule ${r.id} is gone, the plan keeps it`)
      else if (l.paused !== r.paused)
        out.push(
          `${product} rule ${r.id} is ${l.paused ? "paused" : "active"}, the plan has it ${r.paused ? "paused" : "active"}`
        )
      byId.delete(r.id)
    }
    for (const id of byId.keys()) out.push(`${product} rule ${id} is there, the plan has it deleted`)
  }
  return out
}
