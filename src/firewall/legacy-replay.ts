/**
 * What the replays of the legacy-product migrations share (Zone Lockdown + UA Blocking:
 * ./lockdown-ua-replay.ts; rate limiting: ./rate-limit-replay.ts): the comparison of two verdicts
 * per request into the report `firewall migrate --replay` gives (./custom-rules-replay.ts's
 * MigrationReplayReport, so the `migrate --zone` umbrella sums every replay alike), the plan notes
 * that explain a difference made by design, and the legacy products' own matching (URL patterns,
 * IP lists), written here apart from the rules language so the "before" is not the plan's
 * expression evaluated twice.
 */
import * as Either from "effect/Either"
import type { PlanNote } from "../domain/migration.js"
import { HTTP_SCHEME, RequestContext, type Request } from "../rules/index.js"
import { cidrBounds, parseIp, type IpAddress } from "../rules/ip.js"
import { trafficReader, type TrafficEntry } from "../rules/replay-file.js"
import { requestSummary } from "../rules/traffic-line.js"
import type {
  MigrationReplayReport,
  ReplayDifference,
  ReplayDisagreement,
  ReplayRule,
  ReplayVerdict
} from "./custom-rules-replay.js"

/** A difference, with the plan's notes that say why the migration makes it (empty: nothing planned explains it). */
export interface LegacyDisagreement extends ReplayDisagreement {
  readonly explainedBy: ReadonlyArray<{ readonly code: string; readonly message: string }>
}

export interface LegacyReplayReport extends MigrationReplayReport {
  readonly disagreements: ReadonlyArray<LegacyDisagreement>
  /** How many differences a plan note explains (a difference by design), of `requests - agreed`. */
  readonly explained: number
  /** The readings of the legacy products' behaviour the "before" side uses that the platform does not document (derived). */
  readonly assumptions: ReadonlyArray<string>
}

/** One side of a replay: the verdict on a request at a time (ms); a side may keep counters between calls. */
export type ReplaySide = (ctx: RequestContext, request: Request, at: number) => ReplayVerdict

const none: ReadonlyArray<never> = []

export const verdict = (
  action: string | null,
  rule: ReplayRule | null,
  more: Partial<Pick<ReplayVerdict, "skipped" | "skippedBy" | "logged">> = {}
): ReplayVerdict => ({
  action,
  rule,
  skipped: more.skipped ?? none,
  skippedBy: more.skippedBy ?? none,
  logged: more.logged ?? none
})

/**
 * The source rule ids a rule of a replay names: a migrated rule's ref names its source
 * (`lockdown:<id>:allow`, `ua:<id>,<id>`, `rate_limit:<id>`), before any `@<rule>` (a copy placed
 * before a skip, ./lockdown-ua-placement.ts).
 */
const sourceIds = (r: ReplayRule): ReadonlyArray<string> => {
  const m = /^(lockdown|ua|rate_limit):([^@]*)/.exec(r.id)
  if (m === null) return [r.id]
  return m[1] === "lockdown" ? [m[2]!.split(":")[0]!] : m[2]!.split(",")
}

/**
 * The plan's notes about a rule either verdict names, and the plan-wide notes in `general` (codes):
 * every replay that names the note explaining a difference (the legacy ones, and the firewall
 * rules migration's for the Zone Lockdown rules it places, ./custom-rules-replay.ts) asks this.
 */
export const explain = (
  notes: ReadonlyArray<PlanNote>,
  general: ReadonlyArray<string>,
  skippedNotes: Readonly<Record<string, string>>,
  b: ReplayVerdict,
  a: ReplayVerdict
): LegacyDisagreement["explainedBy"] => {
  // A product skipped on a request (`rateLimit`) names the note about such skips.
  const bySkip = new Set(
    [...b.skipped, ...a.skipped].flatMap((x) => (skippedNotes[x] !== undefined ? [skippedNotes[x]] : []))
  )
  const ids = new Set(
    [b.rule, a.rule, ...b.logged, ...a.logged, ...b.skippedBy, ...a.skippedBy].flatMap((r) =>
      r === null ? [] : [r.id, ...sourceIds(r)]
    )
  )
  // A plan-wide note (the order of the rules) explains only a request two different rules decided.
  const byOthers = b.rule !== null && a.rule !== null && sourceIds(b.rule).join(",") !== sourceIds(a.rule).join(",")
  return notes
    .filter((n) =>
      n.rule !== undefined ? ids.has(n.rule) : bySkip.has(n.code) || (byOthers && general.includes(n.code))
    )
    .map((n) => ({ code: n.code, message: n.message }))
}

const sameList = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) =>
  a.length === b.length && a.every((x, i) => x === b[i])

/**
 * A replay of two sides on the lines of a traffic file (through the one reader, in time order with
 * `ordered`). A request without a time takes the previous one's (0 before any).
 */
export const makeLegacyReplayer = (
  before: ReplaySide,
  after: ReplaySide,
  options: {
    readonly notes: ReadonlyArray<PlanNote>
    /** Codes of plan-wide notes (no rule, e.g. the order of the rules) that explain a request two different rules decided. */
    readonly general?: ReadonlyArray<string>
    /** A skipped product or phase -> the code of the plan-wide note that explains a difference on a request that skips it. */
    readonly skippedNotes?: Readonly<Record<string, string>>
    readonly assumptions: ReadonlyArray<string>
    readonly ordered?: boolean
    readonly keep?: number
  }
) => {
  const keep = options.keep ?? 1000
  const disagreements: Array<LegacyDisagreement> = []
  const counts: Record<ReplayDifference, number> = { action: 0, skipped: 0, logged: 0 }
  const decided = { before: {} as Record<string, number>, after: {} as Record<string, number> }
  const tally = (t: Record<string, number>, action: string | null) => {
    const k = action ?? "none"
    t[k] = (t[k] ?? 0) + 1
  }
  let requests = 0
  let agreed = 0
  let explained = 0
  let now = 0
  const request = (e: TrafficEntry) => {
    requests++
    if (e.at !== undefined) now = e.at
    const ctx = new RequestContext(e.request, HTTP_SCHEME)
    const b = before(ctx, e.request, now)
    const a = after(ctx, e.request, now)
    tally(decided.before, b.action)
    tally(decided.after, a.action)
    const differences: Array<ReplayDifference> = []
    if (b.action !== a.action) differences.push("action")
    if (!sameList(b.skipped, a.skipped)) differences.push("skipped")
    if (
      !sameList(
        b.logged.map((r) => sourceIds(r).join(",")),
        a.logged.map((r) => sourceIds(r).join(","))
      )
    )
      differences.push("logged")
    if (differences.length === 0) {
      agreed++
      return
    }
    for (const d of differences) counts[d]++
    const explainedBy = explain(options.notes, options.general ?? [], options.skippedNotes ?? {}, b, a)
    if (explainedBy.length > 0) explained++
    if (disagreements.length < keep)
      disagreements.push({
        line: e.line,
        ...(e.id !== undefined ? { id: e.id } : {}),
        summary: requestSummary(e.request),
        differences,
        before: b,
        after: a,
        explainedBy
      })
  }
  const reader = trafficReader(request, { ordered: options.ordered === true })
  return {
    line: reader.line,
    report: (): LegacyReplayReport => {
      const { lines, problems } = reader.tally()
      return {
        lines,
        requests,
        agreed,
        disagreements,
        counts,
        decided,
        problems,
        explained,
        assumptions: options.assumptions
      }
    }
  }
}

// --- the legacy products' matching -------------------------------------------------------------

/** A glob where `*` matches any run (empty too), compared without ASCII case: the subject is given lower-cased. */
const globMatcher = (pattern: string): ((lowered: string) => boolean) => {
  const parts = pattern.toLowerCase().split("*")
  if (parts.length === 1) return (s) => s === parts[0]
  const first = parts[0]!
  const last = parts[parts.length - 1]!
  const middle = parts.slice(1, -1)
  return (s) => {
    if (s.length < first.length + last.length || !s.startsWith(first)) return false
    let at = first.length
    for (const m of middle) {
      const k = s.indexOf(m, at)
      if (k < 0) return false
      at = k + m.length
    }
    return s.length - last.length >= at && s.endsWith(last)
  }
}

/**
 * A legacy URL pattern (`host/path*`, a scheme and a query ignored) as a matcher of a request's
 * `urlSubject` (host and path, lower-cased: one per request). `noPath`: what a pattern without a
 * path covers, `every` path of its host (Zone Lockdown, derived) or the `homepage` only (rate
 * limiting: "example.com matches example.com/").
 */
export const legacyUrlMatcher = (pattern: string, noPath: "every" | "homepage"): ((subject: string) => boolean) => {
  let p = pattern.trim().replace(/^https?:\/\//i, "")
  const q = p.search(/[?#]/)
  if (q >= 0) p = p.slice(0, q)
  if (p === "" || p === "*") return () => true
  const slash = p.indexOf("/")
  return globMatcher(slash >= 0 ? p : noPath === "every" ? `${p}/*` : `${p}/`)
}

/** What the legacy URL matchers compare: the request's host and path (`/` when it has none), lower-cased. */
export const urlSubject = (r: Request): string => {
  const host = typeof r["http.host"] === "string" ? r["http.host"] : ""
  const path =
    typeof r["http.request.uri.path"] === "string" && r["http.request.uri.path"] !== ""
      ? r["http.request.uri.path"]
      : "/"
  return `${host}${path}`.toLowerCase()
}

const ipRange = (value: string): { lo: IpAddress; hi: IpAddress } | undefined => {
  const [addr, prefix] = value.trim().split("/")
  const ip = Either.getOrUndefined(parseIp(addr ?? ""))
  if (ip === undefined) return undefined
  if (prefix === undefined) return { lo: ip, hi: ip }
  const n = Number(prefix)
  return Number.isInteger(n) ? cidrBounds(ip, n) : undefined
}

/** A matcher of `ip.src` against IPs and CIDR ranges (a value that does not parse matches nothing). */
export const ipListMatcher = (values: ReadonlyArray<string>) => {
  const ranges = values.flatMap((v) => {
    const r = ipRange(v)
    return r === undefined ? [] : [r]
  })
  return (r: Request): boolean => {
    const src = r["ip.src"]
    if (typeof src !== "string") return false
    const v = Either.getOrUndefined(parseIp(src))
    if (v === undefined) return false
    return ranges.some((x) => x.lo.v === v.v && x.lo.n <= v.n && v.n <= x.hi.n)
  }
}
