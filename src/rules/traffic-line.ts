/**
 * One line of a traffic file (JSONL, as every replay reads it through ./replay-file.ts): a request in
 * the rules language's encoding, or `{"id": "...", "request": {...}}` to name it. Blank lines and
 * lines starting with `#` are skipped. Headers given as `http.request.headers` (lower-case name to
 * values) imply the header fields the line does not give itself. An optional `"at"` (beside `id`,
 * or in the request itself) is when the request came: an ISO time, milliseconds since 1970, or
 * `"+ms"` after the previous request; the rate limit replay counts with it.
 */
import * as Either from "effect/Either"
import { validateRequest, type Request } from "./context.js"

/**
 * Fills the fields a traffic line implies from `http.request.headers` (a map of lower-case name to
 * values): `http.request.headers.names`, `.values`, `http.user_agent`, `http.referer`, `http.cookie`,
 * when the line does not give them itself.
 */
export const withDerivedFields = (r: Request): Request => {
  const h = r["http.request.headers"]
  if (typeof h !== "object" || h === null || Array.isArray(h)) return r
  return deriveInto(Object.assign({}, r), h as Record<string, unknown>)
}

/** Sets the derived fields on `out` (a copy, or a request parsed here that nothing else holds). */
const deriveInto = (out: Record<string, unknown>, headers: Record<string, unknown>): Request => {
  const names: Array<string> = []
  const values: Array<unknown> = []
  for (const n in headers) {
    names.push(n)
    const v = headers[n]
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) values.push(v[i])
    else values.push(v)
  }
  const first = (n: string) => {
    const v = headers[n]
    return Array.isArray(v) ? v[0] : v
  }
  if (out["http.request.headers.names"] === undefined) out["http.request.headers.names"] = names
  if (out["http.request.headers.values"] === undefined) out["http.request.headers.values"] = values
  if (out["http.user_agent"] === undefined && headers["user-agent"] !== undefined)
    out["http.user_agent"] = first("user-agent")
  if (out["http.referer"] === undefined && headers["referer"] !== undefined) out["http.referer"] = first("referer")
  if (out["http.cookie"] === undefined && headers["cookie"] !== undefined) out["http.cookie"] = first("cookie")
  return out
}

/** A line of a traffic file that is not a request: its 1-based number and why. */
export interface LineProblem {
  readonly line: number
  readonly message: string
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`

/**
 * The lines a replay could not read, as every replay reports them (the CLI's `warning:` lines, the
 * TUI's): their count, then the first `first` of them with the reason, one a line.
 */
export const notReadLines = (problems: ReadonlyArray<LineProblem>, first = 3): ReadonlyArray<string> =>
  problems.length === 0
    ? []
    : [
        `${plural(problems.length, "line")} not read`,
        ...problems.slice(0, first).map((p) => `line ${p.line}: ${p.message}`)
      ]

/**
 * Why a replay compared nothing, or undefined when it replayed a request: a file of no usable line
 * proves nothing, so every replay fails on it with this message.
 */
export const noRequestProblem = (
  file: string,
  r: { readonly lines: number; readonly requests: number; readonly problems: ReadonlyArray<LineProblem> }
): string | undefined => {
  if (r.requests > 0) return undefined
  const p = r.problems[0]
  const why =
    p === undefined
      ? r.lines === 0
        ? "0 lines"
        : `${plural(r.lines, "line")}, only blank lines and comments`
      : `${plural(r.lines, "line")}, ${r.problems.length} not read: line ${p.line}: ${p.message}`
  return `${file}: no request to replay (${why})`
}

/** `METHOD host/path?query`, how a replay names a request. */
export const requestSummary = (r: Request) => {
  const method = typeof r["http.request.method"] === "string" ? r["http.request.method"] : "GET"
  const host = typeof r["http.host"] === "string" ? r["http.host"] : ""
  const path = typeof r["http.request.uri.path"] === "string" ? r["http.request.uri.path"] : "/"
  const query =
    typeof r["http.request.uri.query"] === "string" && r["http.request.uri.query"] !== ""
      ? `?${r["http.request.uri.query"]}`
      : ""
  return `${method} ${host}${path}${query}`
}

/** A line's time: milliseconds since 1970, or milliseconds after the previous request. */
type TrafficTime = { readonly abs: number } | { readonly rel: number }

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

/** `at` as a time, or the problem with it (named, with what is accepted and what was given). */
const parseTrafficTime = (v: unknown): Either.Either<TrafficTime, string> => {
  if (typeof v === "number" && Number.isFinite(v) && v >= 0) return Either.right({ abs: v })
  if (typeof v === "string") {
    const rel = /^\+(\d+(\.\d+)?)$/.exec(v)
    if (rel !== null) return Either.right({ rel: Number(rel[1]) })
    const t = ISO_TIME.test(v) ? Date.parse(v) : NaN
    if (!Number.isNaN(t)) return Either.right({ abs: t })
  }
  return Either.left(
    `at: expected an ISO time ("2026-11-28T08:00:00Z"), milliseconds since 1970 (>= 0) or "+ms" after the previous request, got ${JSON.stringify(v)}`
  )
}

/** A request's time from its own timestamp fields, when it gives them (ms since 1970). */
export const timestampOf = (r: Request): number | undefined => {
  const sec = r["http.request.timestamp.sec"]
  if (typeof sec !== "number") return undefined
  const ms = r["http.request.timestamp.msec"]
  return sec * 1000 + (typeof ms === "number" ? ms : 0)
}

/** A line's request, with its id and time when it gives them. */
interface TrafficLine {
  readonly request: Request
  readonly id?: string
  readonly at?: TrafficTime
}

/** The request of a line (with its time when it gives one) or the problem with it; undefined for a line to skip. */
export const parseTrafficLine = (text: string): Either.Either<TrafficLine, string> | undefined => {
  const t = text.trim()
  if (t === "" || t.startsWith("#")) return undefined
  let v: unknown
  try {
    v = JSON.parse(t)
  } catch (e) {
    return Either.left(`not JSON: ${(e as Error).message}`)
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    return Either.left("expected a JSON object (a request, or {id, request})")
  const o = v as Record<string, unknown>
  const wrapped = typeof o.request === "object" && o.request !== null && !Array.isArray(o.request)
  const given = (wrapped ? o.request : o) as Record<string, unknown>
  // `at` is the line's, not a field of the request: taken off before the request is checked.
  const atGiven = wrapped && o.at !== undefined ? o.at : given.at
  if ("at" in given) delete given.at
  const time = atGiven === undefined ? undefined : parseTrafficTime(atGiven)
  if (time !== undefined && Either.isLeft(time)) return Either.left(time.left)
  const at = time?.right
  // The request as given is checked once: when it is valid, so are the fields its headers imply (a
  // valid `http.request.headers` holds arrays of strings), which are then set on it in place (the
  // line's object is this call's own). Only a bad line is checked again with them, for the same
  // problems, in the same order, as a check of the whole request.
  let bad = validateRequest(given)
  const h = given["http.request.headers"]
  const hasHeaders = typeof h === "object" && h !== null && !Array.isArray(h)
  if (bad.length > 0 && hasHeaders) bad = validateRequest(withDerivedFields(given))
  if (bad.length > 0) return Either.left(bad.map((b) => `${b.field}: ${b.message}`).join("; "))
  const r = hasHeaders ? deriveInto(given, h as Record<string, unknown>) : given
  return Either.right({
    request: r,
    ...(wrapped && typeof o.id === "string" ? { id: o.id } : {}),
    ...(at !== undefined ? { at } : {})
  })
}
