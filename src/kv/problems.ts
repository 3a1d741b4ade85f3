/**
 * KV problems as the platform's errors: one InvalidInput whose message lists the first problems
 * (entry, field, limit, actual size) and whose `meta.problems` carries all of them, structured, so
 * that a client can show each one where it belongs. Nothing was written when this is the answer.
 */
import { InvalidInput, NotFound } from "../domain/errors.js"
import { describeProblem, type Problem } from "./validate.js"

/** The v4 code of a problem's field (docs/differences.md): key 10022, value 10024, metadata 10030, else 1004. */
const codeOf = (p: Problem): number =>
  p.field === "key" ? 10022 : p.field === "value" ? 10024 : p.field === "metadata" ? 10030 : 1004

/** At most this many problems travel in `meta` (a file with 100,000 bad entries says so in its count). */
const MaxReportedProblems = 100

/** The summary line of a list of problems: how many entries are wrong, then the first three. */
export const summarize = (problems: ReadonlyArray<Problem>, outcome = "nothing was written"): string => {
  const shown = problems.slice(0, 3).map(describeProblem).join("; ")
  if (problems.every((p) => p.index === undefined)) return shown
  const entries = new Set(problems.map((p) => p.index)).size
  const rest = problems.length > 3 ? `; and ${problems.length - 3} more problem${problems.length === 4 ? "" : "s"}` : ""
  return `${entries} invalid ${entries === 1 ? "entry" : "entries"}, ${outcome}: ${shown}${rest}`
}

/** `outcome`: what the refusal means for the request (a read from a bad keys file reads nothing). */
export const problemsError = (problems: ReadonlyArray<Problem>, outcome?: string): InvalidInput =>
  new InvalidInput({
    code: codeOf(problems[0]!),
    message: summarize(problems, outcome),
    meta: { problems: problems.slice(0, MaxReportedProblems), count: problems.length }
  })

/** The structured problems an InvalidInput carries (from this platform), if any. */
export const problemsOf = (e: { readonly meta?: unknown }): ReadonlyArray<Problem> => {
  const m = e.meta as { problems?: unknown } | undefined
  return Array.isArray(m?.problems) ? (m.problems as ReadonlyArray<Problem>) : []
}

export const keyNotFound = (key: string) =>
  new NotFound({ code: 10009, message: `key not found: ${JSON.stringify(key)}` })

export const namespaceNotFound = (id: string) =>
  new NotFound({ code: 10013, message: `namespace not found: ${JSON.stringify(id)}` })
