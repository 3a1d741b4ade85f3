/**
 * A file's `cloudflare_firewall_rule` resources read with their `cloudflare_filter` as the
 * platform held them (HCL): what the firewall rewrite maps to the zone's custom rules, and what
 * the WAF rewrite takes as the firewall rules that bypass the WAF (`waf config`'s skip rules). A
 * description Terraform computes is carried as written; any other value the rewrite cannot read
 * is a `Problem`, on which a rewrite refuses the rule's zone: its ruleset is the zone's whole
 * entry point, so leaving the rule out would delete it.
 */
import type { Rule } from "../../domain/firewall.js"
import type { ResourceBlock } from "./analyze.js"
import type { TerraformExpression } from "./expressions.js"
import * as Either from "effect/Either"

/** Why a rule cannot be read: the attribute concerned, the reason, and what the user can do. */
export interface Problem {
  readonly at: string | undefined
  readonly why: string
  readonly hint: string
  /** Not the rule but the ruleset written from it would be refused (by the provider or the platform). */
  readonly ruleset?: boolean
}

export const LITERAL_HINT = "make the value a literal, or rewrite the zone's rules by hand"
export const OTHER_FILTER_HINT =
  "move its cloudflare_filter into this file (or write its expression there), or rewrite the zone's rules by hand"
export const META_HINT = "rewrite the zone's rules by hand"

/**
 * The text the mapping sees for a description Terraform computes: `description(name)` in the
 * ruleset written, its expression put back in place of its quoted form (./firewall-rewrite.ts).
 */
export const carriedDescription = (rule: string) => `\u0001description of ${rule}\u0001`

export const exprText = (text: string, b: ResourceBlock, k: string): string | undefined => {
  const e = b.attributes.get(k)?.node.namedChildren[1]
  return e ? text.slice(e.startIndex, e.endIndex) : undefined
}
export const address = (b: ResourceBlock) => `${b.type}.${b.name}`

/** A list of string literals (`["waf", "uaBlock"]`), or undefined when it is anything else. */
const stringList = (t: string): Array<string> | undefined => {
  if (!/^\[\s*(?:"(?:[^"\\$%]|\\.)*"\s*,?\s*)*\]$/.test(t)) return undefined
  try {
    return JSON.parse(t.replace(/,\s*\]$/, "]")) as Array<string>
  } catch {
    return undefined
  }
}

/** The filter a rule names (`filter_id = cloudflare_filter.x.id`, 5.x: `filter = { id = cloudflare_filter.x.id }`). */
export const filterName = (text: string, rule: ResourceBlock): string | undefined => {
  const t = exprText(text, rule, "filter_id") ?? exprText(text, rule, "filter")
  const m = t && /^(?:\{\s*id\s*=\s*)?cloudflare_filter\.([A-Za-z_][\w-]*)\.id(?:\s*,?\s*\})?$/.exec(t.trim())
  return m?.[1]
}

/** The rule's action as written (`"bypass"`, 5.x `{ mode = "bypass" }`), or undefined when Terraform computes it. */
const actionOf = (text: string, b: ResourceBlock): string | undefined => {
  const v = b.attributes.get("action")?.value
  if (typeof v === "string") return v
  return /^\{\s*mode\s*=\s*"(\w+)"\s*,?\s*\}$/.exec(exprText(text, b, "action") ?? "")?.[1]
}

/** Whether the rule may bypass the previous WAF: its action and products say so, or cannot be read. */
export const mayBypassWaf = (text: string, b: ResourceBlock): boolean => {
  const action = actionOf(text, b)
  const productsText = exprText(text, b, "products")
  const products = productsText === undefined ? [] : stringList(productsText)
  return (action === undefined || action === "bypass") && (products === undefined || products.includes("waf"))
}

export interface Read {
  readonly rule: Rule
  readonly filter: ResourceBlock
  /** The description Terraform computes, as written (in place of `carriedDescription(rule.id)`). */
  readonly description?: string | undefined
}

/** One rule with its filter as the platform held them; or why the rewrite cannot read it. */
export const readRule = (
  text: string,
  b: ResourceBlock,
  filters: ReadonlyMap<string, ResourceBlock>,
  expressionsOf: (block: ResourceBlock) => ReadonlyArray<TerraformExpression>
): Read | Problem => {
  const problem = (at: string | undefined, why: string, hint = LITERAL_HINT): Problem => ({ at, why, hint })
  for (const meta of ["for_each", "count"])
    if (b.attributes.has(meta))
      return problem(meta, `it has ${meta}: the rewrite cannot tell the rules it stands for`, META_HINT)
  const name = filterName(text, b)
  const f = name === undefined ? undefined : filters.get(name)
  if (f === undefined) {
    const k = b.attributes.has("filter_id") ? "filter_id" : b.attributes.has("filter") ? "filter" : undefined
    const written = k ? exprText(text, b, k) : undefined
    return written === undefined
      ? problem(k, "it names no filter (filter_id)", META_HINT)
      : problem(
          k,
          `${k} = ${written} is not a cloudflare_filter of this file: the rewrite cannot read its expression`,
          OTHER_FILTER_HINT
        )
  }
  if (f.attributes.has("for_each") || f.attributes.has("count"))
    return problem(
      "filter_id",
      `its filter ${address(f)} has for_each or count: the rewrite cannot tell its expression`,
      META_HINT
    )
  const expression = f.attributes.has("expression") ? expressionsOf(f)[0]?.text : undefined
  if (expression === undefined)
    return problem("filter_id", `the expression of its filter ${address(f)} is not a literal string`)
  const mode = actionOf(text, b)
  if (mode === undefined) return problem("action", "its action is not a literal: the rewrite cannot tell it")
  const literal = <T extends number | boolean>(
    blk: ResourceBlock,
    k: string,
    type: string
  ): Either.Either<T | undefined, Problem> => {
    const a = blk.attributes.get(k)
    if (a === undefined || typeof a.value === type) return Either.right(a?.value as T | undefined)
    const whose = blk === b ? "" : `its filter's `
    return Either.left(
      problem(blk === b ? k : "filter_id", `${whose}${k} = ${exprText(text, blk, k)} is not a literal`)
    )
  }
  const literals = Either.all([
    literal<number>(b, "priority", "number"),
    literal<boolean>(b, "paused", "boolean"),
    literal<boolean>(f, "paused", "boolean")
  ])
  if (Either.isLeft(literals)) return literals.left
  const [priority, paused, filterPaused] = literals.right
  // A description Terraform computes is carried as written: the ruleset gets the same value.
  const descriptionOf = (blk: ResourceBlock): { value?: string; computed?: string } | Problem => {
    const a = blk.attributes.get("description")
    if (a === undefined) return {}
    if (typeof a.value === "string") return { value: a.value }
    const written = exprText(text, blk, "description") ?? ""
    if (!written.includes("\n")) return { computed: written }
    const whose = blk === b ? "" : "its filter's "
    return problem(blk === b ? "description" : "filter_id", `${whose}description is written on several lines`)
  }
  const own = descriptionOf(b)
  const filterOwn = descriptionOf(f)
  if ("why" in own) return own
  if ("why" in filterOwn) return filterOwn
  const carried = (d: { value?: string; computed?: string }) =>
    d.value ?? (d.computed !== undefined ? carriedDescription(b.name) : undefined)
  const description = carried(own)
  const filterDescription = carried(filterOwn)
  // The mapping takes the rule's description, else its filter's.
  const computed = own.value !== undefined ? undefined : (own.computed ?? filterOwn.computed)
  const productsText = exprText(text, b, "products")
  const products = productsText === undefined ? undefined : stringList(productsText)
  if (productsText !== undefined && products === undefined)
    return problem("products", `products = ${productsText} is not a list of literal strings`)
  return {
    filter: f,
    ...(computed !== undefined ? { description: computed } : {}),
    rule: {
      id: b.name,
      paused: paused ?? false,
      action: mode,
      priority: priority ?? null,
      ...(description !== undefined ? { description } : {}),
      ...(products !== undefined ? { products } : {}),
      filter: {
        id: f.name,
        paused: filterPaused ?? false,
        expression,
        ...(filterDescription !== undefined ? { description: filterDescription } : {})
      }
    }
  }
}

/** A zone_id that differs per instance (`each.*`, `count.index`): the rule's zone cannot be told. */
export const perInstance = (zone: string) => /\beach\.|\bcount\.index\b/.test(zone)

/** The zones a rewrite writes no ruleset for: those of rules it cannot read, all when a rule's zone cannot be told. */
export interface Withheld {
  /** Withholds the zone of a rule (`key`, its `zone_id` as written); answers the zone to name, undefined for all. */
  readonly add: (key: string, zone: string | undefined) => string | undefined
  readonly has: (key: string) => boolean
}

export const withheldZones = (): Withheld => {
  const keys = new Set<string>()
  let all = false
  return {
    add: (key, zone) => {
      if (zone === undefined || perInstance(zone)) {
        all = true
        return undefined
      }
      keys.add(key)
      return zone
    },
    has: (key) => all || keys.has(key)
  }
}

/**
 * The message on a rule the rewrite cannot carry over: why, and which ruleset it withholds
 * (`zone` undefined: the rule's zone cannot be told, so none of the file's).
 */
export const refusalMessage = (rule: string, p: Problem, zone: string | undefined) =>
  `${rule}: ${p.why}; ${
    p.ruleset === true
      ? `the provider or the platform would refuse the ruleset, so none is written for zone_id = ${zone}`
      : zone === undefined
        ? "no cloudflare_ruleset is written for this file's zones: the rewrite cannot tell which zone the rule belongs to, and a zone's ruleset is its whole entry point (applying one without the rule would delete it)"
        : `no cloudflare_ruleset is written for zone_id = ${zone}: it is the zone's whole entry point, and applying it without this rule would delete it`
  }`
