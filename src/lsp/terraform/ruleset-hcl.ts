/**
 * A `cloudflare_ruleset`'s rules written in the HCL shape each provider major accepts: repeated
 * blocks with `status = "enabled" | "disabled"` on overrides (3.35), the same blocks with
 * `enabled` and a `ref` per rule (4.2+), list and object attributes (5.x). Lines are written
 * without layout; `formatHcl` indents and aligns them as `terraform fmt` does.
 */
import type { RulesetRule } from "../../domain/waf.js"
import type { ProviderMajor } from "./version.js"

/**
 * An HCL string literal (`${` and `%{` would start a template). The replacements are functions: in a
 * replacement string `$$` is one `$`, which left `${` unescaped.
 */
export const hclString = (s: string): string =>
  JSON.stringify(s)
    .replace(/\$\{/g, () => "$${")
    .replace(/%\{/g, () => "%%{")

const value = (v: unknown): string =>
  typeof v === "string"
    ? hclString(v)
    : typeof v === "number" || typeof v === "boolean"
      ? String(v)
      : Array.isArray(v)
        ? `[${v.map(value).join(", ")}]`
        : "null"

// Managed rulesets' refs as the platform's own Terraform examples name them.
const REFS: Record<string, string> = {
  efb7b8c949ac4650a09736fc376e9aee: "cf_managed",
  "4814384a9e5d4991b9815dcfc25d2f1f": "owasp"
}
const refOf = (r: RulesetRule, i: number): string =>
  r.ref ? r.ref : (REFS[r.action_parameters?.id ?? ""] ?? `rule_${i + 1}`)

type Entry = readonly [string, unknown]
const present = (entries: ReadonlyArray<Entry>): Array<Entry> => entries.filter(([, v]) => v !== undefined && v !== "")

/** An override's on/off: `status` in 3.x (from 3.17), `enabled` from 4.2. */
const toggle = (major: ProviderMajor, enabled: boolean | undefined): Array<Entry> =>
  enabled === undefined ? [] : major === 3 ? [["status", enabled ? "enabled" : "disabled"]] : [["enabled", enabled]]

const inline = (entries: ReadonlyArray<Entry>) =>
  `{ ${present(entries)
    .map(([k, v]) => `${k} = ${value(v)}`)
    .join(", ")} }`

/** The rules of a ruleset as lines (`rules { … }` blocks, or one `rules = [ … ]` attribute). */
export const rulesLines = (rules: ReadonlyArray<RulesetRule>, major: ProviderMajor): Array<string> => {
  const out: Array<string> = []
  const attrs = (entries: ReadonlyArray<Entry>) => {
    for (const [k, v] of present(entries)) out.push(`${k} = ${value(v)}`)
  }
  const open = (name: string, asAttribute: boolean) => out.push(asAttribute ? `${name} = {` : `${name} {`)
  const v5 = major === 5
  if (v5) out.push("rules = [")
  rules.forEach((r, i) => {
    out.push(v5 ? "{" : "rules {")
    attrs([
      ...(major >= 4 ? [["ref", refOf(r, i)] as Entry] : []),
      ["action", r.action],
      ["expression", r.expression],
      ["description", r.description],
      ["enabled", r.enabled]
    ])
    const p = r.action_parameters
    if (p !== undefined) {
      open("action_parameters", v5)
      // Skip rules' `rules` is a map of CSV strings up to 4.x and a map of lists in 5.x.
      const skipRules =
        p.rules === undefined
          ? undefined
          : `{ ${Object.entries(p.rules)
              .map(([k, ids]) => `${hclString(k)} = ${v5 ? value(ids) : hclString(ids.join(","))}`)
              .join(", ")} }`
      attrs([
        ["id", p.id],
        ["ruleset", p.ruleset],
        ["rulesets", p.rulesets]
      ])
      if (skipRules !== undefined) out.push(`rules = ${skipRules}`)
      const o = p.overrides
      if (o !== undefined) {
        open("overrides", v5)
        attrs([["action", o.action], ...toggle(major, o.enabled)])
        const cats = (o.categories ?? []).map((c): Array<Entry> => [
          ["category", c.category],
          ["action", c.action],
          ...toggle(major, c.enabled)
        ])
        const rs = (o.rules ?? []).map((x): Array<Entry> => [
          ["id", x.id],
          ["action", x.action],
          ["score_threshold", x.score_threshold],
          ...toggle(major, x.enabled)
        ])
        for (const [name, items] of [
          ["categories", cats],
          ["rules", rs]
        ] as const) {
          if (items.length === 0) continue
          if (v5) {
            out.push(`${name} = [`, ...items.map((e) => `${inline(e)},`), "]")
          } else {
            for (const e of items) {
              out.push(`${name} {`)
              attrs(e)
              out.push("}")
            }
          }
        }
        out.push("}")
      }
      out.push("}")
    }
    out.push(v5 ? "}," : "}")
  })
  if (v5) out.push("]")
  return out
}
