/**
 * How `edgectl firewall migrate` prints a migration's plan (src/firewall/custom-rules-plan.ts): the
 * old rule -> new rule table, the notes, the exact requests with their bodies and the end state.
 * The dry run prints all of it; the apply prints the table and the notes before it asks.
 */
import type { CustomRule } from "../../../domain/custom-rule.js"
import type { Rule } from "../../../domain/firewall.js"
import type { FirewallMigrationPlan } from "../../../services/custom-rules-migration-service.js"
import { rulesMigratedNow } from "../../../services/custom-rules-migration-service.js"
import { printRequests } from "../../migration-cli.js"
import { clip, printLine, printTable } from "../../output.js"

const customText = (c: CustomRule) => {
  const p = c.action_parameters
  const what =
    c.action !== "skip"
      ? c.action
      : p?.ruleset === "current"
        ? "skip (the remaining custom rules)"
        : `skip (${(p?.products ?? []).join(", ")})`
  return `${what}${c.enabled === false ? ", disabled" : ""}`
}

const oldText = (r: Rule) =>
  `${r.action}${r.products ? ` (${r.products.join(", ")})` : ""}${r.priority !== null ? `, priority ${r.priority}` : ""}${r.paused ? ", paused" : ""}`

/** The table and the notes. */
export const printPreview = (p: FirewallMigrationPlan) => {
  const rules = rulesMigratedNow(p)
  const m = p.migration
  printLine(`Migration of zone ${p.zone.name}: ${rules.length} firewall rule(s) -> ${m.rules.length} custom rule(s)`)
  if (p.migrated_before.length > 0)
    printLine(
      `${p.migrated_before.length} firewall rule(s) were migrated before (a custom rule has their id as its ref): their custom rules are kept.`
    )
  if (rules.length > 0) {
    printLine("")
    const byId = new Map(rules.map((r) => [r.id, r]))
    const order = [...m.entries].sort((a, b) => (a.custom_rule ?? Infinity) - (b.custom_rule ?? Infinity))
    printTable(
      ["#", "FIREWALL RULE", "WAS", "BECOMES", "DESCRIPTION"],
      order.map((e) => {
        const r = byId.get(e.firewall_rule)!
        return [
          e.custom_rule === null ? "-" : e.custom_rule + 1,
          r.id,
          oldText(r),
          e.custom_rule === null ? "(not migrated)" : customText(m.rules[e.custom_rule]!),
          // The custom rule's description when it has one (it may come from the rule's filter).
          clip((e.custom_rule !== null ? m.rules[e.custom_rule]!.description : undefined) ?? r.description ?? "", 32)
        ]
      })
    )
  }
  if (p.notes.length > 0) {
    printLine("")
    for (const n of p.notes) printLine(`${n.severity}: ${n.message}`)
  }
}

/** The end state in one sentence. */
export const endText = (p: FirewallMigrationPlan) => {
  const kept = p.before.customRules.length
  const fate = p.delete_old ? "deleted" : "paused"
  const changed = p.steps.filter((s) => s.key.startsWith("pause:") || s.key.startsWith("delete:")).length
  const left = p.migration.entries.filter((e) => e.custom_rule === null).map((e) => e.firewall_rule)
  return `zone ${p.zone.name} would have ${p.expected.customRules.length} custom rule(s)${kept > 0 ? ` (${kept} already there, kept after the migrated ones)` : ""}; ${changed} firewall rule(s) ${fate}${left.length > 0 ? `, ${left.length} not migrated left as they are (${left.join(", ")})` : ""}.`
}

/** The dry run: the preview, each request with its body, the end state. */
export const printDryRun = (p: FirewallMigrationPlan) => {
  printPreview(p)
  printLine("")
  if (p.refused !== undefined) {
    printLine(`Dry run: nothing was changed. The migration is refused: ${p.refused}`)
    return
  }
  printRequests(p.steps)
  printLine("")
  printLine(`and ${endText(p)}`)
}
