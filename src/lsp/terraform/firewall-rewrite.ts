/**
 * The Terraform rewrite of a file's `cloudflare_filter` + `cloudflare_firewall_rule` resources: per
 * zone (`zone_id` expression, and `provider` alias), the rules read with their filters, mapped by
 * `migrateFirewallRules` (the mapping every other surface uses) and written as one
 * `cloudflare_ruleset` (kind "zone", phase "http_request_firewall_custom") in the syntax of the
 * pinned provider (`customRulesetHcl`), after the zone's last old resource, with that version's
 * import and `terraform state rm` steps as comments. The old resources stay: the platform's
 * procedure removes them from the state before their HCL is deleted. The ruleset is the zone's
 * whole entry point, so a rule it cannot carry over (./firewall-read.ts) withholds its
 * zone's ruleset, with a finding saying why; the steps say where following them changes what the
 * zone does.
 */
import type { MigrationNote } from "../../domain/custom-rule.js"
import type { Rule } from "../../domain/firewall.js"
import { migrateFirewallRules } from "../../firewall/custom-rules.js"
import { planCaveats } from "../firewall-custom-json.js"
import { finding, type Finding, type Fix, type TextEdit } from "../findings.js"
import type { ResourceBlock, TerraformRewrite } from "./analyze.js"
import { customRulesetHcl } from "./custom-rules-hcl.js"
import { hclExpressionRegions, type ExpressionChecker } from "./expressions.js"
import {
  address,
  carriedDescription,
  exprText,
  filterName,
  readRule,
  refusalMessage,
  type Problem,
  type Read,
  withheldZones
} from "./firewall-read.js"
import { hclString } from "./ruleset-hcl.js"
import { zoneSpellings } from "./zone-groups.js"
import { importId, type ProviderMajor, type ProviderTarget } from "./version.js"

/**
 * Each zone's firewall rules migrated (zones `left` out: those whose custom phase the file already
 * manages, those with a rule the rewrite cannot read),
 * with the rules that move to a ruleset, and the ids of all of them. A zone whose rules all stay
 * writes nothing: its notes say why only where a ruleset is written.
 */
export const migrateZones = <R extends { readonly rule: Rule }, G extends { readonly read: ReadonlyArray<R> }>(
  groups: ReadonlyMap<string, G & { readonly read: ReadonlyArray<R> }>,
  left: (key: string) => boolean,
  checker: ExpressionChecker | undefined
) => {
  const migrated = [...groups].flatMap(([key, g]) => {
    if (left(key)) return []
    const migration = migrateFirewallRules(
      g.read.map((r) => r.rule),
      checker === undefined ? {} : { check: checker }
    )
    const unmapped = new Set(migration.notes.filter((n) => n.severity === "unmapped").map((n) => n.rule))
    return migration.rules.length === 0 ? [] : [{ g, migration, moved: g.read.filter((r) => !unmapped.has(r.rule.id)) }]
  })
  return { migrated, movedRules: new Set(migrated.flatMap((m) => m.moved.map((r) => r.rule.id))) }
}

const PHASE = "http_request_firewall_custom"

const rangeOf = (b: ResourceBlock, k?: string) => {
  const n = (k !== undefined ? b.attributes.get(k)?.node : undefined) ?? b.typeLabel
  return { start: n.startIndex, end: n.endIndex }
}
const refused = (b: ResourceBlock, p: Problem, zone: string | undefined): Finding =>
  finding("warning", "terraform-rewrite-unclear", refusalMessage(address(b), p, zone), rangeOf(b, p.at), {
    hint: p.hint
  })

/** A resource name's part for a zone expression (`var.zone_id` -> `zone_id`, a literal id -> its first 8 digits). */
export const slug = (zone: string) =>
  zone
    .replace(/^"([0-9a-f]{8})[0-9a-f]*"$/, "$1")
    .replace(/^(var|local)\./, "")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 40) || "zone"

export const versionName = (major: ProviderMajor) => (major === 3 ? "3.35" : `${major}.x`)

/** The zone's id when the file writes it as a literal, else a placeholder the steps say to fill. */
export const literalZoneId = (zone: string) => (/^"[0-9a-f]{32}"$/.test(zone) ? zone.slice(1, -1) : "<zone_id>")

/** The module's provider pin as the steps name it (the latest, 5.x, without one). */
export const pinText = (t: ProviderTarget) =>
  t.constraint === undefined
    ? "no cloudflare version is pinned: terraform init takes the latest, 5.x"
    : `pin "${t.constraint}"${t.pinFiles ? ` (${t.pinFiles.join(", ")})` : ""}`

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
  differs: ReadonlyArray<string>,
  where = "their HCL"
): Array<string> => {
  const zoneId = literalZoneId(zone)
  const pinned = pinText(t)
  return [
    "Migrated from cloudflare_filter and cloudflare_firewall_rule by edgectl (the mapping of `edgectl firewall migrate`).",
    `Written for provider ${versionName(major)} (${pinned}${t.majorUpgrade ? `; change it to "${t.pinWithinMajor}", a major provider upgrade for the whole module` : ""}).`,
    "The platform has already converted the zone's firewall rules to this entry point: import it rather than",
    "create it (a second one is refused), in this order:",
    `  1. terraform import ${resource} ${importId(major, zoneId)}`,
    `     (the ruleset id: GET /zones/${zoneId}/rulesets/phases/${PHASE}/entrypoint, result.id)`,
    "  2. terraform plan: it shows where these rules differ from the converted ones.",
    `  3. remove the old resources from the state (terraform state rm -dry-run first), before deleting ${where}:`,
    ...old.map((a) => `     terraform state rm ${a}`),
    "  4. delete those cloudflare_firewall_rule and cloudflare_filter resources.",
    ...(differs.length === 0
      ? ["  5. terraform plan shows no changes."]
      : [
          "  5. terraform plan still shows the differences below; applying them changes what the zone does:",
          ...differs.map((d) => `     - ${d}`)
        ]),
    "  (Terraform 1.5+: an import block can do step 1; 1.7+: removed blocks with lifecycle { destroy = false } step 3.)"
  ]
}

/**
 * Where the ruleset differs from the zone's converted rules, one line per rule (none: following
 * the steps changes nothing). A block's 1020 page is no difference here: the conversion changed it.
 */
export const differences = (notes: ReadonlyArray<MigrationNote>): Array<string> =>
  notes.flatMap((n) => {
    const rule = `cloudflare_firewall_rule.${n.rule}`
    if (n.rule === undefined || (n.severity !== "unmapped" && n.severity !== "changed") || n.code === "block-page")
      return []
    if (n.severity === "unmapped")
      return [
        `${rule} is not in this ruleset (see "not migrated" below): if the platform converted it, applying deletes that rule`
      ]
    if (n.code === "filter-paused")
      return [
        `${rule} is written disabled (its filter is paused): applying turns off the converted rule, which the conversion enabled`
      ]
    return [`${rule}: ${n.message.replace(`rule ${n.rule}: `, "")}`]
  })

/** The fixes for the file's firewall resources (one per zone) and the findings on the zones it refuses. */
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
  // Zones with a rule the rewrite cannot carry over: their ruleset would delete it.
  const withheld = withheldZones()
  for (const b of blocks) {
    if (b.type !== "cloudflare_firewall_rule") continue
    const zone = exprText(text, b, "zone_id")
    const provider = exprText(text, b, "provider")
    const key = `${provider ?? ""}\u0000${zone}`
    const r: Read | Problem =
      zone === undefined
        ? { at: undefined, why: "it has no zone_id", hint: "give it its zone_id" }
        : readRule(text, b, filters, expressionsOf)
    if ("why" in r) {
      findings.push(refused(b, r, withheld.add(key, zone)))
      continue
    }
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
  const label = (g: { read: Array<Read> }) => {
    const b = ruleNamed.get(g.read[0]!.rule.id)!
    return { start: b.typeLabel.startIndex, end: b.typeLabel.endIndex }
  }
  const spelled = zoneSpellings(groups, label)
  findings.push(...spelled.findings)
  const taken = new Set(rulesets.map((b) => b.name))
  const many = groups.size > 1
  const { migrated, movedRules } = migrateZones(
    groups,
    (k) => managed.has(k) || withheld.has(k) || spelled.keys.has(k),
    checker
  )
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
      for (const p of out.problems)
        findings.push(
          refused(
            g.read[0]!.filter,
            { at: undefined, why: p, hint: "rewrite the zone's rules by hand", ruleset: true },
            g.zone
          )
        )
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
    // A description Terraform computes, carried as written in place of the text the mapping saw.
    let resource = out.text.replace(/^(resource .*\{\n)/, `$1${provider}`)
    for (const r of moved)
      if (r.description !== undefined)
        resource = resource.replace(hclString(carriedDescription(r.rule.id)), () => r.description!)
    const steps = migrationSteps(target, major, g.zone, `cloudflare_ruleset.${name}`, old, differences(migration.notes))
    const comments = [...steps.map((l) => `# ${l}`), ...notes].join("\n")
    const blocksOfZone = g.read.flatMap((r) => [r.filter, ruleNamed.get(r.rule.id)!])
    const at = Math.max(...blocksOfZone.map((b) => b.node.endIndex))
    const edits: Array<TextEdit> = []
    if (major === 3 && target.pinWithinMajor !== undefined && target.pinRange !== undefined && !target.majorUpgrade)
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
