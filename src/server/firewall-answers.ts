/**
 * What the filters and firewall-rules endpoints answer (area C): the wire shapes of the store's
 * rows, and the platform's not-found answer for a filter or a rule.
 */
import type { DeletedFilter, Filter, Rule } from "../domain/firewall.js"
import { NotFound } from "../domain/errors.js"
import type { FilterRow, RuleRow } from "../store/firewall-rows.js"

export const toFilter = (f: FilterRow): Filter => ({
  id: f.id,
  paused: f.paused,
  expression: f.expression,
  ...(f.description !== null ? { description: f.description } : {}),
  ...(f.ref !== null ? { ref: f.ref } : {})
})

export const toRule = (r: RuleRow): Rule => ({
  id: r.id,
  paused: r.paused,
  ...(r.description !== null ? { description: r.description } : {}),
  action: r.action,
  priority: r.priority,
  ...(r.products !== null ? { products: r.products } : {}),
  ...(r.ref !== null ? { ref: r.ref } : {}),
  filter: r.filter === null ? ({ id: r.filter_id, deleted: true } satisfies DeletedFilter) : toFilter(r.filter)
})

export const notFound = (zoneId: string, what: "filters" | "firewall/rules", id: string) =>
  new NotFound({
    message: `Could not route to /zones/${zoneId}/${what}/${id}, perhaps your object identifier is invalid?`
  })
