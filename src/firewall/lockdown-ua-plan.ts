/**
 * The plan of a zone's move from Zone Lockdown and User Agent Blocking to WAF custom rules, as data
 * (src/domain/migration.ts): a pure function of the live state that the preview, `--dry-run`, the
 * apply, the resume and the rollback all use. The mapping is the reference's (lockdown-ua-migration.md
 * §5-7, every rule of it derived: the platform documents none), in one ordered list placed after
 * the zone's custom rules (which act before both products):
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
 * Each new rule's `ref` names its source (`lockdown:<id>:allow`, `ua:<id>[,<id>…]`), so a re-run
 * keeps what was migrated before. Then each source rule still running is paused (reversible) or,
 * with --delete-old, deleted.
 */
import type { CustomRule } from "../domain/custom-rule.js"
import { CustomRuleLimits } from "../domain/custom-rule.js"
import type { Rule } from "../domain/firewall.js"
import { isDeletedFilter } from "../domain/firewall.js"
import type { Lockdown, LockdownBody, UaRule, UaRuleBody } from "../domain/legacy-security.js"
import type { MigrationPlan, MigrationStep, PlanNote } from "../domain/migration.js"
import { anyUrlExpression, quote } from "../rules/url-pattern.js"
import { asWritten, sameCustomRules } from "./custom-rules-plan.js"

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

/** Zone Lockdown in the order it processes rules: with a priority first (lowest first), then the rest, in API order. */
export const processingOrder = (lockdowns: ReadonlyArray<Lockdown>) =>
  lockdowns
    .map((l, i) => ({ l, i }))
    .sort((a, b) => (a.l.priority ?? Infinity) - (b.l.priority ?? Infinity) || a.i - b.i)
    .map((x) => x.l)

const ipTerm = (l: Lockdown) => `ip.src in {${l.configurations.map((c) => c.value).join(" ")}}`

/** The expressions that exempted requests from a product: custom skip rules and active firewall bypass rules. */
const exemptions = (s: LockdownUaState, product: "zoneLockdown" | "uaBlock"): ReadonlyArray<string> => [
  ...s.customRules
    .filter((r) => r.action === "skip" && r.enabled !== false && r.action_parameters?.products?.includes(product))
    .map((r) => r.expression),
  ...s.firewallRules
    .filter(
      (r) =>
        r.action === "bypass" &&
        !r.paused &&
        r.products?.includes(product) === true &&
        !isDeletedFilter(r.filter) &&
        !r.filter.paused
    )
    .map((r) => (isDeletedFilter(r.filter) ? "" : r.filter.expression))
]

const exempt = (expression: string, away: ReadonlyArray<string>) =>
  away.length === 0 ? expression : `${expression}${away.map((e) => ` and not (${e})`).join("")}`

const isOurs = (ref: string | undefined) => ref !== undefined && (ref.startsWith("lockdown:") || ref.startsWith("ua:"))

const lockdownRules = (l: Lockdown, away: ReadonlyArray<string>): ReadonlyArray<CustomRule> => {
  const urls = anyUrlExpression(l.urls, { path: "caseless" })
  const scope = urls === "true" ? "" : `(${urls}) and `
  const enabled = !l.paused
  const name = l.description !== "" ? l.description : `Zone Lockdown ${l.id}`
  return [
    {
      ref: `lockdown:${l.id}:allow`,
      description: `${name} (allowed IPs)`,
      expression: exempt(`${scope}${ipTerm(l)}`, away),
      action: "skip",
      action_parameters: { ruleset: "current" },
      logging: { enabled: false },
      enabled
    },
    {
      ref: `lockdown:${l.id}:block`,
      description: name,
      expression: exempt(`${scope}not ${ipTerm(l)}`, away),
      action: "block",
      enabled
    }
  ]
}

const uaRule = (group: ReadonlyArray<UaRule>, away: ReadonlyArray<string>): CustomRule => {
  const first = group[0]!
  const values = group.map((u) => quote(u.configuration.value))
  return {
    ref: `ua:${group.map((u) => u.id).join(",")}`,
    description:
      group.length === 1
        ? first.description !== ""
          ? first.description
          : `User Agent Blocking ${first.id}`
        : `${group.length} User Agent Blocking rules (${first.mode})`,
    expression: exempt(
      group.length === 1 ? `http.user_agent eq ${values[0]}` : `http.user_agent in {${values.join(" ")}}`,
      away
    ),
    action: first.mode,
    enabled: !first.paused
  }
}

/** The source rule ids a custom rule's ref names (ours only). */
const sourcesOf = (ref: string): ReadonlyArray<string> =>
  ref.startsWith("lockdown:") ? [ref.split(":")[1]!] : ref.slice("ua:".length).split(",")

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
  const user = before.customRules.filter((r) => !isOurs(r.ref))
  const ours = before.customRules.filter((r) => isOurs(r.ref))
  const migrated = new Set(ours.flatMap((r) => sourcesOf(r.ref!)))
  const lockAway = exemptions(before, "zoneLockdown")
  const uaAway = exemptions(before, "uaBlock")
  const mapping: Array<LockdownUaPlan["mapping"][number]> = []

  // Lockdowns: a migrated one keeps its rules as written; a pending one is converted now.
  const lockOut: Array<CustomRule> = []
  for (const l of processingOrder(before.lockdowns)) {
    const kept = ours.filter((r) => r.ref!.startsWith(`lockdown:${l.id}:`))
    const rules = migrated.has(l.id) ? kept.map(asWritten) : lockdownRules(l, lockAway)
    lockOut.push(...rules)
    mapping.push({ product: "lockdowns", rule: l.id, refs: rules.map((r) => r.ref!) })
    if (!migrated.has(l.id) && l.urls.some((u) => !u.replace(/^https?:\/\//i, "").includes("/")))
      notes.push({
        severity: "changed",
        code: "lockdown-url-without-path",
        rule: l.id,
        message: `lockdown ${l.id}: a URL without a path (${l.urls.join(", ")}) is taken to cover every path of its host (derived: not documented)`
      })
  }
  const equalPriorities = before.lockdowns.filter(
    (l, i, all) => l.priority !== undefined && all.findIndex((o) => o.priority === l.priority) !== i
  )
  if (equalPriorities.length > 0)
    notes.push({
      severity: "info",
      code: "lockdown-equal-priority",
      message: `lockdowns ${equalPriorities.map((l) => l.id).join(", ")} share a priority with another: the platform's order between them is not documented, the API's order is kept`
    })

  // UA rules: migrated ones kept; pending ones one rule each, merged per mode and state if the quota needs it.
  const uaKept = ours.filter((r) => r.ref!.startsWith("ua:")).map(asWritten)
  const pendingUa = before.uaRules.filter((u) => !migrated.has(u.id))
  const limit = input.plan === undefined ? undefined : (CustomRuleLimits[input.plan] ?? CustomRuleLimits.free!)
  const countWith = (ua: number) => user.length + lockOut.length + uaKept.length + ua
  let uaNew = pendingUa.map((u) => uaRule([u], uaAway))
  if (limit !== undefined && countWith(uaNew.length) > limit && pendingUa.length > 1) {
    const groups = new Map<string, Array<UaRule>>()
    for (const u of pendingUa) groups.set(`${u.mode}/${u.paused}`, [...(groups.get(`${u.mode}/${u.paused}`) ?? []), u])
    uaNew = [...groups.values()].map((g) => uaRule(g, uaAway))
    notes.push({
      severity: "changed",
      code: "ua-merged",
      message: `${pendingUa.length} User Agent Blocking rules merged into ${uaNew.length} custom rule(s), one per mode and state, to fit the ${input.plan} plan's ${limit} custom rules (derived; each keeps its exact User-Agent)`
    })
  }
  for (const r of [...uaKept, ...uaNew])
    for (const id of sourcesOf(r.ref!)) mapping.push({ product: "ua_rules", rule: id, refs: [r.ref!] })

  const body = [...user.map(asWritten), ...lockOut, ...uaKept, ...uaNew]
  const refused =
    limit !== undefined && body.length > limit
      ? `zone ${zone.name} would need ${body.length} custom rules (${user.length} there now, ${body.length - user.length} for Zone Lockdown and User Agent Blocking), more than the ${limit} its ${input.plan} plan allows: delete some, or upgrade the plan`
      : undefined

  for (const r of user)
    if (r.action === "skip" && r.action_parameters?.ruleset === "current" && r.enabled !== false)
      notes.push({
        severity: "changed",
        code: "skip-current-covers-migrated",
        rule: r.ref ?? r.id,
        message: `custom rule ${r.ref ?? r.id} skips the rest of the custom phase: the requests it matches now also skip the migrated Zone Lockdown and UA rules, which it did not before`
      })
  if (lockAway.length + uaAway.length > 0)
    notes.push({
      severity: "info",
      code: "exemptions-kept",
      message: `${lockAway.length + uaAway.length} rule(s) that exempted requests from Zone Lockdown or User Agent Blocking are kept as "and not (...)" in the migrated rules`
    })
  if (lockOut.length > 0)
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
      description: `PUT the custom rules entry point with ${body.length} rule(s): the ${user.length} there now, then ${body.length - user.length} for Zone Lockdown and User Agent Blocking`,
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
