/**
 * The fix of the `firewall-api-unsupported` warning on a firewall rules JSON document: the body of
 * `PUT /zones/{zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint` (`{rules: [...]}`)
 * that `migrateFirewallRules` makes of the document's rules, written as a new file next to it, as
 * the WAF export's configuration is (the document itself stays: it is what the zone runs today).
 * JSON has no comments, so the mapping's notes go in the action's title (counts) and in the
 * message the editor shows once the file is written (every note).
 */
import { getNodeValue, type Node } from "jsonc-parser"
import { CustomRuleLimits, type CustomRule } from "../domain/custom-rule.js"
import type { Filter, Rule } from "../domain/firewall.js"
import { migrateFirewallRules } from "../firewall/custom-rules.js"
import type { Fix } from "./findings.js"
import type { RulesDocument } from "./platform-json.js"

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const str = (o: Record<string, unknown>, k: string): string | undefined =>
  typeof o[k] === "string" ? (o[k] as string) : undefined

/** The new file's name: `rules.json` -> `rules.custom-rules.json`, beside the document. */
const fileName = (name: string): string => {
  const base = name.split("/").pop() || "firewall-rules.json"
  return base.replace(/(\.jsonc?)?$/, ".custom-rules.json")
}

/**
 * The document's filters by id, for rules that name theirs by id only: a filters array next to the
 * rules (`{"filters": [...], "rules": [...]}`, as an export of a zone holds both).
 */
const filtersOf = (root: Node): Map<string, Filter> => {
  const value = getNodeValue(root) as unknown
  const holder = isRecord(value) && isRecord(value.result) ? value.result : value
  const list = isRecord(holder) && Array.isArray(holder.filters) ? holder.filters : []
  const out = new Map<string, Filter>()
  for (const f of list) {
    if (!isRecord(f) || typeof f.id !== "string" || typeof f.expression !== "string") continue
    out.set(f.id, readFilter(f, f.id, f.expression))
  }
  return out
}

const readFilter = (f: Record<string, unknown>, id: string, expression: string): Filter => ({
  id,
  paused: f.paused === true,
  expression,
  ...(str(f, "description") !== undefined ? { description: str(f, "description")! } : {}),
  ...(str(f, "ref") !== undefined ? { ref: str(f, "ref")! } : {})
})

/**
 * The document's rules as the platform holds them. A request body has no ids: a rule is named by
 * its `ref`, else by its position (`rule_1`), which becomes its custom rule's `ref`.
 */
const readRules = (
  doc: RulesDocument,
  filters: ReadonlyMap<string, Filter>
): { rules: Array<Rule>; unresolved: Array<string> } => {
  const value = getNodeValue(doc.body) as unknown
  const elements = Array.isArray(value) ? value : [value]
  const rules: Array<Rule> = []
  const unresolved: Array<string> = []
  elements.forEach((e, i) => {
    if (!isRecord(e) || !isRecord(e.filter)) return
    const id = str(e, "id") ?? str(e, "ref") ?? `rule_${i + 1}`
    const f = e.filter
    const filterId = str(f, "id") ?? `filter_of_${id}`
    let filter: Rule["filter"] | undefined
    if (f.deleted === true) filter = { id: filterId, deleted: true }
    else if (typeof f.expression === "string") filter = readFilter(f, filterId, f.expression)
    else filter = filters.get(filterId)
    if (filter === undefined) {
      unresolved.push(
        `rule ${id}: its filter ${filterId} is named by id only and is not in this document (no expression to carry over); it is left out`
      )
      return
    }
    const products = Array.isArray(e.products) ? e.products.filter((p): p is string => typeof p === "string") : []
    rules.push({
      id,
      paused: e.paused === true,
      action: str(e, "action") ?? "",
      priority: typeof e.priority === "number" ? e.priority : null,
      ...(str(e, "description") !== undefined ? { description: str(e, "description")! } : {}),
      ...(products.length > 0 ? { products } : {}),
      ...(str(e, "ref") !== undefined ? { ref: str(e, "ref")! } : {}),
      filter
    })
  })
  return { rules, unresolved }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/**
 * What the zone's plan decides and a file cannot tell (the migration is run without a plan here):
 * how many custom rules fit, and `log`, Enterprise only.
 */
export const planCaveats = (rules: ReadonlyArray<CustomRule>): Array<string> => {
  const out: Array<string> = []
  const plans = Object.entries(CustomRuleLimits).filter(([, limit]) => rules.length <= limit)
  if (plans.length < Object.keys(CustomRuleLimits).length)
    out.push(
      `the zone's plan is not known here: ${plural(rules.length, "custom rule")} ${
        plans.length === 0
          ? `are more than any plan allows (enterprise: ${CustomRuleLimits.enterprise})`
          : `fit only the ${plans.map(([p, l]) => `${p} (${l})`).join(", ")} plan${plans.length === 1 ? "" : "s"}`
      }`
    )
  if (rules.some((r) => r.action === "log"))
    out.push("the zone's plan is not known here: the log action of custom rules is Enterprise only")
  return out
}

/** The fix writing the equivalent custom rules; none for a filters document (filters decide nothing alone). */
export const customRulesJsonFix = (root: Node, doc: RulesDocument, name: string): Fix | undefined => {
  if (doc.shape !== "firewall-rules") return undefined
  const { rules, unresolved } = readRules(doc, filtersOf(root))
  const migration = migrateFirewallRules(rules)
  const leftOut = unresolved.length + migration.notes.filter((n) => n.severity === "unmapped").length
  const changed = new Set(migration.notes.filter((n) => n.severity === "changed").map((n) => n.rule)).size
  const file = fileName(name)
  const counts = [
    plural(migration.rules.length, "custom rule"),
    ...(leftOut > 0 ? [`${plural(leftOut, "firewall rule")} left out`] : []),
    ...(changed > 0 ? [`${changed} behaving differently`] : [])
  ]
  const notes = [
    ...unresolved.map((m) => `left out: ${m}`),
    ...planCaveats(migration.rules).map((m) => `info: ${m}`),
    ...migration.notes.map((n) => `${n.severity === "unmapped" ? "left out" : n.severity}: ${n.message}`)
  ]
  return {
    title: `Write the equivalent WAF custom rules (${file}, the body of PUT …/rulesets/phases/http_request_firewall_custom/entrypoint): ${counts.join(", ")}`,
    create: { name: file, text: `${JSON.stringify({ rules: migration.rules }, null, 2)}\n` },
    ...(notes.length > 0 ? { message: `${file}: ${notes.join("\n")}` } : {})
  }
}
