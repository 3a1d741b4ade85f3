/**
 * The Terraform rewrite of a file's `cloudflare_filter` + `cloudflare_firewall_rule` resources: per
 * zone (`zone_id` expression, and `provider` alias), the rules read with their filters, mapped by
 * `migrateFirewallRules` (the mapping every other surface uses) and written as one
 * `cloudflare_ruleset` (kind "zone", phase "http_request_firewall_custom") in the syntax of the
 * pinned provider (`customRulesetHcl`), after the zone's last old resource, with that version's
 * import and `terraform state rm` steps as comments. The old resources stay: the platform's
 * procedure removes them from the state before their HCL is deleted. A rule whose filter or
 * settings the rewrite cannot read is reported and left as it is.
 */
import type { Rule } from "../domain/firewall.js"
import { migrateFirewallRules } from "../firewall/custom-rules.js"
import { planCaveats } from "./firewall-custom-json.js"
import { finding, type Finding, type Fix, type TextEdit } from "./findings.js"
import type { ResourceBlock, TerraformRewrite } from "./terraform.js"
import { customRulesetHcl } from "./terraform-custom-rules-hcl.js"
import { hclExpressionRegions, type ExpressionChecker } from "./terraform-expressions.js"
import { hclString } from "./terraform-ruleset-hcl.js"
import { importId, type ProviderMajor, type ProviderTarget } from "./terraform-version.js"

/**
 * Each zone's firewall rules migrated (zones whose custom phase the file already manages left out),
 * with the rules that move to a ruleset, and the ids of all of them. A zone whose rules all stay
 * writes nothing: its notes say why only where a ruleset is written.
 */
export const migrateZones = <R extends { readonly rule: Rule }, G extends { readonly read: ReadonlyArray<R> }>(
  groups: ReadonlyMap<string, G & { readonly read: ReadonlyArray<R> }>,
  managed: ReadonlySet<string>,
  checker: ExpressionChecker | undefined
) => {
  const migrated = [...groups].flatMap(([key, g]) => {
    if (managed.has(key)) return []
    const migration = migrateFirewallRules(
      g.read.map((r) => r.rule),
      checker === undefined ? {} : { check: checker }
    )
    const left = new Set(migration.notes.filter((n) => n.severity === "unmapped").map((n) => n.rule))
    return migration.rules.length === 0 ? [] : [{ g, migration, moved: g.read.filter((r) => !left.has(r.rule.id)) }]
  })
  return { migrated, movedRules: new Set(migrated.flatMap((m) => m.moved.map((r) => r.rule.id))) }
}

const PHASE = "http_request_firewall_custom"

const exprText = (text: string, b: ResourceBlock, k: string): string | undefined => {
  const e = b.attributes.get(k)?.node.namedChildren[1]
  return e ? text.slice(e.startIndex, e.endIndex) : undefined
}
const address = (b: ResourceBlock) => `${b.type}.${b.name}`
const rangeOf = (b: ResourceBlock, k?: string) => {
  const n = (k !== undefined ? b.attributes.get(k)?.node : undefined) ?? b.typeLabel
  return { start: n.startIndex, end: n.endIndex }
}
const unclear = (b: ResourceBlock, k: string | undefined, message: string): Finding =>
  finding("warning", "terraform-rewrite-unclear", `${address(b)}: ${message}`, rangeOf(b, k), {
    hint: "the rewrite leaves this rule as it is: rewrite it by hand, or make the value a literal"
  })

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
const filterName = (text: string, rule: ResourceBlock): string | undefined => {
  const t = exprText(text, rule, "filter_id") ?? exprText(text, rule, "filter")
  const m = t && /^(?:\{\s*id\s*=\s*)?cloudflare_filter\.([A-Za-z_][\w-]*)\.id(?:\s*,?\s*\})?$/.exec(t.trim())
  return m?.[1]
}

interface Read {
  readonly rule: Rule
  readonly filter: ResourceBlock
}

/** One rule with its filter as the platform held them; or why the rewrite cannot read it. */
const readRule = (
  text: string,
  b: ResourceBlock,
  filters: ReadonlyMap<string, ResourceBlock>,
  expressionsOf: (block: ResourceBlock) => ReadonlyArray<{ readonly text: string }>
): Read | Finding => {
  for (const meta of ["for_each", "count"])
    if (b.attributes.has(meta))
      return unclear(b, meta, `it has ${meta}: the rewrite cannot tell the rules it stands for`)
  const name = filterName(text, b)
  const f = name === undefined ? undefined : filters.get(name)
  if (f === undefined) {
    const k = b.attributes.has("filter_id") ? "filter_id" : b.attributes.has("filter") ? "filter" : undefined
    const written = k ? exprText(text, b, k) : undefined
    return unclear(
      b,
      k,
      written === undefined
        ? "it names no filter (filter_id)"
        : `${k} = ${written} is not a cloudflare_filter of this file: the rewrite cannot read its expression`
    )
  }
  if (f.attributes.has("for_each") || f.attributes.has("count"))
    return unclear(
      b,
      "filter_id",
      `its filter ${address(f)} has for_each or count: the rewrite cannot tell its expression`
    )
  const expression = f.attributes.has("expression") ? expressionsOf(f)[0]?.text : undefined
  if (expression === undefined)
    return unclear(b, "filter_id", `the expression of its filter ${address(f)} is not a literal string`)
  const action = b.attributes.get("action")
  const mode = action?.value ?? /^\{\s*mode\s*=\s*"(\w+)"\s*,?\s*\}$/.exec(exprText(text, b, "action") ?? "")?.[1]
  if (typeof mode !== "string") return unclear(b, "action", "its action is not a literal: the rewrite cannot tell it")
  const literal = <T extends string | number | boolean>(blk: ResourceBlock, k: string, type: string) => {
    const a = blk.attributes.get(k)
    if (a === undefined || typeof a.value === type) return { ok: true as const, value: a?.value as T | undefined }
    const whose = blk === b ? "" : `its filter's `
    return {
      ok: false as const,
      finding: unclear(b, blk === b ? k : "filter_id", `${whose}${k} = ${exprText(text, blk, k)} is not a literal`)
    }
  }
  const priority = literal<number>(b, "priority", "number")
  const paused = literal<boolean>(b, "paused", "boolean")
  const description = literal<string>(b, "description", "string")
  const filterPaused = literal<boolean>(f, "paused", "boolean")
  const filterDescription = literal<string>(f, "description", "string")
  for (const r of [priority, paused, description, filterPaused, filterDescription]) if (!r.ok) return r.finding
  const productsText = exprText(text, b, "products")
  const products = productsText === undefined ? undefined : stringList(productsText)
  if (productsText !== undefined && products === undefined)
    return unclear(b, "products", `products = ${productsText} is not a list of literal strings`)
  return {
    filter: f,
    rule: {
      id: b.name,
      paused: paused.ok ? (paused.value ?? false) : false,
      action: mode,
      priority: priority.ok ? (priority.value ?? null) : null,
      ...(description.ok && description.value !== undefined ? { description: description.value } : {}),
      ...(products !== undefined ? { products } : {}),
      filter: {
        id: f.name,
        paused: filterPaused.ok ? (filterPaused.value ?? false) : false,
        expression,
        ...(filterDescription.ok && filterDescription.value !== undefined
          ? { description: filterDescription.value }
          : {})
      }
    }
  }
}

/** A resource name's part for a zone expression (`var.zone_id` -> `zone_id`, a literal id -> its first 8 digits). */
export const slug = (zone: string) =>
  zone
    .replace(/^"([0-9a-f]{8})[0-9a-f]*"$/, "$1")
    .replace(/^(var|local)\./, "")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 40) || "zone"

export const versionName = (major: ProviderMajor) => (major === 3 ? "3.35" : `${major}.x`)

/**
 * The steps of the platform's procedure for the provider version, as lines of text (comments in
 * HCL, a `"//"` property in Terraform JSON). `zone`: the zone as an HCL expression.
 */
export const migrationSteps = (
  t: ProviderTarget,
  major: ProviderMajor,
  zone: string,
  resource: string,
  old: ReadonlyArray<string>,
  where = "their HCL"
): Array<string> => {
  const zoneId = /^"[0-9a-f]{32}"$/.test(zone) ? zone.slice(1, -1) : "<zone_id>"
  const pinned =
    t.constraint === undefined
      ? "no cloudflare version is pinned: terraform init takes the latest, 5.x"
      : `pin "${t.constraint}"${t.pinFiles ? ` (${t.pinFiles.join(", ")})` : ""}`
  return [
    "Migrated from cloudflare_filter and cloudflare_firewall_rule by edgectl (the mapping of `edgectl firewall migrate`).",
    `Written for provider ${versionName(major)} (${pinned}).`,
    "The platform has already converted the zone's firewall rules to this entry point: import it rather than",
    "create it (a second one is refused), in this order:",
    `  1. terraform import ${resource} ${importId(major, zoneId)}`,
    `     (the ruleset id: GET /zones/${zoneId}/rulesets/phases/${PHASE}/entrypoint, result.id)`,
    "  2. terraform plan: it shows where these rules differ from the converted ones.",
    `  3. remove the old resources from the state (terraform state rm -dry-run first), before deleting ${where}:`,
    ...old.map((a) => `     terraform state rm ${a}`),
    "  4. delete those cloudflare_firewall_rule and cloudflare_filter resources.",
    "  5. terraform plan shows no changes.",
    "  (Terraform 1.5+: an import block can do step 1; 1.7+: removed blocks with lifecycle { destroy = false } step 3.)"
  ]
}

/** The fixes for the file's firewall resources (one per zone) and the findings on what it leaves alone. */
export const firewallRewrite: TerraformRewrite = (
  text,
  blocks,
  target,
  checker,
  expressionsOf = (b) => hclExpressionRegions(text, b.node.namedChildren.find((c) => c?.type === "body") ?? b.node)
) => {
  const fixes = new Map<ResourceBlock, Fix>()
  const findings: Array<Finding> = []
  // Without a pin `terraform init` takes the latest provider: 5.x.
  const major: ProviderMajor = target.constraint === undefined ? 5 : target.major
  const filters = new Map(blocks.filter((b) => b.type === "cloudflare_filter").map((b) => [b.name, b]))
  // The rule block a name stands for (the first, were a name written twice), found once rather than per rule.
  const ruleNamed = new Map<string, ResourceBlock>()
  for (const b of [...blocks].reverse()) if (b.type === "cloudflare_firewall_rule") ruleNamed.set(b.name, b)
  const groups = new Map<string, { zone: string; provider: string | undefined; read: Array<Read> }>()
  for (const b of blocks) {
    if (b.type !== "cloudflare_firewall_rule") continue
    const zone = exprText(text, b, "zone_id")
    const r =
      zone === undefined ? unclear(b, undefined, "it has no zone_id") : readRule(text, b, filters, expressionsOf)
    if (!("rule" in r)) {
      findings.push(r)
      continue
    }
    const provider = exprText(text, b, "provider")
    const key = `${provider ?? ""}\u0000${zone}`
    const g = groups.get(key) ?? { zone: zone!, provider, read: [] }
    g.read.push(r)
    groups.set(key, g)
  }
  const rulesets = blocks.filter((b) => b.type === "cloudflare_ruleset")
  // A zone whose custom phase the file already manages: a second entry point would be refused.
  const managed = new Set(
    rulesets
      .filter((b) => b.attributes.get("phase")?.value === PHASE)
      .map((b) => `${exprText(text, b, "provider") ?? ""}\u0000${exprText(text, b, "zone_id")}`)
  )
  const taken = new Set(rulesets.map((b) => b.name))
  const many = groups.size > 1
  const { migrated, movedRules } = migrateZones(groups, managed, checker)
  // A filter leaves the state only when every rule of the file that names it does.
  const keptFilters = new Set(
    blocks
      .filter((b) => b.type === "cloudflare_firewall_rule" && !movedRules.has(b.name))
      .map((b) => filterName(text, b))
  )
  for (const { g, migration, moved } of migrated) {
    const base = many ? `custom_rules_${slug(g.zone)}` : "custom_rules"
    let name = base
    for (let i = 2; taken.has(name); i++) name = `${base}_${i}`
    taken.add(name)
    const out = customRulesetHcl({ resource: name, zone: g.zone, name: "default", rules: migration.rules }, major)
    if (!("text" in out)) {
      for (const p of out.problems) findings.push(unclear(g.read[0]!.filter, undefined, p))
      continue
    }
    const old = [
      ...moved.map((r) => `cloudflare_firewall_rule.${r.rule.id}`),
      ...[...new Set(moved.map((r) => r.filter.name))]
        .filter((f) => !keptFilters.has(f))
        .map((f) => `cloudflare_filter.${f}`)
    ]
    const notes = planCaveats(migration.rules).map((m) => `# info: ${m}`)
    notes.push(
      ...migration.notes.map((n) => {
        const what = n.severity === "unmapped" ? "not migrated (the resource stays)" : n.severity
        const message =
          n.rule !== undefined ? n.message.replace(`rule ${n.rule}:`, `cloudflare_firewall_rule.${n.rule}:`) : n.message
        return `# ${what}: ${message}`
      })
    )
    const provider = g.provider !== undefined ? `  provider = ${g.provider}\n\n` : ""
    const resource = out.text.replace(/^(resource .*\{\n)/, `$1${provider}`)
    const comments = [
      ...migrationSteps(target, major, g.zone, `cloudflare_ruleset.${name}`, old).map((l) => `# ${l}`),
      ...notes
    ].join("\n")
    const blocksOfZone = g.read.flatMap((r) => [r.filter, ruleNamed.get(r.rule.id)!])
    const at = Math.max(...blocksOfZone.map((b) => b.node.endIndex))
    const edits: Array<TextEdit> = []
    if (major === 3 && target.pinWithinMajor !== undefined && target.pinRange !== undefined)
      edits.push({ range: target.pinRange, newText: hclString(target.pinWithinMajor) })
    edits.push({ range: { start: at, end: at }, newText: `\n\n${comments}\n${resource.replace(/\n$/, "")}` })
    const fix: Fix = {
      title: `Add the equivalent cloudflare_ruleset${many ? ` for zone_id = ${g.zone}` : ""} (${PHASE}, provider ${versionName(major)}) with the migration steps`,
      edits,
      preferred: true
    }
    for (const b of blocksOfZone) fixes.set(b, fix)
  }
  return { fixes, findings }
}
