/**
 * The Terraform rewrite of a file's legacy security products, per zone (`zone_id` expression and
 * `provider` alias), mapped by the CLI migrations' own plan functions (no second mapping):
 *
 * - `cloudflare_rate_limit` -> the zone's `http_ratelimit` ruleset, its rules those
 *   `planRateLimitMigration` plans (src/firewall/rate-limit-plan.ts);
 * - `cloudflare_zone_lockdown` + `cloudflare_user_agent_blocking_rule` -> the zone's custom rules
 *   (`http_request_firewall_custom`) as `planLockdownUaMigration` orders them
 *   (src/firewall/lockdown-ua-plan.ts): after the zone's custom rules, the lockdowns' allow/block
 *   pairs in processing order, then the UA rules.
 *
 * A ruleset of the phase the file already has for the zone gets the new rules appended
 * (./terraform-legacy-append.ts; a second entry point would be refused, and a rule already there,
 * by ref or by expression and action, is not written twice); else one is written after the zone's
 * last old resource. Both in the pinned provider's syntax (`customRulesetHcl`), with that version's
 * steps and the plan's notes as comments (./terraform-legacy-steps.ts). The fix is offered on the
 * scanner's own finding of each old resource. The zone's plan is not in a file: the plan functions
 * map as on Enterprise, and a finding names the plans whose quota the rules exceed. A rule that
 * cannot be read withholds its zone's ruleset of that phase, with a finding saying why: nothing is
 * dropped silently.
 */
import type { CustomRule } from "../domain/custom-rule.js"
import { CustomRuleLimits } from "../domain/custom-rule.js"
import type { Lockdown, RateLimit, UaRule } from "../domain/legacy-security.js"
import { RateLimitRuleLimits } from "../domain/rate-limit-plans.js"
import { planLockdownUaMigration } from "../firewall/lockdown-ua-plan.js"
import { planRateLimitMigration } from "../firewall/rate-limit-plan.js"
import { finding, type Finding, type Fix, type Range, type TextEdit } from "./findings.js"
import type { ResourceBlock, TerraformRewrite } from "./terraform.js"
import { customRulesetHcl, type CustomRule as HclRule } from "./terraform-custom-rules-hcl.js"
import { address, exprText, refusalMessage, type Problem, withheldZones } from "./terraform-firewall-read.js"
import { slug, versionName } from "./terraform-firewall-rewrite.js"
import { appendRules, readRulesetRules, rulesetKeys, type RuleKey } from "./terraform-legacy-append.js"
import { readLockdown, readRateLimit, readUaRule } from "./terraform-legacy-read.js"
import { LEGACY_PRODUCT_RESOURCES } from "./terraform-legacy-types.js"
import {
  CUSTOM_PHASE,
  deprecationFinding,
  noteLine,
  quotaFinding,
  ratelimitVersionNotes,
  RL_PHASE,
  steps
} from "./terraform-legacy-steps.js"
import type { ProviderMajor } from "./terraform-version.js"
import { zoneSpellings } from "./terraform-zone-groups.js"

interface Group {
  readonly zone: string
  readonly provider: string | undefined
  readonly rateLimits: Array<{ readonly b: ResourceBlock; readonly r: RateLimit }>
  readonly lockdowns: Array<{ readonly b: ResourceBlock; readonly r: Lockdown }>
  readonly uaRules: Array<{ readonly b: ResourceBlock; readonly r: UaRule }>
}

const keyOf = (text: string, b: ResourceBlock) =>
  `${exprText(text, b, "provider") ?? ""}\u0000${exprText(text, b, "zone_id")}`
const rangeOf = (b: ResourceBlock, k?: string): Range => {
  const n = (k !== undefined ? b.attributes.get(k)?.node : undefined) ?? b.typeLabel
  return { start: n.startIndex, end: n.endIndex }
}
const labelOf = (b: ResourceBlock): Range => ({ start: b.typeLabel.startIndex, end: b.typeLabel.endIndex })
const unclear = (message: string, at: Range, hint: string) =>
  finding("warning", "terraform-rewrite-unclear", message, at, { hint })

/** Whether a rule is in the ruleset already: the same ref, or (3.35 computes refs) the same expression and action. */
const present = (keys: ReadonlyArray<RuleKey>, r: HclRule) =>
  keys.some((k) => (k.ref !== undefined && k.ref === r.ref) || (k.expression === r.expression && k.action === r.action))

/** One phase of one zone to write: the rules the plan gives, after those of the ruleset already there. */
interface Write {
  readonly g: Group
  readonly phase: string
  readonly base: string
  readonly from: string
  readonly sources: ReadonlyArray<ResourceBlock>
  readonly existing: ResourceBlock | undefined
  readonly keys: ReadonlyArray<RuleKey>
  readonly rules: ReadonlyArray<HclRule>
  readonly caveats: ReadonlyArray<string>
  readonly afterwards: ReadonlyArray<string>
}

/** The fixes for the file's legacy security resources (per zone and phase) and the findings on what they leave. */
export const legacyRewrite: TerraformRewrite = (text, blocks, target) => {
  const fixes = new Map<ResourceBlock, Fix>()
  const findings: Array<Finding> = []
  const major: ProviderMajor = target.constraint === undefined ? 5 : target.major
  const groups = new Map<string, Group>()
  const withheld = { [RL_PHASE]: withheldZones(), [CUSTOM_PHASE]: withheldZones() }
  for (const b of blocks) {
    if (!LEGACY_PRODUCT_RESOURCES.includes(b.type)) continue
    const zone = exprText(text, b, "zone_id")
    const key = keyOf(text, b)
    const r: RateLimit | Lockdown | UaRule | Problem =
      zone === undefined
        ? { at: undefined, why: "it has no zone_id", hint: "give it its zone_id" }
        : b.type === "cloudflare_rate_limit"
          ? readRateLimit(b)
          : b.type === "cloudflare_zone_lockdown"
            ? readLockdown(b)
            : readUaRule(b)
    if ("why" in r) {
      const z = withheld[b.type === "cloudflare_rate_limit" ? RL_PHASE : CUSTOM_PHASE].add(key, zone)
      findings.push(unclear(refusalMessage(address(b), r, z), rangeOf(b, r.at), r.hint))
      continue
    }
    const g = groups.get(key) ?? {
      zone: zone!,
      provider: exprText(text, b, "provider"),
      rateLimits: [],
      lockdowns: [],
      uaRules: []
    }
    if (b.type === "cloudflare_rate_limit") g.rateLimits.push({ b, r: r as RateLimit })
    else if (b.type === "cloudflare_zone_lockdown") g.lockdowns.push({ b, r: r as Lockdown })
    else g.uaRules.push({ b, r: r as UaRule })
    groups.set(key, g)
  }
  const spelled = zoneSpellings(groups, (g) => labelOf([...g.rateLimits, ...g.lockdowns, ...g.uaRules][0]!.b))
  findings.push(...spelled.findings)
  const rulesets = blocks.filter((b) => b.type === "cloudflare_ruleset")
  const rulesetOf = (key: string, phase: string) =>
    rulesets.find((b) => b.attributes.get("phase")?.value === phase && keyOf(text, b) === key)
  const taken = new Set(rulesets.map((b) => b.name))
  const many = groups.size > 1
  const firewallZones = new Set(blocks.filter((b) => b.type === "cloudflare_firewall_rule").map((b) => keyOf(text, b)))

  /** The fix writing `w` (a ruleset, or rules appended to the zone's), or the findings on why it cannot. */
  const write = (w: Write): Fix | undefined => {
    const first = labelOf(w.sources[0]!)
    const added = w.rules.filter((r) => !present(w.keys, r))
    if (added.length === 0) return undefined
    const fail = (why: string, hint: string) => {
      findings.push(
        unclear(`${address(w.sources[0]!)}: ${why}; no rules are written for zone_id = ${w.g.zone}`, first, hint)
      )
      return undefined
    }
    const at = Math.max(...w.sources.map((b) => b.node.endIndex))
    let name = w.existing?.name
    if (name === undefined) {
      const stem = many ? `${w.base}_${slug(w.g.zone)}` : w.base
      name = stem
      for (let i = 2; taken.has(name); i++) name = `${stem}_${i}`
      taken.add(name)
    }
    const resource = `cloudflare_ruleset.${name}`
    const lines = steps(
      target,
      major,
      w.g.zone,
      resource,
      w.phase,
      w.from,
      w.sources.map(address),
      w.existing !== undefined,
      w.afterwards
    )
    const comments = [...lines.map((l) => `# ${l}`), ...w.caveats].join("\n")
    let edits: Array<TextEdit>
    if (w.existing !== undefined) {
      const appended = appendRules(w.existing, added, major)
      if ("why" in appended) return fail(`${resource}: ${appended.why}`, appended.hint)
      edits = [...appended.edits, { range: { start: at, end: at }, newText: `\n\n${comments}` }]
    } else {
      const out = customRulesetHcl(
        { resource: name, zone: w.g.zone, name: "default", phase: w.phase, rules: added },
        major
      )
      if (!("text" in out)) return fail(out.problems.join("; "), "rewrite these rules by hand")
      const provider = w.g.provider !== undefined ? `  provider = ${w.g.provider}\n\n` : ""
      const hcl = out.text.replace(/^(resource .*\{\n)/, `$1${provider}`).replace(/\n$/, "")
      edits = [{ range: { start: at, end: at }, newText: `\n\n${comments}\n${hcl}` }]
    }
    const what =
      w.existing !== undefined ? `Append the equivalent rules to ${resource}` : "Add the equivalent cloudflare_ruleset"
    return {
      title: `${what}${many ? ` for zone_id = ${w.g.zone}` : ""} (${w.phase}, provider ${versionName(major)}) with the migration steps`,
      edits: edits.sort((a, b) => a.range.start - b.range.start),
      preferred: true
    }
  }

  for (const [key, g] of groups) {
    if (spelled.keys.has(key)) continue
    const zone = { id: g.zone, name: `zone_id = ${g.zone}` }
    const names = new Map([...g.rateLimits, ...g.lockdowns, ...g.uaRules].map((x) => [x.r.id, address(x.b)]))

    if (g.rateLimits.length > 0 && !withheld[RL_PHASE].has(key)) {
      const existing = rulesetOf(key, RL_PHASE)
      const keys = existing === undefined ? [] : rulesetKeys(existing)
      const plan = planRateLimitMigration({
        zone,
        plan: undefined,
        before: { rateLimits: g.rateLimits.map((x) => x.r), rules: [] },
        deleteOld: false
      })
      const rules = plan.expected.rules as ReadonlyArray<HclRule>
      const count = keys.length + rules.filter((r) => !present(keys, r)).length
      const q = quotaFinding(
        `zone_id = ${g.zone}, rate limiting rules`,
        count,
        RateLimitRuleLimits,
        labelOf(g.rateLimits[0]!.b),
        "edgectl firewall rate-limits migrate --zone ZONE"
      )
      if (q !== undefined) findings.push(q)
      const fix = write({
        g,
        phase: RL_PHASE,
        base: "rate_limiting",
        from: "cloudflare_rate_limit",
        sources: g.rateLimits.map((x) => x.b),
        existing,
        keys,
        rules,
        caveats: [
          ...plan.notes.map((n) => noteLine(n, names)),
          ...ratelimitVersionNotes(
            target,
            major,
            plan.expected.rules.map((r) => r.ratelimit.period)
          ),
          ...(rules.some((r) => r.action === "log")
            ? ["# info: a simulate rate limit became action log, which only Enterprise zones offer"]
            : [])
        ],
        afterwards: ["5. terraform plan shows no changes."]
      })
      if (fix !== undefined) for (const x of g.rateLimits) fixes.set(x.b, fix)
    }

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
        unclear(
          `${address(existing!)}: ${read.why}; the Zone Lockdown and User Agent Blocking rules of zone_id = ${g.zone} go after its rules, so none are written`,
          first,
          read.hint
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
    const q = quotaFinding(
      `zone_id = ${g.zone}, custom rules`,
      plan.expected.customRules.length,
      CustomRuleLimits,
      first,
      "edgectl firewall lockdowns migrate --zone ZONE"
    )
    if (q !== undefined) findings.push(q)
    const fix = write({
      g,
      phase: CUSTOM_PHASE,
      base: "custom_rules",
      from: "cloudflare_zone_lockdown and cloudflare_user_agent_blocking_rule",
      sources,
      existing,
      keys: read.rules,
      rules: plan.expected.customRules as ReadonlyArray<HclRule>,
      caveats: plan.notes.map((n) => noteLine(n, names)),
      afterwards: [
        "5. the old rules still exist on the platform (Terraform no longer manages them): delete them through the",
        "   Zone Lockdown and User Agent Blocking APIs once the custom rules are live (their ids: terraform state show,",
        "   before step 3)."
      ]
    })
    if (fix !== undefined) for (const b of sources) fixes.set(b, fix)
  }
  for (const b of blocks)
    if (LEGACY_PRODUCT_RESOURCES.includes(b.type)) {
      const f = deprecationFinding(text, b, target, fixes.get(b))
      if (f !== undefined) findings.push(f)
    }
  return { fixes, findings }
}
