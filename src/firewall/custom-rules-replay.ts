/**
 * Replay of a traffic file through two states of a zone's rules, the zone before a migration and
 * after it: the requests they decide differently, with the rules responsible on each side. A state
 * is everything live on the zone: its active firewall rules (paused ones do not run) and its custom
 * rules. Pure: the caller feeds lines (the format of src/rules/traffic-line.ts).
 *
 * The order of the two products side by side is (derived): until the sunset the platform kept one
 * shared list (the firewall rules API was converted to rulesets API calls, custom-rules-migration.md
 * §1), and the migration writes the migrated rules before the custom rules it keeps. So a state runs
 * its active firewall rules first, in firewall order (priority, then action precedence), then its
 * custom rules in list order; a firewall `allow` or a custom skip of the rest (`ruleset`/`phase:
 * "current"`) ends both, a firewall bypass's products add to a skip's products and phases, and
 * `log` records and goes on. A faithful migration therefore shows no difference.
 */
import type { CustomRule } from "../domain/custom-rule.js"
import { EVALUATE, REQUIRES } from "../rules/compile.js"
import type { CustomOutcome } from "../rules/custom-eval.js"
import {
  check,
  compile,
  customPhase,
  firewall,
  HTTP_SCHEME,
  RequestContext,
  type CompiledExpression,
  type Decision,
  type FirewallRule,
  type Request
} from "../rules/index.js"
import { trafficReader } from "../rules/replay-file.js"
import { requestSummary, type LineProblem } from "../rules/traffic-line.js"
import type { ZoneRulesState } from "./custom-rules-plan.js"
import { asFirewallRule } from "./evaluated-rule.js"

/** What a zone runs on a request: its firewall rules (paused ones skipped), then its custom rules. */
export type { ZoneRulesState }

/** What differs: the deciding action, the products (and phases) skipped, or the rules that logged. */
export type ReplayDifference = "action" | "skipped" | "logged"

/**
 * A rule in a verdict: a firewall rule by its id, a custom rule by its ref (else its id, else its
 * place); a migrated rule's ref is its firewall rule's id, so the two compare alike.
 */
export interface ReplayRule {
  /** `lockdown`, `ua`, `rate_limit` (previous version) and `ratelimit` (a rule of `http_ratelimit`): the legacy replays' (./legacy-replay.ts). */
  readonly kind: "firewall" | "custom" | "lockdown" | "ua" | "rate_limit" | "ratelimit"
  readonly id: string
  readonly description?: string
}

export interface ReplayVerdict {
  /** allow (a firewall allow, or a custom skip of the rest), block, a challenge, or null when nothing decided. */
  readonly action: string | null
  readonly rule: ReplayRule | null
  /** Products and phases skipped, sorted. */
  readonly skipped: ReadonlyArray<string>
  readonly skippedBy: ReadonlyArray<ReplayRule>
  readonly logged: ReadonlyArray<ReplayRule>
}

export interface ReplayDisagreement {
  /** 1-based line of the traffic file. */
  readonly line: number
  readonly id?: string
  readonly summary: string
  readonly differences: ReadonlyArray<ReplayDifference>
  readonly before: ReplayVerdict
  readonly after: ReplayVerdict
  /** The plan notes that say why the migration makes the difference (a replay given `explain` only). */
  readonly explainedBy?: ReadonlyArray<{ readonly code: string; readonly message: string }>
}

/** The plan notes that explain a difference between two verdicts (none: nothing planned explains it). */
export type ExplainDifference = (
  before: ReplayVerdict,
  after: ReplayVerdict
) => ReadonlyArray<{ readonly code: string; readonly message: string }>

export interface MigrationReplayReport {
  /** Lines read, blank ones and comments included. */
  readonly lines: number
  readonly requests: number
  readonly agreed: number
  readonly disagreements: ReadonlyArray<ReplayDisagreement>
  readonly counts: Readonly<Record<ReplayDifference, number>>
  /** How many requests each state decided with each action (`none`: nothing decided), so that what was compared shows. */
  readonly decided: {
    readonly before: Readonly<Record<string, number>>
    readonly after: Readonly<Record<string, number>>
  }
  readonly problems: ReadonlyArray<LineProblem>
  /** How many differences a plan note explains (a replay given `explain` only). */
  readonly explained?: number
}

export interface MigrationReplayer {
  line(text: string, line: number): void
  request(request: Request, line: number, id?: string): ReplayDisagreement | undefined
  report(): MigrationReplayReport
}

const sameList = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) =>
  a.length === b.length && a.every((x, i) => x === b[i])

const sortedUnique = (xs: ReadonlyArray<string>) => [...new Set(xs)].sort()

const none: ReadonlyArray<never> = []

/**
 * The expressions of both states, each compiled once and evaluated at most once per request: a
 * migrated rule has its firewall rule's expression, and a kept custom rule is in both states, so the
 * replay costs about one evaluation of each expression, not two. Undefined for an expression that
 * does not check (each evaluator then reports it as invalid).
 */
export const sharedExpressions = () => {
  const bySource = new Map<string, CompiledExpression | null>()
  const last: Array<RequestContext | undefined> = []
  const value: Array<boolean> = []
  return (source: string): CompiledExpression | undefined => {
    const known = bySource.get(source)
    if (known !== undefined) return known ?? undefined
    const checked = check(source).checked
    if (checked === undefined) {
      bySource.set(source, null)
      return undefined
    }
    const c = compile(checked)
    const ev = (c as unknown as Record<typeof EVALUATE, (ctx: RequestContext) => boolean>)[EVALUATE]
    const slot = last.length
    last.push(undefined)
    value.push(false)
    const once = (ctx: RequestContext) => {
      if (last[slot] === ctx) return value[slot]!
      const v = ev(ctx)
      last[slot] = ctx
      value[slot] = v
      return v
    }
    // The compiled expression, evaluating through `once` when given a context of its scheme.
    const shared = ((r: Request | RequestContext) =>
      r instanceof RequestContext && r.scheme === c.scheme ? once(r) : c(r)) as CompiledExpression
    Object.defineProperties(shared, {
      [EVALUATE]: { value: once },
      [REQUIRES]: { get: () => (c as { [REQUIRES]?: unknown })[REQUIRES] },
      source: { value: c.source },
      fields: { value: c.fields },
      scheme: { value: c.scheme },
      context: { value: c.context }
    })
    bySource.set(source, shared)
    return shared
  }
}

/** A state's outcome on a request: the firewall rules' decision, and the custom phase's when they decided nothing. */
interface StateOutcome {
  readonly firewall: Decision
  readonly custom: CustomOutcome | undefined
}

/** One state compiled once: `decide` runs its firewall rules, then (when they decide nothing) its custom rules. */
export const stateEvaluator = (state: ZoneRulesState, compiled: (source: string) => CompiledExpression | undefined) => {
  const old = firewall(
    state.firewallRules.map((r) => {
      const rule = asFirewallRule(r)
      const c = compiled(rule.expression!)
      return c !== undefined ? { ...rule, compiled: c } : rule
    })
  )
  const phase = customPhase(state.customRules, { compiled })
  const names = new Map(state.customRules.map((r, i) => [r, r.ref ?? r.id ?? `#${i + 1}`]))
  const ofFirewall = (r: FirewallRule): ReplayRule => ({
    kind: "firewall",
    id: r.id,
    ...(r.description !== undefined ? { description: r.description } : {})
  })
  const ofCustom = (r: CustomRule): ReplayRule => ({
    kind: "custom",
    id: names.get(r)!,
    ...(r.description !== undefined ? { description: r.description } : {})
  })
  const decide = (ctx: RequestContext): StateOutcome => {
    const f = old.decideContext(ctx)
    return { firewall: f, custom: f.action === undefined ? phase.decideContext(ctx) : undefined }
  }
  const action = (o: StateOutcome): string | null =>
    o.firewall.action ?? (o.custom?.action === "skip" ? "allow" : (o.custom?.action ?? null))
  // Most requests skip and log nothing: no lists are built for them.
  const skipped = (o: StateOutcome): ReadonlyArray<string> => {
    const c = o.custom?.skipped ?? none
    if (o.firewall.bypassed.length === 0 && c.length === 0) return none
    return sortedUnique([
      ...o.firewall.bypassed.flatMap((b) => b.products),
      ...c.flatMap((s) => [...s.products, ...s.phases])
    ])
  }
  const loggedIds = (o: StateOutcome): ReadonlyArray<string> => {
    const c = o.custom?.logged ?? none
    if (o.firewall.logged.length === 0 && c.length === 0) return none
    return [...o.firewall.logged.map((r) => r.id), ...c.map((r) => names.get(r)!)]
  }
  const verdict = (o: StateOutcome): ReplayVerdict => ({
    action: action(o),
    rule:
      o.firewall.rule !== undefined
        ? ofFirewall(o.firewall.rule)
        : o.custom?.rule !== undefined
          ? ofCustom(o.custom.rule)
          : null,
    skipped: skipped(o),
    skippedBy: [
      ...o.firewall.bypassed.map((b) => ofFirewall(b.rule)),
      ...(o.custom?.skipped ?? none).map((s) => ofCustom(s.rule))
    ],
    logged: [...o.firewall.logged.map(ofFirewall), ...(o.custom?.logged ?? none).map(ofCustom)]
  })
  return { decide, action, skipped, loggedIds, verdict }
}

/**
 * The replay of `before` against `after` (both evaluated by the same code, the order above). `keep`:
 * how many disagreements to keep in the report (all are counted); 1,000 by default.
 */
export const makeMigrationReplayer = (
  before: ZoneRulesState,
  after: ZoneRulesState,
  options: { readonly keep?: number; readonly explain?: ExplainDifference } = {}
): MigrationReplayer => {
  const compiled = sharedExpressions()
  const b = stateEvaluator(before, compiled)
  const a = stateEvaluator(after, compiled)
  const keep = options.keep ?? 1000
  const disagreements: Array<ReplayDisagreement> = []
  const counts: Record<ReplayDifference, number> = { action: 0, skipped: 0, logged: 0 }
  const decided = { before: {} as Record<string, number>, after: {} as Record<string, number> }
  const tally = (t: Record<string, number>, action: string | null) => {
    const k = action ?? "none"
    t[k] = (t[k] ?? 0) + 1
  }
  let requests = 0
  let agreed = 0
  let explained = 0

  const request = (r: Request, line: number, id?: string): ReplayDisagreement | undefined => {
    requests++
    const ctx = new RequestContext(r, HTTP_SCHEME)
    const p = b.decide(ctx)
    const n = a.decide(ctx)
    const differences: Array<ReplayDifference> = []
    const pAction = b.action(p)
    const nAction = a.action(n)
    tally(decided.before, pAction)
    tally(decided.after, nAction)
    if (pAction !== nAction) differences.push("action")
    if (!sameList(b.skipped(p), a.skipped(n))) differences.push("skipped")
    if (!sameList(b.loggedIds(p), a.loggedIds(n))) differences.push("logged")
    if (differences.length === 0) {
      agreed++
      return undefined
    }
    for (const d of differences) counts[d]++
    const before = b.verdict(p)
    const after = a.verdict(n)
    const explainedBy = options.explain?.(before, after)
    if (explainedBy !== undefined && explainedBy.length > 0) explained++
    const d: ReplayDisagreement = {
      line,
      ...(id !== undefined ? { id } : {}),
      summary: requestSummary(r),
      differences,
      before,
      after,
      ...(explainedBy !== undefined ? { explainedBy } : {})
    }
    if (disagreements.length < keep) disagreements.push(d)
    return d
  }

  const reader = trafficReader((e) => request(e.request, e.line, e.id))
  return {
    request,
    line: reader.line,
    report: () => ({
      lines: reader.tally().lines,
      requests,
      agreed,
      disagreements,
      counts,
      decided,
      problems: reader.tally().problems,
      ...(options.explain !== undefined ? { explained } : {})
    })
  }
}

/** Replays a whole text (tests). */
export const replayStatesText = (
  before: ZoneRulesState,
  after: ZoneRulesState,
  text: string
): MigrationReplayReport => {
  const r = makeMigrationReplayer(before, after)
  text.split("\n").forEach((l, i) => r.line(l, i + 1))
  return r.report()
}

/**
 * A rule as a replay names it: `custom rule office_trusted`, `firewall rule 3f…`; with `described`
 * (the TUI, where a row has room), `firewall rule "log payroll pages" (3f…)`.
 */
const replayRuleText = (r: ReplayRule, described = false) =>
  `${RULE_WORDS[r.kind]} ${described && r.description ? `"${r.description}" (${r.id})` : r.id}`

const RULE_WORDS: Readonly<Record<ReplayRule["kind"], string>> = {
  firewall: "firewall rule",
  custom: "custom rule",
  lockdown: "Zone Lockdown rule",
  ua: "User Agent Blocking rule",
  rate_limit: "rate limit",
  ratelimit: "rate limiting rule"
}

/** A decision as one phrase: the action and its rule, then what was skipped and logged, and by which rules. */
export const verdictText = (v: ReplayVerdict, described = false): string => {
  const name = (r: ReplayRule) => replayRuleText(r, described)
  return [
    v.action === null ? "nothing decides" : `${v.action}${v.rule !== null ? ` by ${name(v.rule)}` : ""}`,
    ...(v.skipped.length > 0
      ? [`skips ${v.skipped.join(", ")}${v.skippedBy.length > 0 ? ` (by ${v.skippedBy.map(name).join(", ")})` : ""}`]
      : []),
    ...(v.logged.length > 0 ? [`logged by ${v.logged.map(name).join(", ")}`] : [])
  ].join("; ")
}

/** The counts, as the CLI and the TUI say them. */
export const replayCounts = (r: MigrationReplayReport) =>
  `${r.requests} request(s): ${r.agreed} decided alike, ${r.requests - r.agreed} differently (action ${r.counts.action}, skipped ${r.counts.skipped}, logged ${r.counts.logged})`

const tallyText = (t: Readonly<Record<string, number>>) =>
  Object.entries(t)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([action, n]) => `${n} ${action}`)
    .join(", ")

/** What each state decided, as the CLI and the TUI say it: `before: 2 allow, 1 block, 26 none; after: …`. */
export const decidedText = (r: MigrationReplayReport) =>
  `before: ${tallyText(r.decided.before)}; after: ${tallyText(r.decided.after)}`

type ExplainedCounts = Pick<MigrationReplayReport, "requests" | "agreed" | "explained">

/**
 * How many differences the plan's notes explain, of how many: undefined for a replay that explains
 * none (no note of its plan can). The replay's counts line and the one line under a preview both
 * count by it.
 */
export const explainedCount = (r: ExplainedCounts) =>
  r.explained === undefined ? undefined : { explained: r.explained, of: r.requests - r.agreed }

/** How many differences the plan's notes explain, as the CLI and the TUI say it; undefined for a replay that explains none. */
export const explainedText = (r: ExplainedCounts) => {
  const c = explainedCount(r)
  return c === undefined ? undefined : `explained by the plan's notes: ${c.explained} of ${c.of} difference(s)`
}

/** The codes of the notes that explain one difference, as the CLI and the TUI name them: `-` when none does. */
export const explainedByText = (d: { readonly explainedBy?: ReadonlyArray<{ readonly code: string }> | undefined }) =>
  (d.explainedBy ?? []).map((n) => n.code).join(", ") || "-"
