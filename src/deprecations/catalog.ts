/**
 * The platform's deprecations that concern edgectl, as data (`deprecations.json`, shipped inside
 * the bundle): a new deprecation is a new entry there, not code. This module gives the entries
 * their types and their state on a clock (the platform's: `EDGECTL_PLATFORM_NOW` when set).
 */
import data from "./deprecations.json" with { type: "json" }

interface ApiDetector {
  readonly methods: ReadonlyArray<string>
  /** Anchored, against the path relative to /client/v4 without query string; `[^/]+` for an id. */
  readonly path: string
  /** Report only when the call's method is known (and is one of `methods`). */
  readonly methodRequired?: boolean
  /** Report only when the request's body, near the call, matches this. */
  readonly bodyHas?: string
  /** `[from, to]`: the edit that moves the path (the KV routes). */
  readonly rewrite?: ReadonlyArray<string>
  readonly derived?: boolean
}

interface PatternDetector {
  readonly pattern: string
  readonly what: string
  readonly languages?: ReadonlyArray<string>
  readonly rewrite?: ReadonlyArray<string>
  readonly derived?: boolean
}

interface TerraformDetector {
  readonly resource?: string
  readonly data?: string
  readonly attribute?: string
  readonly of?: string
  readonly providerArgument?: string
  readonly deprecatedFrom?: string
  readonly removedIn?: string
  readonly instead?: string
  readonly derived?: boolean
}

export interface Deprecation {
  readonly id: string
  readonly title: string
  readonly deprecated: string | null
  readonly endOfLife: string | null
  readonly endOfLifeDerived?: string
  readonly earlierEnds?: ReadonlyArray<string>
  readonly replacement: string
  /** The edgectl command that moves it, where edgectl has one (ZONE stands for the zone). */
  readonly move?: string
  /** What a skip rule that names the legacy product (`products: [...]`) does instead. */
  readonly skipReplacement?: string
  /** The editor's code action that moves it (on a Terraform resource), where there is one. */
  readonly action?: string
  readonly detect: {
    readonly api?: ReadonlyArray<ApiDetector>
    readonly text?: ReadonlyArray<PatternDetector>
    readonly rules?: ReadonlyArray<PatternDetector>
    readonly sdk?: ReadonlyArray<PatternDetector>
    readonly terraform?: ReadonlyArray<TerraformDetector>
    readonly skipProducts?: ReadonlyArray<string>
  }
}

export const deprecations: ReadonlyArray<Deprecation> = (data as { deprecations: ReadonlyArray<Deprecation> })
  .deprecations

export const deprecationById = (id: string): Deprecation | undefined => deprecations.find((d) => d.id === id)

/** past: its end of life is behind the clock (a CI gate fails); upcoming: dated, ahead; undated: no end published. */
export type DeprecationState =
  | { readonly state: "past"; readonly endOfLife: string; readonly daysAgo: number }
  | { readonly state: "upcoming"; readonly endOfLife: string; readonly daysLeft: number }
  | { readonly state: "undated" }

const DAY = 86_400_000

/** The state on `now`: an end of life is the start of that day, UTC (the platform gives days, not times). */
export const stateOn = (d: Deprecation, now: Date): DeprecationState => {
  if (d.endOfLife === null) return { state: "undated" }
  const end = Date.parse(`${d.endOfLife}T00:00:00Z`)
  const diff = end - now.getTime()
  if (diff <= 0) return { state: "past", endOfLife: d.endOfLife, daysAgo: Math.floor((now.getTime() - end) / DAY) }
  return { state: "upcoming", endOfLife: d.endOfLife, daysLeft: Math.ceil(diff / DAY) }
}

export const severityOf = (s: DeprecationState): "error" | "warning" | "information" =>
  s.state === "past" ? "error" : s.state === "upcoming" ? "warning" : "information"

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`

/** "ended 2025-06-15 (531 days ago)", "ends 2026-12-01 (3 days left)", "no end date published". */
export const stateText = (d: Deprecation, s: DeprecationState): string => {
  const since = d.deprecated !== null && d.deprecated !== d.endOfLife ? `deprecated since ${d.deprecated}, ` : ""
  switch (s.state) {
    case "past":
      return `${since}ended ${s.endOfLife} (${s.daysAgo === 0 ? "today" : `${plural(s.daysAgo, "day")} ago`})`
    case "upcoming":
      return `${since}ends ${s.endOfLife} (${plural(s.daysLeft, "day")} left)`
    case "undated":
      return `${since}no end date published`
  }
}
