/**
 * The replay that proves the Zone Lockdown + User Agent Blocking migration: each request through
 * the zone "before" and the zone as the plan leaves it, both by the one evaluator below of a whole
 * LockdownUaState (its active firewall rules and custom rules, then its active Zone Lockdown rules,
 * then its active UA rules). "After" has every legacy rule paused (or deleted), so there the custom
 * rules the plan writes decide alone.
 *
 * The evaluation order is the reference's (lockdown-ua-migration.md §4): custom rules act first
 * (a skip of `zoneLockdown`/`uaBlock`, or a firewall bypass of them, exempts the request); a
 * block or challenge there ends it; then the first lockdown whose URLs match (priority order)
 * either allows the request (its IP is listed: UA rules are skipped) or blocks it; then a UA rule
 * whose value equals the User-Agent applies its mode. The lockdown URLs and IPs are matched by
 * the legacy matchers of ./legacy-replay.ts, not by the plan's expressions.
 */
import type { PlanNote } from "../domain/migration.js"
import type { RequestContext } from "../rules/index.js"
import type { ReplayRule, ReplayVerdict } from "./custom-rules-replay.js"
import { sharedExpressions, stateEvaluator } from "./custom-rules-replay.js"
import {
  ipListMatcher,
  legacyUrlMatcher,
  makeLegacyReplayer,
  urlSubject,
  verdict,
  type ReplaySide
} from "./legacy-replay.js"
import type { LockdownUaState } from "./lockdown-ua-plan.js"
import { processingOrder } from "./lockdown-ua-placement.js"

/** The readings the "before" side takes where the platform documents nothing (said in the report and in docs/legacy-migrations.md). */
const LOCKDOWN_UA_ASSUMPTIONS: ReadonlyArray<string> = [
  "custom rules (and firewall rules) act before Zone Lockdown and UA rules; only a skip or bypass of the product exempts a request from it (derived)",
  '"allowed via Zone Lockdown" = a lockdown\'s URL matches and the source IP is in its list; the first matching lockdown in priority order decides (derived)',
  "lockdown URLs match host and path without case; a URL without a path covers every path of its host (derived)",
  "a UA rule matches when the User-Agent equals its value exactly, with case (derived)"
]

type Evaluator = ReturnType<typeof stateEvaluator>

const lockdownRule = (id: string, description: string): ReplayRule => ({
  kind: "lockdown",
  id,
  ...(description !== "" ? { description } : {})
})

/** One side: a whole LockdownUaState, compiled once (expressions shared with the other side through `compiled`). */
const lockdownUaSide = (state: LockdownUaState, compiled: Parameters<typeof stateEvaluator>[1]): ReplaySide => {
  const zone: Evaluator = stateEvaluator(
    { firewallRules: state.firewallRules, customRules: state.customRules },
    compiled
  )
  const lockdowns = processingOrder(state.lockdowns)
    .filter((l) => !l.paused)
    .map((l) => {
      const urls = l.urls.map((u) => legacyUrlMatcher(u, "every"))
      return {
        rule: lockdownRule(l.id, l.description),
        matches: (subject: string) => urls.some((m) => m(subject)),
        allowed: ipListMatcher(l.configurations.map((c) => c.value))
      }
    })
  const ua = state.uaRules
    .filter((u) => !u.paused)
    .map((u) => ({
      value: u.configuration.value,
      mode: u.mode,
      rule: { kind: "ua", id: u.id, ...(u.description !== "" ? { description: u.description } : {}) } as ReplayRule
    }))
  return (ctx: RequestContext, request) => {
    const o = zone.decide(ctx)
    const base: ReplayVerdict = zone.verdict(o)
    if (base.action !== null && base.action !== "allow") return base
    const more = { skipped: base.skipped, skippedBy: base.skippedBy, logged: base.logged }
    let allowedBy: ReplayRule | undefined
    if (!base.skipped.includes("zoneLockdown") && lockdowns.length > 0) {
      const subject = urlSubject(request)
      const l = lockdowns.find((x) => x.matches(subject))
      if (l !== undefined) {
        if (!l.allowed(request)) return verdict("block", l.rule, more)
        allowedBy = l.rule
      }
    }
    if (allowedBy === undefined && !base.skipped.includes("uaBlock")) {
      const agent = request["http.user_agent"]
      const u = typeof agent === "string" ? ua.find((x) => x.value === agent) : undefined
      if (u !== undefined) return verdict(u.mode, u.rule, more)
    }
    return allowedBy !== undefined ? verdict("allow", allowedBy, more) : base
  }
}

/** The replay of `before` against `after` with one evaluator; `notes`: the plan's, to explain a difference made by design. */
export const makeLockdownUaReplayer = (
  before: LockdownUaState,
  after: LockdownUaState,
  notes: ReadonlyArray<PlanNote>,
  options: { readonly keep?: number } = {}
) => {
  const compiled = sharedExpressions()
  return makeLegacyReplayer(lockdownUaSide(before, compiled), lockdownUaSide(after, compiled), {
    notes,
    general: ["skip-current-covers-migrated", "ua-merged"],
    assumptions: LOCKDOWN_UA_ASSUMPTIONS,
    ...(options.keep !== undefined ? { keep: options.keep } : {})
  })
}
