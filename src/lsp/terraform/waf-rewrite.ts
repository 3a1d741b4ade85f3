/**
 * The Terraform rewrite: the previous-WAF resources of a file, read as a previous WAF (the
 * catalog's defaults plus what the resources set), mapped by `src/waf`'s `planMigration`, and
 * written as one `cloudflare_ruleset` (phase `http_request_firewall_managed`) per zone — per
 * `zone_id` expression, keeping a `for_each`/`count` — in the syntax of the provider version the
 * file pins, with the ordered state steps of that version. When it cannot tell which zone a
 * resource belongs to or what it sets, a diagnostic says so instead of a rewrite.
 */
import type { BypassFirewallRule, PreviousWaf, WafGroup, WafOverride, WafPackage, WafRule } from "../../domain/waf.js"
import { CATALOG, PREVIOUS_OWASP_PACKAGE } from "../../waf/catalog.js"
import { planMigration } from "../../waf/mapping.js"
import { finding, type Finding, type Fix, type TextEdit } from "../findings.js"
import type { HclNode } from "../hcl.js"
import { PREVIOUS_WAF_RESOURCES, type ResourceBlock } from "./analyze.js"
import { formatHcl } from "./fmt.js"
import { slug } from "./firewall-rewrite.js"
import { hclString, rulesLines } from "./ruleset-hcl.js"
import { hclExpressionRegions, type ExpressionChecker, type TerraformExpression } from "./expressions.js"
import { importId, pinFor, type ProviderTarget } from "./version.js"
import { wafDifferences } from "./waf-differences.js"
import { existingRulesetFinding, zoneSpellings } from "./zone-groups.js"
import { carryReferences, namedRules, wafBypass, zoneKey, type WafBypass } from "./waf-bypass.js"

const str = (b: ResourceBlock, k: string): string | undefined => {
  const v = b.attributes.get(k)?.value
  return typeof v === "string" ? v : undefined
}

/** The previous WAF the file's resources describe, with the zone's firewall rules that bypass it. */
const previousFromTerraform = (
  blocks: ReadonlyArray<ResourceBlock>,
  firewallRules: ReadonlyArray<BypassFirewallRule> = []
): PreviousWaf => {
  // Package ids are the zone's own on the platform: the anomaly (OWASP) package is the one with a sensitivity or an action mode.
  const pkgs = new Map(
    blocks
      .filter((b) => b.type === "cloudflare_waf_package")
      .map((b) => [
        CATALOG.packages.some((p) => p.id === str(b, "package_id")) ||
        (str(b, "sensitivity") === undefined && str(b, "action_mode") === undefined)
          ? str(b, "package_id")
          : PREVIOUS_OWASP_PACKAGE,
        b
      ])
  )
  const packages: Array<WafPackage> = CATALOG.packages.map((p) => {
    const b = pkgs.get(p.id)
    const sensitivity = b ? str(b, "sensitivity") : undefined
    const action = b ? str(b, "action_mode") : undefined
    return {
      ...p,
      zone_id: "",
      status: "active",
      ...(p.id === PREVIOUS_OWASP_PACKAGE
        ? {
            sensitivity: (sensitivity ?? "high") as WafPackage["sensitivity"],
            action_mode: (action ?? "challenge") as WafPackage["action_mode"]
          }
        : {})
    }
  })
  const groupModes = new Map(
    blocks.filter((b) => b.type === "cloudflare_waf_group").map((b) => [str(b, "group_id"), str(b, "mode")])
  )
  const groups: Array<WafGroup> = CATALOG.groups.map((g) => ({
    id: g.id,
    name: g.name,
    description: g.description,
    rules_count: CATALOG.rules.filter((r) => r.group.id === g.id).length,
    modified_rules_count: 0,
    package_id: g.package_id,
    mode: (groupModes.get(g.id) === "off" ? "off" : "on") as WafGroup["mode"],
    allowed_modes: ["on", "off"]
  }))
  const ruleModes = new Map(
    blocks.filter((b) => b.type === "cloudflare_waf_rule").map((b) => [str(b, "rule_id"), str(b, "mode")])
  )
  const rules: Array<WafRule> = CATALOG.rules.map((r) => ({
    id: r.id,
    description: r.description,
    priority: r.priority,
    group: r.group,
    package_id: r.package_id,
    mode: (ruleModes.get(r.id) ?? (r.package_id === PREVIOUS_OWASP_PACKAGE ? "on" : "default")) as WafRule["mode"],
    ...(r.default_mode ? { default_mode: r.default_mode } : {}),
    allowed_modes: r.allowed_modes as WafRule["allowed_modes"]
  }))
  const overrides: Array<WafOverride> = blocks
    .filter((b) => b.type === "cloudflare_waf_override")
    .map((b, i) => ({
      id: `${b.name || `override-${i}`}`,
      description: str(b, "description") ?? null,
      urls: [],
      priority: 1,
      paused: false
    }))
  return { waf: "on", packages, groups, rules, overrides, firewall_rules: firewallRules, page_rules: [] }
}

/** Groups and rules the catalog does not know: the mapping cannot place them. */
const unknownIds = (waf: ReadonlyArray<ResourceBlock>): Array<string> =>
  waf.flatMap((b) => {
    if (b.type === "cloudflare_waf_group" && CATALOG.group(str(b, "group_id") ?? "") === undefined)
      return [`${b.type}.${b.name}: group ${str(b, "group_id")} is not in the managed rules catalog`]
    if (b.type === "cloudflare_waf_rule" && CATALOG.rule(str(b, "rule_id") ?? "") === undefined)
      return [`${b.type}.${b.name}: rule ${str(b, "rule_id")} is not in the managed rules catalog`]
    return []
  })

/** The attributes whose values the mapping reads, per resource type. */
const SETTINGS: Record<string, ReadonlyArray<string>> = {
  cloudflare_waf_package: ["package_id", "sensitivity", "action_mode"],
  cloudflare_waf_group: ["group_id", "mode"],
  cloudflare_waf_rule: ["rule_id", "mode"],
  cloudflare_waf_override: []
}

/** The resources of one zone: one `zone_id` expression under one `for_each`/`count`. */
interface ZoneGroup {
  readonly zone: string
  readonly meta: { readonly name: "for_each" | "count"; readonly text: string } | undefined
  /** A `provider = cloudflare.alias`: the ruleset is managed by the same provider configuration. */
  readonly provider: string | undefined
  readonly blocks: Array<ResourceBlock>
}

const exprText = (text: string, b: ResourceBlock, k: string): string | undefined => {
  const e = b.attributes.get(k)?.node.namedChildren[1]
  return e ? text.slice(e.startIndex, e.endIndex) : undefined
}
const metaOf = (text: string, b: ResourceBlock): ZoneGroup["meta"] => {
  for (const name of ["for_each", "count"] as const) {
    const t = exprText(text, b, name)
    if (t !== undefined) return { name, text: t }
  }
  return undefined
}
const keyOf = (zone: string, meta: ZoneGroup["meta"], provider: string | undefined) =>
  `${provider ?? ""}\u0001${meta ? `${meta.name}=${meta.text}` : ""}\u0000${zone}`
const describe = (g: ZoneGroup) =>
  [
    g.provider ? `provider = ${g.provider}` : undefined,
    g.meta ? `${g.meta.name} = ${g.meta.text}` : "no for_each or count"
  ]
    .filter((x) => x !== undefined)
    .join(", ")

const name = (b: ResourceBlock) => `${b.type}.${b.name}`
const rangeOfNode = (n: HclNode) => ({ start: n.startIndex, end: n.endIndex })

/** Why a resource cannot be placed in a zone's ruleset, as a finding at the attribute concerned; undefined when it can. */
const unclear = (text: string, b: ResourceBlock): Finding | undefined => {
  const zone = exprText(text, b, "zone_id")
  const meta = metaOf(text, b)
  const say = (message: string, at: HclNode) =>
    finding("warning", "terraform-rewrite-unclear", message, rangeOfNode(at), {
      hint: "rewrite this resource by hand, or make the value a literal"
    })
  if (zone === undefined)
    return say(`${name(b)} has no zone_id: the rewrite cannot tell which zone's ruleset it belongs to`, b.typeLabel)
  const zoneNode = b.attributes.get("zone_id")!.node
  if (/\beach\./.test(zone) && meta?.name !== "for_each")
    return say(`${name(b)}: zone_id = ${zone} uses each.* but the resource has no for_each`, zoneNode)
  if (/\bcount\.index\b/.test(zone) && meta?.name !== "count")
    return say(`${name(b)}: zone_id = ${zone} uses count.index but the resource has no count`, zoneNode)
  for (const k of SETTINGS[b.type] ?? []) {
    const a = b.attributes.get(k)
    if (a !== undefined && a.value === undefined)
      return say(
        `${name(b)}: ${k} = ${exprText(text, b, k)} is not a literal: the rewrite cannot tell its value`,
        a.node
      )
  }
  return undefined
}

/** The last step: plan shows no changes, or what differs from waf config's ruleset (`differs`). */
const lastStep = (n: string, differs: ReadonlyArray<string>): Array<string> =>
  differs.length === 0
    ? [`#   ${n} terraform plan shows no changes.`]
    : [
        `#   ${n} terraform plan still shows changes: this ruleset differs from the one waf config makes, and applying it`,
        "#      changes what the zone does:",
        ...differs.map((d) => `#      - ${d}`)
      ]

const stepsFor = (t: ProviderTarget, g: ZoneGroup, resource: string, differs: ReadonlyArray<string>): Array<string> => {
  const zoneLit = /^"[0-9a-f]{32}"$/.test(g.zone)
    ? g.zone.slice(1, -1)
    : g.meta
      ? `<zone_id of each ${g.meta.name === "for_each" ? "key" : "index"}>`
      : "<zone_id>"
  const address = g.meta ? `'${resource}[${g.meta.name === "for_each" ? '"<key>"' : "<index>"}]'` : resource
  const importLine = `terraform import ${address} ${importId(t.major, zoneLit)}`
  const stateRm = g.blocks.map((b) => `terraform state rm ${name(b)}`)
  const pinned =
    t.constraint === undefined
      ? "no cloudflare version in required_providers here"
      : `pin "${t.constraint}"${t.pinFiles ? ` (${t.pinFiles.join(", ")})` : ""}`
  const pinChange =
    t.pinRange && !t.majorUpgrade
      ? `changed to "${t.pinWithinMajor}"`
      : `change it to "${t.pinWithinMajor}"${t.majorUpgrade ? ", a major provider upgrade for the whole module" : ""}`
  if (t.major === 3) {
    return [
      `# Written for provider 3.35 (${pinned}${t.pinWithinMajor ? `; ${pinChange}: status needs 3.17 or later` : t.constraint === undefined ? `; pin version = "~> 3.35"` : ""}).`,
      "# After the zone's WAF migration (edgectl waf migrate), in this order:",
      `#   1. ${importLine}`,
      ...stateRm.map((s, i) => `#   ${i === 0 ? "2." : "  "} ${s}`),
      ...(differs.length === 0
        ? ["#   3. delete the previous-WAF resources above; terraform plan shows no changes."]
        : ["#   3. delete the previous-WAF resources above.", ...lastStep("4.", differs)]),
      "#   (Terraform 1.5+: an import block can do step 1; 1.7+: removed blocks with lifecycle { destroy = false } step 2.)"
    ]
  }
  return [
    `# cloudflare_waf_* exist only up to provider 3.35; the ${pinned} selects ${t.major}.x, where they do not exist.`,
    `# Written for provider ${t.major}.x. After the zone's WAF migration (edgectl waf migrate), in this order:`,
    '#   1. with the provider at 3.35 (version = "~> 3.35"), remove the previous-WAF resources from the state:',
    ...stateRm.map((s) => `#      ${s}`),
    "#      (Terraform 1.7+: removed blocks with lifecycle { destroy = false } instead)",
    "#   2. delete the previous-WAF resources above.",
    `#   3. set version = "${t.pinWithinMajor ?? t.constraint ?? pinFor(t.major)}" in required_providers and run terraform init -upgrade.`,
    `#   4. ${importLine}   (Terraform 1.5+: or an import block)`,
    ...lastStep("5.", differs)
  ]
}

/** The ruleset resource of one zone, comments first, laid out as `terraform fmt` does. */
const rulesetResource = (
  g: ZoneGroup,
  t: ProviderTarget,
  resource: string,
  bypass: WafBypass,
  differs: ReadonlyArray<string>
): string => {
  const plan = planMigration(previousFromTerraform(g.blocks, bypass.byZone.get(zoneKey(g.provider, g.zone))))
  // The skip rules of firewall rules that bypass the WAF name each rule's id, as `waf config` does.
  const named = namedRules(plan.config.rules, bypass.carried)
  const notes = [
    ...plan.blockers.map((b) => `# BLOCKER: ${b.message}`),
    ...plan.notMigrated
      .filter((n) => !n.what.startsWith("URI-based"))
      .map((n) => `# not migrated: ${n.what}: ${n.why}`),
    ...unknownIds(g.blocks).map((u) => `# not migrated: ${u}`),
    ...named.map(
      (n) =>
        `# info: the skip rule of cloudflare_firewall_rule.${n} names its id, as waf config writes it: write the id there (terraform state show cloudflare_firewall_rule.${n}) before that resource leaves the state.`
    )
  ].map((l) => carryReferences(l, bypass.carried, "comment"))
  const [, rname] = resource.split(".")
  const lines = [
    "# Migrated from the previous WAF by edgectl (the mapping of `edgectl waf config`).",
    ...stepsFor(t, g, resource, differs),
    ...notes,
    `resource "cloudflare_ruleset" "${rname}" {`,
    ...(g.meta ? [`${g.meta.name} = ${g.meta.text}`] : []),
    ...(g.provider ? [`provider = ${g.provider}`] : []),
    ...(g.meta || g.provider ? [""] : []),
    `zone_id = ${g.zone}`,
    `name = ${hclString(plan.config.name)}`,
    'kind = "zone"',
    'phase = "http_request_firewall_managed"',
    "",
    ...rulesLines(plan.config.rules, t.major),
    "}"
  ]
  return carryReferences(formatHcl(lines.join("\n")), bypass.carried, "string")
}

export interface RewriteResult {
  readonly fixes: ReadonlyMap<ResourceBlock, Fix>
  readonly findings: ReadonlyArray<Finding>
}

export const terraformRewrite = (
  text: string,
  blocks: ReadonlyArray<ResourceBlock>,
  target: ProviderTarget,
  _checker?: ExpressionChecker,
  expressionsOf: (block: ResourceBlock) => ReadonlyArray<TerraformExpression> = (b) =>
    hclExpressionRegions(text, b.node.namedChildren.find((c) => c?.type === "body") ?? b.node)
): RewriteResult => {
  const fixes = new Map<ResourceBlock, Fix>()
  const bypass = wafBypass(text, blocks, expressionsOf)
  const findings: Array<Finding> = [...bypass.findings]
  const waf = blocks.filter((b) => (PREVIOUS_WAF_RESOURCES as ReadonlyArray<string>).includes(b.type))
  const groups = new Map<string, ZoneGroup>()
  const blocked = new Set<string>()
  for (const b of waf) {
    const problem = unclear(text, b)
    const zone = exprText(text, b, "zone_id") ?? ""
    const meta = metaOf(text, b)
    const provider = exprText(text, b, "provider")
    const key = keyOf(zone, meta, provider)
    if (problem !== undefined) {
      findings.push(problem)
      blocked.add(key)
    }
    const g = groups.get(key) ?? { zone, meta, provider, blocks: [] }
    g.blocks.push(b)
    groups.set(key, g)
  }
  // One zone_id expression under two different for_each/count: which instances share a zone is unknowable.
  const byZone = new Map<string, Array<ZoneGroup>>()
  for (const g of groups.values()) byZone.set(g.zone, [...(byZone.get(g.zone) ?? []), g])
  for (const [zone, gs] of byZone) {
    if (gs.length < 2 || zone === "") continue
    for (const g of gs) {
      const k = keyOf(g.zone, g.meta, g.provider)
      if (blocked.has(k)) continue // it has its own finding
      blocked.add(k)
      const b = g.blocks[0]!
      findings.push(
        finding(
          "warning",
          "terraform-rewrite-unclear",
          `${name(b)}: zone_id = ${zone} is used ${gs.map((x) => `with ${describe(x)}`).join(" and ")}: the rewrite cannot tell which instances share a zone`,
          rangeOfNode(b.attributes.get("zone_id")!.node),
          { hint: "rewrite these resources by hand" }
        )
      )
    }
  }
  const rulesets = blocks.filter((b) => b.type === "cloudflare_ruleset")
  const PHASE = "http_request_firewall_managed"
  const done = new Map(
    rulesets
      .filter((b) => b.attributes.get("phase")?.value === PHASE)
      .map((b) => [keyOf(exprText(text, b, "zone_id") ?? "", metaOf(text, b), exprText(text, b, "provider")), b])
  )
  const label = (g: ZoneGroup) => rangeOfNode(g.blocks[0]!.typeLabel)
  const spelled = zoneSpellings(groups, label)
  findings.push(...spelled.findings)
  for (const [key, g] of groups) {
    const existing = done.get(key)
    if (existing !== undefined && !blocked.has(key))
      findings.push(existingRulesetFinding(g.zone, PHASE, name(existing), label(g)))
  }
  const taken = new Set(rulesets.map((b) => b.name))
  const many = groups.size > 1
  for (const [key, g] of groups) {
    if (blocked.has(key) || done.has(key) || spelled.keys.has(key)) continue
    // A rule that may bypass the WAF but cannot be read: the ruleset would lack its skip rule.
    if (bypass.withheld.has(zoneKey(g.provider, g.zone))) continue
    let rname = many ? `managed_waf_${slug(g.zone)}` : "managed_waf"
    for (let i = 2; taken.has(rname); i++) rname = `${many ? `managed_waf_${slug(g.zone)}` : "managed_waf"}_${i}`
    taken.add(rname)
    const at = g.blocks.reduce((a, b) => (b.node.endIndex > a.node.endIndex ? b : a)).node.endIndex
    const edits: Array<TextEdit> = []
    if (
      target.major === 3 &&
      target.pinWithinMajor !== undefined &&
      target.pinRange !== undefined &&
      !target.majorUpgrade
    )
      edits.push({ range: target.pinRange, newText: hclString(target.pinWithinMajor) })
    edits.push({
      range: { start: at, end: at },
      newText: `\n\n${rulesetResource(g, target, `cloudflare_ruleset.${rname}`, bypass, wafDifferences(text, blocks, g.zone, g.provider))}`
    })
    const fix: Fix = {
      title: `Add the equivalent cloudflare_ruleset${many ? ` for zone_id = ${g.zone}` : ""} (http_request_firewall_managed, provider ${target.major === 3 ? "3.35" : `${target.major}.x`}) with the migration steps`,
      edits,
      preferred: true
    }
    for (const b of g.blocks) fixes.set(b, fix)
  }
  return { fixes, findings }
}
