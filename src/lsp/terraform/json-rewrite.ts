/**
 * The rewrite of `cloudflare_filter` + `cloudflare_firewall_rule` in Terraform's JSON syntax
 * (`*.tf.json`), as ./firewall-rewrite.ts does it for HCL: per zone (`zone_id`, and
 * `provider`), the rules read with their filters, mapped by `migrateFirewallRules` and written as
 * one `cloudflare_ruleset` in the shape of the pinned provider (./json-ruleset.ts), next
 * to the old resources, with the version's import and state steps in its `"//"` property (JSON has
 * no comments; Terraform ignores that property in a block's body). The edit inserts one property,
 * laid out in the file's own indentation; the rest of the file is left as it is. A description
 * Terraform computes (`"${var.x}"`) is carried as written; any other value it computes (an
 * interpolation where a literal is needed, `for_each`) is reported and withholds the zone's
 * ruleset, which as the zone's whole entry point would delete the rule.
 */
import { getNodeValue, type Node } from "jsonc-parser"
import type { Rule } from "../../domain/firewall.js"
import { planCaveats } from "../firewall-custom-json.js"
import { finding, type Finding, type Fix, type TextEdit } from "../findings.js"
import { rangeOf } from "../json-path.js"
import { rulesetProblems } from "./custom-rules-hcl.js"
import {
  carriedDescription,
  LITERAL_HINT,
  META_HINT,
  OTHER_FILTER_HINT,
  refusalMessage,
  type Problem,
  withheldZones
} from "./firewall-read.js"
import { differences, migrateZones, migrationSteps, slug, versionName } from "./firewall-rewrite.js"
import { addResourceBeside } from "./json-edit.js"
import { literalOf, prop, zoneExpression, type JsonResource, type TerraformJsonRewrite } from "./json-resources.js"
import { customRulesetJson } from "./json-ruleset.js"
import type { ProviderMajor } from "./version.js"
import { zoneSpellings } from "./zone-groups.js"
import * as Either from "effect/Either"

const PHASE = "http_request_firewall_custom"

const address = (r: JsonResource) => `${r.type}.${r.name}`
const refused = (r: JsonResource, p: Problem, zone: string | undefined): Finding => {
  const key = p.at === undefined ? undefined : prop(r.body, p.at)?.parent?.children?.[0]
  return finding(
    "warning",
    "terraform-rewrite-unclear",
    refusalMessage(address(r), p, zone),
    rangeOf(key ?? r.nameKey),
    {
      hint: p.hint
    }
  )
}
const written = (text: string, n: Node) => text.slice(n.offset, n.offset + n.length)

/** The filter a rule names: `"filter_id": "${cloudflare_filter.x.id}"`, 5.x: `"filter": {"id": "${…}"}`. */
const filterName = (r: JsonResource): string | undefined => {
  const v = prop(r.body, "filter_id") ?? prop(prop(r.body, "filter"), "id")
  const m = v?.type === "string" && /^\$\{\s*cloudflare_filter\.([A-Za-z_][\w-]*)\.id\s*\}$/.exec(v.value as string)
  return m ? m[1] : undefined
}

interface Read {
  readonly rule: Rule
  readonly filter: JsonResource
  /** The description Terraform computes, as written (in place of `carriedDescription(rule.id)`). */
  readonly description?: string | undefined
}

/** One rule with its filter as the platform held them; or why the rewrite cannot read it. */
const readRule = (text: string, r: JsonResource, filters: ReadonlyMap<string, JsonResource>): Read | Problem => {
  const problem = (at: string | undefined, why: string, hint = LITERAL_HINT): Problem => ({ at, why, hint })
  for (const meta of ["for_each", "count"])
    if (prop(r.body, meta) !== undefined)
      return problem(meta, `it has ${meta}: the rewrite cannot tell the rules it stands for`, META_HINT)
  const name = filterName(r)
  const f = name === undefined ? undefined : filters.get(name)
  if (f === undefined) {
    const k = prop(r.body, "filter_id") !== undefined ? "filter_id" : prop(r.body, "filter") ? "filter" : undefined
    return k === undefined
      ? problem(k, "it names no filter (filter_id)", META_HINT)
      : problem(
          k,
          `${k} = ${written(text, prop(r.body, k)!)} is not a cloudflare_filter of this file: the rewrite cannot read its expression`,
          OTHER_FILTER_HINT
        )
  }
  if (prop(f.body, "for_each") !== undefined || prop(f.body, "count") !== undefined)
    return problem(
      "filter_id",
      `its filter ${address(f)} has for_each or count: the rewrite cannot tell its expression`,
      META_HINT
    )
  const e = prop(f.body, "expression")
  const expression = e?.type === "string" ? literalOf(e.value as string) : undefined
  if (expression === undefined)
    return problem("filter_id", `the expression of its filter ${address(f)} is not a literal string`)
  const a = prop(r.body, "action")
  // 4.x: `"action": "block"`; 5.x: `"action": {"mode": "block"}`.
  const modeNode = a?.type === "string" ? a : prop(a, "mode")
  const mode = modeNode?.type === "string" ? literalOf(modeNode.value as string) : undefined
  if (typeof mode !== "string") return problem("action", "its action is not a literal: the rewrite cannot tell it")
  // A literal of the JSON type, or absent; a description Terraform computes is carried as written.
  // A literal's value (absent: undefined), or a description Terraform computes (`computed`).
  type Literal = { readonly value?: unknown; readonly computed?: string }
  const literal = (
    of: JsonResource,
    k: string,
    type: "number" | "boolean" | "string"
  ): Either.Either<Literal, Problem> => {
    const n = prop(of.body, k)
    const v = n === undefined ? undefined : getNodeValue(n)
    const value = typeof v === "string" && type === "string" ? literalOf(v) : v
    if (n === undefined || (typeof v === type && value !== undefined)) return Either.right({ value })
    if (k === "description" && typeof v === "string") return Either.right({ computed: v })
    const whose = of === r ? "" : "its filter's "
    return Either.left(problem(of === r ? k : "filter_id", `${whose}${k} = ${written(text, n)} is not a literal`))
  }
  const literals = Either.all([
    literal(r, "priority", "number"),
    literal(r, "paused", "boolean"),
    literal(r, "description", "string"),
    literal(f, "paused", "boolean"),
    literal(f, "description", "string")
  ])
  if (Either.isLeft(literals)) return literals.left
  const [priority, paused, description, filterPaused, filterDescription] = literals.right
  const p = prop(r.body, "products")
  const products = p === undefined ? undefined : (getNodeValue(p) as unknown)
  const list =
    Array.isArray(products) && products.every((x) => typeof x === "string" && literalOf(x) === x)
      ? (products as Array<string>)
      : undefined
  if (p !== undefined && list === undefined)
    return problem("products", `products = ${written(text, p)} is not a list of literal strings`)
  const value = <T>(x: Literal) => x.value as T | undefined
  const carried = (x: { value?: unknown; computed?: string }) =>
    x.computed !== undefined ? carriedDescription(r.name) : (x.value as string | undefined)
  const ruleDescription = carried(description)
  const ownDescription = carried(filterDescription)
  // The mapping takes the rule's description, else its filter's.
  const computed = ruleDescription !== undefined ? description.computed : filterDescription.computed
  return {
    filter: f,
    ...(computed !== undefined ? { description: computed } : {}),
    rule: {
      id: r.name,
      paused: value<boolean>(paused) ?? false,
      action: mode,
      priority: value<number>(priority) ?? null,
      ...(ruleDescription !== undefined ? { description: ruleDescription } : {}),
      ...(list !== undefined ? { products: list } : {}),
      filter: {
        id: f.name,
        paused: value<boolean>(filterPaused) ?? false,
        expression,
        ...(ownDescription !== undefined ? { description: ownDescription } : {})
      }
    }
  }
}

/** The fixes for the file's firewall resources (one per zone), and the findings on what it leaves alone. */
export const firewallJsonRewrite: TerraformJsonRewrite = (text, resources, target, checker) => {
  const fixes = new Map<JsonResource, Fix>()
  const findings: Array<Finding> = []
  // Without a pin `terraform init` takes the latest provider: 5.x.
  const major: ProviderMajor = target.constraint === undefined ? 5 : target.major
  const filters = new Map(resources.filter((r) => r.type === "cloudflare_filter").map((r) => [r.name, r]))
  const rules = resources.filter((r) => r.type === "cloudflare_firewall_rule")
  // The rule resource a name stands for (the first, were a name written twice), found once rather than per rule.
  const ruleNamed = new Map<string, JsonResource>()
  for (const r of [...rules].reverse()) ruleNamed.set(r.name, r)
  const zoneKey = (r: JsonResource) => {
    const z = prop(r.body, "zone_id")
    const p = prop(r.body, "provider")
    return `${p === undefined ? "" : JSON.stringify(getNodeValue(p))}\u0000${z === undefined ? "" : JSON.stringify(getNodeValue(z))}`
  }
  const groups = new Map<string, { zone: Node; provider: Node | undefined; read: Array<Read>; last: JsonResource }>()
  // Zones with a rule the rewrite cannot carry over: their ruleset would delete it.
  const withheld = withheldZones()
  for (const r of rules) {
    const zone = prop(r.body, "zone_id")
    const key = zoneKey(r)
    const read: Read | Problem =
      zone === undefined
        ? { at: undefined, why: "it has no zone_id", hint: "give it its zone_id" }
        : readRule(text, r, filters)
    if ("why" in read) {
      findings.push(refused(r, read, withheld.add(key, zone && zoneExpression(getNodeValue(zone)))))
      continue
    }
    const g = groups.get(key) ?? { zone: zone!, provider: prop(r.body, "provider"), read: [], last: r }
    g.read.push(read)
    g.last = r
    groups.set(key, g)
  }
  const rulesets = resources.filter((r) => r.type === "cloudflare_ruleset")
  // A zone whose custom phase the file already manages: a second entry point would be refused.
  const managed = new Set(rulesets.filter((r) => prop(r.body, "phase")?.value === PHASE).map(zoneKey))
  const taken = new Set(rulesets.map((r) => r.name))
  const many = groups.size > 1
  const spelled = zoneSpellings(
    new Map(
      [...groups].map(([k, g]) => [
        k,
        {
          zone: zoneExpression(getNodeValue(g.zone)),
          provider: g.provider === undefined ? undefined : JSON.stringify(getNodeValue(g.provider)),
          at: rangeOf(g.last.typeKey)
        }
      ])
    ),
    (g) => g.at
  )
  findings.push(...spelled.findings)
  const { migrated, movedRules } = migrateZones(
    groups,
    (k) => managed.has(k) || withheld.has(k) || spelled.keys.has(k),
    checker
  )
  // A filter leaves the state only when every rule of the file that names it does.
  const keptFilters = new Set(rules.filter((r) => !movedRules.has(r.name)).map(filterName))
  for (const { g, migration, moved } of migrated) {
    const zone = zoneExpression(getNodeValue(g.zone))
    const problems = rulesetProblems(migration.rules)
    if (problems.length > 0) {
      for (const why of problems)
        findings.push(
          refused(
            g.read[0]!.filter,
            { at: undefined, why, hint: "rewrite the zone's rules by hand", ruleset: true },
            zone
          )
        )
      continue
    }
    const base = many ? `custom_rules_${slug(zone)}` : "custom_rules"
    let name = base
    for (let i = 2; taken.has(name); i++) name = `${base}_${i}`
    taken.add(name)
    const old = [
      ...moved.map((r) => `cloudflare_firewall_rule.${r.rule.id}`),
      ...[...new Set(moved.map((r) => r.filter.name))]
        .filter((f) => !keptFilters.has(f))
        .map((f) => `cloudflare_filter.${f}`)
    ]
    const comments = [
      ...migrationSteps(
        target,
        major,
        zone,
        `cloudflare_ruleset.${name}`,
        old,
        differences(migration.notes),
        "them from the file"
      ),
      ...planCaveats(migration.rules).map((m) => `info: ${m}`),
      ...migration.notes.map((n) => {
        const what = n.severity === "unmapped" ? "not migrated (the resource stays)" : n.severity
        const message =
          n.rule !== undefined ? n.message.replace(`rule ${n.rule}:`, `cloudflare_firewall_rule.${n.rule}:`) : n.message
        return `${what}: ${message}`
      })
    ]
    const body = customRulesetJson(
      {
        comments,
        provider: g.provider === undefined ? undefined : (getNodeValue(g.provider) as string),
        zone: getNodeValue(g.zone) as string,
        name: "default",
        rules: migration.rules
      },
      major
    )
    // A description Terraform computes, carried as written in place of the text the mapping saw.
    const carried = new Map(moved.map((r) => [carriedDescription(r.rule.id), r.description]))
    for (const rule of (body.rules ?? []) as Array<{ description?: string }>) {
      const d = rule.description === undefined ? undefined : carried.get(rule.description)
      if (d !== undefined) rule.description = d
    }
    // Beside the zone's old resources: in the object holding its last rule, after its rules' type.
    const edit = addResourceBeside(text, g.last, "cloudflare_ruleset", name, body)
    const all: Array<TextEdit> = []
    if (major === 3 && target.pinWithinMajor !== undefined && target.pinRange !== undefined && !target.majorUpgrade)
      all.push({ range: target.pinRange, newText: JSON.stringify(target.pinWithinMajor) })
    all.push(edit)
    const fix: Fix = {
      title: `Add the equivalent cloudflare_ruleset${many ? ` for zone_id = ${zone}` : ""} (${PHASE}, provider ${versionName(major)}) with the migration steps`,
      edits: all,
      preferred: true
    }
    for (const r of g.read) {
      fixes.set(r.filter, fix)
      fixes.set(ruleNamed.get(r.rule.id)!, fix)
    }
  }
  return { fixes, findings }
}
