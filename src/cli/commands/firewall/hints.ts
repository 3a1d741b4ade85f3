/**
 * The `hint:` lines of `edgectl firewall` failures: what to run next. A hint that reuses a filter
 * repeats the whole rule being created (action, products, priority, description), so following
 * it does not fail again the same way.
 */
import type { V4Error } from "../../../domain/errors.js"
import type { RuleInput } from "../../../firewall/rule-input.js"

export interface Context {
  readonly zone: string
  readonly expression?: string | undefined
  readonly action?: string | undefined
  /** The rule being created: the hints repeat it whole, so following one does not fail again the same way. */
  readonly rule?: RuleInput | undefined
  /** The command writes custom rules (the migration): a quota is the custom rules' one. */
  readonly customRules?: boolean | undefined
}

export const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`)

/** The command that creates the same rule on an existing filter (`on`: the target's flags). */
const reuseCommand = (c: Context, filterId: string, on: string) => {
  const r = c.rule
  const parts = [
    "edgectl firewall rules create --zone",
    shellQuote(c.zone),
    "--filter-id",
    filterId,
    "--action",
    r?.action ?? c.action ?? "<action>"
  ]
  if (r?.products !== undefined) parts.push("--products", r.products.join(","))
  if (r?.priority !== undefined) parts.push("--priority", r.priority === null ? "none" : String(r.priority))
  if (r?.description !== undefined) parts.push("--description", shellQuote(r.description))
  if (r?.paused === true) parts.push("--paused")
  return `${parts.join(" ")}${on}`
}

const filterIdOf = (e: V4Error): string | undefined =>
  e._tag === "QuotaExceeded" && e.filterId !== undefined
    ? e.filterId
    : ((e.meta as { filter_id?: unknown } | undefined)?.filter_id as string | undefined)

/** `on`: ` --remote` or ` --persist-to DIR` (src/cli/run.ts): every command suggested acts on the failed one's platform. */
export const hintFor =
  (c: Context) =>
  (e: V4Error, on = ""): string | undefined => {
    const left = filterIdOf(e)
    const zone = `--zone ${shellQuote(c.zone)}${on}`
    const deleteIt = (id: string) => `edgectl firewall filters delete ${id} ${zone} --yes`
    if (left !== undefined && e._tag === "QuotaExceeded") {
      return `once a rule is deleted (edgectl firewall rules list ${zone}), reuse it: ${reuseCommand(c, left, on)}; or delete it: ${deleteIt(left)}`
    }
    if (left !== undefined) return `reuse it: ${reuseCommand(c, left, on)}; or delete it: ${deleteIt(left)}`
    if (e._tag === "DuplicateFilter") return `reuse it: ${reuseCommand(c, e.existingId, on)}`
    if (e._tag === "QuotaExceeded" && c.customRules === true)
      return `delete custom rules you no longer need (edgectl custom-rules list ${zone})`
    if (e._tag === "QuotaExceeded") return `delete rules you no longer need (edgectl firewall rules list ${zone})`
    if (e._tag === "InvalidExpression") return "check an expression offline with `edgectl rules check '<expression>'`"
    return undefined
  }
