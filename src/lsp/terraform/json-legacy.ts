/**
 * The JSON side of the legacy products' rewrite (`*.tf.json`; ./legacy-plan.ts plans it
 * for both syntaxes): the file's resources read as the HCL reader's data (a JSON string is a
 * Terraform template: `"${var.x}"` is not a literal, `$${` is a literal `${`), and each write as
 * JSON in the pinned provider's shape (./json-ruleset.ts): a new `cloudflare_ruleset`
 * beside the zone's last old resource, the steps and notes in its `"//"` property (JSON has no
 * comments; Terraform ignores that property in a block's body), or the rules appended to the
 * zone's ruleset of the phase already in the file, the steps added to its `"//"`. The rest of the
 * file is left as it is. The fixes are offered on the scanner's own finding of each old resource
 * type (in JSON it finds the type, not each resource).
 */
import { getNodeValue, type Node } from "jsonc-parser"
import { scanText } from "../../deprecations/scan-text.js"
import { findingOf, scannerNow } from "../deprecations.js"
import type { Finding, Fix, TextEdit } from "../findings.js"
import { rangeOf } from "../json-path.js"
import { rulesetProblems } from "./custom-rules-hcl.js"
import { addItems, addProperty, addResourceBeside, insertItems, objectToItems, replaceValue } from "./json-edit.js"
import { literalOf, prop, zoneExpression, type JsonResource, type TerraformJsonRewrite } from "./json-resources.js"
import { customRulesetJson, rulesJson } from "./json-ruleset.js"
import { legacyPlan, type LegacyResource, type LegacySyntax, type LegacyWrite } from "./legacy-plan.js"
import { Unread, type Obj, type Value } from "./legacy-read.js"
import { LEGACY_PRODUCT_RESOURCES } from "./legacy-types.js"
import type { ProviderMajor } from "./version.js"

const READ = new Set([...LEGACY_PRODUCT_RESOURCES, "cloudflare_ruleset", "cloudflare_firewall_rule"])
const HINT = "add the rules by hand"

/** A JSON value as the HCL reader's data: strings read as Terraform reads templates. */
const valueOf = (n: Node): Value => {
  switch (n.type) {
    case "string":
      return literalOf(n.value as string) ?? new Unread(JSON.stringify(n.value))
    case "array":
      return (n.children ?? []).map(valueOf)
    case "object": {
      const out: Record<string, Value> = {}
      for (const p of n.children ?? []) {
        const [k, v] = p.children ?? []
        if (k !== undefined && v !== undefined) out[k.value as string] = valueOf(v)
      }
      return out
    }
    default:
      return getNodeValue(n) as Value
  }
}

const address = (r: JsonResource) => `${r.type}.${r.name}`

/**
 * The one rule written as an object (`"rules": {…}`): up to 4.x `rules` is a nested block, which
 * the JSON syntax writes as one object or an array of them, so the rule is read as the one-element
 * list it is and the new rules make it an array (it stays in its place among them). In 5.x `rules`
 * is a list attribute: an object there is the wrong type (Terraform cannot make a list of it), so
 * the file is not 5.x's and the rewrite refuses it rather than guess which syntax its rule is in.
 */
const oneBlock = (
  text: string,
  rules: Node,
  w: LegacyWrite<JsonResource>,
  items: ReadonlyArray<unknown>,
  major: ProviderMajor
): TextEdit | { why: string; hint: string } => {
  if (major === 5)
    return {
      why: 'its "rules" is one object (a nested block in the 3.x/4.x JSON syntax), but in provider 5.x "rules" is a list attribute, which the JSON syntax writes as an array: Terraform refuses an object there',
      hint: 'write "rules": [{…}] (the rule in an array, in 5.x\'s attribute syntax), or pin the provider version the file is written for'
    }
  const misplaced = w.before.find((g) => g.at !== 0)
  if (misplaced !== undefined) return { why: `its rule #${misplaced.at + 1} is not written in the file`, hint: HINT }
  return objectToItems(
    text,
    rules,
    w.before.flatMap((g) => rulesJson(g.rules, major)),
    items
  )
}

/** The edits that append `w.rules` to the zone's ruleset already in the file, with the steps in its `"//"`. */
const append = (text: string, r: JsonResource, w: LegacyWrite<JsonResource>, major: ProviderMajor) => {
  const body = r.body
  if (body === undefined) return { why: "its body is not an object", hint: HINT }
  const edits: Array<TextEdit> = []
  const rules = prop(body, "rules")
  const items = rulesJson(w.rules, major)
  if (rules?.type === "object") {
    const one = oneBlock(text, rules, w, items, major)
    if ("why" in one) return one
    edits.push(one)
  } else if (rules !== undefined && rules.type !== "array")
    return { why: "its rules are not a list written in the file", hint: HINT }
  else {
    // The rules placed before a rule already there (a skip of the rest), each group before its rule.
    for (const g of w.before) {
      const rule = rules?.children?.[g.at]
      if (rule === undefined) return { why: `its rule #${g.at + 1} is not written in the file`, hint: HINT }
      edits.push(insertItems(text, rule, rulesJson(g.rules, major)))
    }
    if (items.length > 0)
      edits.push(rules === undefined ? addProperty(text, body, "rules", items) : addItems(text, rules, items))
  }
  const notes = prop(body, "//")
  if (notes === undefined) edits.push(addProperty(text, body, "//", w.comments))
  else if (notes.type === "array") edits.push(addItems(text, notes, w.comments))
  else edits.push(replaceValue(text, notes, [getNodeValue(notes), ...w.comments]))
  return { edits }
}

/** The fixes for the file's legacy security resources, on the scanner's findings of their types. */
export const legacyJsonRewrite: TerraformJsonRewrite = (text, resources, target) => {
  const major: ProviderMajor = target.constraint === undefined ? 5 : target.major
  const syntax: LegacySyntax<JsonResource> = {
    range: (r, at) => rangeOf((at !== undefined ? prop(r.body, at)?.parent?.children?.[0] : undefined) ?? r.nameKey),
    address,
    where: "them from the file",
    write: (w) => {
      if (w.existing !== undefined) return append(text, w.existing, w, major)
      const problems = rulesetProblems(w.rules)
      if (problems.length > 0) return { why: problems.join("; "), hint: "rewrite these rules by hand" }
      const first = w.sources[0]!
      const last = w.sources.reduce((a, b) => (b.nameKey.offset > a.nameKey.offset ? b : a))
      const provider = prop(first.body, "provider")
      const body = customRulesetJson(
        {
          comments: w.comments,
          provider: provider === undefined ? undefined : (getNodeValue(provider) as string),
          zone: getNodeValue(prop(first.body, "zone_id")!) as string,
          name: "default",
          phase: w.phase,
          rules: w.rules
        },
        major
      )
      return { edits: [addResourceBeside(text, last, "cloudflare_ruleset", w.name, body)] }
    }
  }
  const read = resources
    .filter((r) => READ.has(r.type))
    .map((r): LegacyResource<JsonResource> => {
      const z = prop(r.body, "zone_id")
      const p = prop(r.body, "provider")
      // A firewall rule tells only its zone (its custom rules come first): its body is not read.
      const data = r.body === undefined || r.type === "cloudflare_firewall_rule" ? {} : (valueOf(r.body) as Obj)
      const provider = p === undefined ? undefined : JSON.stringify(getNodeValue(p))
      return {
        s: r,
        type: r.type,
        name: r.name,
        key: `${provider ?? ""}\u0000${z === undefined ? "" : JSON.stringify(getNodeValue(z))}`,
        zone: z === undefined ? undefined : zoneExpression(getNodeValue(z)),
        provider,
        data
      }
    })
  const { fixes, findings } = legacyPlan(read, target, syntax)
  return { fixes, findings: [...findings, ...deprecationFindings(text, resources, target.constraint, fixes)] }
}

/** The scanner's finding on each old resource type (its deprecation, dates and pin), with the fixes of its resources first. */
const deprecationFindings = (
  text: string,
  resources: ReadonlyArray<JsonResource>,
  pin: string | undefined,
  fixes: ReadonlyMap<JsonResource, Fix>
): Array<Finding> => {
  const hits = scanText(text, "terraform-json", { now: scannerNow(), pin }).filter((h) => h.kind === "terraform")
  const byType = new Map<Node, Array<Fix>>()
  for (const r of resources) {
    if (!LEGACY_PRODUCT_RESOURCES.includes(r.type)) continue
    const all = byType.get(r.typeKey) ?? []
    const fix = fixes.get(r)
    if (fix !== undefined && !all.includes(fix)) all.push(fix)
    byType.set(r.typeKey, all)
  }
  return [...byType].flatMap(([key, own]) => {
    const hit = hits.find((h) => h.start === key.offset + 1)
    if (hit === undefined) return []
    const f = findingOf(hit)
    return [own.length === 0 ? f : { ...f, fixes: [...own, ...(f.fixes ?? [])] }]
  })
}
