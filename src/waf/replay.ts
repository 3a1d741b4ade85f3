/**
 * Traffic replay: each request of a JSONL file evaluated against the previous WAF and the new
 * configuration; the requests on which they disagree (acted on by one and not the other, or by
 * both with different actions), with the rules responsible. Pure: the caller feeds lines.
 *
 * Lines are read by the one traffic reader (src/rules/replay-file.ts).
 */
import type { PreviousWaf, WafConfig } from "../domain/waf.js"
import { HTTP_SCHEME, RequestContext, type Request } from "../rules/index.js"
import { trafficReader } from "../rules/replay-file.js"
import { requestSummary as summaryOf, type LineProblem } from "../rules/traffic-line.js"
import { CATALOG, type Catalog } from "./catalog.js"
import { ExpressionPool, newEngine, previousEngine, type RuleRef, type Verdict } from "./engines.js"

export { withDerivedFields } from "../rules/traffic-line.js"

type DisagreementKind = "previous-only" | "new-only" | "different-action"

interface Disagreement {
  /** 1-based line of the traffic file. */
  readonly line: number
  readonly id?: string
  readonly summary: string
  readonly kind: DisagreementKind
  readonly previous: Verdict
  readonly next: Verdict
}

export interface ReplayReport {
  /** Lines read, blank ones and comments included. */
  readonly lines: number
  readonly requests: number
  readonly agreed: number
  readonly disagreements: ReadonlyArray<Disagreement>
  readonly counts: Readonly<Record<DisagreementKind, number>>
  readonly actedPrevious: number
  readonly actedNew: number
  /** The rules most often responsible for disagreements, most frequent first. */
  readonly topRules: ReadonlyArray<{
    readonly version: "previous" | "new"
    readonly rule: RuleRef
    readonly count: number
  }>
  readonly problems: ReadonlyArray<LineProblem>
}

export interface Replayer {
  /** Evaluates one line of the traffic file (1-based `line`). */
  line(text: string, line: number): void
  /** One request, already parsed. */
  request(request: Request, line: number, id?: string): Disagreement | undefined
  report(): ReplayReport
}

export const makeReplayer = (
  previous: PreviousWaf,
  config: WafConfig,
  options: { readonly catalog?: Catalog; readonly keep?: number } = {}
): Replayer => {
  const catalog = options.catalog ?? CATALOG
  const pool = new ExpressionPool()
  const prev = previousEngine(previous, catalog, pool)
  const next = newEngine(config, catalog, pool)
  const memo = new Int8Array(pool.size)
  const keep = options.keep ?? 1000
  const disagreements: Array<Disagreement> = []
  const counts: Record<DisagreementKind, number> = { "previous-only": 0, "new-only": 0, "different-action": 0 }
  const blame = new Map<string, { version: "previous" | "new"; rule: RuleRef; count: number }>()
  let requests = 0
  let agreed = 0
  let actedPrevious = 0
  let actedNew = 0

  const note = (version: "previous" | "new", rules: ReadonlyArray<RuleRef>) => {
    for (const rule of rules) {
      const k = `${version}\u0000${rule.source}\u0000${rule.id}`
      const b = blame.get(k)
      if (b) b.count++
      else blame.set(k, { version, rule, count: 1 })
    }
  }

  const request = (r: Request, line: number, id?: string): Disagreement | undefined => {
    requests++
    const ctx = new RequestContext(r, HTTP_SCHEME)
    memo.fill(0)
    const p = prev.decide(ctx, memo)
    const n = next.decide(ctx, memo)
    if (p.acted) actedPrevious++
    if (n.acted) actedNew++
    const kind: DisagreementKind | undefined =
      p.acted && !n.acted
        ? "previous-only"
        : !p.acted && n.acted
          ? "new-only"
          : p.acted && n.acted && p.action !== n.action
            ? "different-action"
            : undefined
    if (kind === undefined) {
      agreed++
      return undefined
    }
    counts[kind]++
    note("previous", p.rules)
    note("new", n.rules)
    const d: Disagreement = {
      line,
      ...(id !== undefined ? { id } : {}),
      summary: summaryOf(r),
      kind,
      previous: p,
      next: n
    }
    if (disagreements.length < keep) disagreements.push(d)
    return d
  }

  const reader = trafficReader((e) => request(e.request, e.line, e.id))
  return {
    request,
    line: reader.line,
    report() {
      const { lines, problems } = reader.tally()
      return {
        lines,
        requests,
        agreed,
        disagreements,
        counts,
        actedPrevious,
        actedNew,
        topRules: [...blame.values()].sort((a, b) => b.count - a.count).slice(0, 10),
        problems
      }
    }
  }
}

/** The replay's file and counts, as `waf replay` and the TUI's Replay step both say them. */
export const replaySummary = (file: string, r: ReplayReport): ReadonlyArray<string> => {
  const d = r.counts["new-only"] + r.counts["previous-only"] + r.counts["different-action"]
  return [
    `Replay of ${file}: the previous WAF against the new configuration`,
    `${r.requests} request(s): ${r.agreed} agree, ${d} disagree (${r.counts["new-only"]} acted on only by the new WAF, ${r.counts["previous-only"]} only by the previous one, ${r.counts["different-action"]} with different actions)`,
    `acted on: previous WAF ${r.actedPrevious}, new WAF ${r.actedNew}`
  ]
}

/** Replays a whole text (tests, the TUI's sample file). */
export const replayText = (
  previous: PreviousWaf,
  config: WafConfig,
  text: string,
  catalog: Catalog = CATALOG
): ReplayReport => {
  const r = makeReplayer(previous, config, { catalog })
  text.split("\n").forEach((l, i) => r.line(l, i + 1))
  return r.report()
}
