/**
 * The rewrite of a file's legacy security products, per zone (`zone_id` expression and `provider`
 * alias), in either Terraform syntax: HCL (./legacy-rewrite.ts) and JSON
 * (./json-legacy.ts) each hand in their resources read as data and write the result;
 * everything between is here, once. Mapped by the CLI migrations' own plan functions (no second
 * mapping):
 *
 * - `cloudflare_rate_limit` -> the zone's `http_ratelimit` ruleset, its rules those
 *   `planRateLimitMigration` plans (src/firewall/rate-limit-plan.ts);
 * - `cloudflare_zone_lockdown` + `cloudflare_user_agent_blocking_rule` -> the zone's custom rules
 *   (`http_request_firewall_custom`) as `planLockdownUaMigration` orders them
 *   (src/firewall/lockdown-ua-plan.ts): after the zone's custom rules, the lockdowns' allow/block
 *   pairs in processing order, then the UA rules.
 *
 * A ruleset of the phase the file already has for the zone gets the new rules appended (a second
 * entry point would be refused, and a rule already there, by ref or by expression and action, is
 * not written twice); else one is written after the zone's last old resource. Both in the pinned
 * provider's syntax, with that version's steps and the plan's notes as comment lines
 * (./legacy-steps.ts). The zone's plan is not in a file: the plan functions map as on
 * Enterprise, and a finding names the plans whose quota the rules exceed. A rule that cannot be
 * read withholds its zone's ruleset of that phase, with a finding saying why: nothing is dropped
 * silently.
 */
import type { CustomRule } from "../../domain/custom-rule.js"
import { CustomRuleLimits } from "../../domain/custom-rule.js"
import type { Lockdown, RateLimit, UaRule } from "../../domain/legacy-security.js"
import { RateLimitRuleLimits } from "../../domain/rate-limit-plans.js"
import { isMigratedRef } from "../../firewall/lockdown-ua-placement.js"
import { planLockdownUaMigration } from "../../firewall/lockdown-ua-plan.js"
import { planRateLimitMigration } from "../../firewall/rate-limit-plan.js"
import { finding, type Finding, type Fix, type Range, type TextEdit } from "../findings.js"
import type { CustomRule as HclRule } from "./custom-rules-hcl.js"
import { refusalMessage, type Problem, withheldZones } from "./firewall-read.js"
import { slug, versionName } from "./firewall-rewrite.js"
import { readRulesetRules, rulesetKeys, type RuleKey } from "./legacy-append.js"
import { readLockdown, readRateLimit, readUaRule, type Obj } from "./legacy-read.js"
import { LEGACY_PRODUCT_RESOURCES } from "./legacy-types.js"
import { CUSTOM_PHASE, noteLine, quotaFinding, ratelimitVersionNotes, RL_PHASE, steps } from "./legacy-steps.js"
import type { ProviderMajor, ProviderTarget } from "./version.js"
import { zoneSpellings } from "./zone-groups.js"

/** A resource of the file, whichever its syntax (`S`: where it is written). */
export interface LegacyResource<S> {
  readonly s: S
  readonly type: string
  readonly name: string
  /** Its zone and provider as written: the zone's group. */
  readonly key: string
  /** `zone_id` as an HCL expression (`var.zone_id`, a quoted id), for messages and steps; undefined without one. */
  readonly zone: string | undefined
  readonly provider: string | undefined
  /** Its body as data (./legacy-read.ts); a firewall rule's is not read (only its zone is). */
  readonly data: Obj
}

/** One phase of one zone to write: the rules the plan gives, after those of the ruleset already there. */
export interface LegacyWrite<S> {
  /** The zone's old resources of the phase (the new ruleset goes after the last). */
  readonly sources: ReadonlyArray<S>
  /** The ruleset of the phase already in the file, which the rules are appended to. */
  readonly existing: S | undefined
  /** The new ruleset's name (or the existing one's). */
  readonly name: string
  readonly zone: string
  readonly phase: string
  /** The rules to write after those of the ruleset already there (all of them, for a new ruleset). */
  readonly rules: ReadonlyArray<HclRule>
  /**
   * The rules that go before a rule of the ruleset already there (`at`: its place among them): the
   * Zone Lockdown and UA rules placed again before a rule that skips the rest of the phase.
   */
  readonly before: ReadonlyArray<{ readonly at: number; readonly rules: ReadonlyArray<HclRule> }>
  /** The steps and the plan's notes, one comment line each (without a comment marker). */
  readonly comments: ReadonlyArray<string>
}

/** What a syntax tells and writes: where its resources are, and the edits of a write. */
export interface LegacySyntax<S> {
  /** Where attribute `at` of the resource is written (its type when undefined or absent). */
  readonly range: (s: S, at?: string) => Range
  readonly address: (s: S) => string
  /** What the steps say to delete: "their HCL", "them from the file". */
  readonly where: string
  readonly write: (
    w: LegacyWrite<S>
  ) => { readonly edits: ReadonlyArray<TextEdit> } | { readonly why: string; readonly hint: string }
}

interface Group<S> {
  readonly zone: string
  readonly rateLimits: Array<{ readonly x: LegacyResource<S>; readonly r: RateLimit }>
  readonly lockdowns: Array<{ readonly x: LegacyResource<S>; readonly r: Lockdown }>
  readonly uaRules: Array<{ readonly x: LegacyResource<S>; readonly r: UaRule }>
}

const unclear = (message: string, at: Range, hint: string) =>
  finding("warning", "terraform-rewrite-unclear", message, at, { hint })

/** Whether a rule is in the ruleset already: the same ref, or (3.35 computes refs) the same expression and action. */
const present = (keys: ReadonlyArray<RuleKey>, r: HclRule) =>
  keys.some((k) => (k.ref !== undefined && k.ref === r.ref) || (k.expression === r.expression && k.action === r.action))

interface Planned<S> {
  readonly g: Group<S>
  readonly phase: string
  readonly base: string
  readonly from: string
  readonly sources: ReadonlyArray<LegacyResource<S>>
  readonly existing: LegacyResource<S> | undefined
  readonly keys: ReadonlyArray<RuleKey>
  readonly rules: ReadonlyArray<HclRule>
  readonly caveats: ReadonlyArray<string>
  readonly afterwards: ReadonlyArray<string>
}

/**
 * The fixes for the file's legacy security resources (per zone and phase) and the findings on
 * what they leave. `resources`: all of the file's (its rulesets and firewall rules are read too).
 */
export const legacyPlan = <S>(
  resources: ReadonlyArray<LegacyResource<S>>,
  target: ProviderTarget,
  syntax: LegacySyntax<S>
): { readonly fixes: Map<S, Fix>; readonly findings: Array<Finding> } => {
  const fixes = new Map<S, Fix>()
  const findings: Array<Finding> = []
  const major: ProviderMajor = target.constraint === undefined ? 5 : target.major
  const groups = new Map<string, Group<S>>()
  const withheld = { [RL_PHASE]: withheldZones(), [CUSTOM_PHASE]: withheldZones() }
  for (const x of resources) {
    if (!LEGACY_PRODUCT_RESOURCES.includes(x.type)) continue
    const r: RateLimit | Lockdown | UaRule | Problem =
      x.zone === undefined
        ? { at: undefined, why: "it has no zone_id", hint: "give it its zone_id" }
        : x.type === "cloudflare_rate_limit"
          ? readRateLimit(x.name, x.data)
          : x.type === "cloudflare_zone_lockdown"
            ? readLockdown(x.name, x.data)
            : readUaRule(x.name, x.data)
    if ("why" in r) {
      const z = withheld[x.type === "cloudflare_rate_limit" ? RL_PHASE : CUSTOM_PHASE].add(x.key, x.zone)
      findings.push(unclear(refusalMessage(syntax.address(x.s), r, z), syntax.range(x.s, r.at), r.hint))
      continue
    }
    const g = groups.get(x.key) ?? { zone: x.zone!, rateLimits: [], lockdowns: [], uaRules: [] }
    if (x.type === "cloudflare_rate_limit") g.rateLimits.push({ x, r: r as RateLimit })
    else if (x.type === "cloudflare_zone_lockdown") g.lockdowns.push({ x, r: r as Lockdown })
    else g.uaRules.push({ x, r: r as UaRule })
    groups.set(x.key, g)
  }
  const firstOf = (g: Group<S>) => [...g.rateLimits, ...g.lockdowns, ...g.uaRules][0]!.x
  const spelled = zoneSpellings(
    new Map([...groups].map(([k, g]) => [k, { zone: g.zone, provider: firstOf(g).provider, g }])),
    (z) => syntax.range(firstOf(z.g).s)
  )
  findings.push(...spelled.findings)
  const rulesets = resources.filter((x) => x.type === "cloudflare_ruleset")
  const rulesetOf = (key: string, phase: string) => rulesets.find((x) => x.data.phase === phase && x.key === key)
  const taken = new Set(rulesets.map((x) => x.name))
  const many = groups.size > 1
  const firewallZones = new Set(resources.filter((x) => x.type === "cloudflare_firewall_rule").map((x) => x.key))

  /** The fix writing `w` (a ruleset, or rules appended to the zone's), or the findings on why it cannot. */
  const write = (w: Planned<S>): Fix | undefined => {
    // The plan's list in order: a new rule goes before the next rule already there, or at the end.
    const before: Array<{ at: number; rules: Array<HclRule> }> = []
    let added: Array<HclRule> = []
    for (const r of w.rules) {
      if (!present(w.keys, r)) {
        added.push(r)
        continue
      }
      const at = w.keys.findIndex((k) => present([k], r))
      if (added.length > 0) before.push({ at, rules: added })
      added = []
    }
    if (added.length === 0 && before.length === 0) return undefined
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
      w.sources.map((x) => syntax.address(x.s)),
      w.existing !== undefined,
      w.afterwards,
      syntax.where
    )
    const out = syntax.write({
      sources: w.sources.map((x) => x.s),
      existing: w.existing?.s,
      name,
      zone: w.g.zone,
      phase: w.phase,
      rules: added,
      before,
      comments: [...lines, ...w.caveats]
    })
    if ("why" in out) {
      findings.push(
        unclear(
          `${syntax.address(w.sources[0]!.s)}: ${w.existing !== undefined ? `${resource}: ` : ""}${out.why}; no rules are written for zone_id = ${w.g.zone}`,
          syntax.range(w.sources[0]!.s),
          out.hint
        )
      )
      return undefined
    }
    const what =
      w.existing !== undefined ? `Append the equivalent rules to ${resource}` : "Add the equivalent cloudflare_ruleset"
    return {
      title: `${what}${many ? ` for zone_id = ${w.g.zone}` : ""} (${w.phase}, provider ${versionName(major)}) with the migration steps`,
      edits: [...out.edits].sort((a, b) => a.range.start - b.range.start),
      preferred: true
    }
  }

  for (const [key, g] of groups) {
    if (spelled.keys.has(key)) continue
    const zone = { id: g.zone, name: `zone_id = ${g.zone}` }
    const names = new Map([...g.rateLimits, ...g.lockdowns, ...g.uaRules].map((y) => [y.r.id, syntax.address(y.x.s)]))

    if (g.rateLimits.length > 0 && !withheld[RL_PHASE].has(key)) {
      const existing = rulesetOf(key, RL_PHASE)
      const keys = existing === undefined ? [] : rulesetKeys(existing.data)
      const plan = planRateLimitMigration({
        zone,
        plan: undefined,
        before: { rateLimits: g.rateLimits.map((y) => y.r), rules: [] },
        deleteOld: false
      })
      const rules = plan.expected.rules as ReadonlyArray<HclRule>
      const count = keys.length + rules.filter((r) => !present(keys, r)).length
      const q = quotaFinding(
        `zone_id = ${g.zone}, rate limiting rules`,
        count,
        RateLimitRuleLimits,
        syntax.range(g.rateLimits[0]!.x.s),
        "edgectl firewall rate-limits migrate --zone ZONE"
      )
      if (q !== undefined) findings.push(q)
      const fix = write({
        g,
        phase: RL_PHASE,
        base: "rate_limiting",
        from: "cloudflare_rate_limit",
        sources: g.rateLimits.map((y) => y.x),
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
            ? ["info: a simulate rate limit became action log, which only Enterprise zones offer"]
            : [])
        ],
        afterwards: ["5. terraform plan shows no changes."]
      })
      if (fix !== undefined) for (const y of g.rateLimits) fixes.set(y.x.s, fix)
    }

    const sources = [...g.lockdowns.map((y) => y.x), ...g.uaRules.map((y) => y.x)]
    if (sources.length === 0 || withheld[CUSTOM_PHASE].has(key)) continue
    const first = syntax.range(sources[0]!.s)
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
    const read = existing === undefined ? { rules: [] as Array<CustomRule> } : readRulesetRules(existing.data)
    if ("why" in read) {
      findings.push(
        unclear(
          `${syntax.address(existing!.s)}: ${read.why}; the Zone Lockdown and User Agent Blocking rules of zone_id = ${g.zone} go after its rules, so none are written`,
          first,
          read.hint
        )
      )
      continue
    }
    const planOn = (customRules: ReadonlyArray<CustomRule>) =>
      planLockdownUaMigration({
        zone,
        plan: undefined,
        before: {
          lockdowns: g.lockdowns.map((y) => y.r),
          uaRules: g.uaRules.map((y) => y.r),
          customRules,
          firewallRules: []
        },
        deleteOld: false
      })
    // 3.x computes refs, so a rule written by an earlier rewrite has none: it is known by its
    // expression and action, and read with the ref the plan gives it (else it would be a rule of
    // the user's, its skip of the rest a place for more copies).
    const written = planOn(read.rules).expected.customRules.filter((r) => isMigratedRef(r.ref))
    const plan = planOn(
      read.rules.map((r) => {
        const same =
          r.ref === undefined ? written.find((x) => x.expression === r.expression && x.action === r.action) : undefined
        return same === undefined ? r : { ...r, ref: same.ref! }
      })
    )
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
    if (fix !== undefined) for (const x of sources) fixes.set(x.s, fix)
  }
  return { fixes, findings }
}
