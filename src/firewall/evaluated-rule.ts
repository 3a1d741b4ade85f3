/**
 * A firewall rule of the API (its filter embedded) as src/rules' firewall evaluates it. One
 * definition for `firewall test`, the migration's replay and its tests, so that they judge the old
 * rules alike.
 */
import { isDeletedFilter, type Rule } from "../domain/firewall.js"
import type { FirewallAction, FirewallRule } from "../rules/index.js"

export const asFirewallRule = (r: Rule): FirewallRule => ({
  id: r.id,
  priority: r.priority,
  paused: r.paused,
  action: r.action as FirewallAction,
  ...(r.products ? { products: r.products } : {}),
  ...(r.description !== undefined ? { description: r.description } : {}),
  // A rule whose filter was deleted or is paused never matches.
  expression: isDeletedFilter(r.filter) || r.filter.paused ? "false" : r.filter.expression
})
