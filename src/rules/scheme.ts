/**
 * A scheme: the fields and functions an expression may use. Two are built in: the HTTP scheme
 * (firewall, custom and WAF rules) and the network scheme (Magic Firewall).
 */
import type { FieldInfo } from "./fields.js"
import { HTTP_FIELDS } from "./fields-http.js"
import { NETWORK_FIELDS } from "./fields-network.js"
import { FUNCTION_LIST, type FunctionInfo } from "./functions.js"

export interface Scheme {
  readonly name: "http" | "network"
  readonly fields: ReadonlyArray<FieldInfo>
  readonly functions: ReadonlyArray<FunctionInfo>
  /** The field's position in `fields`: its slot in a request context. */
  fieldId(name: string): number
  field(name: string): FieldInfo | undefined
  fn(name: string): FunctionInfo | undefined
}

const makeScheme = (
  name: Scheme["name"],
  fields: ReadonlyArray<FieldInfo>,
  functions: ReadonlyArray<FunctionInfo>
): Scheme => {
  const ids = new Map(fields.map((f, i) => [f.name, i]))
  const fns = new Map(functions.map((f) => [f.name, f]))
  return {
    name,
    fields,
    functions,
    fieldId: (n) => ids.get(n) ?? -1,
    field: (n) => {
      const i = ids.get(n)
      return i === undefined ? undefined : fields[i]
    },
    fn: (n) => fns.get(n)
  }
}

export const HTTP_SCHEME: Scheme = makeScheme(
  "http",
  HTTP_FIELDS,
  FUNCTION_LIST.filter((f) => !f.network)
)
export const NETWORK_SCHEME: Scheme = makeScheme(
  "network",
  NETWORK_FIELDS,
  FUNCTION_LIST.filter((f) => f.context === "filter")
)

export const schemeNamed = (name: "http" | "network"): Scheme => (name === "network" ? NETWORK_SCHEME : HTTP_SCHEME)

/** Optimal string alignment distance (Levenshtein with adjacent transpositions), capped at `max + 1`. */
const editDistance = (a: string, b: string, max = Infinity): number => {
  if (Math.abs(a.length - b.length) > max) return max + 1
  const prev2 = new Array<number>(b.length + 1).fill(0)
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  let cur = new Array<number>(b.length + 1).fill(0)
  let prevPrev = prev2
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prevPrev[j - 2]! + 1)
      cur[j] = v
      if (v < rowMin) rowMin = v
    }
    if (rowMin > max) return max + 1
    ;[prevPrev, prev, cur] = [prev, cur, prevPrev]
  }
  return prev[b.length]!
}

/**
 * The closest candidate to a misspelt name, when it is close enough to be what was meant:
 * a case-only difference, a small edit distance, or a missing/extra last segment.
 */
export const suggest = (name: string, candidates: ReadonlyArray<string>): string | undefined => {
  const lower = name.toLowerCase()
  const exactCase = candidates.find((c) => c.toLowerCase() === lower)
  if (exactCase !== undefined) return exactCase
  const max = Math.max(2, Math.floor(name.length / 5))
  let best: string | undefined
  let bestD = max + 1
  for (const c of candidates) {
    const d = editDistance(lower, c, max)
    if (d <= max && (d < bestD || (d === bestD && best !== undefined && c.length < best.length))) {
      best = c
      bestD = d
    }
  }
  if (best !== undefined && bestD <= max) return best
  // Abbreviations and spelt-out forms, segment by segment: `ip.source` -> `ip.src`, `http.req.uri` -> `http.request.uri`.
  const given = lower.split(".")
  let abbrev: string | undefined
  for (const c of candidates) {
    const segs = c.split(".")
    if (segs.length !== given.length) continue
    if (
      segs.every(
        (seg, i) => seg[0] === given[i]![0] && (isSubsequence(seg, given[i]!) || isSubsequence(given[i]!, seg))
      )
    ) {
      if (abbrev === undefined || Math.abs(c.length - lower.length) < Math.abs(abbrev.length - lower.length)) abbrev = c
    }
  }
  if (abbrev !== undefined) return abbrev
  // `http.request.uri.pat` -> the candidates that extend it; a longer name -> its longest known prefix.
  const extending = candidates.filter((c) => c.startsWith(lower))
  if (extending.length > 0) return extending.reduce((a, b) => (b.length < a.length ? b : a))
  const segments = lower.split(".")
  for (let n = segments.length - 1; n > 0; n--) {
    const prefix = segments.slice(0, n).join(".")
    if (candidates.includes(prefix)) return prefix
  }
  return undefined
}

/** The hint of a suggestion: `did you mean \`x\`?`, or none. */
export const didYouMean = (name: string | undefined) => (name === undefined ? undefined : `did you mean \`${name}\`?`)

const isSubsequence = (short: string, long: string): boolean => {
  let i = 0
  for (let j = 0; j < long.length && i < short.length; j++) if (long[j] === short[i]) i++
  return i === short.length
}
