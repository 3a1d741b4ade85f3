/**
 * The zone's custom rules ruleset already in the file, for the legacy rewrite
 * (./legacy-rewrite.ts): its rules read as the rulesets API holds them (what the
 * Zone Lockdown migration orders the new rules after, and reads its skip rules from), and the new
 * rules appended at its end in the same provider syntax (`rules { }` blocks up to 4.x, objects of
 * `rules = [ ]` in 5.x), laid out as `customRulesetHcl` lays them out, so a fmt-canonical file stays so.
 */
import type { CustomRule } from "../../domain/custom-rule.js"
import { CustomRuleActions } from "../../domain/custom-rule.js"
import type { HclNode } from "../hcl.js"
import type { TextEdit } from "../findings.js"
import type { ResourceBlock } from "./analyze.js"
import { customRulesetHcl, type CustomRule as HclRule } from "./custom-rules-hcl.js"
import { Unread, type Obj, type Value } from "./legacy-read.js"
import type { ProviderMajor } from "./version.js"

interface Refusal {
  readonly why: string
  readonly hint: string
}

const HINT = "make its rules literal values, or add the Zone Lockdown and User Agent Blocking rules by hand"

const literal = (v: Value | undefined): boolean =>
  !(v instanceof Unread) &&
  (Array.isArray(v) ? v.every(literal) : v === null || typeof v !== "object" || Object.values(v as Obj).every(literal))

/**
 * The `rules` of a block list (3.x, 4.x) or a list attribute (5.x). One object is the JSON syntax's
 * single block (`"rules": {…}`): the one-element list it stands for (whether the pinned version
 * takes it is the writer's to tell: ./json-legacy.ts).
 */
const rulesOf = (d: Obj): ReadonlyArray<Value> | undefined => {
  const r = d.rules
  return r === undefined || r === null
    ? []
    : Array.isArray(r)
      ? r
      : typeof r === "object" && !(r instanceof Unread)
        ? [r]
        : undefined
}

const one = (v: Value | undefined): Obj | undefined =>
  Array.isArray(v) ? (v[0] as Obj | undefined) : v !== null && typeof v === "object" ? (v as Obj) : undefined

/** What tells a rule of a ruleset from another: its ref, else its expression and action. */
export interface RuleKey {
  readonly ref?: string | undefined
  readonly expression: string
  readonly action: string
}

/** The rules of a ruleset (its data, HCL or JSON) as far as they are literals (the rate limiting rules: nothing is read from them but this). */
export const rulesetKeys = (d: Obj): Array<RuleKey> =>
  (rulesOf(d) ?? []).flatMap((r) => {
    const o = one(r)
    return o !== undefined && typeof o.expression === "string" && typeof o.action === "string"
      ? [{ expression: o.expression, action: o.action, ...(typeof o.ref === "string" ? { ref: o.ref } : {}) }]
      : []
  })

/** The ruleset's rules in order, as the rulesets API holds them; or why they cannot be read. */
export const readRulesetRules = (d: Obj): { readonly rules: Array<CustomRule> } | Refusal => {
  const rules = rulesOf(d)
  if (rules === undefined || !literal(d.rules ?? null))
    return { why: "its rules are not literal values: the rewrite cannot tell what they do", hint: HINT }
  const out: Array<CustomRule> = []
  for (const [i, r] of rules.entries()) {
    const o = one(r)
    const action = o?.action
    if (typeof action !== "string" || !(CustomRuleActions as ReadonlyArray<string>).includes(action))
      return { why: `rules[${i}].action is ${JSON.stringify(action)}: not a custom rule's action`, hint: HINT }
    if (typeof o!.expression !== "string") return { why: `rules[${i}].expression is not a literal string`, hint: HINT }
    const p = one(o!.action_parameters)
    const strings = (v: Value | undefined) =>
      Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as Array<string>) : undefined
    const logging = one(o!.logging)
    out.push({
      action: action as CustomRule["action"],
      expression: o!.expression,
      ...(typeof o!.ref === "string" ? { ref: o!.ref } : {}),
      ...(typeof o!.description === "string" ? { description: o!.description } : {}),
      ...(typeof o!.enabled === "boolean" ? { enabled: o!.enabled } : {}),
      ...(p !== undefined
        ? {
            action_parameters: {
              ...(p.ruleset === "current" ? { ruleset: "current" as const } : {}),
              ...(strings(p.products) !== undefined ? { products: strings(p.products) } : {}),
              ...(strings(p.phases) !== undefined ? { phases: strings(p.phases) } : {})
            }
          }
        : {}),
      ...(logging !== undefined
        ? { logging: { enabled: logging.enabled === true || logging.status === "enabled" } }
        : {})
    })
  }
  return { rules: out }
}

/** The text of `rules` laid out inside a resource, as `customRulesetHcl` writes them (without the resource around). */
const rulesText = (rules: ReadonlyArray<HclRule>, major: ProviderMajor): string | Refusal => {
  const out = customRulesetHcl({ resource: "x", zone: "x", name: "x", rules }, major)
  if (!("text" in out)) return { why: out.problems.join("; "), hint: HINT }
  const lines = out.text.split("\n")
  // 3.x/4.x: the blocks after the blank line, up to the closing brace; 5.x: the list's items.
  const from = major === 5 ? lines.indexOf("  rules = [") + 1 : lines.indexOf("") + 1
  const to = major === 5 ? lines.lastIndexOf("  ]") : lines.lastIndexOf("}")
  return lines.slice(from, to).join("\n")
}

const children = (n: HclNode): Array<HclNode> => n.children.filter((c): c is HclNode => c !== null)

/** Where the line of `n` starts: rules inserted before a rule go on the lines before its own. */
const lineStart = (n: HclNode) => n.startIndex - n.startPosition.column

/**
 * The edits that insert the `before` groups each before a rule already there (`at`: its place),
 * or why they cannot. The 5.x items are written each with its comma.
 */
const insertBefore = (
  existing: ReadonlyArray<HclNode>,
  before: ReadonlyArray<{ readonly at: number; readonly rules: ReadonlyArray<HclRule> }>,
  major: ProviderMajor
): Array<TextEdit> | Refusal => {
  const edits: Array<TextEdit> = []
  for (const g of before) {
    const items = rulesText(g.rules, major)
    if (typeof items !== "string") return items
    const rule = existing[g.at]
    if (rule === undefined) return { why: `its rule #${g.at + 1} is not written in the file`, hint: HINT }
    edits.push({ range: { start: lineStart(rule), end: lineStart(rule) }, newText: `${items}\n` })
  }
  return edits
}

/** The edits that append `rules` at the end of the ruleset's rules, and insert `before`'s each before its rule. */
export const appendRules = (
  b: ResourceBlock,
  rules: ReadonlyArray<HclRule>,
  major: ProviderMajor,
  before: ReadonlyArray<{ readonly at: number; readonly rules: ReadonlyArray<HclRule> }> = []
): { readonly edits: Array<TextEdit> } | Refusal => {
  const appended = appendAtEnd(b, rules, major)
  if ("why" in appended || before.length === 0) return appended
  const body = b.node.namedChildren.find((c) => c?.type === "body")!
  const members = body.namedChildren.filter((c): c is HclNode => c !== null)
  const existing =
    major !== 5
      ? members.filter((c) => c.type === "block" && c.namedChildren[0]?.text === "rules")
      : (tupleOf(b)?.namedChildren.filter((c): c is HclNode => c?.type === "expression") ?? [])
  const inserted = insertBefore(existing, before, major)
  return "why" in inserted ? inserted : { edits: [...inserted, ...appended.edits] }
}

/** `rules = [ ... ]`: the tuple node under the attribute's expression (5.x). */
const tupleOf = (b: ResourceBlock): HclNode | undefined => {
  const attr = b.attributes.get("rules")?.node
  let tuple: HclNode | undefined = attr?.namedChildren[1] ?? undefined
  while (tuple !== undefined && tuple.type !== "tuple") tuple = tuple.namedChildren[0] ?? undefined
  return tuple
}

/** The edits that append `rules` at the end of the ruleset's rules (none when there are none). */
const appendAtEnd = (
  b: ResourceBlock,
  rules: ReadonlyArray<HclRule>,
  major: ProviderMajor
): { readonly edits: Array<TextEdit> } | Refusal => {
  const body = b.node.namedChildren.find((c) => c?.type === "body")
  if (body === undefined || body === null) return { why: "it has no body", hint: HINT }
  if (rules.length === 0) return { edits: [] }
  const items = rulesText(rules, major)
  if (typeof items !== "string") return items
  const members = body.namedChildren.filter((c): c is HclNode => c !== null)
  const at = (n: number) => ({ start: n, end: n })
  const last = members.at(-1)
  if (major !== 5) {
    if (b.attributes.has("rules"))
      return { why: "its rules are a list attribute (5.x syntax) but the pinned provider takes blocks", hint: HINT }
    const blocks = members.filter((c) => c.type === "block" && c.namedChildren[0]?.text === "rules")
    const after = blocks.at(-1) ?? last
    if (after === undefined) return { why: "it has no attributes", hint: HINT }
    return { edits: [{ range: at(after.endIndex), newText: `${blocks.length > 0 ? "\n" : "\n\n"}${items}` }] }
  }
  if (members.some((c) => c.type === "block" && c.namedChildren[0]?.text === "rules"))
    return { why: "its rules are blocks (3.x/4.x syntax) but the pinned provider 5.x takes a list", hint: HINT }
  const attr = b.attributes.get("rules")?.node
  if (attr === undefined) {
    if (last === undefined) return { why: "it has no attributes", hint: HINT }
    return { edits: [{ range: at(last.endIndex), newText: `\n\n  rules = [\n${items}\n  ]` }] }
  }
  const tuple = tupleOf(b)
  if (tuple === undefined) return { why: "its rules are not a list written in the file", hint: HINT }
  const elements = tuple.namedChildren.filter((c): c is HclNode => c?.type === "expression")
  const end = elements.at(-1)
  if (end === undefined)
    return { edits: [{ range: { start: tuple.startIndex, end: tuple.endIndex }, newText: `[\n${items}\n  ]` }] }
  const all = children(tuple)
  const comma = all[all.indexOf(all.find((c) => c.startIndex === end.startIndex && c.type === end.type)!) + 1]
  return comma?.type === ","
    ? { edits: [{ range: at(comma.endIndex), newText: `\n${items}` }] }
    : { edits: [{ range: at(end.endIndex), newText: `,\n${items}` }] }
}
