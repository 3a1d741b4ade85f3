/**
 * The Terraform rewrite: the previous-WAF resources of a file, read as a previous WAF (the
 * catalog's defaults plus what the resources set), mapped by `src/waf`'s `planMigration`, and
 * written as one `cloudflare_ruleset` resource (phase `http_request_firewall_managed`, provider
 * v5 attribute syntax) with the `terraform state rm` and `terraform import` steps as comments.
 */
import type { WafGroup, WafOverride, WafPackage, WafRule } from "../domain/waf.js"
import { CATALOG, PREVIOUS_OWASP_PACKAGE } from "../waf/catalog.js"
import { planMigration, type PreviousWaf } from "../waf/mapping.js"
import type { Fix } from "./findings.js"
import { PREVIOUS_WAF_RESOURCES, type ResourceBlock } from "./terraform.js"

const str = (b: ResourceBlock, k: string): string | undefined => {
  const v = b.attributes.get(k)?.value
  return typeof v === "string" ? v : undefined
}

/** The previous WAF the file's resources describe. */
export const previousFromTerraform = (blocks: ReadonlyArray<ResourceBlock>): PreviousWaf => {
  // Package ids are the zone's own on the platform: the anomaly (OWASP) package is the one with a sensitivity or an action mode.
  const pkgs = new Map(
    blocks
      .filter((b) => b.type === "cloudflare_waf_package")
      .map((b) => [CATALOG.packages.some((p) => p.id === str(b, "package_id")) || (str(b, "sensitivity") === undefined && str(b, "action_mode") === undefined) ? str(b, "package_id") : PREVIOUS_OWASP_PACKAGE, b])
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
        ? { sensitivity: (sensitivity ?? "high") as WafPackage["sensitivity"], action_mode: (action ?? "challenge") as WafPackage["action_mode"] }
        : {})
    }
  })
  const groupModes = new Map(blocks.filter((b) => b.type === "cloudflare_waf_group").map((b) => [str(b, "group_id"), str(b, "mode")]))
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
  const ruleModes = new Map(blocks.filter((b) => b.type === "cloudflare_waf_rule").map((b) => [str(b, "rule_id"), str(b, "mode")]))
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
    .map((b, i) => ({ id: `${b.name || `override-${i}`}`, description: str(b, "description") ?? null, urls: [], priority: 1, paused: false }))
  return { waf: "on", packages, groups, rules, overrides, firewall_rules: [], page_rules: [] }
}

/** Groups and rules the catalog does not know: the mapping cannot place them. */
const unknownIds = (waf: ReadonlyArray<ResourceBlock>): Array<string> =>
  waf.flatMap((b) => {
    if (b.type === "cloudflare_waf_group" && CATALOG.group(str(b, "group_id") ?? "") === undefined) return [`${b.type}.${b.name}: group ${str(b, "group_id")} is not in the managed rules catalog`]
    if (b.type === "cloudflare_waf_rule" && CATALOG.rule(str(b, "rule_id") ?? "") === undefined) return [`${b.type}.${b.name}: rule ${str(b, "rule_id")} is not in the managed rules catalog`]
    return []
  })

// HCL values, written in the provider v5 attribute syntax.
const hcl = (v: unknown, indent: string): string => {
  if (typeof v === "string") return JSON.stringify(v).replace(/\$\{/g, "$${").replace(/%\{/g, "%%{")
  if (typeof v === "number" || typeof v === "boolean") return String(v)
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]"
    const inner = `${indent}  `
    return `[\n${v.map((x) => `${inner}${hcl(x, inner)}`).join(",\n")}\n${indent}]`
  }
  if (typeof v === "object" && v !== null) {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined && x !== "")
    if (entries.length === 0) return "{}"
    const inner = `${indent}  `
    const width = Math.max(...entries.map(([k]) => k.length))
    return `{\n${entries.map(([k, x]) => `${inner}${k.padEnd(width)} = ${hcl(x, inner)}`).join("\n")}\n${indent}}`
  }
  return "null"
}

export const rulesetResource = (blocks: ReadonlyArray<ResourceBlock>, zoneId: string): string => {
  const plan = planMigration(previousFromTerraform(blocks))
  const waf = blocks.filter((b) => (PREVIOUS_WAF_RESOURCES as ReadonlyArray<string>).includes(b.type))
  const rules = plan.config.rules.map((r) => ({ action: r.action, expression: r.expression, description: r.description, enabled: r.enabled, action_parameters: r.action_parameters }))
  const zoneRef = /^[a-f0-9]{32}$/.test(zoneId) ? zoneId : "<zone_id>"
  const steps = [
    "# Migrated from the previous WAF by edgectl (the mapping of `edgectl waf config`).",
    "# After the zone's WAF migration, move the state to the new resource:",
    `#   terraform import cloudflare_ruleset.managed_waf zone/${zoneRef}/<ruleset_id>`,
    ...waf.map((b) => `#   terraform state rm ${b.type}.${b.name}`),
    "# then delete the previous-WAF resources above and check that `terraform plan` shows no changes.",
    ...(plan.blockers.length ? plan.blockers.map((b) => `# BLOCKER: ${b.message}`) : []),
    ...plan.notMigrated.filter((n) => !n.what.startsWith("URI-based")).map((n) => `# not migrated: ${n.what}: ${n.why}`),
    ...unknownIds(waf).map((u) => `# not migrated: ${u}`)
  ]
  return `${steps.join("\n")}\nresource "cloudflare_ruleset" "managed_waf" {\n  zone_id = ${zoneId}\n  name    = ${hcl(plan.config.name, "  ")}\n  kind    = "zone"\n  phase   = "http_request_firewall_managed"\n  rules   = ${hcl(rules, "  ")}\n}\n`
}

export const terraformRewrite = (text: string, blocks: ReadonlyArray<ResourceBlock>, block: ResourceBlock): Fix | undefined => {
  if (blocks.some((b) => b.type === "cloudflare_ruleset" && b.attributes.get("phase")?.value === "http_request_firewall_managed")) return undefined
  const waf = blocks.filter((b) => (PREVIOUS_WAF_RESOURCES as ReadonlyArray<string>).includes(b.type))
  const zone = block.attributes.get("zone_id")?.node.namedChildren[1]
  const zoneId = zone ? text.slice(zone.startIndex, zone.endIndex) : "var.zone_id"
  const last = waf.reduce((a, b) => (b.node.endIndex > a.node.endIndex ? b : a))
  const at = last.node.endIndex
  return {
    title: "Add the equivalent cloudflare_ruleset (http_request_firewall_managed) with the migration steps",
    edits: [{ range: { start: at, end: at }, newText: `\n\n${rulesetResource(blocks, zoneId).replace(/\n$/, "")}` }],
    preferred: true
  }
}
