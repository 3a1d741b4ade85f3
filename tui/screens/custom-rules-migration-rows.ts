/**
 * What the migration screen (./custom-rules-migration.tsx) prints from a plan: one row per firewall
 * rule (old rule -> new rule, in run order), the replay's summary line, and the confirmation's lines.
 */
import type { CustomRule, MigrationNote } from "../../src/domain/custom-rule.js"
import type { Rule } from "../../src/domain/firewall.js"
import type { FirewallMigrationPlan } from "../../src/services/custom-rules-migration-service.js"
import { customAction } from "./custom-rule-detail.js"

export interface Row {
  readonly rule: Rule
  /** 1-based place in the custom phase, or undefined when the rule is left out. */
  readonly place: number | undefined
  readonly custom: CustomRule | undefined
  readonly notes: ReadonlyArray<MigrationNote>
  /** Migrated by an earlier apply: its custom rule stays as it is. */
  readonly before: boolean
}

export const rowsOf = (p: FirewallMigrationPlan): ReadonlyArray<Row> => {
  const rows = p.before.firewallRules.map((rule) => {
    const index = p.migration.entries.find((e) => e.firewall_rule === rule.id)?.custom_rule ?? null
    return {
      rule,
      place: index === null ? undefined : index + 1,
      custom: index === null ? undefined : p.migration.rules[index],
      notes: p.migration.notes.filter((n) => n.rule === rule.id),
      before: p.migrated_before.includes(rule.id)
    }
  })
  return [...rows].sort((a, b) => (a.place ?? Infinity) - (b.place ?? Infinity))
}

const oldText = (r: Rule) => `${r.action}${r.products ? `(${r.products.join(",")})` : ""}${r.paused ? " paused" : ""}`

/** The old column's width: narrow panes (80 columns) show the old action alone (managed_challenge, 17, the longest), as the new column shows the rest. */
export const oldWidth = (columns: number) => (columns >= 100 ? 22 : 17)

export const rowText = (r: Row, columns: number) => {
  const to =
    r.custom !== undefined
      ? `${customAction(r.custom)}${r.custom.enabled ? "" : " off"}`
      : r.before
        ? "migrated before"
        : "left out"
  const what = r.rule.description ?? ("expression" in r.rule.filter ? r.rule.filter.expression : r.rule.filter.id)
  const old = columns >= 100 ? oldText(r.rule) : r.rule.action
  return `${(r.place === undefined ? "-" : `#${r.place}`).padEnd(4)}${old.padEnd(oldWidth(columns))} -> ${to.padEnd(21)} ${what}`
}

export const stepsText = (p: FirewallMigrationPlan) => {
  const put = p.steps.filter((s) => s.key === "entrypoint").length
  const pause = p.steps.filter((s) => s.key.startsWith("pause:")).length
  const left = p.migration.entries.filter((e) => e.custom_rule === null).length
  return [
    put > 0
      ? `1. PUT the custom phase (http_request_firewall_custom) entry point with ${p.migration.rules.length} rules${p.before.customRules.length > 0 ? `, then the ${p.before.customRules.length} there now, kept` : ""}.`
      : "1. The custom phase's entry point stays as it is.",
    `2. Pause ${pause} firewall ${pause === 1 ? "rule that now has" : "rules that now have"} a custom rule (paused: true).`,
    left === 0
      ? "Every rule has a custom rule."
      : left === 1
        ? "1 rule with no equivalent (or beyond a limit) is left as it is: enter on it says why."
        : `${left} rules with no equivalent (or beyond a limit) are left as they are: enter on one says why.`,
    `${p.steps.length} request(s) in all, journaled: a stop can be finished (f) or undone (u).`
  ]
}
