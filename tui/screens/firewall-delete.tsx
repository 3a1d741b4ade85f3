/**
 * The Firewall tab's rule delete (`d`, ./firewall-panel.tsx): a destructive confirmation (`v`: the
 * DELETE), then, when no other rule uses the rule's filter, whether the filter goes too.
 */
import type { Rule } from "../../src/domain/firewall.js"
import {
  deleteFilter,
  deleteFilterRequest,
  deleteRule,
  deleteRuleRequest
} from "../../src/services/firewall-service.js"
import { ConfirmDialog } from "../components/confirm-dialog.js"
import type { FlowProps } from "./firewall-flows.js"
import { expressionOf, numbers, otherUsers, ruleName } from "./firewall-table.js"

/**
 * `d`: deletes a rule after a destructive confirmation; then, when no other rule uses its filter,
 * reopens (`onReopen`, `filterLeft`) to ask whether the filter goes too.
 */
export function DeleteRuleFlow({
  zone,
  rules,
  run,
  notify,
  refresh,
  onClose,
  rule,
  deleted,
  onReopen
}: FlowProps & {
  readonly rule: Rule
  readonly deleted?: { readonly name: string } | undefined
  readonly onReopen: (deleted: { readonly name: string }) => void
}) {
  // Once the rule is gone it has no place in the table: it keeps the name it was deleted by.
  const name = deleted?.name ?? ruleName(rules, rule)
  const others = otherUsers(rules, rule.filter.id, rule.id)
  const filterExists = !("deleted" in rule.filter)
  if (deleted !== undefined) {
    return (
      <ConfirmDialog
        title={`Delete its filter too? No rule uses it now.`}
        lines={[
          `Filter ${rule.filter.id}: ${expressionOf(rule)}`,
          "y deletes it; n keeps it (a new rule with the same expression is then offered this filter)."
        ]}
        confirmLabel="delete the filter"
        destructive
        requests={[deleteFilterRequest(zone.id, rule.filter.id)]}
        onConfirm={() => {
          onClose()
          run(
            deleteFilter(zone.id, rule.filter.id),
            () => notify.done(`Deleted rule ${name} and its filter`),
            "delete the filter",
            { where: zone.name, what: `deleted filter ${rule.filter.id} (of rule ${name})` }
          )
        }}
        onCancel={() => {
          onClose()
          notify.done(`Kept filter ${rule.filter.id}: no rule uses it`)
        }}
      />
    )
  }
  return (
    <ConfirmDialog
      title={`Delete rule ${name}?`}
      lines={[
        `${rule.action}: ${expressionOf(rule)}`,
        !filterExists
          ? "Its filter was already deleted."
          : others.length > 0
            ? `Its filter stays: ${others.length === 1 ? "rule" : "rules"} ${numbers(rules, others)} ${others.length === 1 ? "uses" : "use"} it.`
            : "No other rule uses its filter: you are asked next whether to delete it too."
      ]}
      confirmLabel="delete"
      destructive
      requests={[deleteRuleRequest(zone.id, rule.id)]}
      onConfirm={() => {
        const offerFilter = filterExists && others.length === 0
        onClose()
        run(
          deleteRule(zone.id, rule.id),
          () => {
            refresh()
            if (offerFilter) onReopen({ name })
            else notify.done(`Deleted rule ${name}${filterExists ? "; its filter stays (other rules use it)" : ""}`)
          },
          "delete the rule",
          { where: zone.name, what: `deleted firewall rule ${name}` }
        )
      }}
      onCancel={onClose}
    />
  )
}
