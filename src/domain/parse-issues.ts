/**
 * A schema decoding failure as one line a person can act on: the field's JSON path, the type it
 * should have and the value it has (`rules[0].enabled: expected boolean, got "yes"`). effect's own
 * message prints the whole schema as a type (kilobytes for a configuration or an envelope) and
 * often not the field; every file, argument and answer decoded by a schema is described here.
 */
import { ArrayFormatter, type ParseError } from "effect/ParseResult"
import { clip } from "./clip.js"

/** `rules[0].action_parameters.id`; `(the document)` for the root. */
const jsonPath = (path: ReadonlyArray<PropertyKey>): string => {
  let out = ""
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`
    else {
      const key = String(p)
      out += /^[A-Za-z_$][\w$]*$/.test(key) ? `${out === "" ? "" : "."}${key}` : `[${JSON.stringify(key)}]`
    }
  }
  return out === "" ? "(the document)" : out
}

/** A schema's type as a reader names it: `an object`, `an array`, `string`, `"a" | "b"`. */
const typeName = (t: string): string => {
  const s = t.trim().replace(/^\((.*)\)$/s, "$1")
  if (s.startsWith("{")) return "an object"
  if (/^(Readonly)?Array<|^readonly \[|^ReadonlyArray</.test(s)) return "an array"
  if (s.startsWith("Record<") || s.startsWith("{ readonly [")) return "an object"
  // A union of objects says no more than "an object"; a union of literals is worth listing.
  if (s.includes(" | ") && s.split(" | ").every((p) => p.trim().startsWith("{"))) return "an object"
  return clip(s, 80)
}

/** The actual value as effect printed it (JSON for the most part), shortened. */
const valueText = (v: string): string => {
  const s = v.trim()
  if (s.startsWith("[")) return s === "[]" ? "an empty array" : `an array (${clip(s, 40)})`
  if (s.startsWith("{")) return `an object (${clip(s, 40)})`
  return clip(s, 60)
}

/** One issue's wording without its path. */
const wording = (message: string): string => {
  const expected = /^Expected ([\s\S]*), actual ([\s\S]*)$/.exec(message)
  if (expected) return `expected ${typeName(expected[1]!)}, got ${valueText(expected[2]!)}`
  if (/^is missing$/.test(message)) return "is missing"
  const unexpected = /^is unexpected, expected: ([\s\S]*)$/.exec(message)
  if (unexpected) return `is not a known field (expected one of ${clip(unexpected[1]!, 80)})`
  return clip(message.replace(/\s+/g, " "), 120)
}

/**
 * Every problem of a decoding failure, one per field, each `path: why` (an optional field's union
 * also reports "Expected undefined", which says nothing a user can use).
 */
const parseIssues = (e: ParseError): ReadonlyArray<{ readonly path: string; readonly message: string }> => {
  const all = ArrayFormatter.formatErrorSync(e)
  const useful = all.filter((i) => !i.message.startsWith("Expected undefined"))
  const seen = new Set<string>()
  const out: Array<{ path: string; message: string }> = []
  for (const i of useful.length > 0 ? useful : all) {
    const path = jsonPath(i.path)
    // The deepest issue of a field is the one that says what is wrong; its parents repeat it.
    if (seen.has(path) || out.some((o) => path !== "(the document)" && o.path.startsWith(path))) continue
    seen.add(path)
    out.push({ path, message: wording(i.message) })
  }
  return out
}

/** `rules[0].enabled: expected boolean, got "yes"` (and how many more fields are wrong). */
export const describeParseError = (e: ParseError): string => {
  const issues = parseIssues(e)
  const first = issues[0]
  if (first === undefined) return clip(e.message.replace(/\s+/g, " "), 200)
  const more = issues.length - 1
  return `${first.path}: ${first.message}${more > 0 ? ` (and ${more} more field${more === 1 ? "" : "s"})` : ""}`
}
