/**
 * What a legacy-product migration's preview lists, one row per old rule: the rule, what it was and
 * what it becomes (its place in the new list). The CLI's table and the TUI's list read the same
 * rows, so both show the plan the apply sends.
 */
import type { LockdownUaPlan } from "./lockdown-ua-plan.js"
import type { RateLimitPlan } from "./rate-limit-plan.js"

export interface MappingRow {
  /** The old rule's id. */
  readonly source: string
  readonly was: string
  /** `#N action …` for each new rule (N: its place in the new list), or the ref when none is planned. */
  readonly becomes: string
}

/** How a row cuts a long value to `max` characters (the CLI's table); whole by default (the TUI wraps). */
type Cut = (text: string, max: number) => string
const whole: Cut = (text) => text

export const lockdownUaRows = (p: LockdownUaPlan, cut: Cut = whole): Array<MappingRow> => {
  const byRef = new Map(p.expected.customRules.map((r, i) => [r.ref, { r, i }]))
  const was = new Map<string, string>([
    ...p.before.lockdowns.map(
      (l) => [l.id, `lockdown: ${cut(l.urls.join(" "), 30)}${l.paused ? ", paused" : ""}`] as const
    ),
    ...p.before.uaRules.map(
      (u) => [u.id, `UA ${u.mode}: ${cut(u.configuration.value, 24)}${u.paused ? ", paused" : ""}`] as const
    )
  ])
  return p.mapping.map((m) => ({
    source: m.rule,
    was: was.get(m.rule) ?? "",
    becomes: m.refs
      .map((ref) => {
        const e = byRef.get(ref)
        return e === undefined ? ref : `#${e.i + 1} ${e.r.action}${e.r.enabled === false ? " (disabled)" : ""}`
      })
      .join(", ")
  }))
}

export const rateLimitRows = (p: RateLimitPlan, cut: Cut = whole): Array<MappingRow> => {
  const byRef = new Map(p.expected.rules.map((r, i) => [r.ref, { r, i }]))
  return p.mapping.map((m) => {
    const rl = p.before.rateLimits.find((r) => r.id === m.rule)
    const e = byRef.get(m.ref)
    return {
      source: m.rule,
      was:
        rl === undefined
          ? ""
          : `${rl.action.mode} ${rl.threshold}/${rl.period}s: ${cut(rl.match.request.url, 28)}${rl.disabled ? ", disabled" : ""}`,
      becomes:
        e === undefined
          ? m.ref
          : `#${e.i + 1} ${e.r.action} ${e.r.ratelimit.requests_per_period ?? ""}/${e.r.ratelimit.period}s${e.r.enabled === false ? " (disabled)" : ""}`
    }
  })
}
