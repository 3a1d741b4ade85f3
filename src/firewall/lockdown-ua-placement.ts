/**
 * Where the migrated Zone Lockdown and User Agent Blocking rules go in the custom rules list
 * (./lockdown-ua-plan.ts writes them). In the old order the zone's rules act first and only a skip
 * of the product (`zoneLockdown`, `uaBlock`) exempts a request from it (lockdown-ua-migration.md §4,
 * §6 step 4): a rule that skips the rest of the custom phase (`ruleset` or `phase: "current"`, a
 * firewall `allow` once migrated, custom-rules-migration.md §2) ended the custom rules, not Zone
 * Lockdown. Placed only at the end of the list (§6 step 5), the migrated rules would be skipped for
 * the requests such a rule matches. So they are placed once more right before each such rule (a
 * "gate"), limited to the requests it matches (`and (<its expression>)`), each exempted only by the
 * skips of the product before it: a request the gate skips meets them where Zone Lockdown ran for
 * it, after the rules before the gate; any other request goes past them unchanged and meets the
 * copy at the end (derived, like the rest of §6).
 *
 * A placed copy's `ref` is the rule's own with `@<the gate's ref>`, so a re-run finds each copy.
 * `placeMigrated` builds the whole list; both migrations that write a gate or a migrated rule call
 * it: the Zone Lockdown migration (./lockdown-ua-plan.ts) and the firewall rules migration
 * (./custom-rules-plan.ts), whose migrated `allow` rules are new gates when the lockdowns were
 * migrated first.
 */
import type { CustomRule } from "../domain/custom-rule.js"
import { isDeletedFilter, type Rule } from "../domain/firewall.js"
import type { Lockdown, UaRule } from "../domain/legacy-security.js"
import type { PlanNote } from "../domain/migration.js"
import { asWritten } from "./custom-rule-written.js"
import { lockdownRules, uaRule } from "./lockdown-ua-convert.js"

/** A rule of the zone's list that skips the rest of the phase: the migrated rules are placed before it too. */
export interface Gate {
  /** Its ref (the platform gives every rule one: its id when none is set). */
  readonly marker: string
  /** Its place among the zone's own rules. */
  readonly at: number
  readonly rule: CustomRule
}

type Product = "zoneLockdown" | "uaBlock"

const endsPhase = (r: CustomRule) =>
  r.action === "skip" &&
  r.enabled !== false &&
  (r.action_parameters?.ruleset === "current" || r.action_parameters?.phase === "current")

/** The zone's own rules that skip the rest of the phase, in list order. */
const gatesOf = (own: ReadonlyArray<CustomRule>): ReadonlyArray<Gate> =>
  own.flatMap((rule, at) => (endsPhase(rule) ? [{ marker: rule.ref ?? rule.id ?? `#${at + 1}`, at, rule }] : []))

/** Whether a gate itself skips the product: the requests it matches were exempt, so no copy is placed for them. */
const gateSkips = (g: Gate | undefined, product: Product) =>
  g?.rule.action_parameters?.products?.includes(product) === true

/** The gate a migrated rule's ref names (`lockdown:<id>:allow@<gate>`), undefined for the copy at the end. */
export const markerOf = (ref: string): string | undefined => {
  const at = ref.indexOf("@")
  return at < 0 ? undefined : ref.slice(at + 1)
}

/** A migrated rule's ref without its gate: what names its source rules. */
const baseRef = (ref: string): string => {
  const at = ref.indexOf("@")
  return at < 0 ? ref : ref.slice(0, at)
}

/**
 * The expressions that exempted a request from a product by the time it reached `g` (the end when
 * undefined): the zone's custom skips of it before that place, and its active firewall bypasses of
 * it (the firewall rules run before every custom rule).
 */
const exemptionsAt = (
  own: ReadonlyArray<CustomRule>,
  firewallRules: ReadonlyArray<Rule>,
  product: Product,
  g: Gate | undefined
): ReadonlyArray<string> => [
  ...own
    .slice(0, g?.at ?? own.length)
    .filter((r) => r.action === "skip" && r.enabled !== false && r.action_parameters?.products?.includes(product))
    .map((r) => r.expression),
  ...firewallRules.flatMap((r) =>
    r.action === "bypass" &&
    !r.paused &&
    r.products?.includes(product) === true &&
    !isDeletedFilter(r.filter) &&
    !r.filter.paused
      ? [r.filter.expression]
      : []
  )
]

/**
 * A migrated rule placed before gate `g` (as it is at the end when undefined): limited to what the
 * gate matches, and a skip (a lockdown's allowed IPs) skipping what the gate would have skipped.
 */
const placed = (r: CustomRule, g: Gate | undefined): CustomRule => {
  if (g === undefined) return r
  const { logging: _own, ...rest } = r
  const where = { ...rest, ref: `${r.ref}@${g.marker}`, expression: `${r.expression} and (${g.rule.expression})` }
  if (r.action !== "skip") return { ...where, ...(r.logging !== undefined ? { logging: r.logging } : {}) }
  // Logged as the gate is: a request the gate would have skipped is skipped here instead.
  return {
    ...where,
    action_parameters: g.rule.action_parameters ?? {},
    ...(g.rule.logging !== undefined ? { logging: g.rule.logging } : {})
  }
}

/** The zone's active firewall rules that allow: they end the custom rules too, and no custom rule can be placed before them. */
const firewallAllows = (firewallRules: ReadonlyArray<Rule>): ReadonlyArray<Rule> =>
  firewallRules.filter((r) => r.action === "allow" && !r.paused && !isDeletedFilter(r.filter) && !r.filter.paused)

/** A rule the migration wrote: its ref names its source (`lockdown:<id>:allow`, `ua:<id>[,<id>…]`, and `@<gate>` when placed). */
export const isMigratedRef = (ref: string | undefined) =>
  ref !== undefined && (ref.startsWith("lockdown:") || ref.startsWith("ua:"))

/** The source rule ids a migrated rule's ref names (the gate it is placed before left out). */
export const sourcesOf = (ref: string): ReadonlyArray<string> => {
  const base = baseRef(ref)
  return base.startsWith("lockdown:") ? [base.split(":")[1]!] : base.slice("ua:".length).split(",")
}

/** Zone Lockdown in the order it processes rules: with a priority first (lowest first), then the rest, in API order. */
export const processingOrder = (lockdowns: ReadonlyArray<Lockdown>) =>
  lockdowns
    .map((l, i) => ({ l, i }))
    .sort((a, b) => (a.l.priority ?? Infinity) - (b.l.priority ?? Infinity) || a.i - b.i)
    .map((x) => x.l)

export interface PlacementInput {
  /** The custom phase's rules in the order they will run, the migrated ones among them (wherever they are). */
  readonly customRules: ReadonlyArray<CustomRule>
  /** The zone's lockdowns and UA rules, paused or not: a migrated one is converted again from them before a new gate. */
  readonly lockdowns: ReadonlyArray<Lockdown>
  readonly uaRules: ReadonlyArray<UaRule>
  /** The zone's firewall rules as they will be: an active bypass of a product exempts a request from it. */
  readonly firewallRules: ReadonlyArray<Rule>
  /**
   * Whether the source rules not migrated yet are converted too (the Zone Lockdown migration), or
   * only those migrated before are placed (the firewall rules migration, which moves no lockdown).
   */
  readonly convertPending: boolean
}

export interface Placement {
  /** The zone's own rules (none migrated from Zone Lockdown or UA), in order. */
  readonly user: ReadonlyArray<CustomRule>
  readonly gates: ReadonlyArray<Gate>
  /** The source rule ids a migrated rule names: migrated before. */
  readonly migrated: ReadonlySet<string>
  /** The lockdowns in processing order. */
  readonly ordered: ReadonlyArray<Lockdown>
  /** The UA rules converted now (none unless `convertPending`), and how many rules they make merged per mode and state. */
  readonly pendingUa: ReadonlyArray<UaRule>
  readonly mergedUa: number
  /** What exempted a request from a product by the time it reached a gate (the end when undefined). */
  readonly away: (product: Product, g: Gate | undefined) => ReadonlyArray<string>
  /** The whole list: the zone's rules, the migrated ones before each gate and at the end; `merge`: the pending UA rules merged. */
  readonly list: (merge: boolean) => ReadonlyArray<CustomRule>
}

/**
 * Where every migrated rule goes: before each gate (a copy kept as written, or converted again from
 * its source when the gate came after the migration; none for a product the gate itself skips), and
 * at the end (kept as written, or converted now when pending). Lockdowns in processing order, then
 * the UA rules (lockdown-ua-migration.md §6, derived).
 */
export const placeMigrated = (input: PlacementInput): Placement => {
  const user = input.customRules.filter((r) => !isMigratedRef(r.ref))
  const ours = input.customRules.filter((r) => isMigratedRef(r.ref))
  const migrated = new Set(ours.flatMap((r) => sourcesOf(r.ref!)))
  const ordered = processingOrder(input.lockdowns)
  const gates = gatesOf(user)
  const away = (product: Product, g: Gate | undefined) => exemptionsAt(user, input.firewallRules, product, g)
  // The migrated rules as written, by place and source (`lockdown:<id>:` or `ua:`): found once each.
  const kept = new Map<string, Array<CustomRule>>()
  for (const r of ours) {
    const key = `${markerOf(r.ref!) ?? ""}\u0000${r.ref!.startsWith("ua:") ? "ua:" : `lockdown:${sourcesOf(r.ref!)[0]}:`}`
    kept.set(key, [...(kept.get(key) ?? []), asWritten(r)])
  }
  const keptAt = (prefix: string, g: Gate | undefined): ReadonlyArray<CustomRule> =>
    kept.get(`${g?.marker ?? ""}\u0000${prefix}`) ?? []

  /**
   * A migrated source's rules before a gate that came after its migration (a firewall allow
   * migrated since, a skip added): converted again from the source, still there paused, in the
   * state its rule at the end has; none when the source is gone (said in the notes).
   */
  const enabledAtEnd = (ref: string) => ours.find((r) => r.ref === ref)?.enabled !== false
  const lockdownAgain = (l: Lockdown, g: Gate | undefined): ReadonlyArray<CustomRule> => {
    const enabled = enabledAtEnd(`lockdown:${l.id}:block`)
    return g === undefined || keptAt(`lockdown:${l.id}:`, undefined).length === 0
      ? []
      : lockdownRules(l, away("zoneLockdown", g)).map((r) => placed({ ...r, enabled }, g))
  }
  const uaAgain = (g: Gate | undefined): ReadonlyArray<CustomRule> => {
    if (g === undefined) return []
    const here = new Set(keptAt("ua:", g).map((r) => baseRef(r.ref!)))
    return keptAt("ua:", undefined).flatMap((end) => {
      const group = sourcesOf(end.ref!).map((id) => input.uaRules.find((u) => u.id === id))
      if (here.has(end.ref!) || group.some((u) => u === undefined)) return []
      return [
        placed({ ...uaRule(group as ReadonlyArray<UaRule>, away("uaBlock", g)), enabled: end.enabled !== false }, g)
      ]
    })
  }

  // Lockdowns at a place: a migrated one keeps its rules as written; a pending one is converted now.
  const lockdownsAt = (g: Gate | undefined): ReadonlyArray<CustomRule> =>
    gateSkips(g, "zoneLockdown")
      ? []
      : ordered.flatMap((l) => {
          if (!migrated.has(l.id))
            return input.convertPending ? lockdownRules(l, away("zoneLockdown", g)).map((r) => placed(r, g)) : []
          const kept = keptAt(`lockdown:${l.id}:`, g)
          return kept.length > 0 ? kept : lockdownAgain(l, g)
        })
  // UA rules at a place: migrated ones kept; pending ones one rule each, or one per mode and state (`merge`).
  const pendingUa = input.convertPending ? input.uaRules.filter((u) => !migrated.has(u.id)) : []
  const uaGroups = (merge: boolean): ReadonlyArray<ReadonlyArray<UaRule>> => {
    if (!merge) return pendingUa.map((u) => [u])
    const groups = new Map<string, Array<UaRule>>()
    for (const u of pendingUa) groups.set(`${u.mode}/${u.paused}`, [...(groups.get(`${u.mode}/${u.paused}`) ?? []), u])
    return [...groups.values()]
  }
  const uaAt = (g: Gate | undefined, merge: boolean): ReadonlyArray<CustomRule> =>
    gateSkips(g, "uaBlock")
      ? []
      : [
          ...keptAt("ua:", g),
          ...uaAgain(g),
          ...uaGroups(merge).map((group) => placed(uaRule(group, away("uaBlock", g)), g))
        ]
  // The zone's rules, the migrated ones placed again before each gate, and once more at the end.
  const list = (merge: boolean): ReadonlyArray<CustomRule> => [
    ...user.flatMap((r, at) => {
      const g = gates.find((x) => x.at === at)
      return g === undefined ? [asWritten(r)] : [...lockdownsAt(g), ...uaAt(g, merge), asWritten(r)]
    }),
    ...lockdownsAt(undefined),
    ...uaAt(undefined, merge)
  ]
  return { user, gates, migrated, ordered, pendingUa, mergedUa: uaGroups(true).length, away, list }
}

const productOf = (ref: string): Product => (ref.startsWith("lockdown:") ? "zoneLockdown" : "uaBlock")

/** The codes of the placement's notes that explain a request a replay sees decided differently. */
export const PlacementDifferenceCodes: ReadonlyArray<string> = [
  "placed-again-before-skip",
  "skip-current-covers-migrated",
  "firewall-allow-covers-migrated"
]

/**
 * What the placement tells the user: each gate the migrated rules are placed before (derived), or
 * placed before again on a re-run (the gate came after the migration: the requests it matches are
 * decided as before the migration again, a difference the replay names this note for); a gate some migrated rule cannot be placed before (added after the migration, whose source rule
 * was deleted since: its requests now skip that rule); each active firewall `allow`, before which no custom rule can
 * go (the firewall rules run first): its requests now skip the migrated rules, a difference the
 * replay names this note for.
 */
export const placementNotes = (
  firewallRules: ReadonlyArray<Rule>,
  previous: ReadonlyArray<CustomRule>,
  body: ReadonlyArray<CustomRule>,
  gates: ReadonlyArray<Gate>
): ReadonlyArray<PlanNote> => {
  const migrated = body.flatMap((r) => (isMigratedRef(r.ref) ? [r.ref!] : []))
  if (migrated.length === 0) return []
  const atEnd = migrated.filter((ref) => markerOf(ref) === undefined)
  const had = new Set(previous.flatMap((r) => (r.ref !== undefined ? [r.ref] : [])))
  const notes: Array<PlanNote> = []
  for (const g of gates) {
    const placedHere = migrated.filter((ref) => markerOf(ref) === g.marker)
    const here = new Set(placedHere.map(baseRef))
    // Rules migrated before the gate was there, now placed before it: the requests it matches change back.
    const again = placedHere.filter((ref) => !had.has(ref) && had.has(baseRef(ref)))
    if (again.length > 0)
      notes.push({
        severity: "changed",
        code: "placed-again-before-skip",
        rule: g.marker,
        // A gate written now: a firewall allow migrated after the lockdowns, whose rule ran first until now.
        message: had.has(g.marker)
          ? `custom rule ${g.marker} skips the rest of the custom phase and came after the migration, so the requests it matches skipped the migrated Zone Lockdown and UA rules, which it did not exempt them from before: they are converted again from their paused rules and placed before it, limited to those requests, so those requests are checked as before the migration (derived)`
          : `firewall rule ${g.marker} becomes a custom rule that skips the rest of the custom phase, and the Zone Lockdown and UA rules were migrated before it: the requests it matches skipped them while the firewall rule ran first (firewall-allow-covers-migrated), though a firewall allow never exempted a request from Zone Lockdown or UA Blocking; they are converted again from their paused rules and placed before it, limited to those requests (refs ending "@${g.marker}"), so those requests are checked as before the Zone Lockdown migration (derived)`
      })
    else if (here.size > 0)
      notes.push({
        severity: "info",
        code: "placed-before-skip",
        message: `custom rule ${g.marker} skips the rest of the custom phase, which did not exempt the requests it matches from Zone Lockdown or User Agent Blocking: the migrated rules are placed before it too, limited to those requests (refs ending "@${g.marker}"), so they are checked there as before (derived)`
      })
    const missing = atEnd.filter((ref) => !gateSkips(g, productOf(ref)) && !here.has(ref))
    if (missing.length > 0)
      notes.push({
        severity: "changed",
        code: "skip-current-covers-migrated",
        rule: g.marker,
        message: `custom rule ${g.marker} skips the rest of the custom phase: the requests it matches now also skip the migrated rules ${missing.join(", ")}, which it did not exempt from before; their Zone Lockdown or UA rules were deleted, so they cannot be converted again before it`
      })
  }
  for (const r of firewallAllows(firewallRules))
    notes.push({
      severity: "changed",
      code: "firewall-allow-covers-migrated",
      rule: r.id,
      message: `firewall rule ${r.id}${r.description !== undefined && r.description !== "" ? ` (${r.description})` : ""} allows the requests it matches past every custom rule, so they now also skip the migrated Zone Lockdown and UA rules, which a firewall allow did not exempt them from; no custom rule can be placed before a firewall rule: migrate the firewall rules first (\`firewall migrate\`) or the whole zone at once (\`migrate --zone\`), and the migrated rules are placed before the skip it becomes (derived)`
    })
  return notes
}
