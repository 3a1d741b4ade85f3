/**
 * The Terraform rewrite of a file's legacy security products, per zone (`zone_id` expression and
 * `provider` alias), mapped by the CLI migrations' own plan functions (no second mapping):
 *
 * - `cloudflare_rate_limit` -> one `cloudflare_ruleset` in phase `http_ratelimit`, its rules those
 *   `planRateLimitMigration` plans (src/firewall/rate-limit-plan.ts);
 * - `cloudflare_zone_lockdown` + `cloudflare_user_agent_blocking_rule` -> the zone's custom rules
 *   (`http_request_firewall_custom`) as `planLockdownUaMigration` orders them
 *   (src/firewall/lockdown-ua-plan.ts): after the zone's custom rules, the lockdowns' allow/block
 *   pairs in processing order, then the UA rules. When the file already has the zone's custom
 *   ruleset, its rules are read and the new ones appended to it (./terraform-legacy-append.ts):
 *   a second entry point of the phase would be refused.
 *
 * Written in the pinned provider's syntax (`customRulesetHcl`) after the zone's last old resource,
 * with that version's import and state steps and the plan's notes as comments. The fix is offered on
 * the scanner's own finding of each old resource (DEP-RLOLD, DEP-ZL, DEP-UA: one diagnostic per
 * resource). The zone's plan is not known in a file: the plan functions map as on Enterprise, and a
 * finding names the plans whose quota the rules exceed. A rule that cannot be read withholds its
 * zone's ruleset of that phase, with a finding saying why: nothing is dropped silently.
 */
import { planLockdownUaMigration } from "../firewall/lockdown-ua-plan.js"
import { planRateLimitMigration } from "../firewall/rate-limit-plan.js"
import type { CustomRule } from "../domain/custom-rule.js"
import { CustomRuleLimits } from "../domain/custom-rule.js"
import type { Lockdown, RateLimit, UaRule } from "../domain/legacy-security.js"
import type { PlanNote } from "../domain/migration.js"
import { RateLimitRuleLimits } from "../domain/rate-limit-plans.js"
import { findingOf, scannerNow } from "./deprecations.js"
import { scanText } from "../deprecations/scan-text.js"
import { finding, type Finding, type Fix, type Range, type TextEdit } from "./findings.js"
import type { ResourceBlock, TerraformRewrite } from "./terraform.js"
import { customRulesetHcl, type CustomRule as HclRule } from "./terraform-custom-rules-hcl.js"
import { address, exprText, refusalMessage, type Problem, withheldZones } from "./terraform-firewall-read.js"
import { slug, versionName } from "./terraform-firewall-rewrite.js"
import { appendRules, readRulesetRules } from "./terraform-legacy-append.js"
import { LEGACY_RESOURCES, readLockdown, readRateLimit, readUaRule } from "./terraform-legacy-read.js"
import { hclString } from "./terraform-ruleset-hcl.js"
import { admits, importId, type ProviderMajor, type ProviderTarget } from "./terraform-version.js"
import { existingRulesetFinding, zoneSpellings } from "./terraform-zone-groups.js"

const RL_PHASE = "http_ratelimit"
const CUSTOM_PHASE = "http_request_firewall_custom"

interface Group {
  readonly zone: string
  readonly provider: string | undefined
  readonly rateLimits: Array<{ readonly b: ResourceBlock; readonly r: RateLimit }>
  readonly lockdowns: Array<{ readonly b: ResourceBlock; readonly r: Lockdown }>
  readonly uaRules: Array<{ readonly b: ResourceBlock; readonly r: UaRule }>
}

const rangeOf = (b: ResourceBlock, k?: string): Range => {
  const n = (k !== undefined ? b.attributes.get(k)?.node : undefined) ?? b.typeLabel
  return { start: n.startIndex, end: n.endIndex }
}
const labelOf = (b: ResourceBlock): Range => ({ start: b.typeLabel.startIndex, end: b.typeLabel.endIndex })

/** A plan note as a comment line, the source named by its Terraform address. */
const noteLine = (n: PlanNote, names: ReadonlyMap<string, string>): string => {
  let message = n.message
  for (const [id, addr] of names)
    message = message
      .replace(`rate limit ${id}:`, `${addr}:`)
      .replace(`lockdown ${id}:`, `${addr}:`)
      .replace(new RegExp(`\\blockdowns ([^:]*\\b)${id}\\b`), `lockdowns $1${addr}`)
  // The zone's plan is not known in a file: the plan functions map it as Enterprise's, said so.
  message = message
    .replace("the unknown plan offers", "any plan offers")
    .replace("on the unknown plan", "below Enterprise")
  return `# ${n.severity === "unmapped" ? "not migrated (the resource stays)" : n.severity}: ${message}`
}

/** The plans (by name) whose quota `count` rules exceed: the zone's plan is not known in a file. */
const overQuota = (count: number, limits: Readonly<Record<string, number>>) =>
  Object.entries(limits).filter(([, n]) => count > n)

const quotaFinding = (
  what: string,
  count: number,
  limits: Readonly<Record<string, number>>,
  at: Range,
  move: string
) => {
  const over = overQuota(count, limits)
  if (over.length === 0) return undefined
  return finding(
    "information",
    "terraform-rewrite-quota",
    `${what}: ${count} rules, more than the ${over.map(([p, n]) => `${p} plan's ${n}`).join(", ")}: on such a plan the platform refuses the ruleset`,
    at,
    { hint: `delete some first, or plan with the zone's real plan: ${move}` }
  )
}

/** The steps of the procedure for the provider version, as comment lines. */
const steps = (
  t: ProviderTarget,
  major: ProviderMajor,
  zone: string,
  resource: string,
  phase: string,
  from: string,
  old: ReadonlyArray<string>,
  existing: boolean,
  afterwards: ReadonlyArray<string>
): Array<string> => {
  const zoneId = /^"[0-9a-f]{32}"$/.test(zone) ? zone.slice(1, -1) : "<zone_id>"
  const pinned =
    t.constraint === undefined
      ? "no cloudflare version is pinned: terraform init takes the latest, 5.x"
      : `pin "${t.constraint}"${t.pinFiles ? ` (${t.pinFiles.join(", ")})` : ""}`
  const id = importId(major, zoneId)
  return [
    `Migrated from ${from} by edgectl (the mapping of \`edgectl firewall ${phase === RL_PHASE ? "rate-limits" : "lockdowns"} migrate\`).`,
    `Written for provider ${versionName(major)} (${pinned}).`,
    ...(existing
      ? [`  1. nothing to import: these rules are appended to ${resource}, the zone's ${phase} entry point.`]
      : [
          `  1. if the zone has its ${phase} entry point, import it (a second one is refused):`,
          `     terraform import ${resource} ${id}`,
          `     (Terraform 1.5+: or an import block, to = ${resource} and id = "${id}"; the ruleset id:`,
          `     GET /zones/${zoneId}/rulesets/phases/${phase}/entrypoint, result.id)`
        ]),
    `  2. terraform plan, then apply: the new rules take over while the old ones still run.`,
    "  3. remove the old resources from the state (terraform state rm -dry-run first), before deleting their HCL:",
    ...old.map((a) => `     terraform state rm ${a}`),
    "     (Terraform 1.7+: or a removed block for each, from = <address> with lifecycle { destroy = false })",
    "  4. delete their HCL.",
    ...afterwards.map((l) => `  ${l}`)
  ]
}

/** The scanner's finding on an old resource (its deprecation, dates and pin), with the rewrite's fix first. */
const deprecationFinding = (text: string, b: ResourceBlock, target: ProviderTarget, fix: Fix | undefined) => {
  const start = b.node.startIndex
  const hit = scanText(text.slice(start, b.node.endIndex), "terraform", {
    now: scannerNow(),
    pin: target.constraint
  }).find((h) => h.kind === "terraform")
  if (hit === undefined) return undefined
  const f = findingOf({ ...hit, start: hit.start + start, end: hit.end + start })
  return fix === undefined ? f : { ...f, fixes: [fix, ...(f.fixes ?? [])] }
}

/** The fixes for the file's legacy security resources (per zone and phase) and the findings on what they leave. */
export const legacyRewrite: TerraformRewrite = (text, blocks, target) => {
  const fixes = new Map<ResourceBlock, Fix>()
  const findings: Array<Finding> = []
  const major: ProviderMajor = target.constraint === undefined ? 5 : target.major
  const groups = new Map<string, Group>()
  const withheld = { [RL_PHASE]: withheldZones(), [CUSTOM_PHASE]: withheldZones() }
  for (const b of blocks) {
    if (!LEGACY_RESOURCES.includes(b.type)) continue
    const zone = exprText(text, b, "zone_id")
    const provider = exprText(text, b, "provider")
    const key = `${provider ?? ""}\u0000${zone}`
    const phase = b.type === "cloudflare_rate_limit" ? RL_PHASE : CUSTOM_PHASE
    const r: RateLimit | Lockdown | UaRule | Problem =
      zone === undefined
        ? { at: undefined, why: "it has no zone_id", hint: "give it its zone_id" }
        : b.type === "cloudflare_rate_limit"
          ? readRateLimit(b)
          : b.type === "cloudflare_zone_lockdown"
            ? readLockdown(b)
            : readUaRule(b)
    if ("why" in r) {
      const z = withheld[phase].add(key, zone)
      findings.push(
        finding("warning", "terraform-rewrite-unclear", refusalMessage(address(b), r, z), rangeOf(b, r.at), {
          hint: r.hint
        })
      )
      continue
    }
    const g = groups.get(key) ?? { zone: zone!, provider, rateLimits: [], lockdowns: [], uaRules: [] }
    if (b.type === "cloudflare_rate_limit") g.rateLimits.push({ b, r: r as RateLimit })
    else if (b.type === "cloudflare_zone_lockdown") g.lockdowns.push({ b, r: r as Lockdown })
    else g.uaRules.push({ b, r: r as UaRule })
    groups.set(key, g)
  }
  const spelled = zoneSpellings(groups, (g) => labelOf([...g.rateLimits, ...g.lockdowns, ...g.uaRules][0]!.b))
  findings.push(...spelled.findings)
  const rulesets = blocks.filter((b) => b.type === "cloudflare_ruleset")
  const rulesetOf = (key: string, phase: string) =>
    rulesets.find(
      (b) =>
        b.attributes.get("phase")?.value === phase &&
        `${exprText(text, b, "provider") ?? ""}\u0000${exprText(text, b, "zone_id")}` === key
    )
  const taken = new Set(rulesets.map((b) => b.name))
  const many = groups.size > 1
  const nameFor = (base: string, zone: string) => {
    const stem = many ? `${base}_${slug(zone)}` : base
    let name = stem
    for (let i = 2; taken.has(name); i++) name = `${stem}_${i}`
    taken.add(name)
    return name
  }
  const firewallZones = new Set(
    blocks
      .filter((b) => b.type === "cloudflare_firewall_rule")
      .map((b) => `${exprText(text, b, "provider") ?? ""}\u0000${exprText(text, b, "zone_id")}`)
  )

  for (const [key, g] of groups) {
    if (spelled.keys.has(key)) continue
    const zone = { id: g.zone, name: `zone_id = ${g.zone}` }
    const provider = g.provider !== undefined ? `  provider = ${g.provider}\n\n` : ""
    // Where a ruleset goes: after the zone's last old resource of the phase.
    const after = (bs: ReadonlyArray<ResourceBlock>) => Math.max(...bs.map((b) => b.node.endIndex))

    // Rate limits -> the zone's http_ratelimit entry point.
    if (g.rateLimits.length > 0 && !withheld[RL_PHASE].has(key)) {
      const existing = rulesetOf(key, RL_PHASE)
      const first = labelOf(g.rateLimits[0]!.b)
      if (existing !== undefined) findings.push(existingRulesetFinding(g.zone, RL_PHASE, address(existing), first))
      else {
        const plan = planRateLimitMigration({
          zone,
          plan: undefined,
          before: { rateLimits: g.rateLimits.map((x) => x.r), rules: [] },
          deleteOld: false
        })
        const q = quotaFinding(
          `zone_id = ${g.zone}, rate limiting rules`,
          plan.expected.rules.length,
          RateLimitRuleLimits,
          first,
          "edgectl firewall rate-limits migrate --zone ZONE"
        )
        if (q !== undefined) findings.push(q)
        const name = nameFor("rate_limiting", g.zone)
        const out = customRulesetHcl(
          {
            resource: name,
            zone: g.zone,
            name: "default",
            phase: RL_PHASE,
            rules: plan.expected.rules as ReadonlyArray<HclRule>
          },
          major
        )
        if (!("text" in out)) {
          for (const p of out.problems)
            findings.push(
              finding(
                "warning",
                "terraform-rewrite-unclear",
                `${address(g.rateLimits[0]!.b)}: ${p}; no cloudflare_ruleset is written for zone_id = ${g.zone}`,
                first,
                {
                  hint: "rewrite the zone's rate limits by hand"
                }
              )
            )
        } else {
          const names = new Map(g.rateLimits.map((x) => [x.r.id, address(x.b)]))
          const caveats = [
            ...plan.notes.map((n) => noteLine(n, names)),
            ...ratelimitVersionNotes(
              target,
              major,
              plan.expected.rules.map((r) => r.ratelimit.period)
            ),
            ...(plan.expected.rules.some((r) => r.action === "log")
              ? ["# info: a simulate rate limit became action log, which only Enterprise zones offer"]
              : [])
          ]
          const old = g.rateLimits.map((x) => address(x.b))
          const lines = steps(
            target,
            major,
            g.zone,
            `cloudflare_ruleset.${name}`,
            RL_PHASE,
            "cloudflare_rate_limit",
            old,
            false,
            ["5. terraform plan shows no changes."]
          )
          const resource = out.text.replace(/^(resource .*\{\n)/, `$1${provider}`).replace(/\n$/, "")
          const at = after(g.rateLimits.map((x) => x.b))
          const comments = [...lines.map((l) => `# ${l}`), ...caveats].join("\n")
          const fix: Fix = {
            title: `Add the equivalent cloudflare_ruleset${many ? ` for zone_id = ${g.zone}` : ""} (${RL_PHASE}, provider ${versionName(major)}) with the migration steps`,
            edits: [{ range: { start: at, end: at }, newText: `\n\n${comments}\n${resource}` }],
            preferred: true
          }
          for (const x of g.rateLimits) fixes.set(x.b, fix)
        }
      }
    }

    // Zone Lockdown + User Agent Blocking -> one ordered list in the custom rules entry point.
    const sources = [...g.lockdowns.map((x) => x.b), ...g.uaRules.map((x) => x.b)]
    if (sources.length === 0 || withheld[CUSTOM_PHASE].has(key)) continue
    const first = labelOf(sources[0]!)
    const existing = rulesetOf(key, CUSTOM_PHASE)
    if (existing === undefined && firewallZones.has(key)) {
      findings.push(
        finding(
          "information",
          "terraform-rewrite-order",
          `zone_id = ${g.zone} also has cloudflare_firewall_rule resources: their custom rules come first in the zone's one ${CUSTOM_PHASE} entry point, so the Zone Lockdown and User Agent Blocking rules are written once that ruleset is in the file`,
          first,
          { hint: "apply the firewall rules' rewrite first (its code action), then this one appends to its ruleset" }
        )
      )
      continue
    }
    const read = existing === undefined ? { rules: [] as Array<CustomRule> } : readRulesetRules(existing)
    if ("why" in read) {
      findings.push(
        finding(
          "warning",
          "terraform-rewrite-unclear",
          `${address(existing!)}: ${read.why}; the Zone Lockdown and User Agent Blocking rules of zone_id = ${g.zone} go after its rules, so none are written`,
          first,
          { hint: read.hint }
        )
      )
      continue
    }
    const plan = planLockdownUaMigration({
      zone,
      plan: undefined,
      before: {
        lockdowns: g.lockdowns.map((x) => x.r),
        uaRules: g.uaRules.map((x) => x.r),
        customRules: read.rules,
        firewallRules: []
      },
      deleteOld: false
    })
    const added = plan.expected.customRules.slice(read.rules.length)
    const q = quotaFinding(
      `zone_id = ${g.zone}, custom rules`,
      plan.expected.customRules.length,
      CustomRuleLimits,
      first,
      "edgectl firewall lockdowns migrate --zone ZONE"
    )
    if (q !== undefined) findings.push(q)
    const names = new Map([...g.lockdowns, ...g.uaRules].map((x) => [x.r.id, address(x.b)]))
    const old = sources.map(address)
    const caveats = plan.notes.map((n) => noteLine(n, names))
    const afterwards = [
      "5. the old rules still exist on the platform (Terraform no longer manages them): delete them through the API once",
      "   the custom rules are live (DELETE /zones/<zone_id>/firewall/lockdowns/<id> and /firewall/ua_rules/<id>)."
    ]
    let edits: Array<TextEdit>
    let resourceName: string
    if (existing !== undefined) {
      resourceName = `cloudflare_ruleset.${existing.name}`
      const appended = appendRules(text, existing, added as ReadonlyArray<HclRule>, major)
      if ("why" in appended) {
        findings.push(
          finding("warning", "terraform-rewrite-unclear", `${resourceName}: ${appended.why}`, first, {
            hint: appended.hint
          })
        )
        continue
      }
      const lines = steps(
        target,
        major,
        g.zone,
        resourceName,
        CUSTOM_PHASE,
        "cloudflare_zone_lockdown and cloudflare_user_agent_blocking_rule",
        old,
        true,
        afterwards
      )
      const at = after(sources)
      edits = [
        ...appended.edits,
        { range: { start: at, end: at }, newText: `\n\n${[...lines.map((l) => `# ${l}`), ...caveats].join("\n")}` }
      ].sort((a, b) => a.range.start - b.range.start)
    } else {
      const name = nameFor("custom_rules", g.zone)
      resourceName = `cloudflare_ruleset.${name}`
      const out = customRulesetHcl(
        { resource: name, zone: g.zone, name: "default", rules: added as ReadonlyArray<HclRule> },
        major
      )
      if (!("text" in out)) {
        for (const p of out.problems)
          findings.push(
            finding(
              "warning",
              "terraform-rewrite-unclear",
              `${address(sources[0]!)}: ${p}; no cloudflare_ruleset is written for zone_id = ${g.zone}`,
              first,
              {
                hint: "rewrite the zone's Zone Lockdown and User Agent Blocking rules by hand"
              }
            )
          )
        continue
      }
      const lines = steps(
        target,
        major,
        g.zone,
        resourceName,
        CUSTOM_PHASE,
        "cloudflare_zone_lockdown and cloudflare_user_agent_blocking_rule",
        old,
        false,
        afterwards
      )
      const resource = out.text.replace(/^(resource .*\{\n)/, `$1${provider}`).replace(/\n$/, "")
      const at = after(sources)
      edits = [
        {
          range: { start: at, end: at },
          newText: `\n\n${[...lines.map((l) => `# ${l}`), ...caveats].join("\n")}\n${resource}`
        }
      ]
    }
    const fix: Fix = {
      title: `${existing !== undefined ? `Append the equivalent rules to ${resourceName}` : "Add the equivalent cloudflare_ruleset"}${many ? ` for zone_id = ${g.zone}` : ""} (${CUSTOM_PHASE}, provider ${versionName(major)}) with the migration steps`,
      edits,
      preferred: true
    }
    for (const b of sources) fixes.set(b, fix)
  }
  for (const b of blocks)
    if (LEGACY_RESOURCES.includes(b.type)) {
      const f = deprecationFinding(text, b, target, fixes.get(b))
      if (f !== undefined) findings.push(f)
    }
  return { fixes, findings }
}

/** What the pinned provider refuses in a rate limiting rule: 5.0-5.4 take only periods of 10, 60, 600 and 3600 s. */
const ratelimitVersionNotes = (t: ProviderTarget, major: ProviderMajor, periods: ReadonlyArray<number>) => {
  const odd = [...new Set(periods.filter((p) => ![10, 60, 600, 3600].includes(p)))]
  if (major !== 5 || odd.length === 0 || (t.constraint !== undefined && !admits(t.constraint, "5.4.0"))) return []
  return [
    `# warning: period ${odd.join(", ")} is refused by provider 5.0-5.4 (they take 10, 60, 600 or 3600): pin ${hclString(">= 5.5.0")} or later`
  ]
}
